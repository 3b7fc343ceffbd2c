// Bad input for the World (flak/world): an uninitialised world, impossible configs, every spawn
// with null, empty, degenerate or non-finite input, full pools, null / stale / forged ids on every
// call, setters with NaN, steps with bad dt, bodies that overflow float range while stepping, and
// teleports across the float range. Each refusal must change nothing: the pools, the trees and
// the body state are compared before and after. World::step is bounded: every phase is a loop
// over pools and tree walks that move by links, so NaN cannot keep one going.
#include "bad_input.h"

#include <flak/world/world.h>
#include <world/world_fixture.h>

#include <gtest/gtest.h>

namespace flak::test {
namespace {

WorldConfig tinyConfig() {
    WorldConfig c;
    c.max_levels = 1;
    c.max_wall_sets = 1;
    c.max_enemies = 2;
    c.max_players = 1;
    c.max_bullets = 2;
    c.max_beams = 1;
    c.max_beam_points = 3;
    c.max_hits = 8;
    c.max_pairs = 8;
    c.max_contacts = 8;
    return c;
}

// Live counts and tree proxies, to show that a refused call changed nothing.
struct Census {
    std::uint32_t live[static_cast<int>(BodyKind::Count)] = {};
    std::uint32_t moving = 0, statics = 0;
    explicit Census(const World& world) {
        for (int k = 1; k < static_cast<int>(BodyKind::Count); ++k)
            live[k] = world.poolUsage(static_cast<BodyKind>(k)).live;
        moving = world.movingTree()->proxyCount();
        statics = world.staticTree()->proxyCount();
    }
    bool operator==(const Census& o) const {
        return std::memcmp(live, o.live, sizeof(live)) == 0 && moving == o.moving && statics == o.statics;
    }
};

void expectTreesValid(const World& world) {
    TreeReport report;
    EXPECT_TRUE(world.movingTree()->validate(report)) << (report.what ? report.what : "");
    EXPECT_TRUE(world.staticTree()->validate(report)) << (report.what ? report.what : "");
}

TEST(BadInputWorld, UninitialisedWorldAnswersEverything) {
    World world;
    BodyId id;
    const Transform t = identityTransform();
    EXPECT_EQ(world.spawnLevel(LevelDesc{}, id), Status::InvalidArgument);
    EXPECT_EQ(world.spawnWalls(WallsDesc{}, id), Status::InvalidArgument);
    EXPECT_EQ(world.spawnEnemy(ShipDesc{}, id), Status::InvalidArgument);
    EXPECT_EQ(world.spawnPlayer(ShipDesc{}, id), Status::InvalidArgument);
    EXPECT_EQ(world.spawnBullet(BulletDesc{}, id), Status::InvalidArgument);
    EXPECT_EQ(world.spawnBeam(BeamDesc{}, id), Status::InvalidArgument);
    BodyId some{0, 1, BodyKind::Bullet, 0, 1};
    EXPECT_EQ(world.despawn(some), Status::InvalidArgument);
    EXPECT_EQ(world.setShipTransform(some, t), Status::InvalidArgument);
    EXPECT_EQ(world.setBullet(some, Sphere{}, Vec3{}), Status::InvalidArgument);
    EXPECT_EQ(world.setBeamPoints(some, nullptr, 0), Status::InvalidArgument);
    EXPECT_EQ(world.step(0.016f), Status::InvalidArgument);
    EXPECT_EQ(world.hits(), nullptr);
    EXPECT_EQ(world.hitCount(), 0u);
    EXPECT_EQ(world.stats().hits, 0u);
    EXPECT_EQ(world.hitStreamHash(), kHitHashSeed);
    EXPECT_EQ(world.stepCount(), 0u);
    EXPECT_FALSE(world.isAlive(some));
    EXPECT_TRUE(world.bodyAt(BodyKind::Bullet, 0).isNull());
    BulletDesc bullet;
    EXPECT_EQ(world.getBullet(some, bullet), Status::InvalidArgument);
    Transform out;
    EXPECT_EQ(world.getShipTransform(some, out), Status::InvalidArgument);
    EXPECT_EQ(world.poolUsage(BodyKind::Bullet).capacity, 0u);
    EXPECT_EQ(world.scratchHighWater(), 0u);
    EXPECT_EQ(world.scratchCapacity(), 0u);
    EXPECT_EQ(world.movingTree(), nullptr);
    EXPECT_EQ(world.staticTree(), nullptr);
    EXPECT_EQ(world.config().max_hits, WorldConfig{}.max_hits); // a default config, never garbage
}

TEST(BadInputWorld, ImpossibleConfigs) {
    auto refused = [](const WorldConfig& c) { return World::requiredBytes(c) == 0; };
    WorldConfig c = tinyConfig();
    ASSERT_FALSE(refused(c));
    for (float bad : {kNaN, kInf, -kInf, -1.0f}) {
        WorldConfig b = c;
        b.broad_margin = bad;
        EXPECT_TRUE(refused(b)) << bad;
        b = c;
        b.sweep_radii = bad;
        EXPECT_TRUE(refused(b)) << bad;
    }
    WorldConfig b = c;
    b.max_contacts = 0;
    EXPECT_TRUE(refused(b));
    b = c;
    b.max_pairs = 0;
    EXPECT_TRUE(refused(b));
    b = c;
    b.max_beam_points = 0;
    EXPECT_TRUE(refused(b));
    b = c;
    b.max_enemies = 0xFFFFFFFFu; // ships beyond the tree's limit (and a uint32 sum that wraps)
    b.max_players = 2;
    EXPECT_TRUE(refused(b));
    b = c;
    b.max_levels = 0xFFFFFFFFu; // levels + wall sets wrap to 0 in uint32: still refused
    b.max_wall_sets = 1;
    EXPECT_TRUE(refused(b));
    b = c;
    b.max_levels = DynamicTree::kMaxProxies; // the static tree could not be laid out
    EXPECT_TRUE(refused(b));
    b = c;
    b.max_beams = 0x10000u;
    b.max_beam_points = 0x10000u;
    EXPECT_TRUE(refused(b));
    // Zero capacities where none is required: a valid world whose spawns are PoolFull.
    WorldConfig zero = c;
    zero.max_levels = zero.max_wall_sets = zero.max_enemies = zero.max_players = 0;
    zero.max_bullets = zero.max_beams = 0;
    HostWorld host(zero);
    ASSERT_EQ(host.initStatus(), Status::Ok);
    BodyId id;
    BulletDesc bullet;
    bullet.sphere.radius = 1;
    EXPECT_EQ(host.world.spawnBullet(bullet, id), Status::PoolFull);
    EXPECT_EQ(host.world.spawnBeam(BeamDesc{}, id), Status::PoolFull);
    EXPECT_TRUE(id.isNull());
    EXPECT_EQ(host.world.step(0.016f), Status::Ok);
}

TEST(BadInputWorld, SpawnsRefuseBadInputAndChangeNothing) {
    HostWorld host(tinyConfig());
    ASSERT_EQ(host.initStatus(), Status::Ok);
    World& world = host.world;
    auto mesh = goodMesh();
    auto degenerate = degenerateMesh();
    auto empty_baked = loadBaked(bakeBytes(Mesh{}));
    const MeshBlob default_blob;
    auto cluster = goodCluster();
    const SphereCluster empty_cluster{};
    auto walls = goodWalls();
    const WallSet empty_walls{};
    const Census before(world);
    BodyId id;
    auto refused = [&](Status status) {
        EXPECT_EQ(status, Status::InvalidArgument);
        EXPECT_TRUE(id.isNull());
        EXPECT_TRUE(Census(world) == before);
    };
    // Levels: null, empty (both kinds), non-finite transforms.
    refused(world.spawnLevel(LevelDesc{nullptr, identityTransform()}, id));
    refused(world.spawnLevel(LevelDesc{&default_blob, identityTransform()}, id));
    refused(world.spawnLevel(LevelDesc{&empty_baked->blob, identityTransform()}, id));
    for (const Transform& t : nonFiniteTransforms()) refused(world.spawnLevel(LevelDesc{&mesh->blob, t}, id));
    // Walls: null and empty.
    refused(world.spawnWalls(WallsDesc{nullptr}, id));
    refused(world.spawnWalls(WallsDesc{&empty_walls}, id));
    // Ships.
    ShipDesc ship;
    ship.ship_to_world = identityTransform();
    refused(world.spawnEnemy(ship, id));  // no mesh
    refused(world.spawnPlayer(ship, id)); // no cluster
    ship.mesh = &default_blob;
    refused(world.spawnEnemy(ship, id));
    ship.mesh = &empty_baked->blob;
    refused(world.spawnEnemy(ship, id));
    ship.cluster = &cluster->cluster;
    refused(world.spawnPlayer(ship, id)); // a player with an empty mesh
    ship.mesh = &mesh->blob;
    ship.cluster = &empty_cluster;
    refused(world.spawnEnemy(ship, id)); // an enemy with an empty cluster
    refused(world.spawnPlayer(ship, id));
    ship.cluster = &cluster->cluster;
    for (const Transform& t : nonFiniteTransforms()) {
        ship.ship_to_world = t;
        refused(world.spawnEnemy(ship, id));
        refused(world.spawnPlayer(ship, id));
    }
    // A finite transform far from rigid whose world box overflows: InvalidArgument, not PoolFull.
    ship.ship_to_world = identityTransform();
    set(FLT_MAX, 0, 0, ship.ship_to_world.rotation.c0);
    set(FLT_MAX, 0, 0, ship.ship_to_world.translation);
    refused(world.spawnEnemy(ship, id));
    refused(world.spawnPlayer(ship, id));
    // Bullets.
    BulletDesc bullet;
    bullet.sphere.radius = 0.5f;
    for (float v : nonFiniteValues()) {
        BulletDesc b = bullet;
        b.sphere.center.x = v;
        refused(world.spawnBullet(b, id));
        b = bullet;
        b.sphere.radius = v;
        refused(world.spawnBullet(b, id));
        b = bullet;
        b.velocity.z = v;
        refused(world.spawnBullet(b, id));
    }
    BulletDesc neg = bullet;
    neg.sphere.radius = -1;
    refused(world.spawnBullet(neg, id));
    // A degenerate mesh is a valid level and enemy (its triangles are segments and points).
    EXPECT_EQ(world.spawnLevel(LevelDesc{&degenerate->blob, identityTransform()}, id), Status::Ok);
    ship.ship_to_world = identityTransform();
    ship.mesh = &degenerate->blob;
    EXPECT_EQ(world.spawnEnemy(ship, id), Status::Ok);
    EXPECT_EQ(world.step(0.016f), Status::Ok);
    expectTreesValid(world);
}

TEST(BadInputWorld, FullPoolsAndBadIds) {
    HostWorld host(tinyConfig());
    ASSERT_EQ(host.initStatus(), Status::Ok);
    World& world = host.world;
    auto mesh = goodMesh();
    auto cluster = goodCluster();
    auto walls = goodWalls();
    BodyId level, wall, enemies[2], player, bullets[2], beam, extra;
    ASSERT_EQ(world.spawnLevel(LevelDesc{&mesh->blob, identityTransform()}, level), Status::Ok);
    ASSERT_EQ(world.spawnWalls(WallsDesc{&walls->walls}, wall), Status::Ok);
    ShipDesc ship;
    ship.mesh = &mesh->blob;
    ship.cluster = &cluster->cluster;
    yawAt(0, 10, 0, 0, ship.ship_to_world);
    for (BodyId& e : enemies) ASSERT_EQ(world.spawnEnemy(ship, e), Status::Ok);
    ASSERT_EQ(world.spawnPlayer(ship, player), Status::Ok);
    BulletDesc bullet;
    bullet.sphere.radius = 0.5f;
    for (BodyId& b : bullets) ASSERT_EQ(world.spawnBullet(bullet, b), Status::Ok);
    ASSERT_EQ(world.spawnBeam(BeamDesc{}, beam), Status::Ok);
    // Every pool is full: PoolFull, a null id, nothing changed.
    const Census full(world);
    EXPECT_EQ(world.spawnLevel(LevelDesc{&mesh->blob, identityTransform()}, extra), Status::PoolFull);
    EXPECT_EQ(world.spawnWalls(WallsDesc{&walls->walls}, extra), Status::PoolFull);
    EXPECT_EQ(world.spawnEnemy(ship, extra), Status::PoolFull);
    EXPECT_EQ(world.spawnPlayer(ship, extra), Status::PoolFull);
    EXPECT_EQ(world.spawnBullet(bullet, extra), Status::PoolFull);
    EXPECT_EQ(world.spawnBeam(BeamDesc{}, extra), Status::PoolFull);
    EXPECT_TRUE(extra.isNull());
    EXPECT_TRUE(Census(world) == full);
    // Null, stale and forged ids on every call.
    ASSERT_EQ(world.despawn(bullets[1]), Status::Ok);
    const BodyId stale = bullets[1];
    BodyId forged_kind = bullets[0];
    forged_kind.kind = BodyKind::Count;
    BodyId forged_kind2 = bullets[0];
    forged_kind2.kind = static_cast<BodyKind>(200);
    BodyId forged_index = bullets[0];
    forged_index.index = 0xFFFFFFFFu;
    BodyId none_kind = bullets[0];
    none_kind.kind = BodyKind::None;
    const Census before(world);
    BulletDesc out_bullet;
    poison(out_bullet);
    Transform out_t;
    poison(out_t);
    const Vec3 pts[2] = {vec3(0, 0, 0), vec3(1, 0, 0)};
    for (const BodyId& bad : {BodyId{}, stale, forged_kind, forged_kind2, forged_index, none_kind}) {
        SCOPED_TRACE(testing::Message() << int(bad.kind) << " " << bad.index << " " << bad.generation);
        const Status d = world.despawn(bad);
        if (bad.isNull()) {
            EXPECT_EQ(d, Status::NullHandle);
        } else {
            EXPECT_TRUE(d == Status::StaleHandle || d == Status::InvalidArgument) << statusName(d);
        }
        EXPECT_NE(world.setShipTransform(bad, identityTransform()), Status::Ok);
        EXPECT_NE(world.setBullet(bad, bullet.sphere, bullet.velocity), Status::Ok);
        EXPECT_NE(world.setBeamPoints(bad, pts, 2), Status::Ok);
        EXPECT_NE(world.getBullet(bad, out_bullet), Status::Ok);
        EXPECT_NE(world.getShipTransform(bad, out_t), Status::Ok);
        EXPECT_FALSE(world.isAlive(bad));
    }
    EXPECT_TRUE(isPoisoned(out_bullet));
    EXPECT_TRUE(isPoisoned(out_t));
    EXPECT_TRUE(Census(world) == before);
    EXPECT_EQ(world.despawn(stale), Status::StaleHandle);
    EXPECT_EQ(world.setBullet(stale, bullet.sphere, bullet.velocity), Status::StaleHandle);
    EXPECT_EQ(world.despawn(BodyId{}), Status::NullHandle);
    // Wrong kinds: InvalidArgument.
    EXPECT_EQ(world.setShipTransform(bullets[0], identityTransform()), Status::InvalidArgument);
    EXPECT_EQ(world.setBullet(enemies[0], bullet.sphere, bullet.velocity), Status::InvalidArgument);
    EXPECT_EQ(world.setBeamPoints(player, pts, 2), Status::InvalidArgument);
    EXPECT_EQ(world.getBullet(beam, out_bullet), Status::InvalidArgument);
    EXPECT_EQ(world.getShipTransform(level, out_t), Status::InvalidArgument);
    // bodyAt and poolUsage with kinds and slots out of range.
    for (BodyKind k : {BodyKind::None, BodyKind::Count, static_cast<BodyKind>(255)}) {
        EXPECT_TRUE(world.bodyAt(k, 0).isNull());
        EXPECT_EQ(world.poolUsage(k).capacity, 0u);
    }
    EXPECT_TRUE(world.bodyAt(BodyKind::Enemy, 0xFFFFFFFFu).isNull());
    EXPECT_EQ(world.step(0.016f), Status::Ok);
    expectTreesValid(world);
}

TEST(BadInputWorld, SettersRefuseBadInputAndChangeNothing) {
    HostWorld host(tinyConfig());
    ASSERT_EQ(host.initStatus(), Status::Ok);
    World& world = host.world;
    auto mesh = goodMesh();
    auto cluster = goodCluster();
    ShipDesc ship;
    ship.mesh = &mesh->blob;
    ship.cluster = &cluster->cluster;
    yawAt(0.3f, 5, 1, 0, ship.ship_to_world);
    BodyId enemy, player, bullet_id, beam;
    ASSERT_EQ(world.spawnEnemy(ship, enemy), Status::Ok);
    ASSERT_EQ(world.spawnPlayer(ship, player), Status::Ok);
    BulletDesc bullet;
    set(-5, 0, 0, bullet.sphere.center);
    bullet.sphere.radius = 0.25f;
    set(10, 0, 0, bullet.velocity);
    ASSERT_EQ(world.spawnBullet(bullet, bullet_id), Status::Ok);
    ASSERT_EQ(world.spawnBeam(BeamDesc{1}, beam), Status::Ok); // team 1: it may hit the team-0 ships
    Aabb fat_before;
    ASSERT_EQ(world.movingTree()->getFatBox(ProxyId{0, 1}, fat_before), Status::Ok);
    auto shipUnchanged = [&](const BodyId& id) {
        Transform t;
        ASSERT_EQ(world.getShipTransform(id, t), Status::Ok);
        EXPECT_EQ(std::memcmp(&t, &ship.ship_to_world, sizeof(Transform)), 0);
    };
    for (const BodyId& s : {enemy, player}) {
        for (const Transform& t : nonFiniteTransforms())
            EXPECT_EQ(world.setShipTransform(s, t), Status::InvalidArgument);
        // Non-rigid finite transforms whose box overflows, and a teleport across the float range
        // (the displacement overflows): refused, the ship stays where it was.
        Transform stretched = ship.ship_to_world;
        set(FLT_MAX, 0, 0, stretched.rotation.c0);
        set(FLT_MAX, 0, 0, stretched.translation);
        EXPECT_EQ(world.setShipTransform(s, stretched), Status::InvalidArgument);
        shipUnchanged(s);
        // A finite rotation that is not rigid (a 1% scale): every query inverts a ship's
        // transform by transposing, and mesh-vs-mesh answered no contact for it without a word.
        Transform scaled = ship.ship_to_world;
        scale(scaled.rotation.c0, 1.01f, scaled.rotation.c0);
        EXPECT_EQ(world.setShipTransform(s, scaled), Status::InvalidArgument);
        shipUnchanged(s);
    }
    {
        ShipDesc scaled_ship = ship;
        scale(scaled_ship.ship_to_world.rotation.c1, 0.5f, scaled_ship.ship_to_world.rotation.c1);
        BodyId refused;
        EXPECT_EQ(world.spawnEnemy(scaled_ship, refused), Status::InvalidArgument);
        EXPECT_EQ(world.spawnPlayer(scaled_ship, refused), Status::InvalidArgument);
        LevelDesc level;
        level.mesh = &mesh->blob;
        level.mesh_to_world = scaled_ship.ship_to_world;
        EXPECT_EQ(world.spawnLevel(level, refused), Status::InvalidArgument);
    }
    Aabb fat_after;
    ASSERT_EQ(world.movingTree()->getFatBox(ProxyId{0, 1}, fat_after), Status::Ok);
    EXPECT_EQ(std::memcmp(&fat_before, &fat_after, sizeof(Aabb)), 0);
    // A teleport to -3e38 is fine; from there to +3e38 the jump overflows and is refused.
    Transform far_left = ship.ship_to_world, far_right = ship.ship_to_world;
    far_left.translation.x = -3e38f;
    far_right.translation.x = 3e38f;
    ASSERT_EQ(world.setShipTransform(enemy, far_left), Status::Ok);
    EXPECT_EQ(world.setShipTransform(enemy, far_right), Status::InvalidArgument);
    Transform now;
    ASSERT_EQ(world.getShipTransform(enemy, now), Status::Ok);
    EXPECT_EQ(now.translation.x, -3e38f);
    ASSERT_EQ(world.setShipTransform(enemy, ship.ship_to_world), Status::Ok); // and back
    expectTreesValid(world);
    // Bullets.
    for (float v : nonFiniteValues()) {
        Sphere s = bullet.sphere;
        s.center.y = v;
        EXPECT_EQ(world.setBullet(bullet_id, s, bullet.velocity), Status::InvalidArgument);
        s = bullet.sphere;
        s.radius = v;
        EXPECT_EQ(world.setBullet(bullet_id, s, bullet.velocity), Status::InvalidArgument);
        EXPECT_EQ(world.setBullet(bullet_id, bullet.sphere, vec3(0, 0, v)), Status::InvalidArgument);
    }
    Sphere neg = bullet.sphere;
    neg.radius = -0.1f;
    EXPECT_EQ(world.setBullet(bullet_id, neg, bullet.velocity), Status::InvalidArgument);
    BulletDesc now_bullet;
    ASSERT_EQ(world.getBullet(bullet_id, now_bullet), Status::Ok);
    EXPECT_EQ(std::memcmp(&now_bullet.sphere, &bullet.sphere, sizeof(Sphere)), 0);
    EXPECT_EQ(std::memcmp(&now_bullet.velocity, &bullet.velocity, sizeof(Vec3)), 0);
    // Beams: too many points, null with a count, a NaN point; null with 0 clears it.
    const Vec3 good[3] = {vec3(-20, 1, 0), vec3(0, 1, 0), vec3(20, 1, 0)};
    ASSERT_EQ(world.setBeamPoints(beam, good, 3), Status::Ok);
    const Vec3 four[4] = {good[0], good[1], good[2], good[2]};
    EXPECT_EQ(world.setBeamPoints(beam, four, 4), Status::InvalidArgument);
    EXPECT_EQ(world.setBeamPoints(beam, nullptr, 2), Status::InvalidArgument);
    for (float v : nonFiniteValues()) {
        const Vec3 bad[3] = {good[0], vec3(0, v, 0), good[2]};
        EXPECT_EQ(world.setBeamPoints(beam, bad, 3), Status::InvalidArgument);
    }
    ASSERT_EQ(world.step(0.016f), Status::Ok);
    bool beam_hit = false;
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) beam_hit |= world.hits()[i].kind == HitKind::Beam;
    EXPECT_TRUE(beam_hit); // the good polyline survived the refusals
    EXPECT_EQ(world.setBeamPoints(beam, nullptr, 0), Status::Ok);
    EXPECT_EQ(world.setBeamPoints(beam, good, 1), Status::Ok); // one point: hits nothing
    // Steps with bad dt: InvalidArgument, nothing happens (no step counted, bullets stay).
    const std::uint64_t steps = world.stepCount();
    const std::uint64_t hash = world.hitStreamHash();
    for (float dt : {kNaN, kInf, -kInf, -0.016f}) EXPECT_EQ(world.step(dt), Status::InvalidArgument) << dt;
    EXPECT_EQ(world.stepCount(), steps);
    EXPECT_EQ(world.hitStreamHash(), hash);
    EXPECT_EQ(world.step(0.0f), Status::Ok); // dt = 0 is valid
    // A huge finite dt or velocity carries a bullet out of float range: it is skipped, counted.
    ASSERT_EQ(world.setBullet(bullet_id, bullet.sphere, vec3(FLT_MAX, 0, 0)), Status::Ok);
    EXPECT_EQ(world.step(FLT_MAX), Status::Ok);
    EXPECT_EQ(world.step(FLT_MAX), Status::Ok);
    EXPECT_GT(world.stats().skipped_bodies, 0u);
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) {
        const Hit& h = world.hits()[i];
        EXPECT_TRUE(isFinite(h.point) && isFinite(h.normal)) << i;
    }
    expectTreesValid(world);
}

TEST(BadInputWorld, HitOrderHashAndPhaseNames) {
    // hitLess stays irreflexive on a NaN t (the key decides first; NaN compares false both ways;
    // the soak shows steps never write one), and hashHit hashes bit patterns, so NaN and -0 hash
    // deterministically.
    Hit a, b;
    a.t = kNaN;
    b.t = 0.5f;
    EXPECT_FALSE(hitLess(a, a));
    EXPECT_FALSE(hitLess(a, b));
    EXPECT_FALSE(hitLess(b, a));
    b.feature = 3;
    a.feature = 2;
    EXPECT_TRUE(hitLess(a, b)); // the key first
    EXPECT_EQ(hashHit(a, kHitHashSeed), hashHit(a, kHitHashSeed));
    Hit z = b, nz = b;
    z.t = 0.0f;
    nz.t = -0.0f;
    EXPECT_NE(hashHit(z, kHitHashSeed), hashHit(nz, kHitHashSeed)); // bit patterns, not values
    for (int p = 0; p <= 255; ++p) {
        const char* name = worldPhaseName(static_cast<WorldPhase>(p));
        ASSERT_NE(name, nullptr) << p;
    }
    EXPECT_STREQ(worldPhaseName(WorldPhase::Count), "unknown");
}

} // namespace
} // namespace flak::test
