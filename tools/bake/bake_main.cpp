// flak_bake — meshes in, BVH blobs out.
//   flak_bake INPUT -o OUTPUT [options]     bake (prints a summary; --json for one JSON object)
//   flak_bake inspect BLOB [--json]         describe a blob
//   flak_bake verify BLOB                   runtime validation plus a deep self-check
#include "blob_inspect.h"
#include "blob_write.h"
#include "bvh_build.h"
#include "import.h"
#include "prepare.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace flak;
using namespace flak::bake;

const char* kUsage =
    "usage: flak_bake INPUT -o OUTPUT [options]\n"
    "       flak_bake inspect BLOB [--json]\n"
    "       flak_bake verify BLOB\n"
    "options:\n"
    "  --json               print one JSON object instead of the text summary\n"
    "  --scale S            multiply coordinates by S (after node transforms)\n"
    "  --axes A,B,C         output axes as signed input axes, e.g. x,-z,y (Y-up to Z-up)\n"
    "  --mesh NAME|INDEX    bake only this mesh (repeatable)\n"
    "  --node NAME          bake only this node's subtree\n"
    "  --leaf-size N        most triangles per leaf, 1..16 (default 8)\n"
    "  --node-cost C        SAH cost of a node visit relative to a triangle test (default 4)\n"
    "  --endian little|big  byte order of the blob (default: this machine's)\n"
    "  --keep-degenerate    keep zero-area triangles (default: drop and count them)\n"
    "  --max-coord X        reject coordinates beyond +-X (default 1e7)\n"
    "  --source-ids         store each triangle's original index (4 more bytes per triangle)\n"
    "  --quiet              no progress bar\n";

int usage(const char* problem) {
    std::fprintf(stderr, "flak_bake: %s\n%s", problem, kUsage);
    return 2;
}

int fail(const std::string& message) {
    std::fprintf(stderr, "flak_bake: error: %s\n", message.c_str());
    return 1;
}

bool readFile(const std::string& path, std::vector<unsigned char>& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

// A progress bar on a terminal only (stderr), so scripts and logs stay clean.
struct Progress {
    bool enabled = false;
    void phase(const char* name) {
        if (enabled) std::fprintf(stderr, "\r\033[K%s...", name);
    }
    void build(std::uint32_t done, std::uint32_t total) {
        if (!enabled) return;
        const int width = 40, filled = total ? static_cast<int>(std::uint64_t{done} * width / total) : width;
        std::fprintf(stderr, "\r\033[Kbuilding BVH [%.*s%*s] %3u%%", filled, "########################################",
                     width - filled, "", total ? static_cast<unsigned>(std::uint64_t{done} * 100 / total) : 100u);
    }
    void done() {
        if (enabled) std::fprintf(stderr, "\r\033[K");
    }
};

int runInspect(int argc, char** argv, bool verify) {
    if (argc < 3) return usage("missing BLOB");
    const std::string path = argv[2];
    bool json = argc > 3 && std::strcmp(argv[3], "--json") == 0;
    std::vector<unsigned char> bytes, storage;
    if (!readFile(path, bytes)) return fail("cannot read '" + path + "'");
    MeshBlob blob;
    BlobError error;
    bool foreign = false;
    const Status status = loadAnyOrder(bytes, storage, blob, error, foreign);
    if (status != Status::Ok)
        return fail("'" + path + "' is not a valid blob: " + statusName(status) + " (" + error.what + ", byte " +
                    std::to_string(error.offset) + ")");
    const bool big = foreign ? !(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) : (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
    if (!verify) {
        const BlobSummary s = summarize(blob, big);
        std::printf("%s\n", json ? toJson(s).c_str() : toText(s).c_str());
        return 0;
    }
    const std::vector<std::string> problems = deepVerify(blob);
    for (const std::string& p : problems) std::fprintf(stderr, "flak_bake: verify: %s\n", p.c_str());
    if (!problems.empty()) return fail("'" + path + "' failed the deep check");
    std::printf("%s: ok (%u triangles, %u nodes)\n", path.c_str(), blob.triangle_count, blob.node_count);
    return 0;
}

int runBake(int argc, char** argv) {
    std::string input, output;
    bool json = false, quiet = false;
    ImportOptions import_options;
    PrepareOptions prepare_options;
    BuildOptions build_options;
    WriteOptions write_options;
    write_options.big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char* name) -> const char* {
            if (i + 1 >= argc) {
                usage((std::string("missing value for ") + name).c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        auto number = [&](const char* name) {
            const char* v = value(name);
            char* end = nullptr;
            const double d = std::strtod(v, &end);
            if (end == v || *end != '\0' || !(d == d)) {
                usage((std::string("bad number for ") + name + ": " + v).c_str());
                std::exit(2);
            }
            return d;
        };
        if (a == "-o") output = value("-o");
        else if (a == "--json") json = true;
        else if (a == "--quiet") quiet = true;
        else if (a == "--scale") import_options.scale = number("--scale");
        else if (a == "--axes") {
            if (!parseAxes(value("--axes"), import_options.axes)) return usage("--axes wants three signed axes like x,-z,y");
        } else if (a == "--mesh") import_options.meshes.push_back(value("--mesh"));
        else if (a == "--node") import_options.node = value("--node");
        else if (a == "--leaf-size") {
            const double n = number("--leaf-size");
            if (n < 1 || n > 16 || n != static_cast<int>(n)) return usage("--leaf-size must be 1..16");
            build_options.max_leaf = static_cast<std::uint32_t>(n);
        } else if (a == "--node-cost") {
            build_options.traversal_cost = static_cast<float>(number("--node-cost"));
            if (!(build_options.traversal_cost > 0.0f) || build_options.traversal_cost > 1000.0f)
                return usage("--node-cost must be in (0, 1000]");
        } else if (a == "--endian") {
            const std::string e = value("--endian");
            if (e != "little" && e != "big") return usage("--endian must be little or big");
            write_options.big_endian = e == "big";
        } else if (a == "--keep-degenerate") prepare_options.keep_degenerate = true;
        else if (a == "--max-coord") prepare_options.max_abs_coordinate = number("--max-coord");
        else if (a == "--source-ids") write_options.source_ids = true;
        else if (!a.empty() && a[0] == '-') return usage(("unknown option " + a).c_str());
        else if (input.empty()) input = a;
        else return usage(("unexpected argument " + a).c_str());
    }
    if (input.empty()) return usage("missing INPUT");
    if (output.empty()) return usage("missing -o OUTPUT");
    if (!(import_options.scale > 0.0) || !std::isfinite(import_options.scale)) return usage("--scale must be positive");
    write_options.max_leaf = build_options.max_leaf;

    Progress progress;
    progress.enabled = !quiet && isatty(2);
    progress.phase("importing");
    SourceMesh mesh;
    if (BakeError e = importMesh(input, import_options, mesh); e.failed()) return progress.done(), fail(e.message);
    progress.phase("welding");
    if (BakeError e = prepareMesh(mesh, prepare_options); e.failed()) return progress.done(), fail(e.message);
    if (mesh.triangleCount() > kMaxBlobTriangles) return progress.done(), fail("more than 67,108,864 triangles");
    if (mesh.triangleCount() >= 200000) build_options.progress = [&](std::uint32_t d, std::uint32_t t) { progress.build(d, t); };
    const BuiltTree tree = buildBvh(mesh.positions, mesh.indices, build_options);
    progress.phase("writing");
    std::vector<unsigned char> bytes;
    if (BakeError e = writeBlob(mesh, tree, write_options, bytes); e.failed()) return progress.done(), fail(e.message);

    // Check what we wrote with the runtime's own loader before it reaches the disk.
    std::vector<unsigned char> storage;
    MeshBlob blob;
    BlobError error;
    bool foreign = false;
    if (loadAnyOrder(bytes, storage, blob, error, foreign) != Status::Ok)
        return progress.done(), fail(std::string("internal: the baked blob does not load: ") + error.what);

    // Never a partial blob: write a temporary file beside the output, then rename it into place.
    const std::string temp = output + ".tmp." + std::to_string(getpid());
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::remove(temp.c_str());
            return progress.done(), fail("cannot write '" + temp + "'");
        }
    }
    if (std::rename(temp.c_str(), output.c_str()) != 0) {
        std::remove(temp.c_str());
        return progress.done(), fail("cannot rename '" + temp + "' to '" + output + "'");
    }
    progress.done();
    BlobSummary s = summarize(blob, write_options.big_endian);
    s.build_seconds = tree.build_seconds;
    if (json) std::printf("%s\n", toJson(s).c_str());
    else std::printf("%s -> %s\n%sbuild            %.3f s (%.2f M triangles/s)\n", input.c_str(), output.c_str(),
                     toText(s).c_str(), tree.build_seconds,
                     tree.build_seconds > 0 ? mesh.triangleCount() / tree.build_seconds / 1e6 : 0.0);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage("missing arguments");
    if (std::strcmp(argv[1], "inspect") == 0) return runInspect(argc, argv, false);
    if (std::strcmp(argv[1], "verify") == 0) return runInspect(argc, argv, true);
    if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        std::printf("%s", kUsage);
        return 0;
    }
    return runBake(argc, argv);
}
