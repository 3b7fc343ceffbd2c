// The World's queries (world_query.h) against brute force over the world's bodies: every body the
// test spawned, in (kind, slot) order, with no box test, asked alone with the kernels the query
// documents (a single-target sweptBulletFirstHit for casts and sphere overlaps; every triangle,
// cluster sphere and wall edge for box overlaps), filtered by the test's own reading of the
// filter. Equal answers, bit for bit, mean the query's box tests never drop a body it meets, its
// filter and tie rule are as documented, and its output order is (kind, slot).
#include "world_assets.h"
#include "world_fixture.h"

#include <flak/bvh/box_query.h>
#include <flak/geom/sphere_aabb.h>
#include <flak/shooter/wall_set.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <vector>

namespace flak::test {
namespace {

struct RefBody {
    BodyId id;
    const MeshBlob* mesh = nullptr;         // levels and enemies
    const SphereCluster* cluster = nullptr; // players
    const WallSet* walls = nullptr;         // wall sets
    Transform xf;
    std::uint32_t team = 0;
    std::uint64_t user = 0;
    CollisionFilter filter;
};

float rnd(SplitMix64& rng, float lo, float hi) { return lo + (hi - lo) * static_cast<float>(rng.u()); }

bool kept(const RefBody& b, const QueryFilter& f) {
    if ((f.kinds & queryKindBit(b.id.kind)) == 0u) return false;
    if (b.id == f.ignore || !interacts(f.filter, b.filter)) return false;
    const bool ship = b.id.kind == BodyKind::Enemy || b.id.kind == BodyKind::Player;
    return !(ship && f.skip_team != kNoTeamFilter && b.team == f.skip_team);
}

// The body as one shot target.
struct OneTarget {
    MeshTarget mesh;
    WallTarget walls;
    ClusterTarget cluster;
    ShotTargets targets;
    explicit OneTarget(const RefBody& b) {
        if (b.mesh != nullptr) {
            mesh = MeshTarget{b.mesh, b.xf, 0};
            targets.meshes = &mesh;
            targets.mesh_count = 1;
        } else if (b.cluster != nullptr) {
            cluster = ClusterTarget{b.cluster, b.xf, 0};
            targets.clusters = &cluster;
            targets.cluster_count = 1;
        } else {
            walls = WallTarget{b.walls, 0};
            targets.walls = &walls;
            targets.wall_count = 1;
        }
    }
};

// The tie rule of world.h: of equal t, a level, then an enemy, then a wall set, then a player.
int shotRank(BodyKind kind) {
    return kind == BodyKind::Level ? 0 : kind == BodyKind::Enemy ? 1 : kind == BodyKind::Walls ? 2 : 3;
}

bool refCast(const std::vector<RefBody>& bodies, const Vec3& from, const Vec3& to, float radius,
             const QueryFilter& f, QueryHit& out) {
    bool found = false;
    for (const RefBody& b : bodies) {
        if (!kept(b, f)) continue;
        const OneTarget one(b);
        ShotHit hit;
        if (!sweptBulletFirstHit(from, to, radius, one.targets, hit)) continue;
        if (found && !(hit.t < out.t || (hit.t == out.t && shotRank(b.id.kind) < shotRank(out.body.kind))))
            continue;
        found = true;
        out = QueryHit{};
        out.body = b.id;
        out.feature = hit.feature;
        if (b.walls != nullptr)
            out.feature =
                hit.feature == kNoEdge ? kNoFeature : b.walls->rings[hit.ring].first_point + hit.feature;
        out.point = hit.point;
        out.normal = hit.normal;
        out.t = hit.t;
        out.distance = hit.distance;
        out.user = b.user;
    }
    return found;
}

// Closed segment against closed rectangle, in double (Liang-Barsky).
bool segmentTouchesRect(const Vec2& a, const Vec2& b, const Aabb& box) {
    double t0 = 0.0, t1 = 1.0;
    const double p[2] = {a.x, a.y}, d[2] = {static_cast<double>(b.x) - a.x, static_cast<double>(b.y) - a.y};
    const double lo[2] = {box.min.x, box.min.y}, hi[2] = {box.max.x, box.max.y};
    for (int k = 0; k < 2; ++k) {
        if (d[k] == 0.0) {
            if (p[k] < lo[k] || p[k] > hi[k]) return false;
            continue;
        }
        double u = (lo[k] - p[k]) / d[k], v = (hi[k] - p[k]) / d[k];
        if (u > v) std::swap(u, v);
        t0 = std::max(t0, u);
        t1 = std::min(t1, v);
        if (t0 > t1) return false;
    }
    return true;
}

bool refBoxTouches(const RefBody& b, const Aabb& box) {
    if (b.mesh != nullptr) {
        Obb obb;
        center(box, obb.center);
        halfExtents(box, obb.halfExtents);
        setIdentity(obb.rotation);
        std::vector<std::uint32_t> ids(b.mesh->triangle_count);
        OutBuffer<std::uint32_t> out = OutBuffer<std::uint32_t>::over(ids.data(), b.mesh->triangle_count);
        EXPECT_EQ(obbOverlapTriangles(*b.mesh, b.xf, obb, out), Status::Ok);
        return out.count > 0;
    }
    if (b.cluster != nullptr) {
        for (std::uint32_t k = 0; k < b.cluster->count; ++k) {
            Sphere s;
            clusterWorldSphere(*b.cluster, b.xf, k, s);
            if (sphereAabbOverlap(s, box)) return true;
        }
        return false;
    }
    // Walls: a rectangle corner in the solid, or an edge of a ring touching the rectangle.
    const Vec2 corners[4] = {
        {box.min.x, box.min.y}, {box.max.x, box.min.y}, {box.max.x, box.max.y}, {box.min.x, box.max.y}};
    for (const Vec2& c : corners)
        if (pointInWalls(*b.walls, c)) return true;
    for (std::uint32_t r = 0; r < b.walls->ring_count; ++r) {
        const WallRing& ring = b.walls->rings[r];
        for (std::uint32_t e = 0; e < ring.point_count; ++e) {
            const Vec2& p = b.walls->points[ring.first_point + e];
            const Vec2& q = b.walls->points[ring.first_point + (e + 1) % ring.point_count];
            if (segmentTouchesRect(p, q, box)) return true;
        }
    }
    return false;
}

bool sameHit(const QueryHit& x, const QueryHit& y) {
    return x.body == y.body && x.user == y.user && x.feature == y.feature && x.t == y.t &&
           x.distance == y.distance && x.point.x == y.point.x && x.point.y == y.point.y &&
           x.point.z == y.point.z && x.normal.x == y.normal.x && x.normal.y == y.normal.y &&
           x.normal.z == y.normal.z;
}

QueryFilter randomFilter(SplitMix64& rng, const std::vector<RefBody>& bodies) {
    QueryFilter f;
    if (rng.next() % 3u == 0u) f.kinds = static_cast<std::uint32_t>(rng.next()) & kQueryAllKinds;
    const std::uint64_t team = rng.next() % 4u;
    if (team < 2u) f.skip_team = static_cast<std::uint32_t>(team);
    if (rng.next() % 3u == 0u) f.ignore = bodies[rng.next() % bodies.size()].id;
    if (rng.next() % 3u == 0u) {
        f.filter.category = 1u << (rng.next() % 3u);
        f.filter.mask = ~(1u << (rng.next() % 3u));
    }
    return f;
}

void randomPoint(SplitMix64& rng, float area, Vec3& out) {
    set(rnd(rng, -area, area), rnd(rng, -area, area), rnd(rng, -3.0f, 3.0f), out);
}

struct Tally {
    std::map<int, long> cast_kinds, overlap_kinds;
    long casts = 0, cast_misses = 0, overlaps = 0, empty_overlaps = 0, starts_inside = 0;
};

void runQueries(std::uint64_t seed, float area, Tally& tally) {
    SplitMix64 rng(seed);
    WorldConfig config;
    config.max_levels = 2;
    config.max_wall_sets = 1;
    config.max_enemies = 12;
    config.max_players = 4;
    HostWorld host(config);
    ASSERT_EQ(host.initStatus(), Status::Ok);
    World& world = host.world;
    Assets& a = assets();
    std::vector<RefBody> bodies;
    // Body filters: most meet everything; some sit in group 2 or 4 or leave a group out.
    int made = 0;
    const auto bodyFilter = [&made]() {
        CollisionFilter f;
        const int i = made++;
        f.category = 1u << (i % 3);
        if (i % 5 == 2) f.mask = ~1u;
        return f;
    };
    for (int i = 0; i < 2; ++i) {
        RefBody b;
        b.mesh = &a.rock->blob;
        b.user = rng.next();
        b.filter = bodyFilter();
        yawAt(rnd(rng, 0, 6.28f), rnd(rng, -area, area), rnd(rng, -area, area), 0.0f, b.xf);
        ASSERT_EQ(world.spawnLevel(LevelDesc{b.mesh, b.xf, b.user, b.filter}, b.id), Status::Ok);
        bodies.push_back(b);
    }
    {
        RefBody b;
        b.walls = &a.walls;
        b.user = rng.next();
        b.filter = bodyFilter();
        ASSERT_EQ(world.spawnWalls(WallsDesc{b.walls, b.user, b.filter}, b.id), Status::Ok);
        bodies.push_back(b);
    }
    for (int i = 0; i < 12; ++i) {
        RefBody b;
        b.mesh = i % 2 ? &a.enemy_a->blob : &a.enemy_b->blob;
        b.team = 1;
        yawAt(rnd(rng, 0, 6.28f), rnd(rng, -area, area), rnd(rng, -area, area), rnd(rng, -1, 1), b.xf);
        b.user = rng.next();
        b.filter = bodyFilter();
        ASSERT_EQ(world.spawnEnemy(ShipDesc{b.mesh, nullptr, b.xf, b.team, b.user, b.filter}, b.id),
                  Status::Ok);
        bodies.push_back(b);
    }
    for (int i = 0; i < 4; ++i) {
        RefBody b;
        b.cluster = &a.ship->cluster;
        b.team = i == 3 ? 1u : 0u;
        yawAt(rnd(rng, 0, 6.28f), rnd(rng, -area, area), rnd(rng, -area, area), rnd(rng, -1, 1), b.xf);
        b.user = rng.next();
        b.filter = bodyFilter();
        ASSERT_EQ(world.spawnPlayer(ShipDesc{nullptr, b.cluster, b.xf, b.team, b.user, b.filter}, b.id),
                  Status::Ok);
        bodies.push_back(b);
    }
    // Despawn one enemy (its slot is empty for the queries) and move the ships once.
    ASSERT_EQ(world.despawn(bodies[5].id), Status::Ok);
    bodies.erase(bodies.begin() + 5);
    for (RefBody& b : bodies) {
        if (b.id.kind != BodyKind::Enemy && b.id.kind != BodyKind::Player) continue;
        yawAt(rnd(rng, 0, 6.28f), b.xf.translation.x + rnd(rng, -6, 6), b.xf.translation.y + rnd(rng, -6, 6),
              b.xf.translation.z, b.xf);
        ASSERT_EQ(world.setShipTransform(b.id, b.xf), Status::Ok);
    }
    ASSERT_EQ(world.step(1.0f / 60.0f), Status::Ok); // queries come between steps
    std::vector<BodyId> got_ids(64), want_ids;
    for (int q = 0; q < 400; ++q) {
        const QueryFilter f = randomFilter(rng, bodies);
        Vec3 from, to;
        randomPoint(rng, area, from);
        if (q % 4 == 0) { // short moves, many starting in or near a body
            Vec3 d;
            randomPoint(rng, 3.0f, d);
            add(from, d, to);
        } else {
            randomPoint(rng, area, to);
        }
        const float radius = q % 5 == 0 ? 0.0f : rnd(rng, 0.0f, 2.0f);
        QueryHit got, want;
        const bool g = radius == 0.0f && q % 2 == 0 ? world.castSegment(from, to, f, got)
                                                    : world.sweepSphere(from, to, radius, f, got);
        const bool w = refCast(bodies, from, to, radius, f, want);
        ++tally.casts;
        ASSERT_EQ(g, w) << "seed " << seed << " query " << q;
        if (w) {
            ASSERT_TRUE(sameHit(got, want))
                << "seed " << seed << " query " << q << ": body " << got.body.index << " t " << got.t
                << ", want body " << want.body.index << " t " << want.t;
            ++tally.cast_kinds[static_cast<int>(want.body.kind)];
            tally.starts_inside += want.t == 0.0f;
        } else {
            ++tally.cast_misses;
        }

        // Overlaps: a sphere, and a box, about the same place.
        Sphere sphere{from, rnd(rng, 0.0f, 6.0f)};
        Aabb box;
        Vec3 half;
        set(rnd(rng, 0.0f, 6.0f), rnd(rng, 0.0f, 6.0f), rnd(rng, 0.0f, 3.0f), half);
        sub(from, half, box.min);
        add(from, half, box.max);
        for (int shape = 0; shape < 2; ++shape) {
            want_ids.clear();
            for (const RefBody& b : bodies) {
                if (!kept(b, f)) continue;
                bool touches;
                if (shape == 0) {
                    const OneTarget one(b);
                    ShotHit hit;
                    touches =
                        sweptBulletFirstHit(sphere.center, sphere.center, sphere.radius, one.targets, hit);
                } else {
                    touches = refBoxTouches(b, box);
                }
                if (touches) want_ids.push_back(b.id);
            }
            OutBuffer<BodyId> out = OutBuffer<BodyId>::over(got_ids.data(), 64);
            const Status st =
                shape == 0 ? world.overlapSphere(sphere, f, out) : world.overlapBox(box, f, out);
            ASSERT_EQ(st, Status::Ok);
            ASSERT_EQ(out.count, want_ids.size()) << "seed " << seed << " query " << q << " shape " << shape;
            for (std::size_t i = 0; i < want_ids.size(); ++i) {
                ASSERT_TRUE(got_ids[i] == want_ids[i]) << "seed " << seed << " query " << q << " item " << i;
                ++tally.overlap_kinds[static_cast<int>(want_ids[i].kind)];
            }
            ++tally.overlaps;
            tally.empty_overlaps += want_ids.empty();
        }
    }
}

TEST(WorldQuery, CastsAndOverlapsMatchBruteForceOverTheBodies) {
    Tally tally;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) runQueries(seed, seed % 2 ? 40.0f : 15.0f, tally);
    std::printf(
        "  world queries: %ld casts (%ld miss, %ld start in or on a body), %ld overlaps (%ld empty)\n",
        tally.casts, tally.cast_misses, tally.starts_inside, tally.overlaps, tally.empty_overlaps);
    for (const BodyKind kind : {BodyKind::Level, BodyKind::Walls, BodyKind::Enemy, BodyKind::Player}) {
        const int k = static_cast<int>(kind);
        std::printf("    %s: met by %ld casts, in %ld overlaps\n", bodyKindName(kind), tally.cast_kinds[k],
                    tally.overlap_kinds[k]);
        EXPECT_GT(tally.cast_kinds[k], 10) << bodyKindName(kind);
        EXPECT_GT(tally.overlap_kinds[k], 10) << bodyKindName(kind);
    }
    EXPECT_GT(tally.cast_misses, 50);
    EXPECT_GT(tally.starts_inside, 10);
    EXPECT_GT(tally.empty_overlaps, 50);
}

// A bullet that does not move, touching a wall set and an enemy at once: the step's hit and a
// sweep of the same sphere name the same body (the enemy: of equal t, meshes before walls), and
// both bodies overlap it.
TEST(WorldQuery, EqualTimesGoWhereAStepsBulletsGo) {
    WorldConfig config;
    config.max_bullets = 1;
    HostWorld host(config);
    ASSERT_EQ(host.initStatus(), Status::Ok);
    World& world = host.world;
    Assets& a = assets();
    BodyId walls, enemy, bullet;
    ASSERT_EQ(world.spawnWalls(WallsDesc{&a.walls}, walls), Status::Ok);
    Transform xf; // a hull of radius 2 east of the square [-35, -29]^2
    yawAt(0.0f, -26.5f, -32.0f, 0.0f, xf);
    ASSERT_EQ(world.spawnEnemy(ShipDesc{&a.enemy_a->blob, nullptr, xf, 1}, enemy), Status::Ok);
    const Sphere ball{Vec3{-28.8f, -32.0f, 0.0f}, 0.5f}; // 0.2 from the wall, 0.3 to 0.4 from the hull
    BulletDesc desc;
    desc.sphere = ball;
    ASSERT_EQ(world.spawnBullet(desc, bullet), Status::Ok);
    ASSERT_EQ(world.step(1.0f / 60.0f), Status::Ok);
    ASSERT_EQ(world.hitCount(), 1u);
    EXPECT_EQ(world.hits()[0].kind, HitKind::Bullet);
    EXPECT_TRUE(world.hits()[0].b == enemy);
    QueryHit hit;
    ASSERT_TRUE(world.sweepSphere(ball.center, ball.center, ball.radius, QueryFilter{}, hit));
    EXPECT_TRUE(hit.body == enemy);
    EXPECT_EQ(hit.t, 0.0f);
    BodyId ids[4];
    OutBuffer<BodyId> out = OutBuffer<BodyId>::over(ids, 4);
    ASSERT_EQ(world.overlapSphere(ball, QueryFilter{}, out), Status::Ok);
    ASSERT_EQ(out.count, 2u);
    EXPECT_TRUE(ids[0] == walls);
    EXPECT_TRUE(ids[1] == enemy);
}

// Refusals and capacity: no world yet, NaN/Inf or negative sizes, and a full output buffer that
// keeps the first bodies in (kind, slot) order and counts the rest.
TEST(WorldQuery, BadInputAndAFullBufferAreAnswered) {
    World uninit;
    QueryHit hit;
    BodyId ids[4];
    OutBuffer<BodyId> out = OutBuffer<BodyId>::over(ids, 4);
    const Vec3 o{0.0f, 0.0f, 0.0f}, x{10.0f, 0.0f, 0.0f};
    EXPECT_FALSE(uninit.castSegment(o, x, QueryFilter{}, hit));
    EXPECT_EQ(uninit.overlapSphere(Sphere{o, 1.0f}, QueryFilter{}, out), Status::InvalidArgument);

    WorldConfig config;
    config.max_enemies = 8;
    HostWorld host(config);
    ASSERT_EQ(host.initStatus(), Status::Ok);
    Assets& a = assets();
    std::vector<BodyId> enemies;
    for (int i = 0; i < 6; ++i) { // six hulls of radius 2 along x, 0.5 apart: a 2.2 sphere at 0 meets all
        Transform xf;
        yawAt(0.0f, 0.5f * static_cast<float>(i), 0.0f, 0.0f, xf);
        BodyId id;
        ASSERT_EQ(host.world.spawnEnemy(ShipDesc{&a.enemy_a->blob, nullptr, xf, 1}, id), Status::Ok);
        enemies.push_back(id);
    }
    const float nan = std::nanf("");
    const Vec3 bad{nan, 0.0f, 0.0f};
    EXPECT_FALSE(host.world.castSegment(bad, x, QueryFilter{}, hit));
    EXPECT_FALSE(host.world.sweepSphere(o, x, -1.0f, QueryFilter{}, hit));
    EXPECT_FALSE(host.world.sweepSphere(o, x, nan, QueryFilter{}, hit));
    EXPECT_EQ(host.world.overlapSphere(Sphere{o, -1.0f}, QueryFilter{}, out), Status::InvalidArgument);
    EXPECT_EQ(host.world.overlapBox(Aabb{x, o}, QueryFilter{}, out), Status::InvalidArgument); // inverted
    EXPECT_EQ(host.world.overlapBox(Aabb{o, bad}, QueryFilter{}, out), Status::InvalidArgument);
    // Finite, but too large for float: the size overflows (the kernels could not answer).
    const float big = std::numeric_limits<float>::max();
    const Vec3 far_lo{-big, -big, -big}, far_hi{big, big, big};
    EXPECT_EQ(host.world.overlapBox(Aabb{far_lo, far_hi}, QueryFilter{}, out), Status::InvalidArgument);
    EXPECT_EQ(host.world.overlapSphere(Sphere{o, big}, QueryFilter{}, out), Status::InvalidArgument);
    EXPECT_EQ(host.world.overlapSphere(Sphere{far_hi, 1e38f}, QueryFilter{}, out), Status::InvalidArgument);
    EXPECT_FALSE(host.world.castSegment(Vec3{-big, 0.0f, 0.0f}, Vec3{big, 0.0f, 0.0f}, QueryFilter{}, hit));
    EXPECT_FALSE(host.world.sweepSphere(o, x, big, QueryFilter{}, hit));
    EXPECT_EQ(out.count, 0u);
    // The largest that still fits: every hull met.
    const Vec3 half_lo{-0.5f * big, -0.5f * big, -0.5f * big}, half_hi{0.5f * big, 0.5f * big, 0.5f * big};
    EXPECT_EQ(host.world.overlapBox(Aabb{half_lo, half_hi}, QueryFilter{}, out), Status::BufferFull);
    EXPECT_EQ(out.count, 4u);
    EXPECT_EQ(out.dropped, 2u);
    out.clear();
    // A box whose size fits but whose ends' sum does not: a hull out at 2.5e38 is still met (the
    // box's centre overflowed, and the query answered Ok without it).
    {
        HostWorld far_world(config);
        Transform xf;
        yawAt(0.0f, 2.5e38f, 0.0f, 0.0f, xf);
        BodyId far_id;
        ASSERT_EQ(far_world.world.spawnEnemy(ShipDesc{&a.enemy_a->blob, nullptr, xf, 1}, far_id), Status::Ok);
        const Aabb far_box{Vec3{2e38f, -200.0f, -10.0f}, Vec3{3e38f, 200.0f, 10.0f}};
        EXPECT_EQ(far_world.world.overlapBox(far_box, QueryFilter{}, out), Status::Ok);
        ASSERT_EQ(out.count, 1u);
        EXPECT_TRUE(ids[0] == far_id);
        out.clear();
    }

    EXPECT_EQ(host.world.overlapSphere(Sphere{o, 2.2f}, QueryFilter{}, out), Status::BufferFull);
    EXPECT_EQ(out.count, 4u);
    EXPECT_EQ(out.dropped, 2u);
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(ids[i] == enemies[static_cast<std::size_t>(i)]) << i;

    // The filter: enemies left out by kind, by team, or one by id.
    QueryFilter no_enemies;
    no_enemies.kinds = kQueryAllKinds & ~queryKindBit(BodyKind::Enemy);
    QueryFilter not_team_1;
    not_team_1.skip_team = 1;
    QueryFilter not_first;
    not_first.ignore = enemies[0];
    EXPECT_FALSE(host.world.castSegment(Vec3{-20.0f, 0.0f, 0.0f}, x, no_enemies, hit));
    EXPECT_FALSE(host.world.castSegment(Vec3{-20.0f, 0.0f, 0.0f}, x, not_team_1, hit));
    ASSERT_TRUE(host.world.castSegment(Vec3{-20.0f, 0.0f, 0.0f}, x, QueryFilter{}, hit));
    EXPECT_TRUE(hit.body == enemies[0]);
    EXPECT_GT(hit.t, 0.0f);
    EXPECT_NEAR(hit.distance, hit.t * 30.0f, 1e-4f);
    ASSERT_TRUE(host.world.castSegment(Vec3{-20.0f, 0.0f, 0.0f}, x, not_first, hit));
    EXPECT_TRUE(hit.body == enemies[1]);
}

} // namespace
} // namespace flak::test
