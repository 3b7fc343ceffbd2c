// The World's hits against a brute-force oracle: every pair of bodies tested with the same
// narrow-phase calls and no broad phase, sorted by the same key. Equal hit lists, bit for bit,
// mean the broad phase never dropped a pair that hits, pairs were dispatched and filtered
// (teams, kinds) as documented, first hits were chosen the documented way, and the output was
// sorted. Random scenes with moving ships, fast and slow bullets, bent beams and piled ships.
#include "world_assets.h"
#include "world_fixture.h"

#include "support/case_count.h"
#include "support/same_bits.h"

#include "flak_support/thread_pool.h"

#include <flak/bvh/mesh_mesh.h>
#include <flak/geom/tri_tri.h>
#include <flak/geom/triangle_normal.h>
#include <flak/shooter/wall_set.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace flak::test {
namespace {

bool bodyLess(const BodyId& x, const BodyId& y) {
    if (x.kind != y.kind) return x.kind < y.kind;
    return x.index < y.index;
}

// What the test remembers of each body.
struct RefShip {
    BodyId id;
    const MeshBlob* mesh = nullptr;
    const SphereCluster* cluster = nullptr;
    Transform xf;
    std::uint32_t team = 0;
    CollisionFilter filter;
};
struct RefBullet {
    BodyId id;
    Sphere sphere;
    Vec3 velocity;
    std::uint32_t team = 0;
    CollisionFilter filter;
};
struct RefBeam {
    BodyId id;
    std::vector<Vec3> points;
    std::uint32_t team = 0;
    CollisionFilter filter;
};
struct RefLevel {
    BodyId id;
    const MeshBlob* mesh = nullptr;
    Transform xf;
    CollisionFilter filter;
};
struct RefWalls {
    BodyId id;
    const WallSet* walls = nullptr;
    CollisionFilter filter;
};

struct RefScene {
    std::vector<RefLevel> levels;
    std::vector<RefWalls> walls;
    std::vector<RefShip> ships; // enemies and players
    std::vector<RefBullet> bullets;
    std::vector<RefBeam> beams;
};

// Every target a shot of `team` may hit, sorted by (kind, index), as the world sorts candidates.
struct RefTargets {
    std::vector<BodyId> bodies;
    std::vector<MeshTarget> meshes;
    std::vector<WallTarget> walls;
    std::vector<ClusterTarget> clusters;
    ShotTargets targets;
};

void allTargets(const RefScene& scene, std::uint32_t team, const CollisionFilter& filter, RefTargets& out) {
    struct Entry {
        BodyId id;
        int which; // 0 level, 1 walls, 2 ship
        std::size_t at;
    };
    std::vector<Entry> entries;
    for (std::size_t i = 0; i < scene.levels.size(); ++i)
        if (interacts(filter, scene.levels[i].filter)) entries.push_back({scene.levels[i].id, 0, i});
    for (std::size_t i = 0; i < scene.walls.size(); ++i)
        if (interacts(filter, scene.walls[i].filter)) entries.push_back({scene.walls[i].id, 1, i});
    for (std::size_t i = 0; i < scene.ships.size(); ++i) {
        if (scene.ships[i].team != team && interacts(filter, scene.ships[i].filter))
            entries.push_back({scene.ships[i].id, 2, i});
    }
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return bodyLess(a.id, b.id); });
    out = RefTargets{};
    for (std::uint32_t k = 0; k < entries.size(); ++k) {
        const Entry& e = entries[k];
        out.bodies.push_back(e.id);
        if (e.which == 0) {
            out.meshes.push_back(MeshTarget{scene.levels[e.at].mesh, scene.levels[e.at].xf, k});
        } else if (e.which == 1) {
            out.walls.push_back(WallTarget{scene.walls[e.at].walls, k});
        } else if (e.id.kind == BodyKind::Enemy) {
            out.meshes.push_back(MeshTarget{scene.ships[e.at].mesh, scene.ships[e.at].xf, k});
        } else {
            out.clusters.push_back(ClusterTarget{scene.ships[e.at].cluster, scene.ships[e.at].xf, k});
        }
    }
    out.targets.meshes = out.meshes.data();
    out.targets.mesh_count = static_cast<std::uint32_t>(out.meshes.size());
    out.targets.walls = out.walls.data();
    out.targets.wall_count = static_cast<std::uint32_t>(out.walls.size());
    out.targets.clusters = out.clusters.data();
    out.targets.cluster_count = static_cast<std::uint32_t>(out.clusters.size());
}

const WallSet* wallsOf(const RefScene& scene, const BodyId& id) {
    for (const RefWalls& w : scene.walls) {
        if (w.id == id) return w.walls;
    }
    return nullptr;
}

Hit shotHit(const RefScene& scene, HitKind kind, const BodyId& shooter, const RefTargets& t,
            const ShotHit& shot, float hit_t) {
    Hit hit;
    hit.kind = kind;
    hit.a = shooter;
    hit.b = t.bodies[shot.id];
    hit.feature = shot.feature;
    if (shot.kind == ShotTargetKind::Walls) {
        const WallSet* walls = wallsOf(scene, hit.b);
        hit.feature =
            shot.feature == kNoEdge ? kNoFeature : walls->rings[shot.ring].first_point + shot.feature;
    }
    hit.point = shot.point;
    hit.normal = shot.normal;
    hit.t = hit_t;
    return hit;
}

// The world's enemy-vs-enemy summary (mesh_mesh.h: meshMeshSummary), from every pair of
// meshMeshPairs: each pair's midpoint of the intersection segment and both unit normals, B mapped
// into A's space vertex by vertex with transformPoint, each term truncated to fixed point (2^32
// steps per unit; a midpoint as its offset from the centre of A's bounds in units of the smallest
// power of two at least A's largest half extent) and summed as integers, so in any order.
std::int64_t toFixed(double v) {
    const double limit = 1099511627776.0; // 2^40
    if (std::isnan(v)) return 0;
    return static_cast<std::int64_t>(std::max(-limit, std::min(limit, v)));
}

bool pairSummary(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a, MeshContactSummary& out) {
    std::vector<TrianglePair> pairs(4096);
    OutBuffer<TrianglePair> buffer{pairs.data(), static_cast<std::uint32_t>(pairs.size()), 0, 0};
    while (meshMeshPairs(a, b, b_to_a, buffer) == Status::BufferFull) { // every pair, whatever it takes
        pairs.resize(pairs.size() * 4);
        buffer = OutBuffer<TrianglePair>{pairs.data(), static_cast<std::uint32_t>(pairs.size()), 0, 0};
    }
    pairs.resize(buffer.count);
    out = MeshContactSummary{};
    if (pairs.empty()) return false;
    double center[3], half = 0.0;
    for (int c = 0; c < 3; ++c) {
        center[c] = 0.5 * (double(a.bounds.min[c]) + double(a.bounds.max[c]));
        half = std::max(half, 0.5 * (double(a.bounds.max[c]) - double(a.bounds.min[c])));
    }
    double unit = 1.0; // the smallest power of two at least `half`
    while (unit < half) unit *= 2.0;
    while (half > 0.0 && unit / 2.0 >= half) unit /= 2.0;
    const double one = 4294967296.0; // 2^32
    const double to_fixed = half > 0.0 ? one / unit : one;
    std::int64_t point[3] = {0, 0, 0}, na[3] = {0, 0, 0}, nb[3] = {0, 0, 0};
    std::uint32_t points = 0;
    for (const TrianglePair& p : pairs) {
        Vec3 va[3], vb[3];
        triangleVertices(a, p.a, va[0], va[1], va[2]);
        triangleVertices(b, p.b, vb[0], vb[1], vb[2]);
        for (Vec3& v : vb) transformPoint(b_to_a, v, v);
        Vec3 s0, s1, n;
        bool coplanar = false;
        if (triTriIntersection(va[0], va[1], va[2], vb[0], vb[1], vb[2], s0, s1, coplanar)) {
            for (int c = 0; c < 3; ++c)
                point[c] += toFixed((0.5 * (double(s0[c]) + double(s1[c])) - center[c]) * to_fixed);
            ++points;
        }
        if (computeTriangleNormal(va[0], va[1], va[2], n))
            for (int c = 0; c < 3; ++c) na[c] += toFixed(double(n[c]) * one);
        if (computeTriangleNormal(vb[0], vb[1], vb[2], n))
            for (int c = 0; c < 3; ++c) nb[c] += toFixed(double(n[c]) * one);
    }
    out.pair_count = static_cast<std::uint32_t>(pairs.size());
    if (points > 0) {
        const double inv = 1.0 / (double(points) * to_fixed);
        for (int c = 0; c < 3; ++c) out.point[c] = static_cast<float>(center[c] + double(point[c]) * inv);
    }
    const Vec3 fa{float(double(na[0]) / one), float(double(na[1]) / one), float(double(na[2]) / one)};
    const Vec3 fb{float(double(nb[0]) / one), float(double(nb[1]) / one), float(double(nb[2]) / one)};
    (void)normalize(fa, out.normal_a);
    (void)normalize(fb, out.normal_b);
    return true;
}

// The hits one step must report, by brute force over every pair of bodies.
std::vector<Hit> expectedHits(const RefScene& scene, float dt, float sweep_radii) {
    std::vector<Hit> hits;
    RefTargets t;
    for (const RefBullet& b : scene.bullets) {
        allTargets(scene, b.team, b.filter, t);
        Vec3 motion, end;
        scale(b.velocity, dt, motion);
        add(b.sphere.center, motion, end);
        const float reach = sweep_radii * b.sphere.radius;
        const bool fast = lengthSq(motion) > reach * reach;
        ShotHit shot;
        if (sweptBulletFirstHit(fast ? b.sphere.center : end, end, b.sphere.radius, t.targets, shot))
            hits.push_back(shotHit(scene, HitKind::Bullet, b.id, t, shot, fast ? shot.t : 1.0f));
    }
    for (const RefBeam& beam : scene.beams) {
        allTargets(scene, beam.team, beam.filter, t);
        ShotHit shot;
        if (castBeam(beam.points.data(), static_cast<std::uint32_t>(beam.points.size()), t.targets, shot))
            hits.push_back(shotHit(scene, HitKind::Beam, beam.id, t, shot, shot.distance));
    }
    for (const RefShip& ship : scene.ships) {
        if (ship.cluster == nullptr) continue;
        for (const RefWalls& w : scene.walls) {
            if (!interacts(ship.filter, w.filter)) continue;
            std::vector<WallContact> items(4096);
            OutBuffer<WallContact> buffer{items.data(), 4096, 0, 0};
            WallPush push;
            (void)clusterWalls(*w.walls, *ship.cluster, ship.xf, buffer, push);
            if (push.contact_count == 0) continue;
            Hit hit;
            hit.kind = HitKind::ShipWall;
            hit.a = ship.id;
            hit.b = w.id;
            std::size_t best = 0;
            for (std::size_t k = 1; k < buffer.count; ++k) {
                if (items[k].depth > items[best].depth) best = k;
            }
            hit.feature = w.walls->rings[items[best].ring].first_point + items[best].edge;
            set(items[best].point.x, items[best].point.y, ship.xf.translation.z, hit.point);
            set(items[best].normal.x, items[best].normal.y, 0.0f, hit.normal);
            const float len = length(push.push);
            if (len > 0.0f) set(push.push.x / len, push.push.y / len, 0.0f, hit.normal);
            hit.depth = len;
            hits.push_back(hit);
        }
    }
    for (std::size_t i = 0; i < scene.ships.size(); ++i) {
        for (std::size_t j = 0; j < scene.ships.size(); ++j) {
            const RefShip& a = scene.ships[i];
            const RefShip& b = scene.ships[j];
            if (!bodyLess(a.id, b.id) || !interacts(a.filter, b.filter)) continue;
            Hit hit;
            hit.kind = HitKind::ShipShip;
            hit.a = a.id;
            hit.b = b.id;
            if (a.id.kind == BodyKind::Enemy && b.id.kind == BodyKind::Enemy) {
                Transform b_to_a;
                relative(a.xf, b.xf, b_to_a);
                MeshContactSummary summary;
                if (!pairSummary(*a.mesh, *b.mesh, b_to_a, summary)) continue;
                hit.feature = summary.pair_count;
                transformPoint(a.xf, summary.point, hit.point);
                Vec3 n = summary.normal_b;
                if (lengthSq(n) == 0.0f) negate(summary.normal_a, n);
                transformVector(a.xf, n, hit.normal);
            } else if (a.id.kind == BodyKind::Enemy) {
                std::vector<MeshContact> items(4096);
                std::vector<std::uint32_t> spheres(4096);
                ClusterMeshBuffer buffer;
                buffer.hits = OutBuffer<MeshContact>{items.data(), 4096, 0, 0};
                buffer.spheres = spheres.data();
                (void)clusterMeshContacts(*b.cluster, b.xf, *a.mesh, a.xf, buffer);
                if (buffer.hits.count == 0) continue;
                std::size_t best = 0;
                for (std::size_t k = 1; k < buffer.hits.count; ++k) {
                    if (items[k].contact.depth > items[best].contact.depth) best = k;
                }
                hit.feature = spheres[best];
                hit.point = items[best].contact.point;
                negate(items[best].contact.normal, hit.normal);
                hit.depth = items[best].contact.depth;
            } else {
                std::vector<ClusterPair> items(4096);
                OutBuffer<ClusterPair> buffer{items.data(), 4096, 0, 0};
                (void)clusterClusterPairs(*a.cluster, a.xf, *b.cluster, b.xf, buffer);
                if (buffer.count == 0) continue;
                std::size_t best = 0;
                for (std::size_t k = 1; k < buffer.count; ++k) {
                    if (items[k].contact.depth > items[best].contact.depth) best = k;
                }
                hit.feature = items[best].b;
                hit.point = items[best].contact.point;
                hit.normal = items[best].contact.normal;
                hit.depth = items[best].contact.depth;
            }
            hits.push_back(hit);
        }
    }
    std::stable_sort(hits.begin(), hits.end(), [](const Hit& x, const Hit& y) { return hitLess(x, y); });
    return hits;
}

::testing::AssertionResult sameHit(const Hit& x, const Hit& y) {
    const bool same = x.kind == y.kind && x.a == y.a && x.b == y.b && x.feature == y.feature &&
                      sameBits(x.point.x, y.point.x) && sameBits(x.point.y, y.point.y) &&
                      sameBits(x.point.z, y.point.z) && sameBits(x.normal.x, y.normal.x) &&
                      sameBits(x.normal.y, y.normal.y) && sameBits(x.normal.z, y.normal.z) &&
                      sameBits(x.t, y.t) && sameBits(x.depth, y.depth);
    if (same) return ::testing::AssertionSuccess();
    char text[512];
    std::snprintf(text, sizeof(text),
                  "world: kind %d a (%d,%u) b (%d,%u) feature %u t %a depth %a point (%a,%a,%a)\n"
                  "oracle: kind %d a (%d,%u) b (%d,%u) feature %u t %a depth %a point (%a,%a,%a)",
                  int(x.kind), int(x.a.kind), x.a.index, int(x.b.kind), x.b.index, x.feature, double(x.t),
                  double(x.depth), double(x.point.x), double(x.point.y), double(x.point.z), int(y.kind),
                  int(y.a.kind), y.a.index, int(y.b.kind), y.b.index, y.feature, double(y.t), double(y.depth),
                  double(y.point.x), double(y.point.y), double(y.point.z));
    return ::testing::AssertionFailure() << text;
}

// What the oracle saw, by (hit kind, kind of b): every combination the scenes can make must occur,
// or the comparison proves less than it claims.
std::map<std::pair<int, int>, int>& tally() {
    static std::map<std::pair<int, int>, int> t;
    return t;
}

// The collision filter of the i-th body of a kind: most meet everything; some sit in group 2 or 4,
// and some leave one group out of their mask, so the scenes have pairs the filters keep apart.
CollisionFilter testFilter(int i) {
    CollisionFilter f;
    f.category = 1u << (i % 3);
    if (i % 4 == 1) f.mask = ~2u;
    if (i % 7 == 3) f.mask = ~1u;
    return f;
}

// The user value the scenes give the i-th body of a kind: distinct for every body.
std::uint64_t testUser(BodyKind kind, int i) {
    return 0x9E3779B97F4A7C15ull *
           (static_cast<std::uint64_t>(kind) * 1000u + static_cast<std::uint64_t>(i) + 1u);
}

float rnd(SplitMix64& rng, float lo, float hi) { return lo + (hi - lo) * static_cast<float>(rng.u()); }

// One random scene, stepped `frames` times with ships moving; every step compared with the oracle.
// With `tasks`, the world steps on the host's workers.
void runRandomScene(std::uint64_t seed, float area, std::uint32_t frames, const TaskSystem* tasks = nullptr) {
    SplitMix64 rng(seed);
    WorldConfig config;
    config.max_levels = 2;
    config.max_wall_sets = 1;
    config.max_enemies = 12;
    config.max_players = 4;
    config.max_bullets = 256;
    config.max_beams = 4;
    config.max_beam_points = 17;
    config.tasks = tasks;
    HostWorld host(config);
    ASSERT_EQ(host.initStatus(), Status::Ok);
    World& world = host.world;
    RefScene scene;
    Assets& a = assets();
    for (int i = 0; i < 2; ++i) {
        RefLevel level;
        level.filter = testFilter(i + 3);
        level.mesh = &a.rock->blob;
        yawAt(rnd(rng, 0, 6.28f), rnd(rng, -area, area), rnd(rng, -area, area), 0.0f, level.xf);
        ASSERT_EQ(world.spawnLevel(
                      LevelDesc{level.mesh, level.xf, testUser(BodyKind::Level, i), level.filter}, level.id),
                  Status::Ok);
        scene.levels.push_back(level);
    }
    {
        RefWalls walls;
        walls.filter = testFilter(2);
        walls.walls = &a.walls;
        ASSERT_EQ(
            world.spawnWalls(WallsDesc{walls.walls, testUser(BodyKind::Walls, 0), walls.filter}, walls.id),
            Status::Ok);
        scene.walls.push_back(walls);
    }
    for (int i = 0; i < 12; ++i) {
        RefShip ship;
        ship.mesh = i % 2 ? &a.enemy_a->blob : &a.enemy_b->blob;
        ship.team = 1;
        yawAt(rnd(rng, 0, 6.28f), rnd(rng, -area, area), rnd(rng, -area, area), rnd(rng, -1, 1), ship.xf);
        ship.filter = testFilter(i);
        ShipDesc desc{ship.mesh, nullptr, ship.xf, ship.team, testUser(BodyKind::Enemy, i), ship.filter};
        ASSERT_EQ(world.spawnEnemy(desc, ship.id), Status::Ok);
        scene.ships.push_back(ship);
    }
    for (int i = 0; i < 4; ++i) {
        RefShip ship;
        ship.cluster = &a.ship->cluster;
        ship.team = i == 3 ? 1u : 0u; // one player on the enemies' team: bullets of that team skip it
        yawAt(rnd(rng, 0, 6.28f), rnd(rng, -area, area), rnd(rng, -area, area), rnd(rng, -1, 1), ship.xf);
        ship.filter = testFilter(i + 1);
        ShipDesc desc{nullptr, ship.cluster, ship.xf, ship.team, testUser(BodyKind::Player, i), ship.filter};
        ASSERT_EQ(world.spawnPlayer(desc, ship.id), Status::Ok);
        scene.ships.push_back(ship);
    }
    for (int i = 0; i < 200; ++i) {
        RefBullet b;
        b.filter = testFilter(i);
        set(rnd(rng, -area, area), rnd(rng, -area, area), rnd(rng, -2, 2), b.sphere.center);
        b.sphere.radius = i % 17 == 0 ? 0.0f : rnd(rng, 0.05f, 1.0f);
        const float speed = i % 3 == 0 ? rnd(rng, 0.0f, 5.0f) : rnd(rng, 50.0f, 2000.0f);
        Vec3 dir;
        set(rnd(rng, -1, 1), rnd(rng, -1, 1), rnd(rng, -0.1f, 0.1f), dir);
        if (!normalize(dir, dir)) set(1, 0, 0, dir);
        scale(dir, speed, b.velocity);
        b.team = static_cast<std::uint32_t>(i % 2);
        ASSERT_EQ(
            world.spawnBullet(
                BulletDesc{b.sphere, b.velocity, b.team, testUser(BodyKind::Bullet, i), b.filter}, b.id),
            Status::Ok);
        scene.bullets.push_back(b);
    }
    for (int i = 0; i < 4; ++i) {
        RefBeam beam;
        beam.filter = testFilter(i + 2);
        beam.team = static_cast<std::uint32_t>(i % 2);
        ASSERT_EQ(world.spawnBeam(BeamDesc{beam.team, testUser(BodyKind::Beam, i), beam.filter}, beam.id),
                  Status::Ok);
        Vec3 control[4];
        for (Vec3& c : control) set(rnd(rng, -area, area), rnd(rng, -area, area), rnd(rng, -1, 1), c);
        beam.points.resize(17);
        ASSERT_EQ(sampleBeam(control, 4, BeamCurve::CatmullRom, 16, beam.points.data(), 17), Status::Ok);
        ASSERT_EQ(world.setBeamPoints(beam.id, beam.points.data(), 17), Status::Ok);
        scene.beams.push_back(beam);
    }
    const float dt = 1.0f / 60.0f;
    for (std::uint32_t f = 0; f < frames; ++f) {
        // Ships move a little each frame (some far: fat boxes must follow).
        for (RefShip& ship : scene.ships) {
            const float jump = f % 7 == 3 ? 8.0f : 0.6f;
            yawAt(rnd(rng, 0, 6.28f), ship.xf.translation.x + rnd(rng, -jump, jump),
                  ship.xf.translation.y + rnd(rng, -jump, jump), ship.xf.translation.z, ship.xf);
            ASSERT_EQ(world.setShipTransform(ship.id, ship.xf), Status::Ok);
        }
        const std::vector<Hit> expected = expectedHits(scene, dt, world.config().sweep_radii);
        for (const Hit& h : expected) ++tally()[{static_cast<int>(h.kind), static_cast<int>(h.b.kind)}];
        ASSERT_EQ(world.step(dt), Status::Ok);
        ASSERT_EQ(world.hitCount(), expected.size()) << "seed " << seed << " frame " << f;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            ASSERT_TRUE(sameHit(world.hits()[i], expected[i]))
                << "seed " << seed << " frame " << f << " hit " << i;
            // Each body's user value, as spawned, rides on its hits (pools hand out slots in
            // spawn order, so the i-th body of a kind sits in slot i).
            const Hit& h = world.hits()[i];
            ASSERT_EQ(h.a_user, testUser(h.a.kind, static_cast<int>(h.a.index))) << "hit " << i;
            ASSERT_EQ(h.b_user, testUser(h.b.kind, static_cast<int>(h.b.index))) << "hit " << i;
        }
        for (RefBullet& b : scene.bullets) addScaled(b.sphere.center, b.velocity, dt, b.sphere.center);
    }
}

TEST(WorldOracle, SpreadScenesMatchBruteForce) {
    for (std::uint64_t seed = 1; seed <= caseCount<std::uint64_t>(40); ++seed)
        runRandomScene(seed, 40.0f, 12);
}

TEST(WorldOracle, PiledScenesMatchBruteForce) {
    // Everything within a few units: many ship pairs, mesh-mesh, bullets starting inside ships.
    for (std::uint64_t seed = 101; seed < 101 + caseCount<std::uint64_t>(30); ++seed)
        runRandomScene(seed, 6.0f, 6);
}

// The same random worlds on the host's workers (support/'s ThreadPool): still the oracle's hits,
// bit for bit, so the same as on one thread.
TEST(WorldOracle, ScenesOnWorkersMatchBruteForce) {
    for (std::uint32_t workers : {2u, 3u, 8u}) {
        flak::support::ThreadPool pool(workers);
        for (std::uint64_t seed = 1; seed <= caseCount<std::uint64_t>(6); ++seed)
            runRandomScene(seed, 40.0f, 6, pool.tasks());
        for (std::uint64_t seed = 101; seed < 101 + caseCount<std::uint64_t>(10); ++seed)
            runRandomScene(seed, 6.0f, 4, pool.tasks());
    }
}

// ctest runs each test in its own process: this one plays its own scenes before counting.
TEST(WorldOracle, EveryKindOfHitWasCompared) {
    tally().clear();
    for (std::uint64_t seed = 1; seed <= 8; ++seed) runRandomScene(seed, 40.0f, 12);
    for (std::uint64_t seed = 101; seed <= 104; ++seed) runRandomScene(seed, 6.0f, 6);
    const std::pair<HitKind, BodyKind> kinds[] = {
        {HitKind::Bullet, BodyKind::Level},   {HitKind::Bullet, BodyKind::Walls},
        {HitKind::Bullet, BodyKind::Enemy},   {HitKind::Bullet, BodyKind::Player},
        {HitKind::Beam, BodyKind::Level},     {HitKind::Beam, BodyKind::Walls},
        {HitKind::Beam, BodyKind::Enemy},     {HitKind::Beam, BodyKind::Player},
        {HitKind::ShipShip, BodyKind::Enemy}, {HitKind::ShipShip, BodyKind::Player},
        {HitKind::ShipWall, BodyKind::Walls}};
    for (const auto& k : kinds) {
        const int seen = tally()[{static_cast<int>(k.first), static_cast<int>(k.second)}];
        EXPECT_GT(seen, 0) << "hit kind " << static_cast<int>(k.first) << " on body kind "
                           << static_cast<int>(k.second);
        std::printf("hit kind %d on body kind %d: %d compared\n", static_cast<int>(k.first),
                    static_cast<int>(k.second), seen);
    }
}

} // namespace
} // namespace flak::test
