// flak_bench — the shared benchmark scenes of docs/bench_scenes.md, flak and (when built with
// them) peer libraries measured in the same process on the same input.
//   flak_bench build --mesh PATH.obj [--repeat N] [--json]
//   flak_bench build --generate icosphere8 [--repeat N] [--json]
//   flak_bench tree [--frames N] [--rounds N] [--json]
//   flak_bench sphere|segment|meshmesh --mesh PATH.obj [--count N] [--repeat N] [--json]  (best of N rounds)
//       [--vertices exact|quantized] [--leaf-size N] [--node-cost C]  (the bake, as flak_bake takes them)
//   flak_bench shooter --mesh PATH.obj [--count N] [--repeat N] [--json]  (clusters, walls, beams, bullets)
//   build, sphere, segment and meshmesh take --peers LIST: the peers to measure (embree, bullet, fcl,
//   gimpact, comma-separated, or none); all that are built in by default.
#include "build_scene.h"
#include "flak_support/cli_number.h"
#include "flak_support/obj_mesh.h"
#if defined(FLAK_BENCH_IMPORT)
#include "import.h"
#endif
#include "meshmesh_scene.h"
#include "segment_scene.h"
#include "shooter_scene.h"
#include "sphere_scene.h"
#include "tree_scene.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int usage() {
    std::fprintf(
        stderr,
        "usage: flak_bench build (--mesh PATH.obj | --generate icosphereN) [--repeat N] [--json]\n"
        "       flak_bench tree [--frames N] [--rounds N] [--json]\n"
        "       flak_bench sphere|segment|meshmesh|shooter (--mesh PATH.obj | --generate "
        "icosphereN) [--count N] [--repeat N] [--json]\n"
        "       sphere, segment and meshmesh also take the bake's --vertices exact|quantized,\n"
        "       --leaf-size N (1..16) and --node-cost C, with flak_bake's defaults (the peers\n"
        "       are given the decoded triangles of a quantized bake)\n"
        "       build, sphere, segment and meshmesh take --peers LIST: the peers to measure\n"
        "       (embree, bullet, fcl, gimpact, comma-separated, or none; default: every one built in)\n"
        "--json prints one object per line: one per scene (meshmesh: pairs, then any contact)\n");
    return 2;
}

// An OBJ through the plain reader (zero-area triangles kept); other formats through the baker's
// importer where it is built in.
bool readMesh(const std::string& path, flak::test::Mesh& out) {
    std::string error;
    const bool obj = path.size() >= 4 && path.compare(path.size() - 4, 4, ".obj") == 0;
#if defined(FLAK_BENCH_IMPORT)
    if (!obj) {
        flak::bake::SourceMesh source;
        const flak::bake::BakeError e = flak::bake::importMesh(path, flak::bake::ImportOptions{}, source);
        if (e.failed()) {
            std::fprintf(stderr, "flak_bench: %s\n", e.message.c_str());
            return false;
        }
        out.positions = source.positions;
        out.indices = source.indices;
        return true;
    }
#endif
    if (!obj) error = path + ": not an OBJ (this build reads other formats only with Assimp)";
    if (!obj || !flak::bench::readObj(path, out, error)) {
        std::fprintf(stderr, "flak_bench: %s\n", error.c_str());
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string scene = argv[1];
    if (scene == "tree") {
        int frames = 600, rounds = 1;
        bool tree_json = false;
        for (int i = 2; i < argc; ++i) {
            const std::string a = argv[i];
            if ((a == "--frames" || a == "--rounds") && i + 1 < argc) {
                unsigned long long n = 0;
                if (!flak::support::parseWhole(argv[++i], 1, 1000000, n)) return usage();
                (a == "--frames" ? frames : rounds) = static_cast<int>(n);
            } else if (a == "--json")
                tree_json = true;
            else
                return usage();
        }
        return flak::bench::runTreeScene(frames, rounds, tree_json);
    }
    std::string mesh_path, generate;
    int repeat = 5;
    long count = -1;
    bool json = false;
    flak::bench::SceneBake how;
    std::uint32_t max_leaf = 0;  // 0: the vertex mode's default, as flak_bake
    float traversal_cost = 0.0f; // likewise
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--vertices" && i + 1 < argc) {
            const std::string m = argv[++i];
            if (m != "exact" && m != "quantized") return usage();
            how.quantized = m == "quantized";
        } else if (a == "--leaf-size" && i + 1 < argc) {
            double n = 0.0;
            if (!flak::support::parseNumber(argv[++i], 0.0, 64.0, n) || !flak::bake::validLeafSize(n))
                return usage();
            max_leaf = static_cast<std::uint32_t>(n);
        } else if (a == "--node-cost" && i + 1 < argc) {
            double c = 0.0; // checked before it is narrowed to float
            if (!flak::support::parseNumber(argv[++i], 0.0, 1e6, c) || !flak::bake::validNodeCost(c))
                return usage();
            traversal_cost = static_cast<float>(c);
        } else if (a == "--mesh" && i + 1 < argc)
            mesh_path = argv[++i];
        else if (a == "--generate" && i + 1 < argc)
            generate = argv[++i];
        else if (a == "--repeat" && i + 1 < argc) {
            unsigned long long n = 0;
            if (!flak::support::parseWhole(argv[++i], 1, 1000, n)) return usage();
            repeat = static_cast<int>(n);
        } else if (a == "--count" && i + 1 < argc) {
            unsigned long long n = 0;
            if (!flak::support::parseWhole(argv[++i], 1, 1000000000, n)) return usage();
            count = static_cast<long>(n);
        } else if (a == "--json")
            json = true;
        else if (a == "--peers" && i + 1 < argc) {
            if (!flak::bench::choosePeers(argv[++i])) return usage();
        } else
            return usage();
    }
    how.build = flak::bake::bakeBuildOptions(how.quantized, max_leaf, traversal_cost);
    flak::test::Mesh mesh;
    std::string name = mesh_path;
    if (!mesh_path.empty()) {
        if (!readMesh(mesh_path, mesh)) return 1;
    } else if (generate.rfind("icosphere", 0) == 0) {
        unsigned long long level = 0; // level 10: 20,971,520 triangles
        if (!flak::support::parseWhole(generate.c_str() + 9, 0, 10, level)) return usage();
        mesh = flak::test::icosphere(static_cast<int>(level));
        name = generate;
    } else {
        return usage();
    }
    if (scene == "build") return flak::bench::runBuildScene(name, mesh, repeat, json);
    if (scene == "sphere")
        return flak::bench::runSphereScene(name, mesh, how, count > 0 ? count : 1000000, repeat, json);
    if (scene == "segment")
        return flak::bench::runSegmentScene(name, mesh, how, count > 0 ? count : 1000000, repeat, json);
    if (scene == "meshmesh")
        return flak::bench::runMeshMeshScene(name, mesh, how, count > 0 ? count : 10000, repeat, json);
    if (scene == "shooter")
        return flak::bench::runShooterScene(name, mesh, count > 0 ? count : 10000, repeat, json);
    return usage();
}
