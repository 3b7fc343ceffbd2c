// flak_bake — meshes in, BVH blobs out.
//   flak_bake INPUT -o OUTPUT [options]     bake (prints a summary; --json for one JSON object)
//   flak_bake LEVEL.walls -o OUTPUT         bake a wall-only blob from a level file (docs/level_walls.md)
//   flak_bake inspect BLOB [--json]         describe a blob
//   flak_bake verify BLOB                   the loader's proof, then what it leaves out (tight boxes, ...)
#include "blob_inspect.h"
#include "blob_write.h"
#include "bvh_build.h"
#include "cluster_fit.h"
#include "flak_support/cli_number.h"
#include "flak_support/json_text.h"
#include "import.h"
#include "isolated_import.h"
#include "mesh_slice.h"
#include "output_file.h"
#include "prepare.h"
#include "wall_build.h"

#include <flak/bvh/blob_format.h>
#include <flak/shooter/wall_set.h>
#include <flak/version.h>

#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using flak::support::jsonText;

using namespace flak;
using namespace flak::bake;

const char* kUsage =
    "usage: flak_bake INPUT -o OUTPUT [options]\n"
    "       flak_bake LEVEL.walls -o OUTPUT [--json]   (a wall-only blob: no mesh options,\n"
    "                                                  docs/level_walls.md)\n"
    "       flak_bake inspect BLOB [--json]\n"
    "       flak_bake verify BLOB [--json]\n"
    "       flak_bake --version [--json]   (the tool's version and the blob format it writes)\n"
    "options:\n"
    "  --json               print one JSON object instead of the text summary (errors: one JSON\n"
    "                       object on stderr)\n"
    "  --scale S            multiply coordinates by S (after node transforms)\n"
    "  --axes A,B,C         output axes as signed input axes, e.g. x,-z,y (Y-up to Z-up)\n"
    "  --mesh NAME|INDEX    bake only this mesh (repeatable; a value that selects none is an error)\n"
    "  --node NAME          bake only this node's subtree\n"
    "  --leaf-size N        most triangles per leaf, 1..16 (default 8; 16 with quantized vertices)\n"
    "  --node-cost C        SAH cost of a node visit relative to a triangle test (default 4; 8 with\n"
    "                       quantized vertices)\n"
    "  --endian little|big  byte order of the blob (default: this machine's)\n"
    "  --vertices exact|quantized\n"
    "                       exact: float vertices as read (12 bytes each, the default); quantized:\n"
    "                       each vertex snapped to the mesh's 16-bit grid (6 bytes; --json and\n"
    "                       inspect print the grid step), and by default fewer, fuller nodes: the\n"
    "                       smallest blobs, slower queries (docs/performance.md)\n"
    "  --keep-degenerate    keep zero-area triangles (default: drop and count them)\n"
    "  --allow-empty        write the blob even when no triangle is left (default: an error)\n"
    "  --max-coord X        reject coordinates beyond +-X (default 1e7, at most 2^40 = 1.0995e12)\n"
    "  --source-ids         store each triangle's original index (4 more bytes per triangle) and\n"
    "                       keep its corners in the source's order (docs/blob_format.md)\n"
    "  --spheres N          fit a cluster of N spheres (8..64) to the mesh and store it\n"
    "  --walls LEVEL        add the wall set of a level file (docs/level_walls.md)\n"
    "  --slice-z Z          add the wall set of the mesh cut by the plane z = Z (after --axes/--scale)\n"
    "  --wall-leaf N        most edges per wall tree leaf, 1..8 (default 4)\n"
    "  --import-memory-mb N the importer's memory limit in MB (default 2048; 0: none)\n"
    "  --import-seconds N   the importer's time limit in seconds (default 120; 0: none)\n"
    "  --quiet              print nothing on success (warnings and errors still go to stderr)\n"
    "  --progress           report each phase on stderr as a line, terminal or not (default: a\n"
    "                       progress bar on a terminal only)\n";

// What this run reports errors as: one JSON object on stderr under --json, with the files named.
struct RunReport {
    bool json = false;
    std::string input, output;
};
RunReport g_report;

std::string jsonOrNull(const std::string& text) { return text.empty() ? "null" : jsonText(text); }

// The fields every JSON answer starts with: the tool, its version, the blob format it writes.
std::string jsonHead() {
    return std::string("\"tool\": \"flak_bake\", \"version\": \"") + FLAK_VERSION_STRING +
           "\", \"blob_format\": " + std::to_string(flak::kBlobVersion);
}

int usage(const std::string& problem) {
    if (g_report.json)
        std::fprintf(stderr, "{%s, \"usage_error\": %s}\n", jsonHead().c_str(), jsonText(problem).c_str());
    else
        std::fprintf(stderr, "flak_bake: %s\n%s", problem.c_str(), kUsage);
    return 2;
}

int fail(const std::string& message) {
    if (g_report.json)
        std::fprintf(stderr, "{%s, \"error\": %s, \"input\": %s, \"output\": %s}\n", jsonHead().c_str(),
                     jsonText(message).c_str(), jsonOrNull(g_report.input).c_str(),
                     jsonOrNull(g_report.output).c_str());
    else
        std::fprintf(stderr, "flak_bake: error: %s\n", message.c_str());
    return 1;
}

void warn(const std::string& message) {
    if (g_report.json)
        std::fprintf(stderr, "{%s, \"warning\": %s, \"input\": %s}\n", jsonHead().c_str(),
                     jsonText(message).c_str(), jsonOrNull(g_report.input).c_str());
    else
        std::fprintf(stderr, "flak_bake: warning: %s\n", message.c_str());
}

bool hasArg(int argc, char** argv, const char* arg) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], arg) == 0) return true;
    return false;
}

// The bake's options that take a value. The early --json scan steps over their values (so that
// `-o --json` names an output file and asks for no JSON), and the parser takes a value for these
// only.
const char* const kValueOptions[] = {"-o",
                                     "--scale",
                                     "--axes",
                                     "--mesh",
                                     "--node",
                                     "--leaf-size",
                                     "--node-cost",
                                     "--endian",
                                     "--vertices",
                                     "--max-coord",
                                     "--import-memory-mb",
                                     "--import-seconds",
                                     "--spheres",
                                     "--walls",
                                     "--slice-z",
                                     "--wall-leaf"};

bool takesValue(const char* option) {
    for (const char* v : kValueOptions)
        if (std::strcmp(option, v) == 0) return true;
    return false;
}

// --json among the bake's options, not as the value of another.
bool bakeWantsJson(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) return true;
        if (takesValue(argv[i])) ++i;
    }
    return false;
}

// Progress on stderr: a bar on a terminal by default (so scripts and logs stay clean), lines with
// --progress (for pipelines that log), nothing with --quiet.
struct Progress {
    enum class Mode { Off, Bar, Lines } mode = Mode::Off;
    int last_percent = -10; // so the first report (0%) is printed
    void phase(const std::string& name) {
        if (mode == Mode::Bar) std::fprintf(stderr, "\r\033[K%s...", name.c_str());
        if (mode == Mode::Lines) std::fprintf(stderr, "flak_bake: %s\n", name.c_str());
    }
    void build(std::uint32_t done, std::uint32_t total) {
        const int percent = total ? static_cast<int>(std::uint64_t{done} * 100 / total) : 100;
        if (mode == Mode::Lines) {
            if (percent / 10 == last_percent / 10) return; // a line every 10%
            last_percent = percent;
            std::fprintf(stderr, "flak_bake: building BVH %d%%\n", percent);
            return;
        }
        if (mode != Mode::Bar) return;
        const int width = 40, filled = total ? static_cast<int>(std::uint64_t{done} * width / total) : width;
        std::fprintf(stderr, "\r\033[Kbuilding BVH [%.*s%*s] %3d%%", filled,
                     "########################################", width - filled, "", percent);
    }
    void done() {
        if (mode == Mode::Bar) std::fprintf(stderr, "\r\033[K");
    }
};

bool endsWith(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

int finishBake(const std::vector<unsigned char>& bytes, const std::string& input, const std::string& output,
               bool json, bool quiet, bool big_endian, double build_seconds, const ClusterFit* fit,
               std::uint32_t triangles = 0);

// Why the mesh looks authored Y-up (flak's play plane is X-Y with Z up), or "": a glTF input (Y-up
// by its specification), or a mesh whose thinnest side is Y by a clear margin (shooters' ships
// and levels are flat in their play plane, so their thinnest side is Z).
std::string looksYUp(const std::string& input, const SourceMesh& mesh) {
    if (mesh.positions.empty()) return "";
    Vec3 lo = mesh.positions[0], hi = mesh.positions[0];
    for (const Vec3& p : mesh.positions)
        for (int k = 0; k < 3; ++k) {
            lo[k] = p[k] < lo[k] ? p[k] : lo[k];
            hi[k] = p[k] > hi[k] ? p[k] : hi[k];
        }
    const double x = double(hi.x) - lo.x, y = double(hi.y) - lo.y, z = double(hi.z) - lo.z;
    const bool gltf = endsWith(input, ".gltf") || endsWith(input, ".glb");
    const bool flat_in_y = y < 0.5 * z && y < x;
    if (!gltf && !flat_in_y) return "";
    char text[512];
    std::snprintf(text, sizeof text,
                  "'%s' looks Y-up (%sextent x %.4g, y %.4g, z %.4g): flak's play plane is X-Y with Z up; "
                  "--axes x,-z,y turns a Y-up mesh, --axes x,y,z keeps it as it is and silences this",
                  input.c_str(), gltf ? "glTF is Y-up by its specification; " : "", x, y, z);
    return text;
}

int runInspect(int argc, char** argv, bool verify) {
    // One BLOB and --json, in either order; anything else is a usage error (exit 2), never
    // silently ignored.
    g_report.json = hasArg(argc, argv, "--json");
    std::string path;
    bool json = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json")
            json = true;
        else if (!a.empty() && a[0] == '-')
            return usage("unknown option '" + a + "' for " + (verify ? "verify" : "inspect"));
        else if (path.empty())
            path = a;
        else
            return usage("more than one BLOB: '" + path + "' and '" + a + "'");
    }
    if (path.empty()) return usage("missing BLOB");
    g_report.input = path;
    std::vector<unsigned char> bytes, storage;
    if (const std::string why = readBlobFile(path, bytes); !why.empty()) return fail(why);
    Blob blob;
    BlobError error;
    bool foreign = false;
    const Status status = loadAnyOrder(bytes, storage, blob, error, foreign);
    if (status != Status::Ok)
        return fail("'" + path + "' is not a valid blob: " + statusName(status) + " (" + error.what +
                    ", byte " + std::to_string(error.offset) + ")");
    const bool big =
        foreign ? !(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) : (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
    if (!verify) {
        const BlobSummary s = summarize(blob, big);
        if (json)
            std::printf("{%s, \"input\": %s, %s\n", jsonHead().c_str(), jsonText(path).c_str(),
                        toJson(s).c_str() + 1);
        else
            std::printf("%s\n", toText(s).c_str());
        return 0;
    }
    const std::vector<std::string> problems = deepVerify(blob);
    MeshBlob mesh; // empty for a blob without a mesh
    (void)loadMeshBlob(blob, mesh);
    const bool has_walls = blobSection(blob, SectionKind::Walls).data != nullptr;
    if (json) { // one object on stdout, pass or fail; the exit status says which too
        std::string list;
        for (const std::string& p : problems) list += (list.empty() ? "" : ", ") + jsonText(p);
        std::printf("{%s, \"input\": %s, \"ok\": %s, \"triangles\": %u, \"nodes\": %u, \"walls\": %s, "
                    "\"problems\": [%s]}\n",
                    jsonHead().c_str(), jsonText(path).c_str(), problems.empty() ? "true" : "false",
                    mesh.triangle_count, mesh.wide_node_count, has_walls ? "true" : "false", list.c_str());
        return problems.empty() ? 0 : 1;
    }
    for (const std::string& p : problems) std::fprintf(stderr, "flak_bake: verify: %s\n", p.c_str());
    if (!problems.empty()) return fail("'" + path + "' failed the deep check");
    // What was checked beyond the loader's proof (blob_inspect.h: deepVerify).
    std::printf("%s: ok (%u triangles, %u nodes): loads; every box tight; build statistics match%s\n",
                path.c_str(), mesh.triangle_count, mesh.wide_node_count,
                has_walls ? "; walls a valid level" : "");
    return 0;
}

int runBake(int argc, char** argv) {
    std::string input, output;
    g_report.json = bakeWantsJson(argc, argv);
    bool json = false, quiet = false, progress_lines = false, allow_empty = false, axes_given = false;
    ImportOptions import_options;
    ImportLimits import_limits;
    PrepareOptions prepare_options;
    std::uint32_t max_leaf = 0;  // 0: the vertex mode's default
    float traversal_cost = 0.0f; // likewise
    WriteOptions write_options;
    write_options.big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
    ClusterFitOptions fit_options;
    bool fit_cluster = false;
    std::string walls_path;
    WallBuildOptions wall_options;
    bool wall_leaf_given = false; // refused without walls to shape
    double slice_z = 0.0;
    bool slice = false;
    std::string mesh_only; // the first mesh-only option given (a level-file input refuses it)
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char* name) -> const char* {
            if (!takesValue(name)) { // a value option missing from kValueOptions: the baker's own bug
                std::fprintf(stderr, "flak_bake: internal error: %s is not listed as taking a value\n", name);
                std::exit(70);
            }
            if (i + 1 >= argc) {
                usage(std::string("missing value for ") + name);
                std::exit(2);
            }
            return argv[++i];
        };
        auto number = [&](const char* name) {
            const char* v = value(name);
            double d = 0.0;
            if (!support::parseNumber(v, -DBL_MAX, DBL_MAX, d)) {
                usage(std::string("bad number for ") + name + ": " + v);
                std::exit(2);
            }
            return d;
        };
        // The options that shape a mesh, which a level-file input has none of.
        static const char* const kMeshOnly[] = {"--scale",
                                                "--axes",
                                                "--mesh",
                                                "--node",
                                                "--leaf-size",
                                                "--node-cost",
                                                "--vertices",
                                                "--keep-degenerate",
                                                "--allow-empty",
                                                "--source-ids",
                                                "--import-memory-mb",
                                                "--import-seconds",
                                                "--spheres",
                                                "--walls",
                                                "--slice-z"};
        for (const char* m : kMeshOnly)
            if (mesh_only.empty() && a == m) mesh_only = a;
        if (a == "-o")
            output = value("-o");
        else if (a == "--json")
            json = true;
        else if (a == "--quiet")
            quiet = true;
        else if (a == "--progress")
            progress_lines = true;
        else if (a == "--scale")
            import_options.scale = number("--scale");
        else if (a == "--axes") {
            if (!parseAxes(value("--axes"), import_options.axes))
                return usage("--axes wants three signed axes like x,-z,y");
            axes_given = true;
        } else if (a == "--mesh")
            import_options.meshes.push_back(value("--mesh"));
        else if (a == "--node")
            import_options.node = value("--node");
        else if (a == "--leaf-size") {
            const double n = number("--leaf-size");
            if (!bake::validLeafSize(n)) return usage("--leaf-size must be 1..16");
            max_leaf = static_cast<std::uint32_t>(n);
        } else if (a == "--node-cost") {
            const double c = number("--node-cost"); // checked before it is narrowed to float
            if (!bake::validNodeCost(c)) return usage("--node-cost must be in (0, 1000]");
            traversal_cost = static_cast<float>(c);
        } else if (a == "--endian") {
            const std::string e = value("--endian");
            if (e != "little" && e != "big") return usage("--endian must be little or big");
            write_options.big_endian = e == "big";
        } else if (a == "--vertices") {
            const std::string m = value("--vertices");
            if (m != "exact" && m != "quantized") return usage("--vertices must be exact or quantized");
            write_options.quantize_vertices = m == "quantized";
        } else if (a == "--keep-degenerate")
            prepare_options.keep_degenerate = true;
        else if (a == "--allow-empty")
            allow_empty = true;
        else if (a == "--import-memory-mb" || a == "--import-seconds") {
            const double n = number(a.c_str());
            if (n < 0 || n > 1048576 || n != static_cast<double>(static_cast<std::uint32_t>(n)))
                return usage(a + " must be a whole number from 0 to 1048576");
            (a == "--import-seconds" ? import_limits.seconds : import_limits.memory_mb) =
                static_cast<std::uint32_t>(n);
        } else if (a == "--max-coord") {
            prepare_options.max_abs_coordinate = number("--max-coord");
            if (!(prepare_options.max_abs_coordinate > 0.0) ||
                prepare_options.max_abs_coordinate > double(kMaxBlobCoordinate))
                return usage(
                    "--max-coord must be in (0, 1.0995e12]: 2^40 is the blob format's coordinate limit");
        } else if (a == "--source-ids")
            write_options.source_ids = true;
        else if (a == "--spheres") {
            const double n = number("--spheres");
            if (n < 8 || n > 64 || n != static_cast<int>(n)) return usage("--spheres must be 8..64");
            fit_options.spheres = static_cast<std::uint32_t>(n);
            fit_cluster = true;
        } else if (a == "--walls")
            walls_path = value("--walls");
        else if (a == "--slice-z") {
            slice_z = number("--slice-z");
            slice = true;
        } else if (a == "--wall-leaf") {
            const double n = number("--wall-leaf");
            if (n < 1 || n > kMaxWallLeafEdges || n != static_cast<int>(n))
                return usage("--wall-leaf must be 1..8");
            wall_options.max_leaf = static_cast<std::uint32_t>(n);
            wall_leaf_given = true;
        } else if (!a.empty() && a[0] == '-')
            return usage("unknown option " + a);
        else if (input.empty())
            input = a;
        else
            return usage("unexpected argument " + a);
    }
    if (input.empty()) return usage("missing INPUT");
    if (output.empty()) return usage("missing -o OUTPUT");
    if (quiet && progress_lines) return usage("--quiet and --progress: choose one");
    g_report.input = input;
    g_report.output = output;
    if (!(import_options.scale > 0.0) || !std::isfinite(import_options.scale))
        return usage("--scale must be positive");
    BuildOptions build_options = bakeBuildOptions(write_options.quantize_vertices, max_leaf, traversal_cost);
    write_options.max_leaf = build_options.max_leaf;
    wall_options.max_abs_coordinate = prepare_options.max_abs_coordinate;
    const bool level_input = isLevelFile(input);
    if (level_input && !mesh_only.empty()) return usage(mesh_only + " needs a mesh input");
    if (slice && !walls_path.empty()) return usage("--slice-z and --walls both give the walls: choose one");
    if (level_input) walls_path = input;
    if (wall_leaf_given && walls_path.empty() && !slice)
        return usage("--wall-leaf needs walls: a level input, --walls FILE or --slice-z Z");
    // Before any work: the output must be a new name or a regular file other than the inputs.
    if (const std::string why = refuseOutput(output, {input, walls_path}); !why.empty()) return fail(why);
    if (!walls_path.empty()) {
        std::vector<WallPolygon> polygons;
        if (BakeError e = readLevelFile(walls_path, polygons); e.failed()) return fail(e.message);
        if (BakeError e = buildWallSection(polygons, wall_options, write_options.walls); e.failed())
            return fail(walls_path + ": " + e.message);
    }
    if (level_input) {
        write_options.mesh = false;
        std::vector<unsigned char> bytes;
        if (BakeError e = writeBlob(SourceMesh{}, BuiltTree{}, write_options, bytes); e.failed())
            return fail(input + ": " + e.message);
        return finishBake(bytes, input, output, json, quiet, write_options.big_endian, 0.0, nullptr);
    }

    Progress progress;
    progress.mode = quiet            ? Progress::Mode::Off
                    : progress_lines ? Progress::Mode::Lines
                    : isatty(2)      ? Progress::Mode::Bar
                                     : Progress::Mode::Off;
    progress.phase("importing '" + input + "'");
    SourceMesh mesh;
    const auto import_start = std::chrono::steady_clock::now();
    const auto still_importing = [&progress](double seconds) {
        char line[64];
        std::snprintf(line, sizeof line, "importing: %.0f s", seconds);
        progress.phase(line);
    };
    if (BakeError e = importMeshIsolated(input, import_options, import_limits, mesh, still_importing);
        e.failed())
        return progress.done(), fail(e.message);
    {
        char line[160];
        std::snprintf(line, sizeof line, "imported %zu triangles from %zu meshes in %.2f s",
                      mesh.indices.size() / 3, mesh.mesh_names.size(),
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - import_start).count());
        progress.phase(line);
    }
    progress.phase("welding");
    if (BakeError e = prepareMesh(mesh, prepare_options); e.failed())
        return progress.done(), fail(input + ": " + e.message);
    if (!axes_given) {
        if (const std::string why = looksYUp(input, mesh); !why.empty()) {
            progress.done();
            warn(why);
        }
    }
    if (mesh.triangleCount() > kMaxBlobTriangles)
        return progress.done(), fail(input + ": more than 67,108,864 triangles");
    if (mesh.triangleCount() == 0 && !allow_empty) { // with --walls or --slice-z too: no silent empty mesh
        progress.done();
        if (mesh.source_triangles == 0)
            return fail(input + ": the input holds no triangles (--allow-empty writes an empty blob anyway)");
        return fail(input + ": no triangle left: all " + std::to_string(mesh.source_triangles) +
                    " have zero area" + (import_options.scale != 1.0 ? " after --scale" : "") +
                    " (--keep-degenerate keeps them; --allow-empty writes an empty blob)");
    }
    if (slice) {
        std::vector<WallPolygon> polygons;
        std::uint32_t flat_loops = 0;
        if (BakeError e = sliceMesh(mesh, slice_z, polygons, &flat_loops); e.failed())
            return progress.done(), fail(input + ": " + e.message);
        if (flat_loops > 0) {
            progress.done();
            warn(input + ": the slice at z = " + std::to_string(slice_z) + " left out " +
                 std::to_string(flat_loops) +
                 " loop(s) of no area (parts of no thickness there, such as faces back to back)");
        }
        if (BakeError e = buildWallSection(polygons, wall_options, write_options.walls); e.failed())
            return progress.done(), fail(input + ": the slice's polygons: " + e.message);
    }
    if (mesh.triangleCount() >= 200000 || progress.mode == Progress::Mode::Lines)
        build_options.progress = [&](std::uint32_t d, std::uint32_t t) { progress.build(d, t); };
    progress.phase("building BVH");
    const BuiltTree tree = buildBvh(mesh.positions, mesh.indices, build_options);
    progress.phase("writing");
    std::vector<unsigned char> bytes;
    if (BakeError e = writeBlob(mesh, tree, write_options, bytes); e.failed())
        return progress.done(), fail(input + ": " + e.message);

    ClusterFit fit;
    if (fit_cluster) {
        progress.phase("fitting spheres");
        std::vector<unsigned char> storage;
        Blob whole;
        MeshBlob plain;
        BlobError error;
        bool foreign = false;
        if (loadAnyOrder(bytes, storage, whole, error, foreign) != Status::Ok ||
            loadMeshBlob(whole, plain, &error) != Status::Ok)
            return progress.done(),
                   fail(std::string("internal: the baked blob does not load: ") + error.what);
        if (BakeError e = fitSphereCluster(mesh, plain, fit_options, fit); e.failed())
            return progress.done(), fail(input + ": " + e.message);
        if (fit.coverage_percent < 100.0)
            return progress.done(), fail("internal: the sphere cluster covers only " +
                                         std::to_string(fit.coverage_percent) + "%");
        write_options.cluster = fit.spheres;
        if (BakeError e = writeBlob(mesh, tree, write_options, bytes); e.failed())
            return progress.done(), fail(input + ": " + e.message);
    }
    progress.done();
    return finishBake(bytes, input, output, json, quiet, write_options.big_endian, tree.build_seconds,
                      fit_cluster ? &fit : nullptr, mesh.triangleCount());
}

int finishBake(const std::vector<unsigned char>& bytes, const std::string& input, const std::string& output,
               bool json, bool quiet, bool big_endian, double build_seconds, const ClusterFit* fit,
               std::uint32_t triangles) {
    // Check what we wrote with the runtime's own loader before it reaches the disk.
    std::vector<unsigned char> storage;
    Blob blob;
    BlobError error;
    bool foreign = false;
    if (loadAnyOrder(bytes, storage, blob, error, foreign) != Status::Ok)
        return fail(std::string("internal: the baked blob does not load: ") + error.what);

    // Never a partial blob, never a leftover: output_file.h. The output is checked again here
    // (it may have changed during the bake).
    if (const std::string why = refuseOutput(output, {input}); !why.empty()) return fail(why);
    if (const std::string why = writeWhole(output, bytes); !why.empty()) return fail(why);
    if (quiet) return 0; // a build step: nothing on success
    BlobSummary s = summarize(blob, big_endian);
    s.build_seconds = build_seconds;
    WallSet walls;
    const bool has_walls = loadWallSet(blob, walls) == Status::Ok;
    if (json) {
        std::string j = toJson(s);
        j.pop_back();
        j = "{" + jsonHead() + ", \"input\": " + jsonText(input) + ", \"output\": " + jsonText(output) +
            ", " + j.substr(1);
        char buf[512];
        if (has_walls) {
            std::snprintf(
                buf, sizeof buf,
                ", \"wall_polygons\": %u, \"wall_rings\": %u, \"wall_edges\": %u, \"wall_nodes\": %u",
                walls.polygon_count, walls.ring_count, walls.point_count, walls.node_count);
            j += buf;
        }
        if (fit != nullptr) {
            std::snprintf(buf, sizeof buf,
                          ", \"cluster_spheres\": %zu, \"coverage_percent\": %.4f, \"max_overshoot\": %.6g, "
                          "\"volume_ratio\": %.4f, \"mesh_volume\": %.6g, \"cluster_volume\": %.6g, "
                          "\"cluster_samples\": %u, "
                          "\"coverage_points\": %u",
                          fit->spheres.size(), fit->coverage_percent, fit->max_overshoot, fit->volume_ratio,
                          fit->mesh_volume, fit->union_volume, fit->samples, fit->coverage_points);
            j += buf;
        }
        std::printf("%s}\n", j.c_str());
    } else {
        std::printf("%s -> %s\n%s", input.c_str(), output.c_str(), toText(s).c_str());
        if (triangles > 0)
            std::printf("build            %.3f s (%.2f M triangles/s)\n", build_seconds,
                        build_seconds > 0 ? triangles / build_seconds / 1e6 : 0.0);
        if (has_walls)
            std::printf("walls            %u polygons, %u rings, %u edges, %u nodes\n", walls.polygon_count,
                        walls.ring_count, walls.point_count, walls.node_count);
        if (fit != nullptr)
            std::printf(
                "sphere cluster   %zu spheres, coverage %.2f%%, max overshoot %.4g, volume ratio %.3f\n",
                fit->spheres.size(), fit->coverage_percent, fit->max_overshoot, fit->volume_ratio);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage("missing arguments");
    if (std::strcmp(argv[1], "inspect") == 0) return runInspect(argc, argv, false);
    if (std::strcmp(argv[1], "verify") == 0) return runInspect(argc, argv, true);
    if (std::strcmp(argv[1], "--version") == 0) {
        const bool json = argc == 3 && std::strcmp(argv[2], "--json") == 0;
        if (argc > 3 || (argc == 3 && !json)) return usage("--version takes only --json");
        if (json)
            std::printf("{\"tool\":\"flak_bake\",\"version\":\"%s\",\"blob_format\":%u}\n",
                        FLAK_VERSION_STRING, static_cast<unsigned>(flak::kBlobVersion));
        else
            std::printf("flak_bake %s (blob format %u)\n", FLAK_VERSION_STRING,
                        static_cast<unsigned>(flak::kBlobVersion));
        return 0;
    }
    if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        std::printf("%s", kUsage);
        return 0;
    }
    return runBake(argc, argv);
}
