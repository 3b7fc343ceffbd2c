#include "build_scene.h"

#include "blob_inspect.h"
#include "blob_write.h"
#include "bvh_build.h"
#include "prepare.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#if defined(FLAK_BENCH_EMBREE)
#include <embree3/rtcore.h>
#endif

namespace flak::bench {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

#if defined(FLAK_BENCH_EMBREE)
// Embree's BVH build of the same triangles on one thread (scene commit, default quality).
double embreeBuildSeconds(const test::Mesh& mesh, std::size_t& out_bytes) {
    RTCDevice device = rtcNewDevice("threads=1,set_affinity=0");
    RTCScene scene = rtcNewScene(device);
    RTCGeometry geom = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
    float* v = static_cast<float*>(rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                                           3 * sizeof(float), mesh.positions.size()));
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
        v[3 * i] = mesh.positions[i].x;
        v[3 * i + 1] = mesh.positions[i].y;
        v[3 * i + 2] = mesh.positions[i].z;
    }
    unsigned* idx = static_cast<unsigned*>(rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                                                   3 * sizeof(unsigned), mesh.triangleCount()));
    std::copy(mesh.indices.begin(), mesh.indices.end(), idx);
    rtcCommitGeometry(geom);
    rtcAttachGeometry(scene, geom);
    rtcReleaseGeometry(geom);
    const auto t0 = std::chrono::steady_clock::now();
    rtcCommitScene(scene);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out_bytes = 0; // Embree does not report its BVH size through the public API
    rtcReleaseScene(scene);
    rtcReleaseDevice(device);
    return s;
}
#endif

} // namespace

int runBuildScene(const std::string& name, const test::Mesh& mesh, int repeat, bool json) {
    bake::SourceMesh source;
    source.positions = mesh.positions;
    source.indices = mesh.indices;
    bake::PrepareOptions prepare;
    prepare.keep_degenerate = true; // BENCH_SCENES: zero-area triangles are part of real data
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
    std::vector<unsigned char> bytes;
    bake::writeBlob(source, tree, bake::WriteOptions{}, bytes);
    const double flak_s = median(flak_times);
    const double tris = static_cast<double>(source.triangleCount());
    double embree_s = 0.0;
#if defined(FLAK_BENCH_EMBREE)
    std::vector<double> embree_times;
    std::size_t embree_bytes = 0;
    for (int r = 0; r < repeat; ++r) embree_times.push_back(embreeBuildSeconds(mesh, embree_bytes));
    embree_s = median(embree_times);
#endif
    if (json) {
        std::printf("{\"scene\": \"build\", \"mesh\": \"%s\", \"triangles\": %.0f, \"flak_seconds\": %.6f, "
                    "\"flak_mtris_per_s\": %.3f, \"bytes\": %zu, \"bytes_per_triangle\": %.3f, "
                    "\"embree_seconds\": %.6f, \"embree_mtris_per_s\": %.3f, \"speed_ratio_vs_embree\": %.3f}\n",
                    name.c_str(), tris, flak_s, tris / flak_s / 1e6, bytes.size(), bytes.size() / tris, embree_s,
                    embree_s > 0 ? tris / embree_s / 1e6 : 0.0, embree_s > 0 ? embree_s / flak_s : 0.0);
    } else {
        std::printf("build %s: %.0f triangles, median of %d\n", name.c_str(), tris, repeat);
        std::printf("  flak    %8.3f ms  %6.2f M triangles/s  %zu bytes (%.2f per triangle)\n", flak_s * 1e3,
                    tris / flak_s / 1e6, bytes.size(), bytes.size() / tris);
        if (embree_s > 0)
            std::printf("  embree  %8.3f ms  %6.2f M triangles/s  (flak/embree speed %.2fx)\n", embree_s * 1e3,
                        tris / embree_s / 1e6, embree_s / flak_s);
        else
            std::printf("  embree  not built in (install libembree-dev and reconfigure)\n");
    }
    return 0;
}

} // namespace flak::bench
