#include "trees_scene.h"

#include "scene_mesh.h"
#include "scene_queries.h"

#include <flak/bvh/box_query.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/bvh/query_batch.h>
#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>
#include <flak/math/quat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

namespace flak::bench {

namespace {

// FNV-1a over 64-bit words: every answer of a query, in query order.
struct Digest {
    std::uint64_t h = 0xCBF29CE484222325ull;
    void add(std::uint64_t v) { h = (h ^ v) * 0x100000001B3ull; }
    void add(float f) {
        std::uint32_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        add(std::uint64_t{bits});
    }
    void add(const MeshRayHit& hit) {
        add(std::uint64_t{hit.triangle});
        add(hit.hit.t);
    }
    void add(const Vec3& v) {
        add(v.x);
        add(v.y);
        add(v.z);
    }
};

// A pair's hash for a sum that does not depend on the order the walk finds the pairs in.
std::uint64_t pairHash(const TrianglePair& p) {
    std::uint64_t x = (std::uint64_t{p.a} << 32 | p.b) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return x * 0xBF58476D1CE4E5B9ull;
}

// The inputs beside (b) and (c): per query k, the swept sphere is segment k with a quarter of
// sphere k's radius, the boxes are centred on sphere k with half extents its radius, the OBB
// turned by a Shoemake rotation (seed 0x5EED0005).
struct TreeQueries {
    std::vector<Sphere> spheres;
    std::vector<SceneSegment> segments;
    std::vector<Vec3> p0, p1, c0, c1;
    std::vector<float> sweep_radii;
    std::vector<Aabb> boxes;
    std::vector<Obb> obbs;
    std::vector<Pose> poses; ///< (d)'s, one for every 50 queries: copy B of the mesh against copy A
};

TreeQueries makeTreeQueries(const SceneMesh& s, long count) {
    TreeQueries q;
    q.spheres = makeSpheres(s, count);
    q.segments = makeSegments(s, count);
    test::SplitMix64 rng(0x5EED0005u);
    for (std::size_t k = 0; k < q.spheres.size(); ++k) {
        const Sphere& sp = q.spheres[k];
        q.p0.push_back(q.segments[k].p0);
        q.p1.push_back(q.segments[k].p1);
        q.sweep_radii.push_back(0.25f * sp.radius);
        Aabb box;
        const Vec3 half{sp.radius, sp.radius, sp.radius};
        sub(sp.center, half, box.min);
        add(sp.center, half, box.max);
        q.boxes.push_back(box);
        double quat[4];
        shoemake(rng, quat);
        Quat rot;
        set(static_cast<float>(quat[0]), static_cast<float>(quat[1]), static_cast<float>(quat[2]),
            static_cast<float>(quat[3]), rot);
        Obb obb;
        obb.center = sp.center;
        obb.halfExtents = half;
        toMat33(rot, obb.rotation);
        q.obbs.push_back(obb);
    }
    q.poses = makePoses(s, count / 50 > 0 ? count / 50 : 1);
    q.c0 = q.p0;
    q.c1 = q.p1;
    return q;
}

// Where the queries write their answers, made once.
struct Scratch {
    std::vector<MeshContact> contacts = std::vector<MeshContact>(4096);
    std::vector<std::uint32_t> ids = std::vector<std::uint32_t>(4096);
    std::vector<MeshRayHit> ray_hits;
    std::vector<TrianglePair> pairs = std::vector<TrianglePair>(1u << 16);
    std::unique_ptr<bool[]> hit;

    /// A batch's answers: the hits of the queries that hit.
    void addRayHits(std::uint32_t n, Digest& d) const {
        for (std::uint32_t k = 0; k < n; ++k)
            if (hit[k]) d.add(ray_hits[k]);
    }
};

// One query kind: runs every query against `blob`, folds the answers into `digest`, returns the
// number of queries (or, for the overlap queries, of triangles) that hit.
using RunQueries = std::function<long(const MeshBlob& blob, Digest& digest)>;

// A triangle-overlap query over `boxes`: every id it reports, in order.
template <class Box, class Query>
RunQueries overlapQueries(const std::vector<Box>& boxes, Scratch& w, Query query) {
    return [&boxes, &w, query](const MeshBlob& blob, Digest& d) {
        long hits = 0;
        for (const Box& box : boxes) {
            OutBuffer<std::uint32_t> out = OutBuffer<std::uint32_t>::over(w.ids.data(), 4096);
            if (query(blob, box, out) != Status::Ok) d.add(std::uint64_t{~0ull});
            for (std::uint32_t i = 0; i < out.count; ++i) d.add(std::uint64_t{out.items[i]});
            hits += out.count;
        }
        return hits;
    };
}

struct TreeRow {
    const char* query;
    RunQueries run;
    long hits[2] = {-1, -1};
    double seconds[2] = {0.0, 0.0};
    std::uint64_t digest[2] = {0, 0};
};

std::vector<TreeRow> treeRows(const TreeQueries& q, Scratch& w) {
    const std::uint32_t n = static_cast<std::uint32_t>(q.spheres.size());
    w.ray_hits.assign(n, MeshRayHit{});
    w.hit.reset(new bool[n]);
    Transform identity;
    setIdentity(identity);
    std::vector<TreeRow> rows;
    rows.push_back({"sphere any-hit", [&q](const MeshBlob& blob, Digest& d) {
                        long hits = 0;
                        for (const Sphere& s : q.spheres) {
                            const bool hit = sphereAnyHit(blob, s);
                            d.add(std::uint64_t{hit});
                            hits += hit ? 1 : 0;
                        }
                        return hits;
                    }});
    rows.push_back({"sphere all hits", [&q, &w](const MeshBlob& blob, Digest& d) {
                        long hits = 0;
                        for (const Sphere& s : q.spheres) {
                            OutBuffer<MeshContact> out =
                                OutBuffer<MeshContact>::over(w.contacts.data(), 4096);
                            if (sphereAllHits(blob, s, out) != Status::Ok) d.add(std::uint64_t{~0ull});
                            for (std::uint32_t i = 0; i < out.count; ++i)
                                d.add(std::uint64_t{out.items[i].triangle});
                            hits += out.count;
                        }
                        return hits;
                    }});
    rows.push_back({"sphere deepest hit", [&q](const MeshBlob& blob, Digest& d) {
                        long hits = 0;
                        for (const Sphere& s : q.spheres) {
                            MeshContact c;
                            if (!sphereDeepestHit(blob, s, c)) continue;
                            d.add(std::uint64_t{c.triangle});
                            d.add(c.contact.depth);
                            ++hits;
                        }
                        return hits;
                    }});
    rows.push_back({"segment closest-hit", [&q](const MeshBlob& blob, Digest& d) {
                        long hits = 0;
                        for (const SceneSegment& s : q.segments) {
                            MeshRayHit hit;
                            if (!segmentClosestHit(blob, s.p0, s.p1, hit)) continue;
                            d.add(hit);
                            ++hits;
                        }
                        return hits;
                    }});
    rows.push_back({"segment any-hit", [&q](const MeshBlob& blob, Digest& d) {
                        long hits = 0;
                        for (const SceneSegment& s : q.segments) {
                            MeshRayHit hit;
                            const bool any = segmentAnyHit(blob, s.p0, s.p1, hit);
                            d.add(std::uint64_t{any}); // which triangle may follow the tree
                            hits += any ? 1 : 0;
                        }
                        return hits;
                    }});
    rows.push_back({"swept sphere first hit", [&q](const MeshBlob& blob, Digest& d) {
                        long hits = 0;
                        for (std::size_t k = 0; k < q.c0.size(); ++k) {
                            MeshRayHit hit;
                            if (!sweptSphereFirstHit(blob, q.c0[k], q.c1[k], q.sweep_radii[k], hit)) continue;
                            d.add(hit);
                            ++hits;
                        }
                        return hits;
                    }});
    rows.push_back(
        {"AABB overlap",
         overlapQueries(q.boxes, w, [](const MeshBlob& blob, const Aabb& box, OutBuffer<std::uint32_t>& out) {
             return aabbOverlapTriangles(blob, box, out);
         })});
    rows.push_back(
        {"OBB overlap",
         overlapQueries(q.obbs, w, [](const MeshBlob& blob, const Obb& box, OutBuffer<std::uint32_t>& out) {
             return obbOverlapTriangles(blob, box, out);
         })});
    rows.push_back({"sphere any-hit batch", [&q, &w, n, identity](const MeshBlob& blob, Digest& d) {
                        bool* hit = w.hit.get();
                        const long hits = sphereAnyHitBatch(blob, identity, q.spheres.data(), n, hit);
                        for (std::uint32_t k = 0; k < n; ++k) d.add(std::uint64_t{hit[k]});
                        return hits;
                    }});
    rows.push_back({"segment closest-hit batch", [&q, &w, n, identity](const MeshBlob& blob, Digest& d) {
                        bool* hit = w.hit.get();
                        const long hits = segmentClosestHitBatch(blob, identity, q.p0.data(), q.p1.data(), n,
                                                                 w.ray_hits.data(), hit);
                        w.addRayHits(n, d);
                        return hits;
                    }});
    rows.push_back({"swept sphere batch", [&q, &w, n, identity](const MeshBlob& blob, Digest& d) {
                        bool* hit = w.hit.get();
                        const long hits =
                            sweptSphereFirstHitBatch(blob, identity, q.c0.data(), q.c1.data(),
                                                     q.sweep_radii.data(), n, w.ray_hits.data(), hit);
                        w.addRayHits(n, d);
                        return hits;
                    }});
    rows.push_back({"mesh vs mesh, all pairs", [&q, &w](const MeshBlob& blob, Digest& d) {
                        long pairs = 0;
                        for (const Pose& pose : q.poses) {
                            OutBuffer<TrianglePair> out =
                                OutBuffer<TrianglePair>::over(w.pairs.data(), 1u << 16);
                            if (meshMeshPairs(blob, blob, pose.b_to_a, out) != Status::Ok)
                                d.add(std::uint64_t{~0ull});
                            std::uint64_t sum = 0;
                            for (std::uint32_t i = 0; i < out.count; ++i) sum += pairHash(out.items[i]);
                            d.add(sum);
                            pairs += out.count;
                        }
                        return pairs;
                    }});
    rows.push_back({"mesh vs mesh, any contact", [&q](const MeshBlob& blob, Digest& d) {
                        long hits = 0;
                        for (const Pose& pose : q.poses) {
                            const bool any = meshMeshAnyContact(blob, blob, pose.b_to_a);
                            d.add(std::uint64_t{any});
                            hits += any ? 1 : 0;
                        }
                        return hits;
                    }});
    rows.push_back({"mesh vs mesh, summary", [&q](const MeshBlob& blob, Digest& d) {
                        long hits = 0;
                        for (const Pose& pose : q.poses) {
                            MeshContactSummary summary;
                            if (!meshMeshSummary(blob, blob, pose.b_to_a, summary)) continue;
                            d.add(std::uint64_t{summary.pair_count});
                            d.add(summary.point);
                            d.add(summary.normal_a);
                            d.add(summary.normal_b);
                            ++hits;
                        }
                        return hits;
                    }});
    return rows;
}

} // namespace

int runTreesScene(const std::string& name, const test::Mesh& mesh, long count, int rounds, bool json,
                  const std::string& only) {
    const SceneMesh s = sceneMesh(mesh);
    BakedScene baked[2];
    bake::WriteOptions write[2];
    write[1].wide_nodes = true;
    for (int t = 0; t < 2; ++t)
        if (!bakeScene(mesh, baked[t], write[t])) return 1;
    const TreeQueries queries = makeTreeQueries(s, count);
    Scratch scratch;
    std::vector<TreeRow> rows = treeRows(queries, scratch);
    if (!only.empty())
        rows.erase(std::remove_if(rows.begin(), rows.end(),
                                  [&](const TreeRow& row) {
                                      return std::string(row.query).find(only) == std::string::npos;
                                  }),
                   rows.end());
    for (int r = 0; r < rounds; ++r)
        for (TreeRow& row : rows)
            for (int i = 0; i < 2; ++i) {
                const int t = (r + i) % 2; // the trees take turns going first
                Digest digest;
                const auto t0 = std::chrono::steady_clock::now();
                const long hits = row.run(baked[t].blob, digest);
                const double seconds = secondsSince(t0);
                if (row.hits[t] < 0 || seconds < row.seconds[t]) row.seconds[t] = seconds;
                row.hits[t] = hits;
                row.digest[t] = digest.h;
            }
    bool all_equal = true;
    if (!json)
        std::printf("trees %s: %zu triangles, %ld queries, one core, best of %d rounds (ms)\n"
                    "  %-26s %10s %10s %10s %12s  %s\n",
                    name.c_str(), mesh.indices.size() / 3, count, rounds, "query", "hits", "binary", "wide",
                    "binary/wide", "answers");
    for (const TreeRow& row : rows) {
        const bool equal = row.hits[0] == row.hits[1] && row.digest[0] == row.digest[1];
        all_equal = all_equal && equal;
        const double speedup = row.seconds[0] / row.seconds[1];
        if (json)
            std::printf(
                "{\"scene\": \"trees\", \"query\": \"%s\", \"mesh\": \"%s\", \"queries\": %ld, \"rounds\": "
                "%d, \"hits\": %ld, \"binary_seconds\": %.6f, \"wide_seconds\": %.6f, "
                "\"wide_speedup\": %.3f, \"answers_equal\": %s}\n",
                row.query, name.c_str(), count, rounds, row.hits[0], row.seconds[0], row.seconds[1], speedup,
                equal ? "true" : "false");
        else
            std::printf("  %-26s %10ld %10.3f %10.3f %11.2fx  %s\n", row.query, row.hits[0],
                        row.seconds[0] * 1e3, row.seconds[1] * 1e3, speedup, equal ? "equal" : "DIFFER");
    }
    return all_equal ? 0 : 1;
}

} // namespace flak::bench
