// The mesh quantities of docs/bench_scenes.md shared by the query scenes (spheres, segments,
// mesh vs mesh), the mesh baked for flak, and a wall-clock timer.
#pragma once

#include "blob_write.h"
#include "bvh_build.h"
#include "flak_support/mesh_gen.h"
#include "prepare.h"

#include <flak/bvh/mesh_blob.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace flak::bench {

/// AABB of the vertices referenced by triangles (float values as read), c, diag, the query box Q.
struct SceneMesh {
    float lo[3] = {0, 0, 0};
    float hi[3] = {0, 0, 0};
    double c[3] = {0, 0, 0};
    double diag = 0.0;
    double q_lo[3] = {0, 0, 0};
    double q_hi[3] = {0, 0, 0};
};

inline SceneMesh sceneMesh(const test::Mesh& mesh) {
    SceneMesh s;
    bool first = true;
    for (std::uint32_t idx : mesh.indices) {
        const Vec3& p = mesh.positions[idx];
        for (int k = 0; k < 3; ++k) {
            if (first || p[k] < s.lo[k]) s.lo[k] = p[k];
            if (first || p[k] > s.hi[k]) s.hi[k] = p[k];
        }
        first = false;
    }
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) {
        const double lo = s.lo[k], hi = s.hi[k];
        s.c[k] = (lo + hi) / 2.0;
        d2 += (hi - lo) * (hi - lo);
        const double h = 1.1 * (hi - lo) / 2.0;
        s.q_lo[k] = s.c[k] - h;
        s.q_hi[k] = s.c[k] + h;
    }
    s.diag = std::sqrt(d2);
    return s;
}

/// How a scene bakes its mesh for flak: the baker's defaults unless the command says otherwise
/// (--vertices, --leaf-size, --node-cost, as flak_bake takes them).
struct SceneBake {
    bool quantized = false;
    bake::BuildOptions build;
};

/// The mesh baked as `how` says, zero-area triangles kept (docs/bench_scenes.md: they are part of
/// real data), in 16-byte aligned storage, and its in-place view.
struct BakedScene {
    std::vector<unsigned char> storage;
    MeshBlob blob;
    std::size_t bytes = 0;
};

inline bool bakeScene(const test::Mesh& mesh, const SceneBake& how, BakedScene& out) {
    bake::SourceMesh source;
    source.positions = mesh.positions;
    source.indices = mesh.indices;
    bake::PrepareOptions prepare;
    prepare.keep_degenerate = true;
    if (bake::BakeError e = bake::prepareMesh(source, prepare); e.failed()) {
        std::fprintf(stderr, "flak_bench: %s\n", e.message.c_str());
        return false;
    }
    const bake::BuiltTree tree = bake::buildBvh(source.positions, source.indices, how.build);
    bake::WriteOptions write;
    write.quantize_vertices = how.quantized;
    write.max_leaf = how.build.max_leaf;
    std::vector<unsigned char> bytes;
    if (bake::BakeError e = bake::writeBlob(source, tree, write, bytes); e.failed()) {
        std::fprintf(stderr, "flak_bench: %s\n", e.message.c_str());
        return false;
    }
    out.storage.assign(bytes.size() + 16, 0);
    const std::size_t shift = (16 - (reinterpret_cast<std::uintptr_t>(out.storage.data()) & 15u)) & 15u;
    std::memcpy(out.storage.data() + shift, bytes.data(), bytes.size());
    out.bytes = bytes.size();
    if (loadMeshBlob(out.storage.data() + shift, bytes.size(), out.blob) != Status::Ok) {
        std::fprintf(stderr, "flak_bench: the baked blob does not load\n");
        return false;
    }
    return true;
}

inline bool bakeScene(const test::Mesh& mesh, BakedScene& out) { return bakeScene(mesh, SceneBake{}, out); }

/// The mesh the peers are given: `mesh` itself, or with quantized vertices the triangles the blob
/// answers on (welded by prepareMesh, as the baker welds), so that every library answers the same
/// question.
inline test::Mesh peerMesh(const test::Mesh& mesh, const SceneBake& how, const MeshBlob& blob) {
    if (!how.quantized) return mesh;
    bake::SourceMesh decoded;
    for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
        Vec3 v[3];
        triangleVertices(blob, t, v[0], v[1], v[2]);
        for (const Vec3& p : v) {
            decoded.indices.push_back(static_cast<std::uint32_t>(decoded.positions.size()));
            decoded.positions.push_back(p);
        }
    }
    bake::PrepareOptions weld;
    weld.keep_degenerate = true;
    weld.max_abs_coordinate = kMaxBlobCoordinate; // the loader proved every vertex within it
    (void)bake::prepareMesh(decoded, weld);
    test::Mesh out;
    out.positions = std::move(decoded.positions);
    out.indices = std::move(decoded.indices);
    return out;
}

inline double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The peers a run measures (`--peers`): every one built in by default, else those named. Rows
/// that are not a peer's always run.
struct PeerChoice {
    bool all = true;
    std::string names; ///< ",embree,bullet," when not all: each name between commas
};
inline PeerChoice& peerChoice() {
    static PeerChoice choice;
    return choice;
}
/// The names `--peers` takes: the peers the scenes can have built in.
inline bool knownPeer(const std::string& name) {
    return name == "embree" || name == "bullet" || name == "fcl" || name == "gimpact";
}
/// Sets the choice from `--peers LIST` (comma-separated known names, or `none`); false, with the
/// choice unchanged, for an unknown name or an empty list.
inline bool choosePeers(const std::string& list) {
    PeerChoice choice;
    choice.all = false;
    choice.names = ",";
    if (list != "none") {
        std::size_t from = 0;
        for (;;) {
            const std::size_t comma = list.find(',', from);
            const std::string name =
                list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
            if (!knownPeer(name)) return false;
            choice.names += name + ",";
            if (comma == std::string::npos) break;
            from = comma + 1;
        }
    }
    peerChoice() = choice;
    return true;
}
/// Whether a row runs: every row that is not a peer's (flak's own, whatever its name) does.
inline bool peerChosen(const char* name) {
    const PeerChoice& c = peerChoice();
    return c.all || !knownPeer(name) || c.names.find("," + std::string(name) + ",") != std::string::npos;
}

/// One library's line of a query scene.
struct PeerResult {
    const char* name = "";
    long hits = -1; ///< -1: not run
    double seconds = 0.0;
};

/// Runs f (which returns the hit count) once and keeps the fastest time seen in `row` (the query
/// scenes interleave the libraries over several rounds and report each one's best round, which
/// is robust on a shared machine).
template <class F> void timeRound(PeerResult& row, F&& f) {
    if (!peerChosen(row.name)) return; // left out with --peers
    const auto t0 = std::chrono::steady_clock::now();
    const long hits = f();
    const double s = secondsSince(t0);
    if (row.hits < 0 || s < row.seconds) row.seconds = s;
    row.hits = hits;
}

/// Prints the scene's table (or one JSON object): hits, rate, and flak's speed ratio to each peer.
inline void printQueryScene(const char* scene, const std::string& mesh, std::size_t triangles, long count,
                            int rounds, const char* unit, const std::vector<PeerResult>& rows, bool json) {
    const PeerResult& flak_row = rows[0];
    if (json) {
        std::printf(
            "{\"scene\": \"%s\", \"mesh\": \"%s\", \"triangles\": %zu, \"queries\": %ld, \"rounds\": %d",
            scene, mesh.c_str(), triangles, count, rounds);
        for (const PeerResult& r : rows) {
            if (r.hits < 0) continue;
            std::printf(", \"%s_hits\": %ld, \"%s_seconds\": %.6f, \"%s_per_s\": %.1f", r.name, r.hits,
                        r.name, r.seconds, r.name, static_cast<double>(count) / r.seconds);
            if (&r != &flak_row)
                std::printf(", \"flak_speed_ratio_vs_%s\": %.3f, \"hits_equal_%s\": %s", r.name,
                            r.seconds / flak_row.seconds, r.name, r.hits == flak_row.hits ? "true" : "false");
        }
        std::printf("}\n");
        return;
    }
    std::printf("%s %s: %zu triangles, %ld %s, one core, best of %d rounds\n", scene, mesh.c_str(), triangles,
                count, unit, rounds);
    for (const PeerResult& r : rows) {
        if (!peerChosen(r.name)) continue;
        if (r.hits < 0) {
            std::printf("  %-8s not built in (install its -dev package and reconfigure)\n", r.name);
            continue;
        }
        std::printf("  %-8s hits %9ld  %9.3f ms  %10.3f k %s/s", r.name, r.hits, r.seconds * 1e3,
                    static_cast<double>(count) / r.seconds / 1e3, unit);
        if (&r != &flak_row)
            std::printf("   flak %.2fx %s  hits %s", r.seconds / flak_row.seconds, r.name,
                        r.hits == flak_row.hits ? "equal" : "DIFFER");
        std::printf("\n");
    }
}

} // namespace flak::bench
