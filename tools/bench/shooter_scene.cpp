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

} // namespace

int runShooterScene(const std::string& name, const test::Mesh& mesh, long count, int rounds, bool json) {
    // The ship: the mesh baked with a 29-sphere cluster; the enemy: the same mesh, posed.
    BakedScene baked;
    if (!bakeScene(mesh, baked)) return 1;
    bake::SourceMesh prepared;
    prepared.positions = mesh.positions;
    prepared.indices = mesh.indices;
    if (bake::prepareMesh(prepared, bake::PrepareOptions{}).failed()) return 1;
    bake::ClusterFitOptions fit_options;
    fit_options.spheres = 29;
    bake::ClusterFit fit;
    if (bake::BakeError e = bake::fitSphereCluster(prepared, baked.blob, fit_options, fit); e.failed()) {
        std::fprintf(stderr, "flak_bench: %s\n", e.message.c_str());
        return 1;
    }
    SphereCluster ship;
    if (makeSphereCluster(fit.spheres.data(), std::uint32_t(fit.spheres.size()), ship) != Status::Ok)
        return 1;
    const SceneMesh s = sceneMesh(mesh);
    const double extent[3] = {double(s.hi[0]) - s.lo[0], double(s.hi[1]) - s.lo[1],
                              double(s.hi[2]) - s.lo[2]};
    test::SplitMix64 rng(0x5700u);
    std::vector<Transform> poses(static_cast<std::size_t>(count)), relative(poses.size());
    Transform identity;
    setIdentity(identity);
    for (std::size_t k = 0; k < poses.size(); ++k) {
        poses[k] = randomPose(rng, s.c, extent, 1.35);
        flak::relative(identity, poses[k], relative[k]); // ship (mesh A at identity) vs enemy B = poses[k]
    }

    // The wall level (about 30 x 30 units per cell grid) and the other targets.
    test::SplitMix64 lrng(0x1E7E1u);
    std::vector<bake::WallPolygon> polys = level(lrng, 16, 10.0);
    bake::WriteOptions write;
    write.mesh = false;
    if (bake::buildWallSection(polys, bake::WallBuildOptions{}, write.walls).failed()) return 1;
    std::vector<unsigned char> raw;
    if (bake::writeBlob(bake::SourceMesh{}, bake::BuiltTree{}, write, raw).failed()) return 1;
    std::vector<unsigned char> wall_storage(raw.size() + 16);
    unsigned char* wall_bytes =
        wall_storage.data() + ((16 - (reinterpret_cast<std::uintptr_t>(wall_storage.data()) & 15u)) & 15u);
    std::memcpy(wall_bytes, raw.data(), raw.size());
    MeshBlob wall_blob;
    WallSet walls;
    if (loadMeshBlob(wall_bytes, raw.size(), wall_blob) != Status::Ok ||
        loadWallSet(wall_blob, walls) != Status::Ok)
        return 1;
    const float level_size = 160.0f;
    // Queries in the level: circles, segments, sweeps, cluster placements.
    struct Q {
        Vec2 a, b;
        float r;
        Transform pose;
    };
    std::vector<Q> qs(static_cast<std::size_t>(count));
    const float scale_ship = float(std::max({extent[0], extent[1], extent[2]}));
    for (Q& q : qs) {
        q.a = Vec2{rng.rangef(0, level_size), rng.rangef(0, level_size)};
        const float ang = rng.rangef(0, 6.2831853), len = rng.rangef(0, 20);
        q.b = Vec2{q.a.x + len * std::cos(ang), q.a.y + len * std::sin(ang)};
        q.r = rng.rangef(0.2, 2.0);
        const double c[3] = {q.a.x, q.a.y, 0.0};
        const double e[3] = {0, 0, 0};
        q.pose = randomPose(rng, c, e, 0.0);
        // Scale the ship to ~4 units in the level by moving the cluster's spheres? Keep the mesh units:
        // the cluster is placed at the query point (its own size is the mesh's).
        (void)scale_ship;
    }
    std::vector<Sphere> bullets(256);
    for (Sphere& b : bullets) {
        set(float(s.c[0] + (2 * rng.u() - 1) * extent[0]), float(s.c[1] + (2 * rng.u() - 1) * extent[1]),
            float(s.c[2] + (2 * rng.u() - 1) * extent[2]), b.center);
        b.radius = float(0.02 * s.diag);
    }
    std::vector<ClusterPair> pair_items(1u << 16);
    std::vector<MeshContact> contact_items(1u << 16);
    std::vector<std::uint32_t> contact_ids(1u << 16);
    std::vector<TrianglePair> tri_pairs(1u << 22);
    std::vector<WallContact> wall_items(4096);

    // Beam/bullet targets: the mesh posed at 4 places around the origin of its own space, the walls, 4 ships.
    std::vector<MeshTarget> mesh_targets;
    std::vector<ClusterTarget> cluster_targets;
    for (int k = 0; k < 4; ++k) {
        mesh_targets.push_back({&baked.blob, poses[std::size_t(k) % poses.size()], std::uint32_t(k)});
        cluster_targets.push_back({&ship, poses[std::size_t(k + 4) % poses.size()], std::uint32_t(k)});
    }
    const WallTarget wall_target{&walls, 0};
    const ShotTargets targets{mesh_targets.data(), 4, &wall_target, 1, cluster_targets.data(), 4};
    std::vector<std::array<Vec3, 33>> beams(static_cast<std::size_t>(std::max(1L, count / 32)));
    for (auto& b : beams) {
        Vec3 ctrl[4];
        for (Vec3& c : ctrl)
            set(float(s.c[0] + (2 * rng.u() - 1) * 2 * extent[0]),
                float(s.c[1] + (2 * rng.u() - 1) * 2 * extent[1]),
                float(s.c[2] + (2 * rng.u() - 1) * 2 * extent[2]), c);
        (void)sampleBeam(ctrl, 4, BeamCurve::CatmullRom, 32, b.data(), 33);
    }

    Row rows[] = {{"cluster-mesh any (29 spheres)"},
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
    const long n = count;
    for (int round = 0; round < rounds; ++round) {
        timeRow(rows[0], n, [&] {
            long hits = 0;
            for (const Transform& p : poses) hits += clusterMeshAnyHit(ship, identity, baked.blob, p) ? 1 : 0;
            return hits;
        });
        timeRow(rows[1], n, [&] {
            long hits = 0;
            for (const Transform& r : relative) hits += meshMeshAnyContact(baked.blob, baked.blob, r) ? 1 : 0;
            return hits;
        });
        timeRow(rows[2], n, [&] {
            long hits = 0;
            for (const Transform& p : poses) {
                ClusterMeshBuffer out{
                    OutBuffer<MeshContact>{contact_items.data(), std::uint32_t(contact_items.size()), 0, 0},
                    contact_ids.data()};
                (void)clusterMeshContacts(ship, identity, baked.blob, p, out);
                hits += out.hits.count + out.hits.dropped;
            }
            return hits;
        });
        timeRow(rows[3], n, [&] {
            long hits = 0;
            for (const Transform& r : relative) {
                OutBuffer<TrianglePair> out{tri_pairs.data(), std::uint32_t(tri_pairs.size()), 0, 0};
                (void)meshMeshPairs(baked.blob, baked.blob, r, out);
                hits += out.count + out.dropped;
            }
            return hits;
        });
        timeRow(rows[4], n, [&] {
            long hits = 0;
            for (const Transform& p : poses) {
                OutBuffer<ClusterPair> out{pair_items.data(), std::uint32_t(pair_items.size()), 0, 0};
                (void)clusterClusterPairs(ship, identity, ship, p, out);
                hits += out.count + out.dropped;
            }
            return hits;
        });
        timeRow(rows[5], n, [&] {
            long hits = 0;
            for (const Transform& p : poses) {
                OutBuffer<ClusterPair> out{pair_items.data(), std::uint32_t(pair_items.size()), 0, 0};
                (void)clusterBullets(ship, p, bullets.data(), std::uint32_t(bullets.size()), out);
                hits += out.count + out.dropped;
            }
            return hits;
        });
        timeRow(rows[6], n, [&] {
            long hits = 0;
            for (std::size_t k = 0; k < poses.size(); ++k) {
                ClusterRayHit h;
                const Vec3& a = bullets[k % 256].center;
                const Vec3& b = bullets[(k * 7 + 3) % 256].center;
                hits += segmentClusterFirstHit(ship, poses[k], a, b, h) ? 1 : 0;
            }
            return hits;
        });
        timeRow(rows[7], n, [&] {
            long hits = 0;
            for (const Q& q : qs) {
                OutBuffer<WallContact> out{wall_items.data(), std::uint32_t(wall_items.size()), 0, 0};
                WallPush push;
                (void)circleWalls(walls, q.a, q.r, out, push);
                hits += push.contact_count > 0 ? 1 : 0;
            }
            return hits;
        });
        timeRow(rows[8], n, [&] {
            long hits = 0;
            for (const Q& q : qs) hits += pointInWalls(walls, q.a) ? 1 : 0;
            return hits;
        });
        timeRow(rows[9], n, [&] {
            long hits = 0;
            for (const Q& q : qs) {
                WallRayHit h;
                hits += segmentWallsFirstHit(walls, q.a, q.b, h) ? 1 : 0;
            }
            return hits;
        });
        timeRow(rows[10], n, [&] {
            long hits = 0;
            for (const Q& q : qs) {
                WallRayHit h;
                hits += sweptCircleWallsFirstHit(walls, q.a, q.b, q.r, h) ? 1 : 0;
            }
            return hits;
        });
        timeRow(rows[11], n, [&] {
            long hits = 0;
            for (const Q& q : qs) {
                OutBuffer<WallContact> out{wall_items.data(), std::uint32_t(wall_items.size()), 0, 0};
                WallPush push;
                (void)clusterWalls(walls, ship, q.pose, out, push);
                hits += push.contact_count > 0 ? 1 : 0;
            }
            return hits;
        });
        timeRow(rows[12], n, [&] {
            long hits = 0;
            for (std::size_t k = 0; k < poses.size(); ++k) {
                ShotHit h;
                hits += sweptBulletFirstHit(bullets[k % 256].center, bullets[(k * 7 + 3) % 256].center,
                                            bullets[0].radius, targets, h)
                            ? 1
                            : 0;
            }
            return hits;
        });
        timeRow(rows[13], long(beams.size()), [&] {
            long hits = 0;
            for (const auto& b : beams) {
                ShotHit h;
                hits += castBeam(b.data(), 33, targets, h) ? 1 : 0;
            }
            return hits;
        });
    }
    const double any_speedup = rows[1].seconds / rows[0].seconds,
                 pairs_speedup = rows[3].seconds / rows[2].seconds;
    if (json) {
        std::printf("{\"scene\": \"shooter\", \"mesh\": \"%s\", \"triangles\": %u, \"cluster_spheres\": 29, "
                    "\"coverage_percent\": %.3f, \"max_overshoot\": %.6g, \"volume_ratio\": %.4f, "
                    "\"wall_edges\": %u, \"rounds\": %d",
                    name.c_str(), baked.blob.triangle_count, fit.coverage_percent, fit.max_overshoot,
                    fit.volume_ratio, walls.point_count, rounds);
        for (const Row& r : rows)
            std::printf(", \"%s\": {\"queries\": %ld, \"hits\": %ld, \"seconds\": %.6f, \"per_s\": %.1f}",
                        r.name, r.count, r.hits, r.seconds, r.count / r.seconds);
        std::printf(
            ", \"cluster_vs_meshmesh_any_speedup\": %.2f, \"cluster_vs_meshmesh_pairs_speedup\": %.2f}\n",
            any_speedup, pairs_speedup);
        return 0;
    }
    std::printf("shooter %s: %u triangles; ship = 29-sphere cluster (coverage %.2f%%, max overshoot %.4g, "
                "volume ratio "
                "%.3f); level %u wall edges; one core, best of %d rounds\n",
                name.c_str(), baked.blob.triangle_count, fit.coverage_percent, fit.max_overshoot,
                fit.volume_ratio, walls.point_count, rounds);
    for (const Row& r : rows)
        std::printf("  %-32s %8ld queries  hits %8ld  %9.3f ms  %10.3f k queries/s  %8.3f us/query\n", r.name,
                    r.count, r.hits, r.seconds * 1e3, r.count / r.seconds / 1e3, r.seconds / r.count * 1e6);
    std::printf("  cluster vs mesh-mesh speed-up: any contact %.1fx, contacts vs triangle pairs %.1fx\n",
                any_speedup, pairs_speedup);
    return 0;
}

} // namespace flak::bench
