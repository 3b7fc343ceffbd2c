#include "shooter_scene.h"

#include "cluster_fit.h"
#include "flak_support/split_mix.h"
#include "scene_mesh.h"
#include "scene_peers.h"
#include "wall_build.h"

#include <flak/bvh/mesh_mesh.h>
#include <flak/shooter/beam.h>
#include <flak/shooter/swept_bullet.h>

#include <algorithm>
#include <array>
#include <memory>

namespace flak::bench {

namespace {

Transform randomPose(test::SplitMix64& rng, const double c[3], const double extent[3], double spread) {
    const double pi = 3.14159265358979323846;
    const double u1 = rng.u(), u2 = rng.u(), u3 = rng.u();
    Quat q;
    set(float(std::sqrt(1 - u1) * std::sin(2 * pi * u2)), float(std::sqrt(1 - u1) * std::cos(2 * pi * u2)),
        float(std::sqrt(u1) * std::sin(2 * pi * u3)), float(std::sqrt(u1) * std::cos(2 * pi * u3)), q);
    Transform t;
    Vec3 shift{float(c[0] + (2 * rng.u() - 1) * spread * extent[0]),
               float(c[1] + (2 * rng.u() - 1) * spread * extent[1]),
               float(c[2] + (2 * rng.u() - 1) * spread * extent[2])};
    fromQuatTranslation(q, shift, t);
    // Rotate about the mesh centre: x' = R (x - c) + shift.
    Vec3 rc;
    const Vec3 cc{float(c[0]), float(c[1]), float(c[2])};
    transformVector(t, cc, rc);
    sub(t.translation, rc, t.translation);
    return t;
}

// A level: cells x cells star polygons (concave, half with a hole) of size `cell`.
std::vector<bake::WallPolygon> level(test::SplitMix64& rng, int cells, double cell) {
    std::vector<bake::WallPolygon> out;
    const double step = 2.0 * 3.14159265358979323846;
    auto star = [&](int n, double cx, double cy, double lo, double hi) {
        std::vector<Vec2> ring;
        for (int k = 0; k < n; ++k) {
            const double a = step / n * (k + rng.range(-0.4, 0.4)), r = rng.range(lo, hi);
            ring.push_back(Vec2{float(cx + r * std::cos(a)), float(cy + r * std::sin(a))});
        }
        return ring;
    };
    for (int i = 0; i < cells; ++i)
        for (int j = 0; j < cells; ++j) {
            bake::WallPolygon p;
            const double cx = (i + 0.5) * cell, cy = (j + 0.5) * cell;
            p.rings.push_back(star(8 + int(rng.u() * 12), cx, cy, 0.2 * cell, 0.45 * cell));
            if (rng.u() < 0.5) p.rings.push_back(star(6, cx, cy, 0.04 * cell, 0.1 * cell));
            out.push_back(std::move(p));
        }
    return out;
}

struct Row {
    const char* name;
    long hits = -1;
    double seconds = 0.0;
    long count = 0;
};

template <class F> void timeRow(Row& row, long count, F&& f) {
    PeerResult r;
    timeRound(r, f);
    if (row.hits < 0 || r.seconds < row.seconds) row.seconds = r.seconds;
    row.hits = r.hits;
    row.count = count;
}

// Everything the rows query, made once and never moved (the cluster, the wall set and the shot
// targets point into it): the ship and its cluster, the posed enemies, the wall level with its
// queries, bullets, beams, and the rows' output buffers.
struct ShooterScene {
    ShooterScene() = default;
    ShooterScene(const ShooterScene&) = delete;
    ShooterScene& operator=(const ShooterScene&) = delete;

    BakedScene baked;
    bake::ClusterFit fit;
    SphereCluster ship;
    SceneMesh s;
    double extent[3] = {0, 0, 0};
    Transform identity;
    std::vector<Transform> poses, relative; // enemy B = poses[k]; relative: ship (mesh A at identity) vs B

    std::vector<unsigned char> wall_storage;
    Blob wall_blob;
    WallSet walls;
    struct LevelQuery {
        Vec2 a, b;
        float r;
        Transform pose;
    };
    std::vector<LevelQuery> qs; // circles, segments, sweeps, cluster placements in the level

    std::vector<Sphere> bullets;
    std::vector<MeshTarget> mesh_targets;
    std::vector<ClusterTarget> cluster_targets;
    WallTarget wall_target;
    ShotTargets targets;
    std::vector<std::array<Vec3, 33>> beams;

    std::vector<ClusterPair> pair_items = std::vector<ClusterPair>(1u << 16);
    std::vector<MeshContact> contact_items = std::vector<MeshContact>(1u << 16);
    std::vector<std::uint32_t> contact_ids = std::vector<std::uint32_t>(1u << 16);
    std::vector<TrianglePair> tri_pairs = std::vector<TrianglePair>(1u << 22);
    std::vector<WallContact> wall_items = std::vector<WallContact>(4096);
};

// The ship: the mesh baked with a 29-sphere cluster.
bool makeShip(const test::Mesh& mesh, ShooterScene& sc) {
    if (!bakeScene(mesh, sc.baked)) return false;
    bake::SourceMesh prepared;
    prepared.positions = mesh.positions;
    prepared.indices = mesh.indices;
    if (bake::prepareMesh(prepared, bake::PrepareOptions{}).failed()) return false;
    bake::ClusterFitOptions fit_options;
    fit_options.spheres = 29;
    if (bake::BakeError e = bake::fitSphereCluster(prepared, sc.baked.blob, fit_options, sc.fit);
        e.failed()) {
        std::fprintf(stderr, "flak_bench: %s\n", e.message.c_str());
        return false;
    }
    return makeSphereCluster(sc.fit.spheres.data(), std::uint32_t(sc.fit.spheres.size()), sc.ship) ==
           Status::Ok;
}

// The enemies: the same mesh at `count` random poses about its centre.
void makePoses(const test::Mesh& mesh, long count, test::SplitMix64& rng, ShooterScene& sc) {
    sc.s = sceneMesh(mesh);
    for (int k = 0; k < 3; ++k) sc.extent[k] = double(sc.s.hi[k]) - sc.s.lo[k];
    sc.poses.resize(static_cast<std::size_t>(count));
    sc.relative.resize(sc.poses.size());
    setIdentity(sc.identity);
    for (std::size_t k = 0; k < sc.poses.size(); ++k) {
        sc.poses[k] = randomPose(rng, sc.s.c, sc.extent, 1.35);
        flak::relative(sc.identity, sc.poses[k], sc.relative[k]);
    }
}

// The wall level: 16 x 16 cells of 10 units, baked to a wall-only blob and loaded.
bool makeLevel(ShooterScene& sc) {
    test::SplitMix64 lrng(0x1E7E1u);
    std::vector<bake::WallPolygon> polys = level(lrng, 16, 10.0);
    bake::WriteOptions write;
    write.mesh = false;
    if (bake::buildWallSection(polys, bake::WallBuildOptions{}, write.walls).failed()) return false;
    std::vector<unsigned char> raw;
    if (bake::writeBlob(bake::SourceMesh{}, bake::BuiltTree{}, write, raw).failed()) return false;
    sc.wall_storage.resize(raw.size() + 16);
    unsigned char* wall_bytes =
        sc.wall_storage.data() +
        ((16 - (reinterpret_cast<std::uintptr_t>(sc.wall_storage.data()) & 15u)) & 15u);
    std::memcpy(wall_bytes, raw.data(), raw.size());
    return openBlob(wall_bytes, raw.size(), sc.wall_blob) == Status::Ok &&
           loadWallSet(sc.wall_blob, sc.walls) == Status::Ok;
}

// Queries in the level (circles, segments, sweeps, cluster placements at the query point, the
// cluster at the mesh's own size) and the bullets around the mesh.
void makeQueries(long count, test::SplitMix64& rng, ShooterScene& sc) {
    const float level_size = 160.0f;
    sc.qs.resize(static_cast<std::size_t>(count));
    for (ShooterScene::LevelQuery& q : sc.qs) {
        q.a = Vec2{rng.rangef(0, level_size), rng.rangef(0, level_size)};
        const float ang = rng.rangef(0, 6.2831853), len = rng.rangef(0, 20);
        q.b = Vec2{q.a.x + len * std::cos(ang), q.a.y + len * std::sin(ang)};
        q.r = rng.rangef(0.2, 2.0);
        const double c[3] = {q.a.x, q.a.y, 0.0};
        const double e[3] = {0, 0, 0};
        q.pose = randomPose(rng, c, e, 0.0);
    }
    sc.bullets.resize(256);
    for (Sphere& b : sc.bullets) {
        set(float(sc.s.c[0] + (2 * rng.u() - 1) * sc.extent[0]),
            float(sc.s.c[1] + (2 * rng.u() - 1) * sc.extent[1]),
            float(sc.s.c[2] + (2 * rng.u() - 1) * sc.extent[2]), b.center);
        b.radius = float(0.02 * sc.s.diag);
    }
}

// Beam and bullet targets (the mesh at 4 poses, the walls, 4 ships) and the beams.
void makeShotTargets(long count, test::SplitMix64& rng, ShooterScene& sc) {
    for (int k = 0; k < 4; ++k) {
        sc.mesh_targets.push_back(
            {&sc.baked.blob, sc.poses[std::size_t(k) % sc.poses.size()], std::uint32_t(k)});
        sc.cluster_targets.push_back(
            {&sc.ship, sc.poses[std::size_t(k + 4) % sc.poses.size()], std::uint32_t(k)});
    }
    sc.wall_target = WallTarget{&sc.walls, 0};
    sc.targets = ShotTargets{sc.mesh_targets.data(), 4, &sc.wall_target, 1, sc.cluster_targets.data(), 4};
    sc.beams.resize(static_cast<std::size_t>(std::max(1L, count / 32)));
    for (auto& b : sc.beams) {
        Vec3 ctrl[4];
        for (Vec3& c : ctrl)
            set(float(sc.s.c[0] + (2 * rng.u() - 1) * 2 * sc.extent[0]),
                float(sc.s.c[1] + (2 * rng.u() - 1) * 2 * sc.extent[1]),
                float(sc.s.c[2] + (2 * rng.u() - 1) * 2 * sc.extent[2]), c);
        (void)sampleBeam(ctrl, 4, BeamCurve::CatmullRom, 32, b.data(), 33);
    }
}

enum RowIndex { kClusterMeshAny, kMeshMeshAny, kClusterMeshContacts, kMeshMeshPairs, kRowCount = 14 };

// One round of the ship rows: clusters against the mesh, clusters, bullets and segments, and the
// mesh-mesh queries they are compared with.
void timeShipRows(ShooterScene& sc, Row* rows, long n) {
    timeRow(rows[0], n, [&] {
        long hits = 0;
        for (const Transform& p : sc.poses)
            hits += clusterMeshAnyHit(sc.ship, sc.identity, sc.baked.blob, p) ? 1 : 0;
        return hits;
    });
    timeRow(rows[1], n, [&] {
        long hits = 0;
        for (const Transform& r : sc.relative)
            hits += meshMeshAnyContact(sc.baked.blob, sc.baked.blob, r) ? 1 : 0;
        return hits;
    });
    timeRow(rows[2], n, [&] {
        long hits = 0;
        for (const Transform& p : sc.poses) {
            ClusterMeshBuffer out{
                OutBuffer<MeshContact>::over(sc.contact_items.data(), std::uint32_t(sc.contact_items.size())),
                sc.contact_ids.data()};
            (void)clusterMeshContacts(sc.ship, sc.identity, sc.baked.blob, p, out);
            hits += out.hits.count + out.hits.dropped;
        }
        return hits;
    });
    timeRow(rows[3], n, [&] {
        long hits = 0;
        for (const Transform& r : sc.relative) {
            auto out = OutBuffer<TrianglePair>::over(sc.tri_pairs.data(), std::uint32_t(sc.tri_pairs.size()));
            (void)meshMeshPairs(sc.baked.blob, sc.baked.blob, r, out);
            hits += out.count + out.dropped;
        }
        return hits;
    });
    timeRow(rows[4], n, [&] {
        long hits = 0;
        for (const Transform& p : sc.poses) {
            auto out =
                OutBuffer<ClusterPair>::over(sc.pair_items.data(), std::uint32_t(sc.pair_items.size()));
            (void)clusterClusterPairs(sc.ship, sc.identity, sc.ship, p, out);
            hits += out.count + out.dropped;
        }
        return hits;
    });
    timeRow(rows[5], n, [&] {
        long hits = 0;
        for (const Transform& p : sc.poses) {
            auto out =
                OutBuffer<ClusterPair>::over(sc.pair_items.data(), std::uint32_t(sc.pair_items.size()));
            (void)clusterBullets(sc.ship, p, sc.bullets.data(), std::uint32_t(sc.bullets.size()), out);
            hits += out.count + out.dropped;
        }
        return hits;
    });
    timeRow(rows[6], n, [&] {
        long hits = 0;
        for (std::size_t k = 0; k < sc.poses.size(); ++k) {
            ClusterRayHit h;
            const Vec3& a = sc.bullets[k % 256].center;
            const Vec3& b = sc.bullets[(k * 7 + 3) % 256].center;
            hits += segmentClusterFirstHit(sc.ship, sc.poses[k], a, b, h) ? 1 : 0;
        }
        return hits;
    });
}

// One round of the wall rows.
void timeWallRows(ShooterScene& sc, Row* rows, long n) {
    timeRow(rows[7], n, [&] {
        long hits = 0;
        for (const ShooterScene::LevelQuery& q : sc.qs) {
            auto out =
                OutBuffer<WallContact>::over(sc.wall_items.data(), std::uint32_t(sc.wall_items.size()));
            WallPush push;
            (void)circleWalls(sc.walls, q.a, q.r, out, push);
            hits += push.contact_count > 0 ? 1 : 0;
        }
        return hits;
    });
    timeRow(rows[8], n, [&] {
        long hits = 0;
        for (const ShooterScene::LevelQuery& q : sc.qs) hits += pointInWalls(sc.walls, q.a) ? 1 : 0;
        return hits;
    });
    timeRow(rows[9], n, [&] {
        long hits = 0;
        for (const ShooterScene::LevelQuery& q : sc.qs) {
            WallRayHit h;
            hits += segmentWallsFirstHit(sc.walls, q.a, q.b, h) ? 1 : 0;
        }
        return hits;
    });
    timeRow(rows[10], n, [&] {
        long hits = 0;
        for (const ShooterScene::LevelQuery& q : sc.qs) {
            WallRayHit h;
            hits += sweptCircleWallsFirstHit(sc.walls, q.a, q.b, q.r, h) ? 1 : 0;
        }
        return hits;
    });
    timeRow(rows[11], n, [&] {
        long hits = 0;
        for (const ShooterScene::LevelQuery& q : sc.qs) {
            auto out =
                OutBuffer<WallContact>::over(sc.wall_items.data(), std::uint32_t(sc.wall_items.size()));
            WallPush push;
            (void)clusterWalls(sc.walls, sc.ship, q.pose, out, push);
            hits += push.contact_count > 0 ? 1 : 0;
        }
        return hits;
    });
}

// One round of the shot rows: swept bullets and beams against every target.
void timeShotRows(ShooterScene& sc, Row* rows, long n) {
    timeRow(rows[12], n, [&] {
        long hits = 0;
        for (std::size_t k = 0; k < sc.poses.size(); ++k) {
            ShotHit h;
            hits += sweptBulletFirstHit(sc.bullets[k % 256].center, sc.bullets[(k * 7 + 3) % 256].center,
                                        sc.bullets[0].radius, sc.targets, h)
                        ? 1
                        : 0;
        }
        return hits;
    });
    timeRow(rows[13], long(sc.beams.size()), [&] {
        long hits = 0;
        for (const auto& b : sc.beams) {
            ShotHit h;
            hits += castBeam(b.data(), 33, sc.targets, h) ? 1 : 0;
        }
        return hits;
    });
}

void printReport(const std::string& name, const ShooterScene& sc, const Row* rows, int rounds, bool json) {
    const double any_speedup = rows[kMeshMeshAny].seconds / rows[kClusterMeshAny].seconds,
                 pairs_speedup = rows[kMeshMeshPairs].seconds / rows[kClusterMeshContacts].seconds;
    if (json) {
        std::printf("{\"scene\": \"shooter\", \"mesh\": \"%s\", \"triangles\": %u, \"cluster_spheres\": 29, "
                    "\"coverage_percent\": %.3f, \"max_overshoot\": %.6g, \"volume_ratio\": %.4f, "
                    "\"wall_edges\": %u, \"rounds\": %d",
                    name.c_str(), sc.baked.blob.triangle_count, sc.fit.coverage_percent, sc.fit.max_overshoot,
                    sc.fit.volume_ratio, sc.walls.point_count, rounds);
        for (int k = 0; k < kRowCount; ++k)
            std::printf(", \"%s\": {\"queries\": %ld, \"hits\": %ld, \"seconds\": %.6f, \"per_s\": %.1f}",
                        rows[k].name, rows[k].count, rows[k].hits, rows[k].seconds,
                        static_cast<double>(rows[k].count) / rows[k].seconds);
        std::printf(
            ", \"cluster_vs_meshmesh_any_speedup\": %.2f, \"cluster_vs_meshmesh_pairs_speedup\": %.2f}\n",
            any_speedup, pairs_speedup);
        return;
    }
    std::printf("shooter %s: %u triangles; ship = 29-sphere cluster (coverage %.2f%%, max overshoot %.4g, "
                "volume ratio "
                "%.3f); level %u wall edges; one core, best of %d rounds\n",
                name.c_str(), sc.baked.blob.triangle_count, sc.fit.coverage_percent, sc.fit.max_overshoot,
                sc.fit.volume_ratio, sc.walls.point_count, rounds);
    for (int k = 0; k < kRowCount; ++k) {
        const Row& r = rows[k];
        std::printf("  %-32s %8ld queries  hits %8ld  %9.3f ms  %10.3f k queries/s  %8.3f us/query\n", r.name,
                    r.count, r.hits, r.seconds * 1e3, static_cast<double>(r.count) / r.seconds / 1e3,
                    r.seconds / static_cast<double>(r.count) * 1e6);
    }
    std::printf("  cluster vs mesh-mesh speed-up: any contact %.1fx, contacts vs triangle pairs %.1fx\n",
                any_speedup, pairs_speedup);
}

} // namespace

int runShooterScene(const std::string& name, const test::Mesh& mesh, long count, int rounds, bool json) {
    auto sc = std::make_unique<ShooterScene>();
    if (!makeShip(mesh, *sc)) return 1;
    test::SplitMix64 rng(0x5700u);
    makePoses(mesh, count, rng, *sc);
    if (!makeLevel(*sc)) return 1;
    makeQueries(count, rng, *sc);
    makeShotTargets(count, rng, *sc);
    Row rows[kRowCount] = {{"cluster-mesh any (29 spheres)"},
                           {"meshmesh any (same pair)"},
                           {"cluster-mesh contacts"},
                           {"meshmesh pairs (same pair)"},
                           {"cluster-cluster pairs"},
                           {"cluster-bullets (256)"},
                           {"segment-cluster"},
                           {"circle-walls"},
                           {"point-in-walls"},
                           {"segment-walls"},
                           {"swept-circle-walls"},
                           {"cluster-walls (29 spheres)"},
                           {"swept-bullet (all targets)"},
                           {"beam 32 segments (all targets)"}};
    for (int round = 0; round < rounds; ++round) {
        timeShipRows(*sc, rows, count);
        timeWallRows(*sc, rows, count);
        timeShotRows(*sc, rows, count);
    }
    printReport(name, *sc, rows, rounds, json);
    return 0;
}

} // namespace flak::bench
