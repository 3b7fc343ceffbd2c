#include "build_scene.h"

#include "blob_inspect.h"
#include "blob_write.h"
#include "bvh_build.h"
#include "prepare.h"
#include "scene_mesh.h"
#include "scene_peers.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace flak::bench {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

#if defined(FLAK_BENCH_EMBREE)
// Embree's BVH build of the same triangles on one thread (scene commit, default quality).
double embreeBuildSeconds(const test::Mesh& mesh) { return EmbreeMesh(mesh).commit_seconds; }
#endif

} // namespace

int runBuildScene(const std::string& name, const test::Mesh& mesh, int repeat, bool json) {
    bake::SourceMesh source;
    source.positions = mesh.positions;
    source.indices = mesh.indices;
    bake::PrepareOptions prepare;
    prepare.keep_degenerate = true; // docs/bench_scenes.md: zero-area triangles are part of real data
    if (bake::BakeError e = bake::prepareMesh(source, prepare); e.failed()) {
        std::fprintf(stderr, "flak_bench: %s\n", e.message.c_str());
        return 1;
    }
    std::vector<double> flak_times;
    bake::BuiltTree tree;
    for (int r = 0; r < repeat; ++r) {
        tree = bake::buildBvh(source.positions, source.indices, bake::BuildOptions{});
        flak_times.push_back(tree.build_seconds);
    }
    // Writing the blob: the boxes quantized, the tree collapsed into wide nodes, the vertex windows.
    std::vector<unsigned char> bytes;
    std::vector<double> write_times;
    for (int r = 0; r < repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        bake::writeBlob(source, tree, bake::WriteOptions{}, bytes);
        write_times.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    const double flak_s = median(flak_times), write_s = median(write_times);
    const double tris = static_cast<double>(source.triangleCount());
    double embree_s = 0.0;
#if defined(FLAK_BENCH_EMBREE)
    if (peerChosen("embree")) {
        std::vector<double> embree_times;
        for (int r = 0; r < repeat; ++r) embree_times.push_back(embreeBuildSeconds(mesh));
        embree_s = median(embree_times);
    }
#endif
    if (json) {
        std::printf(
            "{\"scene\": \"build\", \"mesh\": \"%s\", \"triangles\": %.0f, \"flak_seconds\": %.6f, "
            "\"flak_mtris_per_s\": %.3f, \"write_seconds\": %.6f, \"bytes\": %zu, \"bytes_per_triangle\": "
            "%.3f, "
            "\"embree_seconds\": %.6f, \"embree_mtris_per_s\": %.3f, \"speed_ratio_vs_embree\": %.3f}\n",
            name.c_str(), tris, flak_s, tris / flak_s / 1e6, write_s, bytes.size(),
            static_cast<double>(bytes.size()) / tris, embree_s, embree_s > 0 ? tris / embree_s / 1e6 : 0.0,
            embree_s > 0 ? embree_s / flak_s : 0.0);
    } else {
        std::printf("build %s: %.0f triangles, median of %d\n", name.c_str(), tris, repeat);
        std::printf("  flak    %8.3f ms  %6.2f M triangles/s  %zu bytes (%.2f per triangle)\n", flak_s * 1e3,
                    tris / flak_s / 1e6, bytes.size(), static_cast<double>(bytes.size()) / tris);
        std::printf("  write   %8.3f ms  (boxes quantized, wide nodes collapsed, vertex windows)\n",
                    write_s * 1e3);
        if (embree_s > 0)
            std::printf("  embree  %8.3f ms  %6.2f M triangles/s  (flak/embree speed %.2fx)\n",
                        embree_s * 1e3, tris / embree_s / 1e6, embree_s / flak_s);
        else if (peerChosen("embree"))
            std::printf("  embree  not built in (install libembree-dev and reconfigure)\n");
    }
    return 0;
}

} // namespace flak::bench
