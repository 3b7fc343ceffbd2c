// The World's contract at its edges: init errors, capacity, stale and null ids, bad input,
// dropped work at full buffers, and the hit order.
#include "geom/tri_tri_classify.h"
#include "world_assets.h"
#include "world_fixture.h"

#include <flak/bvh/mesh_mesh.h>
#include <flak/geom/tri_tri.h>
#include <flak/shooter/wall_set.h>

#include <cstring>
#include <memory>

namespace flak::test {
namespace {

WorldConfig smallConfig() {
    WorldConfig c;
    c.max_levels = 1;
    c.max_wall_sets = 1;
    c.max_enemies = 2;
    c.max_players = 2;
    c.max_bullets = 3;
    c.max_beams = 1;
    c.max_beam_points = 4;
    return c;
}

// An enemy of team 1 at the origin, unturned.
ShipDesc enemyAtOrigin(const TestMesh& mesh) {
    ShipDesc enemy;
    enemy.mesh = &mesh.blob;
    enemy.team = 1;
    setIdentity(enemy.ship_to_world);
    return enemy;
}

TEST(WorldApi, InitReportsBadMemoryAndConfig) {
    WorldConfig config = smallConfig();
    const std::size_t bytes = World::requiredBytes(config);
    ASSERT_GT(bytes, 0u);
    flak::support::HostBlock block(bytes + World::kAlignment, World::kAlignment);
    unsigned char* aligned = block.data();
    World world;
    EXPECT_EQ(world.init(nullptr, bytes, config), Status::NullMemory);
    EXPECT_EQ(world.init(aligned + 16, bytes, config), Status::Misaligned);
    EXPECT_EQ(world.init(aligned, bytes - 1, config), Status::TooSmall);
    WorldConfig bad = config;
    bad.max_hits = 0;
    EXPECT_EQ(World::requiredBytes(bad), 0u);
    EXPECT_EQ(world.init(aligned, bytes, bad), Status::InvalidArgument);
    bad = config;
    bad.max_beam_points = 1;
    EXPECT_EQ(world.init(aligned, bytes, bad), Status::InvalidArgument);
    bad = config;
    bad.broad_margin = std::nanf("");
    EXPECT_EQ(world.init(aligned, bytes, bad), Status::InvalidArgument);
    // A failed init leaves the world unusable, not half-built.
    BodyId id;
    EXPECT_EQ(world.spawnBullet(BulletDesc{}, id), Status::InvalidArgument);
    EXPECT_EQ(world.step(0.016f), Status::InvalidArgument);
    EXPECT_EQ(world.hitCount(), 0u);
    EXPECT_EQ(world.init(aligned, bytes, config), Status::Ok);
    EXPECT_EQ(world.step(0.016f), Status::Ok);
}

TEST(WorldApi, PoolsAnswerPoolFullAndChangeNothing) {
    HostWorld host(smallConfig());
    ASSERT_EQ(host.initStatus(), Status::Ok);
    World& world = host.world;
    BulletDesc bullet;
    bullet.sphere.radius = 0.5f;
    BodyId ids[3];
    for (BodyId& id : ids) ASSERT_EQ(world.spawnBullet(bullet, id), Status::Ok);
    BodyId extra;
    EXPECT_EQ(world.spawnBullet(bullet, extra), Status::PoolFull);
    EXPECT_TRUE(extra.isNull());
    PoolUsage usage = world.poolUsage(BodyKind::Bullet);
    EXPECT_EQ(usage.live, 3u);
    EXPECT_EQ(usage.capacity, 3u);
    ASSERT_EQ(world.despawn(ids[1]), Status::Ok);
    EXPECT_EQ(world.spawnBullet(bullet, extra), Status::Ok);
    usage = world.poolUsage(BodyKind::Bullet);
    EXPECT_EQ(usage.live, 3u);
    EXPECT_EQ(usage.high_water, 3u);
}

TEST(WorldApi, StaleAndNullIdsAreDetected) {
    HostWorld host(smallConfig());
    World& world = host.world;
    BulletDesc bullet;
    bullet.sphere.radius = 0.5f;
    bullet.team = 3;
    bullet.user = 0xB0117E7u;
    bullet.filter = CollisionFilter{4u, 0xF0u};
    BodyId id;
    ASSERT_EQ(world.spawnBullet(bullet, id), Status::Ok);
    EXPECT_TRUE(world.isAlive(id));
    BulletDesc read; // every field written back (user and filter were left as they were)
    read.user = 1;
    read.filter = CollisionFilter{};
    ASSERT_EQ(world.getBullet(id, read), Status::Ok);
    EXPECT_EQ(std::memcmp(&read.sphere, &bullet.sphere, sizeof(Sphere)), 0);
    EXPECT_EQ(read.team, 3u);
    EXPECT_EQ(read.user, bullet.user);
    EXPECT_EQ(read.filter.category, 4u);
    EXPECT_EQ(read.filter.mask, 0xF0u);
    ASSERT_EQ(world.despawn(id), Status::Ok);
    EXPECT_FALSE(world.isAlive(id));
    EXPECT_EQ(world.despawn(id), Status::StaleHandle);
    BulletDesc now;
    EXPECT_EQ(world.getBullet(id, now), Status::StaleHandle);
    EXPECT_EQ(world.setBullet(id, now.sphere, now.velocity), Status::StaleHandle);
    EXPECT_TRUE(world.bodyAt(BodyKind::Bullet, id.index).isNull());
    BodyId reused;
    ASSERT_EQ(world.spawnBullet(bullet, reused), Status::Ok);
    EXPECT_EQ(world.bodyAt(BodyKind::Bullet, reused.index), reused);
    EXPECT_TRUE(world.bodyAt(BodyKind::Bullet, 99).isNull());
    EXPECT_EQ(reused.index, id.index);           // the slot is reused ...
    EXPECT_NE(reused.generation, id.generation); // ... under a new generation
    EXPECT_EQ(world.despawn(id), Status::StaleHandle);
    EXPECT_EQ(world.despawn(BodyId{}), Status::NullHandle);
    Transform t;
    setIdentity(t);
    EXPECT_EQ(world.setShipTransform(reused, t), Status::InvalidArgument); // not a ship
}

TEST(WorldApi, BadInputIsRefusedAndChangesNothing) {
    HostWorld host(smallConfig());
    World& world = host.world;
    const float nan = std::nanf("");
    BulletDesc bullet;
    bullet.sphere.radius = -1.0f;
    BodyId id;
    EXPECT_EQ(world.spawnBullet(bullet, id), Status::InvalidArgument);
    bullet.sphere.radius = 1.0f;
    bullet.velocity.x = nan;
    EXPECT_EQ(world.spawnBullet(bullet, id), Status::InvalidArgument);
    bullet.velocity.x = 0.0f;
    bullet.sphere.center.y = std::numeric_limits<float>::infinity();
    EXPECT_EQ(world.spawnBullet(bullet, id), Status::InvalidArgument);
    EXPECT_EQ(world.poolUsage(BodyKind::Bullet).live, 0u);

    ShipDesc ship;
    setIdentity(ship.ship_to_world);
    EXPECT_EQ(world.spawnEnemy(ship, id), Status::InvalidArgument);  // no mesh
    EXPECT_EQ(world.spawnPlayer(ship, id), Status::InvalidArgument); // no cluster
    auto cluster = makeTestCluster(8, 2.0f, 3);
    ship.cluster = &cluster->cluster;
    ship.ship_to_world.translation.x = nan;
    EXPECT_EQ(world.spawnPlayer(ship, id), Status::InvalidArgument);
    ship.ship_to_world.translation.x = 0.0f;
    ASSERT_EQ(world.spawnPlayer(ship, id), Status::Ok);
    Transform moved = ship.ship_to_world;
    moved.rotation.c0.x = nan;
    EXPECT_EQ(world.setShipTransform(id, moved), Status::InvalidArgument);
    Transform now;
    ASSERT_EQ(world.getShipTransform(id, now), Status::Ok);
    EXPECT_EQ(now.translation.x, 0.0f);

    BodyId beam;
    ASSERT_EQ(world.spawnBeam(BeamDesc{}, beam), Status::Ok);
    Vec3 points[5];
    EXPECT_EQ(world.setBeamPoints(beam, points, 5), Status::InvalidArgument); // above max_beam_points
    EXPECT_EQ(world.setBeamPoints(beam, nullptr, 2), Status::InvalidArgument);
    points[1].z = nan;
    EXPECT_EQ(world.setBeamPoints(beam, points, 2), Status::InvalidArgument);
    EXPECT_EQ(world.step(-1.0f), Status::InvalidArgument);
    EXPECT_EQ(world.step(nan), Status::InvalidArgument);
    EXPECT_EQ(world.stepCount(), 0u);
}

// Many bullets into one enemy: the hit buffer keeps max_hits, counts the rest, and says so.
TEST(WorldApi, FullHitBufferDropsAndCounts) {
    WorldConfig config = smallConfig();
    config.max_bullets = 64;
    config.max_hits = 10;
    HostWorld host(config);
    World& world = host.world;
    auto mesh = makeTestMesh(icosphere(2, 2.0f));
    const ShipDesc enemy = enemyAtOrigin(*mesh);
    BodyId enemy_id;
    ASSERT_EQ(world.spawnEnemy(enemy, enemy_id), Status::Ok);
    for (int i = 0; i < 64; ++i) {
        BulletDesc b;
        set(-10.0f, 0.02f * static_cast<float>(i) - 0.6f, 0.0f, b.sphere.center);
        b.sphere.radius = 0.1f;
        set(1200.0f, 0.0f, 0.0f, b.velocity); // 20 units a step: crosses the sphere
        BodyId id;
        ASSERT_EQ(world.spawnBullet(b, id), Status::Ok);
    }
    EXPECT_EQ(world.step(1.0f / 60.0f), Status::BufferFull);
    EXPECT_EQ(world.hitCount(), 10u);
    EXPECT_EQ(world.stats().hits_dropped, 54u);
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) {
        EXPECT_EQ(world.hits()[i].kind, HitKind::Bullet);
        EXPECT_EQ(world.hits()[i].b, enemy_id);
        if (i > 0) {
            EXPECT_TRUE(hitLess(world.hits()[i - 1], world.hits()[i]));
        }
    }
}

// Six players on one spot make 15 ship pairs; a pair buffer of 4 keeps 4 and counts 11.
TEST(WorldApi, FullPairBufferDropsAndCounts) {
    WorldConfig config = smallConfig();
    config.max_players = 6;
    config.max_pairs = 4;
    HostWorld host(config);
    World& world = host.world;
    auto cluster = makeTestCluster(8, 2.0f, 11);
    ShipDesc player;
    player.cluster = &cluster->cluster;
    setIdentity(player.ship_to_world);
    for (int i = 0; i < 6; ++i) {
        BodyId id;
        ASSERT_EQ(world.spawnPlayer(player, id), Status::Ok);
    }
    EXPECT_EQ(world.step(1.0f / 60.0f), Status::BufferFull);
    EXPECT_EQ(world.stats().pairs, 15u);
    EXPECT_EQ(world.stats().pairs_dropped, 11u);
    EXPECT_EQ(world.hitCount(), 4u); // the 4 pairs kept all touch
}

// Pairs the narrow phase would never test take no room in the pair buffer: six enemies whose
// filters keep them from each other and from the player, and who have no cluster to meet the walls
// with, sit on a player in a wall corner. With room for one pair, the player's wall pair is the
// one found and tested; before, the enemies' 27 untestable pairs came first and it was dropped.
TEST(WorldApi, PairsThatCannotBeTestedTakeNoRoom) {
    const Sphere ball{Vec3{-28.5f, -28.5f, 0.0f}, 1.0f}; // the square [-35, -29]^2's corner at 0.71
    SphereCluster cluster;
    ASSERT_EQ(makeSphereCluster(&ball, 1, cluster), Status::Ok);
    auto mesh = makeTestMesh(icosphere(2, 2.0f));
    WorldConfig config = smallConfig();
    config.max_enemies = 6;
    config.max_players = 1;
    config.max_pairs = 1;
    HostWorld host(config);
    World& world = host.world;
    BodyId walls, player, enemy;
    ASSERT_EQ(world.spawnWalls(WallsDesc{&assets().walls}, walls), Status::Ok);
    ShipDesc desc = enemyAtOrigin(*mesh);
    set(-28.5f, -28.5f, 0.0f, desc.ship_to_world.translation);
    desc.filter.category = 2;
    desc.filter.mask = ~2u;
    for (int i = 0; i < 6; ++i) ASSERT_EQ(world.spawnEnemy(desc, enemy), Status::Ok);
    desc = ShipDesc{};
    desc.cluster = &cluster;
    desc.filter.category = 4;
    desc.filter.mask = ~2u;
    setIdentity(desc.ship_to_world);
    ASSERT_EQ(world.spawnPlayer(desc, player), Status::Ok);
    EXPECT_EQ(world.step(1.0f / 60.0f), Status::Ok);
    EXPECT_EQ(world.stats().pairs, 1u);
    EXPECT_EQ(world.stats().pairs_dropped, 0u);
    ASSERT_EQ(world.hitCount(), 1u);
    EXPECT_EQ(world.hits()[0].kind, HitKind::ShipWall);
    EXPECT_EQ(world.hits()[0].a, player);
    EXPECT_EQ(world.hits()[0].b, walls);
}

// The push-out contract (hit.h): a ShipWall hit's normal * depth frees the ship. A ship of
// several spheres used to get one projection pass over its contacts, which at a corner or deep
// inside could leave it as deep as before (the first case: 1.79 deep after a push of 1.21). Here
// every placement of the shared 29-sphere ship that touches a grid of squares with room between
// them, and that first case, is freed by the push: the next step reports it touching at most.
TEST(WorldApi, ShipWallPushFreesTheShip) {
    const auto square = [](float cx, float cy, float r) {
        bake::WallPolygon p;
        p.rings.push_back({{cx - r, cy - r}, {cx + r, cy - r}, {cx + r, cy + r}, {cx - r, cy + r}});
        return p;
    };
    const auto freed = [](World& world, const BodyId& player, Transform t, float& out_first,
                          float& out_after) {
        out_first = out_after = 0.0f;
        EXPECT_EQ(world.setShipTransform(player, t), Status::Ok);
        EXPECT_EQ(world.step(0.0f), Status::Ok);
        if (world.hitCount() == 0) return false;
        EXPECT_EQ(world.hitCount(), 1u);
        const Hit hit = world.hits()[0];
        EXPECT_EQ(hit.kind, HitKind::ShipWall);
        out_first = hit.depth;
        t.translation.x += hit.normal.x * hit.depth;
        t.translation.y += hit.normal.y * hit.depth;
        EXPECT_EQ(world.setShipTransform(player, t), Status::Ok);
        EXPECT_EQ(world.step(0.0f), Status::Ok);
        if (world.hitCount() > 0) out_after = world.hits()[0].depth;
        return true;
    };
    WorldConfig config = smallConfig();
    {
        auto bytes = bakeTestWalls({square(0.0f, 0.0f, 5.0f)});
        Blob blob;
        WallSet walls;
        ASSERT_EQ(openBlob(bytes->data(), bytes->size(), blob), Status::Ok);
        ASSERT_EQ(loadWallSet(blob, walls), Status::Ok);
        const Sphere spheres[3] = {
            {{-2.0f, 0.0f, 0.0f}, 1.0f}, {{0.0f, 0.0f, 0.0f}, 1.2f}, {{2.0f, 0.5f, 0.0f}, 0.8f}};
        SphereCluster cluster;
        ASSERT_EQ(makeSphereCluster(spheres, 3, cluster), Status::Ok);
        HostWorld host(config);
        BodyId walls_id, player;
        ASSERT_EQ(host.world.spawnWalls(WallsDesc{&walls}, walls_id), Status::Ok);
        ShipDesc desc;
        desc.cluster = &cluster;
        yawAt(3.23718095f, -5.11829472f, 4.41602039f, 0.0f, desc.ship_to_world);
        ASSERT_EQ(host.world.spawnPlayer(desc, player), Status::Ok);
        float first = 0.0f, after = 0.0f;
        ASSERT_TRUE(freed(host.world, player, desc.ship_to_world, first, after));
        EXPECT_GT(first, 1.0f);
        EXPECT_LE(after, 1e-5f);
    }
    std::vector<bake::WallPolygon> grid;
    for (int gy = -1; gy <= 1; ++gy)
        for (int gx = -1; gx <= 1; ++gx) grid.push_back(square(20.0f * float(gx), 20.0f * float(gy), 3.0f));
    auto bytes = bakeTestWalls(grid);
    Blob blob;
    WallSet walls;
    ASSERT_EQ(openBlob(bytes->data(), bytes->size(), blob), Status::Ok);
    ASSERT_EQ(loadWallSet(blob, walls), Status::Ok);
    HostWorld host(config);
    BodyId walls_id, player;
    ASSERT_EQ(host.world.spawnWalls(WallsDesc{&walls}, walls_id), Status::Ok);
    ShipDesc desc;
    desc.cluster = &assets().ship->cluster;
    setIdentity(desc.ship_to_world);
    ASSERT_EQ(host.world.spawnPlayer(desc, player), Status::Ok);
    SplitMix64 rng(0x9057F4EEu);
    int pushes = 0, deep = 0;
    float worst = 0.0f;
    for (int i = 0; i < 4000; ++i) {
        Transform t;
        yawAt(rng.rangef(0.0, 6.2831853), rng.rangef(-27.0, 27.0), rng.rangef(-27.0, 27.0), 0.0f, t);
        float first = 0.0f, after = 0.0f;
        if (!freed(host.world, player, t, first, after) || first == 0.0f) continue;
        ++pushes;
        deep += first > 1.0f ? 1 : 0;
        worst = std::max(worst, after);
    }
    EXPECT_GT(pushes, 500);
    EXPECT_GT(deep, 50);
    EXPECT_LE(worst, 1e-5f) << "of " << pushes << " pushes";
}

// A one-sphere player in a wall corner touches its two edges: with room for one contact, the
// other is dropped, counted, and the step says BufferFull; the push-out is the same.
TEST(WorldApi, FullContactBufferDropsCountsAndSays) {
    const Sphere ball{Vec3{-28.5f, -28.5f, 0.0f}, 1.0f}; // the square [-35, -29]^2's corner at 0.71
    SphereCluster cluster;
    ASSERT_EQ(makeSphereCluster(&ball, 1, cluster), Status::Ok);
    float depth[2] = {0, 0};
    for (const std::uint32_t room : {1u, 8u}) {
        WorldConfig config = smallConfig();
        config.max_contacts = room;
        HostWorld host(config);
        World& world = host.world;
        BodyId walls, player;
        ASSERT_EQ(world.spawnWalls(WallsDesc{&assets().walls}, walls), Status::Ok);
        ShipDesc desc;
        desc.cluster = &cluster;
        setIdentity(desc.ship_to_world);
        ASSERT_EQ(world.spawnPlayer(desc, player), Status::Ok);
        const Status status = world.step(1.0f / 60.0f);
        ASSERT_EQ(world.hitCount(), 1u) << room;
        EXPECT_EQ(world.hits()[0].kind, HitKind::ShipWall);
        depth[room == 1u ? 0 : 1] = world.hits()[0].depth;
        if (room == 1u) {
            EXPECT_EQ(status, Status::BufferFull);
            EXPECT_EQ(world.stats().contacts_dropped, 1u);
        } else {
            EXPECT_EQ(status, Status::Ok);
            EXPECT_EQ(world.stats().contacts_dropped, 0u);
        }
    }
    EXPECT_GT(depth[0], 0.0f);
    EXPECT_EQ(depth[0], depth[1]);
}

// A cluster the queries could not use is refused at spawn, for players and enemies alike, and
// nothing changes: a null array, too many spheres, a NaN sphere, a bound that does not hold them.
TEST(WorldApi, SpawnRefusesAClusterItCannotUse) {
    HostWorld host(smallConfig());
    World& world = host.world;
    auto mesh = makeTestMesh(icosphere(2, 2.0f));
    auto good = makeTestCluster(8, 2.0f, 5);
    std::vector<Sphere> many(65, Sphere{Vec3{0, 0, 0}, 1.0f});
    std::vector<Sphere> odd = good->spheres;
    odd[3].center.x = std::nanf("");
    SphereCluster bad[4] = {good->cluster, good->cluster, good->cluster, good->cluster};
    bad[0].spheres = nullptr;
    bad[1].spheres = many.data();
    bad[1].count = 65;
    bad[2].spheres = odd.data();
    bad[3].bound.radius *= 0.25f;
    for (int k = 0; k < 4; ++k) {
        ShipDesc player;
        player.cluster = &bad[k];
        setIdentity(player.ship_to_world);
        BodyId id;
        EXPECT_EQ(world.spawnPlayer(player, id), Status::InvalidArgument) << k;
        EXPECT_TRUE(id.isNull());
        ShipDesc enemy = enemyAtOrigin(*mesh);
        enemy.cluster = &bad[k];
        EXPECT_EQ(world.spawnEnemy(enemy, id), Status::InvalidArgument) << k;
    }
    EXPECT_EQ(world.poolUsage(BodyKind::Player).live, 0u);
    EXPECT_EQ(world.poolUsage(BodyKind::Enemy).live, 0u);
    ShipDesc player;
    player.cluster = &good->cluster;
    setIdentity(player.ship_to_world);
    BodyId id;
    EXPECT_EQ(world.spawnPlayer(player, id), Status::Ok);
}

// A level whose finite transform makes its world box overflow is InvalidArgument (the static tree
// has room for every level: it is not PoolFull), and nothing changes.
TEST(WorldApi, LevelWhoseBoxOverflowsIsInvalidArgument) {
    HostWorld host(smallConfig());
    World& world = host.world;
    auto mesh = makeTestMesh(icosphere(1, 5.0f));
    LevelDesc level;
    level.mesh = &mesh->blob;
    setIdentity(level.mesh_to_world);
    level.mesh_to_world.rotation.c0.x = level.mesh_to_world.rotation.c1.y =
        level.mesh_to_world.rotation.c2.z = 1e38f;
    BodyId id;
    EXPECT_EQ(world.spawnLevel(level, id), Status::InvalidArgument);
    EXPECT_EQ(world.poolUsage(BodyKind::Level).live, 0u);
    setIdentity(level.mesh_to_world);
    EXPECT_EQ(world.spawnLevel(level, id), Status::Ok);
}

// A beam whose points are finite but spread beyond float (the segment's size overflows) and a
// bullet whose box does: the kernels cannot answer them, so the step leaves them untested and
// counts them in skipped_bodies (before, the mesh kernels answered "no hit" and the cluster
// kernels did not). A sane beam through the same enemy hits it.
TEST(WorldApi, ShotsSpreadBeyondFloatAreSkippedAndCounted) {
    auto mesh = makeTestMesh(icosphere(2, 2.0f));
    for (const bool sane : {false, true}) {
        HostWorld host(smallConfig());
        World& world = host.world;
        BodyId enemy, beam, bullet;
        ASSERT_EQ(world.spawnEnemy(enemyAtOrigin(*mesh), enemy), Status::Ok);
        ASSERT_EQ(world.spawnBeam(BeamDesc{}, beam), Status::Ok);
        const float far = sane ? 10.0f : 3e38f;
        const Vec3 points[2] = {{-far, 0.0f, 0.0f}, {far, 0.0f, 0.0f}};
        ASSERT_EQ(world.setBeamPoints(beam, points, 2), Status::Ok);
        if (!sane) {
            BulletDesc huge; // still, but its box (centre +- radius) spreads beyond float
            huge.sphere = Sphere{Vec3{-3e38f, 0.0f, 0.0f}, 1e38f};
            ASSERT_EQ(world.spawnBullet(huge, bullet), Status::Ok);
        }
        ASSERT_NE(world.step(1.0f / 60.0f), Status::InvalidArgument);
        if (sane) {
            ASSERT_EQ(world.hitCount(), 1u);
            EXPECT_EQ(world.hits()[0].kind, HitKind::Beam);
            EXPECT_TRUE(world.hits()[0].b == enemy);
            EXPECT_EQ(world.stats().skipped_bodies, 0u);
        } else {
            EXPECT_EQ(world.hitCount(), 0u);
            EXPECT_EQ(world.stats().skipped_bodies, 2u);
        }
    }
}

// A bullet too fast for a per-instant test: it starts in front of a thin enemy and ends behind
// it; the sweep reports the impact at the front face.
TEST(WorldApi, FastBulletIsSweptNotTunnelled) {
    WorldConfig config = smallConfig();
    HostWorld host(config);
    World& world = host.world;
    auto mesh = makeTestMesh(icosphere(2, 1.0f));
    const ShipDesc enemy = enemyAtOrigin(*mesh);
    BodyId enemy_id, bullet_id;
    ASSERT_EQ(world.spawnEnemy(enemy, enemy_id), Status::Ok);
    BulletDesc b;
    set(-5.0f, 0.0f, 0.0f, b.sphere.center);
    b.sphere.radius = 0.1f;
    set(600.0f, 0.0f, 0.0f, b.velocity); // 10 units in one 1/60 s step: from x = -5 to x = 5
    ASSERT_EQ(world.spawnBullet(b, bullet_id), Status::Ok);
    ASSERT_EQ(world.step(1.0f / 60.0f), Status::Ok);
    ASSERT_EQ(world.hitCount(), 1u);
    const Hit& hit = world.hits()[0];
    EXPECT_EQ(hit.kind, HitKind::Bullet);
    EXPECT_EQ(hit.a, bullet_id);
    EXPECT_EQ(hit.b, enemy_id);
    EXPECT_NEAR(hit.t, (5.0f - 1.0f - 0.1f) / 10.0f, 0.01f); // the front of the unit sphere
    EXPECT_LT(hit.normal.x, -0.9f);
    BulletDesc where;
    ASSERT_EQ(world.getBullet(bullet_id, where), Status::Ok);
    EXPECT_NEAR(where.sphere.center.x, 5.0f, 1e-4f); // the world moved it to the end of its path
}

// Team filter: a player's bullet passes through players of its own team.
TEST(WorldApi, BulletsSkipTheirOwnTeam) {
    HostWorld host(smallConfig());
    World& world = host.world;
    auto cluster = makeTestCluster(8, 2.0f, 5);
    ShipDesc player;
    player.cluster = &cluster->cluster;
    player.team = 0;
    setIdentity(player.ship_to_world);
    BodyId player_id, bullet_id;
    ASSERT_EQ(world.spawnPlayer(player, player_id), Status::Ok);
    BulletDesc b;
    b.sphere.radius = 0.5f; // starts inside the player
    b.team = 0;
    ASSERT_EQ(world.spawnBullet(b, bullet_id), Status::Ok);
    ASSERT_EQ(world.step(1.0f / 60.0f), Status::Ok);
    EXPECT_EQ(world.hitCount(), 0u);
    BulletDesc now;
    ASSERT_EQ(world.getBullet(bullet_id, now), Status::Ok);
    EXPECT_EQ(now.team, 0u);
    ASSERT_EQ(world.setBullet(bullet_id, now.sphere, now.velocity), Status::Ok);
    ASSERT_EQ(world.despawn(bullet_id), Status::Ok);
    b.team = 1;
    ASSERT_EQ(world.spawnBullet(b, bullet_id), Status::Ok);
    ASSERT_EQ(world.step(1.0f / 60.0f), Status::Ok);
    ASSERT_EQ(world.hitCount(), 1u);
    EXPECT_EQ(world.hits()[0].b, player_id);
    EXPECT_EQ(world.hits()[0].t, 1.0f); // slow bullet: tested where the step left it
}

// `count` fast bullets from x = -20 towards +x, at random heights, as the seeded `rng` says.
void fireVolley(World& world, SplitMix64& rng, int count) {
    for (int k = 0; k < count; ++k) {
        BulletDesc b;
        set(-20.0f, static_cast<float>(rng.u() * 6.0 - 3.0), static_cast<float>(rng.u() * 6.0 - 3.0),
            b.sphere.center);
        b.sphere.radius = 0.2f;
        set(static_cast<float>(200.0 + rng.u() * 1000.0), 0.0f, 0.0f, b.velocity);
        BodyId id;
        (void)world.spawnBullet(b, id);
    }
}

// The shots find ships by a list scan up to a few hundred ships and by the moving tree beyond:
// either way each bullet hits the ship it was aimed at, and never one of its own team.
TEST(WorldApi, ShotsFindShipsInSmallAndLargeFleets) {
    auto mesh = makeTestMesh(icosphere(1, 1.0f));
    auto cluster = makeTestCluster(4, 1.0f, 9);
    for (const std::uint32_t ships : {40u, 300u}) {
        WorldConfig config;
        config.max_enemies = ships;
        config.max_players = ships;
        config.max_bullets = 2 * ships;
        config.max_hits = 4 * ships;
        config.max_pairs = 8 * ships;
        HostWorld host(config);
        ASSERT_EQ(host.initStatus(), Status::Ok);
        World& world = host.world;
        std::vector<BodyId> targets;
        for (std::uint32_t i = 0; i < ships; ++i) { // enemies (team 1) and players (team 0) on a grid
            ShipDesc ship;
            const bool enemy = i % 2 == 0;
            ship.mesh = enemy ? &mesh->blob : nullptr;
            ship.cluster = enemy ? nullptr : &cluster->cluster;
            ship.team = enemy ? 1 : 0;
            yawAt(0.0f, float(i % 20) * 8.0f, float(i / 20) * 8.0f, 0.0f, ship.ship_to_world);
            BodyId id;
            ASSERT_EQ(enemy ? world.spawnEnemy(ship, id) : world.spawnPlayer(ship, id), Status::Ok);
            targets.push_back(id);
        }
        std::vector<BodyId> aimed, friendly;
        for (std::uint32_t i = 0; i < ships; ++i) { // one of the other team and one of its own at each
            const bool enemy = i % 2 == 0;
            BulletDesc b;
            set(float(i % 20) * 8.0f - 3.0f, float(i / 20) * 8.0f, 0.0f, b.sphere.center);
            b.sphere.radius = 0.1f;
            set(240.0f, 0.0f, 0.0f, b.velocity); // 4 units a step: reaches the ship, not the next
            b.team = enemy ? 0 : 1;
            BodyId id;
            ASSERT_EQ(world.spawnBullet(b, id), Status::Ok);
            aimed.push_back(id);
            b.team = enemy ? 1 : 0;
            ASSERT_EQ(world.spawnBullet(b, id), Status::Ok);
            friendly.push_back(id);
        }
        ASSERT_EQ(world.step(1.0f / 60.0f), Status::Ok);
        std::uint32_t bullet_hits = 0;
        for (std::uint32_t h = 0; h < world.hitCount(); ++h) {
            const Hit& hit = world.hits()[h];
            if (hit.kind != HitKind::Bullet) continue;
            ++bullet_hits;
            const auto at = std::find(aimed.begin(), aimed.end(), hit.a);
            ASSERT_NE(at, aimed.end()) << "a bullet of the ship's own team hit it (" << ships << " ships)";
            EXPECT_EQ(hit.b, targets[std::size_t(at - aimed.begin())]) << ships << " ships";
        }
        EXPECT_EQ(bullet_hits, ships);
    }
}

// init() again on the same World and block: the new bodies reuse the old slots and generations,
// yet an id from before is stale, never a name for the new body.
TEST(WorldApi, IdsFromBeforeAReInitAreStale) {
    const WorldConfig config = smallConfig();
    const std::size_t bytes = World::requiredBytes(config);
    flak::support::HostBlock block;
    block.reset(bytes, World::kAlignment);
    World world;
    ASSERT_EQ(world.init(block.data(), bytes, config), Status::Ok);
    BulletDesc bullet;
    bullet.sphere.radius = 0.5f;
    BodyId before;
    ASSERT_EQ(world.spawnBullet(bullet, before), Status::Ok);
    ASSERT_EQ(world.init(block.data(), bytes, config), Status::Ok);
    BodyId after;
    ASSERT_EQ(world.spawnBullet(bullet, after), Status::Ok);
    EXPECT_EQ(after.index, before.index);
    EXPECT_EQ(after.generation, before.generation);
    EXPECT_NE(after.epoch, before.epoch);
    EXPECT_NE(after, before);
    EXPECT_FALSE(world.isAlive(before));
    EXPECT_EQ(world.despawn(before), Status::StaleHandle);
    BulletDesc now;
    EXPECT_EQ(world.getBullet(before, now), Status::StaleHandle);
    EXPECT_EQ(world.setBullet(before, bullet.sphere, bullet.velocity), Status::StaleHandle);
    EXPECT_TRUE(world.isAlive(after)); // untouched by the calls with the old id
    EXPECT_EQ(world.bodyAt(BodyKind::Bullet, after.index), after);
    ASSERT_EQ(world.despawn(after), Status::Ok);
    // Many re-inits: the epoch wraps past 65535 to 1, never to 0 (the null body's).
    for (int k = 0; k < 70000; ++k) ASSERT_EQ(world.init(block.data(), bytes, config), Status::Ok);
    BodyId late;
    ASSERT_EQ(world.spawnBullet(bullet, late), Status::Ok);
    EXPECT_NE(late.epoch, 0u);
    EXPECT_FALSE(late.isNull());
}

TEST(WorldApi, SameCallsGiveTheSameHash) {
    auto run = []() {
        WorldConfig config = smallConfig();
        config.max_bullets = 128;
        HostWorld host(config);
        World& world = host.world;
        auto mesh = makeTestMesh(icosphere(2, 2.0f));
        const ShipDesc enemy = enemyAtOrigin(*mesh);
        BodyId enemy_id;
        EXPECT_EQ(world.spawnEnemy(enemy, enemy_id), Status::Ok);
        SplitMix64 rng(9);
        for (int f = 0; f < 50; ++f) {
            fireVolley(world, rng, 2);
            EXPECT_NE(world.step(1.0f / 60.0f), Status::InvalidArgument);
        }
        return world.hitStreamHash();
    };
    const std::uint64_t first = run();
    EXPECT_EQ(first, run());
    EXPECT_NE(first, kHitHashSeed);
}

// The hit hash is a function of the fields' values (hit.h): a fixed hit hashes to the same value
// on every byte order (the cross-architecture runs check this constant), flipping any one bit of
// any hashed field changes it, and the host's user values are not hashed.
TEST(WorldApi, HitHashIsFixedAndSeesEveryFieldBit) {
    Hit hit;
    hit.a.kind = BodyKind::Bullet;
    hit.a.index = 17u;
    hit.a.generation = 3u;
    hit.b.kind = BodyKind::Enemy;
    hit.b.index = 5u;
    hit.b.generation = 1u;
    hit.kind = HitKind::Bullet;
    hit.feature = 1234u;
    hit.point = Vec3{1.5f, -2.25f, 3.0f};
    hit.normal = Vec3{0.0f, 0.6f, 0.8f};
    hit.t = 0.375f;
    hit.depth = 0.0f;
    const std::uint64_t base = hashHit(hit, kHitHashSeed);
    EXPECT_EQ(base, 0x96727f1361711e36ull) << std::hex << base; // hit.h's recipe, computed apart
    EXPECT_EQ(hashStepEnd(1u, base), 0x77baed38ba6af3bbull) << std::hex << hashStepEnd(1u, base);
    // Every bit of the hashed bytes (the record without its padding), one at a time.
    int unchanged = 0, flips = 0;
    for (std::size_t byte = 0; byte < sizeof(Hit); ++byte) {
        // Not hashed: Hit::reserved, and each BodyId's reserved byte and epoch (body.h).
        const auto in_id = [&](std::size_t at) { return byte >= at && byte < at + sizeof(BodyId); };
        const auto id_hashed = [&](std::size_t at) { return byte - at <= offsetof(BodyId, kind); };
        if (in_id(offsetof(Hit, a)) && !id_hashed(offsetof(Hit, a))) continue;
        if (in_id(offsetof(Hit, b)) && !id_hashed(offsetof(Hit, b))) continue;
        if (byte >= offsetof(Hit, reserved) && byte < offsetof(Hit, feature)) continue;
        if (byte >= offsetof(Hit, a_user)) continue; // the host's values ride along, unhashed
        for (int bit = 0; bit < 8; ++bit) {
            Hit h = hit;
            unsigned char bytes[sizeof(Hit)];
            std::memcpy(bytes, &h, sizeof(Hit));
            bytes[byte] = static_cast<unsigned char>(bytes[byte] ^ (1u << bit));
            std::memcpy(&h, bytes, sizeof(Hit));
            ++flips;
            if (hashHit(h, kHitHashSeed) == base && ++unchanged <= 5)
                ADD_FAILURE() << "byte " << byte << " bit " << bit << " does not change the hash";
        }
    }
    EXPECT_EQ(unchanged, 0);
    EXPECT_EQ(flips, 8 * 55); // 64 bytes less 3 of Hit::reserved and 3 of each BodyId
    Hit with_users = hit;
    with_users.a_user = 1234u;
    with_users.b_user = ~0ull;
    EXPECT_EQ(hashHit(with_users, kHitHashSeed), base); // the same stream for any host values
    EXPECT_NE(hashStepEnd(1u, base), hashStepEnd(2u, base));
}

// A host task system on one thread that runs the ranges in an odd order (last first, ranges of
// min_range items) with worker indices cycling over the declared count, or everything inline
// (returning null), as the interface allows.
struct OddHost {
    std::uint32_t calls = 0;
    bool inline_all = false;
};

void* oddEnqueue(TaskFunction fn, std::uint32_t count, std::uint32_t min_range, void* context, void* user) {
    OddHost& host = *static_cast<OddHost*>(user);
    ++host.calls;
    if (host.inline_all) {
        fn(0, count, 0, context);
        return nullptr;
    }
    const std::uint32_t range = min_range > 0 ? min_range : 1;
    std::uint32_t worker = 0;
    for (std::uint32_t end = count; end > 0;) {
        const std::uint32_t last = (end - 1) / range * range; // the start of the last range left
        fn(last, end, worker, context);
        worker = (worker + 1) % 3;
        end = last;
    }
    return &host;
}

void oddFinish(void*, void*) {}

TEST(WorldApi, TaskSystemIsCheckedAndSizesTheScratch) {
    WorldConfig config = smallConfig();
    const std::size_t one = World::requiredBytes(config);
    OddHost host;
    TaskSystem tasks{3, oddEnqueue, oddFinish, &host};
    config.tasks = &tasks;
    EXPECT_GT(World::requiredBytes(config), one); // per-worker scratch
    TaskSystem bad = tasks;
    bad.worker_count = 0;
    config.tasks = &bad;
    EXPECT_EQ(World::requiredBytes(config), 0u);
    bad.worker_count = kMaxWorkers + 1;
    EXPECT_EQ(World::requiredBytes(config), 0u);
    bad = tasks;
    bad.finish = nullptr;
    EXPECT_EQ(World::requiredBytes(config), 0u);
    bad = tasks;
    bad.enqueue = nullptr;
    EXPECT_EQ(World::requiredBytes(config), 0u);
}

// explainMemory's parts add up to requiredBytes, by name, with the per-worker parts growing with
// the worker count; the small config inits and steps in a fraction of the defaults' bytes.
TEST(WorldApi, ExplainMemoryAddsUpToRequiredBytes) {
    OddHost host;
    TaskSystem three{3, oddEnqueue, oddFinish, &host};
    const auto bytesOf = [](const WorldMemoryReport& r, const char* name) {
        for (std::uint32_t i = 0; i < r.item_count; ++i)
            if (std::strcmp(r.items[i].name, name) == 0) return r.items[i].bytes;
        ADD_FAILURE() << "no part named " << name;
        return std::size_t{0};
    };
    WorldMemoryReport one_worker;
    for (int k = 0; k < 3; ++k) {
        WorldConfig config = k == 1 ? smallWorldConfig() : WorldConfig{};
        if (k == 2) config.tasks = &three;
        WorldMemoryReport r;
        ASSERT_TRUE(World::explainMemory(config, r)) << k;
        EXPECT_EQ(r.invalid_field, nullptr);
        EXPECT_EQ(r.why, nullptr);
        EXPECT_EQ(r.total_bytes, World::requiredBytes(config));
        std::size_t sum = 0;
        for (std::uint32_t i = 0; i < r.item_count; ++i) {
            sum += r.items[i].bytes;
            for (std::uint32_t j = 0; j < i; ++j) EXPECT_STRNE(r.items[i].name, r.items[j].name);
        }
        EXPECT_EQ(sum + r.padding_bytes, r.total_bytes);
        EXPECT_LT(r.padding_bytes, 64u * r.item_count); // alignment only
        EXPECT_EQ(bytesOf(r, "hits"), sizeof(Hit) * config.max_hits);
        EXPECT_GE(bytesOf(r, "bullets pool"), std::size_t{40} * config.max_bullets);
        if (k == 0) one_worker = r;
        if (k == 2) {
            EXPECT_EQ(bytesOf(r, "worker scratch"), 3 * bytesOf(one_worker, "worker scratch"));
            EXPECT_EQ(bytesOf(r, "worker shot targets"), 3 * bytesOf(one_worker, "worker shot targets"));
            EXPECT_EQ(bytesOf(r, "step scratch"), bytesOf(one_worker, "step scratch"));
        }
    }
    const WorldConfig small = smallWorldConfig();
    EXPECT_LT(World::requiredBytes(small) * 5, World::requiredBytes(WorldConfig{}));
    HostWorld world(small);
    BodyId id;
    EXPECT_EQ(
        world.world.spawnBullet(BulletDesc{{Vec3{0.0f, 0.0f, 0.0f}, 0.1f}, Vec3{1.0f, 0.0f, 0.0f}, 0}, id),
        Status::Ok);
    EXPECT_EQ(world.world.step(1.0f / 60.0f), Status::Ok);
}

// An invalid config names its field and why, requiredBytes answers 0 and init refuses it.
TEST(WorldApi, ExplainMemoryNamesTheFieldOfABadConfig) {
    OddHost host;
    TaskSystem no_finish{2, oddEnqueue, nullptr, &host};
    TaskSystem no_workers{0, oddEnqueue, oddFinish, &host};
    MeshMeshBackend no_collect;
    no_collect.submit = [](void*, const MeshMeshJob*, std::uint32_t) { return false; };
    struct Case {
        const char* field;
        void (*spoil)(WorldConfig&);
    };
    static TaskSystem* s_no_finish;
    static TaskSystem* s_no_workers;
    static MeshMeshBackend* s_no_collect;
    s_no_finish = &no_finish;
    s_no_workers = &no_workers;
    s_no_collect = &no_collect;
    const Case cases[] = {
        {"max_hits", [](WorldConfig& c) { c.max_hits = 0; }},
        {"max_pairs", [](WorldConfig& c) { c.max_pairs = 0; }},
        {"max_contacts", [](WorldConfig& c) { c.max_contacts = 0; }},
        {"max_beam_points", [](WorldConfig& c) { c.max_beam_points = 1; }},
        {"broad_margin", [](WorldConfig& c) { c.broad_margin = std::nanf(""); }},
        {"sweep_radii", [](WorldConfig& c) { c.sweep_radii = -1.0f; }},
        {"max_enemies", [](WorldConfig& c) { c.max_enemies = DynamicTree::kMaxProxies; }},
        {"max_levels", [](WorldConfig& c) { c.max_wall_sets = 0xFFFFFFFFu; }},
        {"max_beam_points", [](WorldConfig& c) { c.max_beams = 0x10000u, c.max_beam_points = 0x10000u; }},
        {"mesh_mesh_backend", [](WorldConfig& c) { c.mesh_mesh_backend = s_no_collect; }},
        {"tasks", [](WorldConfig& c) { c.tasks = s_no_finish; }},
        {"tasks", [](WorldConfig& c) { c.tasks = s_no_workers; }},
        // The grids alone overflow size_t; the grids with the rest of the block.
        {"wall_grid_cells",
         [](WorldConfig& c) { c.max_wall_sets = (1u << 29) + 1u, c.wall_grid_cells = ~0u; }},
        {"wall_grid_cells", [](WorldConfig& c) { c.max_wall_sets = 1u << 29, c.wall_grid_cells = ~0u; }},
    };
    const std::size_t bytes = World::requiredBytes(smallConfig());
    flak::support::HostBlock block(bytes, World::kAlignment);
    World world;
    for (const Case& bad : cases) {
        WorldConfig config = smallConfig();
        bad.spoil(config);
        WorldMemoryReport r;
        EXPECT_FALSE(World::explainMemory(config, r)) << bad.field;
        ASSERT_NE(r.invalid_field, nullptr) << bad.field;
        EXPECT_STREQ(r.invalid_field, bad.field);
        ASSERT_NE(r.why, nullptr);
        EXPECT_GT(std::strlen(r.why), 10u);
        EXPECT_EQ(r.total_bytes, 0u);
        EXPECT_EQ(r.item_count, 0u);
        EXPECT_EQ(World::requiredBytes(config), 0u);
        EXPECT_EQ(world.init(block.data(), bytes, config), Status::InvalidArgument) << bad.field;
    }
    // With several problems, the first in requiredBytes' order is named: case i spoiled last,
    // over every later case (the cases are in that order).
    const std::size_t count = sizeof(cases) / sizeof(cases[0]);
    for (std::size_t i = 0; i < count; ++i) {
        WorldConfig config = smallConfig();
        for (std::size_t j = count; j-- > i;) cases[j].spoil(config);
        WorldMemoryReport r;
        EXPECT_FALSE(World::explainMemory(config, r)) << cases[i].field;
        ASSERT_NE(r.invalid_field, nullptr) << cases[i].field;
        EXPECT_STREQ(r.invalid_field, cases[i].field) << "case " << i;
    }
}

// The same bullets through a world on one thread, one whose host splits the items in reverse
// order over three workers, and one whose host runs everything inline: the same hash.
TEST(WorldApi, HowTheHostSplitsTheItemsChangesNothing) {
    // count_after_init: the host's worker count changed once the world was laid out for 3.
    auto run = [](OddHost* host, std::uint32_t count_after_init = 3) {
        WorldConfig config = smallConfig();
        config.max_bullets = 256;
        TaskSystem tasks{3, oddEnqueue, oddFinish, host};
        if (host != nullptr) config.tasks = &tasks;
        HostWorld hw(config);
        tasks.worker_count = count_after_init;
        World& world = hw.world;
        auto mesh = makeTestMesh(icosphere(2, 2.0f));
        const ShipDesc enemy = enemyAtOrigin(*mesh);
        BodyId enemy_id;
        EXPECT_EQ(world.spawnEnemy(enemy, enemy_id), Status::Ok);
        ShipDesc other = enemy;
        set(1.5f, 0.5f, 0.0f, other.ship_to_world.translation);
        EXPECT_EQ(world.spawnEnemy(other, enemy_id), Status::Ok); // mesh-mesh with the first
        SplitMix64 rng(9);
        std::uint32_t hits = 0;
        for (int f = 0; f < 30; ++f) {
            fireVolley(world, rng, 6);
            EXPECT_NE(world.step(1.0f / 60.0f), Status::InvalidArgument);
            hits += world.hitCount();
        }
        EXPECT_GT(hits, 30u);
        return world.hitStreamHash();
    };
    const std::uint64_t alone = run(nullptr);
    OddHost odd, inline_host;
    inline_host.inline_all = true;
    EXPECT_EQ(run(&odd), alone);
    EXPECT_EQ(run(&inline_host), alone);
    EXPECT_GT(odd.calls, 0u);
    EXPECT_GT(inline_host.calls, 0u);
    // A count raised after init is not used (its workers could share a worker's scratch): the
    // items run on the stepping thread. A lowered one is still used, except that a count of one
    // runs everything here, as it always does. The same hits every way.
    for (const std::uint32_t changed : {1u, 2u, 4u, 8u}) {
        OddHost later;
        EXPECT_EQ(run(&later, changed), alone) << changed;
        if (changed == 2u)
            EXPECT_GT(later.calls, 0u);
        else
            EXPECT_EQ(later.calls, 0u) << changed;
    }
}

// A mesh-mesh back end on the CPU: meshMeshPairs for every job, sorted by (job, a, b) as the
// contract asks, then spoiled as `spoil` says, to see what the world makes of a broken answer.
// Crossing: every pair flagged kMeshMeshPairCrossing where the CPU's classification finds a
// crossing; CrossingEverywhere: every pair flagged, crossing or not.
enum class Spoil {
    None,
    Crossing,
    CrossingEverywhere,
    TriangleOutOfRange,
    JobOutOfRange,
    OutOfOrder,
    Repeated,
    CountBeyondCapacity,
    Lost,
    Invented ///< every job also gets a pair whose triangles do not intersect
};
struct CpuBackend {
    std::vector<MeshMeshJob> jobs;
    Spoil spoil = Spoil::None;
    std::uint32_t submits = 0;
    std::uint32_t flagged = 0, not_crossing = 0; ///< pairs flagged; pairs that do not cross
};

bool cpuSubmit(void* user, const MeshMeshJob* jobs, std::uint32_t count) {
    CpuBackend& b = *static_cast<CpuBackend*>(user);
    b.jobs.assign(jobs, jobs + count);
    ++b.submits;
    return true;
}

Status cpuCollect(void* user, OutBuffer<MeshMeshPair>& inout_pairs) {
    CpuBackend& b = *static_cast<CpuBackend*>(user);
    std::vector<MeshMeshPair> all;
    for (std::uint32_t j = 0; j < b.jobs.size(); ++j) {
        std::vector<TrianglePair> found(4096);
        OutBuffer<TrianglePair> out = OutBuffer<TrianglePair>::over(found.data(), 4096);
        EXPECT_EQ(meshMeshPairs(*b.jobs[j].a, *b.jobs[j].b, b.jobs[j].b_to_a, out), Status::Ok);
        std::vector<MeshMeshPair> mine;
        for (std::uint32_t k = 0; k < out.count; ++k) {
            Vec3 va[3], vb[3], src[3];
            triangleVertices(*b.jobs[j].a, found[k].a, va[0], va[1], va[2]);
            triangleVertices(*b.jobs[j].b, found[k].b, src[0], src[1], src[2]);
            transformPoints(b.jobs[j].b_to_a, src, 3, vb);
            const bool crossing = detail::classifyTriTri(va[0], va[1], va[2], vb[0], vb[1], vb[2]) ==
                                  detail::TriTriKind::Crossing;
            b.not_crossing += crossing ? 0u : 1u;
            const bool flag =
                b.spoil == Spoil::CrossingEverywhere || (b.spoil == Spoil::Crossing && crossing);
            b.flagged += flag ? 1u : 0u;
            mine.push_back(MeshMeshPair{j, found[k].a, found[k].b, flag ? kMeshMeshPairCrossing : 0u});
        }
        if (b.spoil == Spoil::Invented) { // a pair that is not one: the first (a, b) apart
            bool added = false;
            for (std::uint32_t ta = 0; ta < b.jobs[j].a->triangle_count && !added; ++ta)
                for (std::uint32_t tb = 0; tb < b.jobs[j].b->triangle_count && !added; ++tb) {
                    Vec3 va[3], vb[3], src[3];
                    triangleVertices(*b.jobs[j].a, ta, va[0], va[1], va[2]);
                    triangleVertices(*b.jobs[j].b, tb, src[0], src[1], src[2]);
                    transformPoints(b.jobs[j].b_to_a, src, 3, vb);
                    if (triTriOverlap(va[0], va[1], va[2], vb[0], vb[1], vb[2])) continue;
                    mine.push_back(MeshMeshPair{j, ta, tb, 0u});
                    added = true;
                }
        }
        std::sort(mine.begin(), mine.end(), [](const MeshMeshPair& x, const MeshMeshPair& y) {
            return x.a != y.a ? x.a < y.a : x.b < y.b;
        });
        all.insert(all.end(), mine.begin(), mine.end());
    }
    if (b.spoil == Spoil::Lost) return Status::DeviceLost;
    if (all.size() >= 2) {
        switch (b.spoil) {
        case Spoil::TriangleOutOfRange: all[1].b = b.jobs[all[1].job].b->triangle_count; break;
        case Spoil::JobOutOfRange: all.back().job = static_cast<std::uint32_t>(b.jobs.size()); break;
        case Spoil::OutOfOrder: std::swap(all[0], all[1]); break;
        case Spoil::Repeated: all[1] = all[0]; break;
        default: break;
        }
    }
    for (const MeshMeshPair& p : all) (void)inout_pairs.append(p);
    if (b.spoil == Spoil::CountBeyondCapacity) inout_pairs.count = inout_pairs.capacity + 5;
    return Status::Ok;
}

// A world of at most four enemies over a CpuBackend (none when null).
struct BackendWorld {
    MeshMeshBackend hooks;
    std::unique_ptr<HostWorld> host;
    BackendWorld(CpuBackend* backend, bool exact_crossing)
        : hooks{backend, cpuSubmit, cpuCollect, exact_crossing} {
        WorldConfig config = smallConfig();
        config.max_enemies = 4;
        if (backend != nullptr) config.mesh_mesh_backend = &hooks;
        host = std::make_unique<HostWorld>(config);
        EXPECT_EQ(host->initStatus(), Status::Ok);
    }
};

// The world uses a back end's answer only when every record keeps the contract; otherwise it
// refuses the whole answer, counts the broken records and answers on the CPU: the same hits.
TEST(WorldApi, BrokenBackEndAnswersAreRefusedAndCounted) {
    auto mesh = makeTestMesh(icosphere(2, 2.0f));
    // twin: a fourth enemy on the first one's pose, whose pairs with it are coplanar.
    auto run = [&](CpuBackend* backend, std::vector<StepStats>& stats, bool exact_crossing = false,
                   bool twin = false) {
        BackendWorld bw(backend, exact_crossing);
        World& world = bw.host->world;
        const ShipDesc enemy = enemyAtOrigin(*mesh);
        BodyId ids[3];
        for (int e = 0; e < 3; ++e) {
            ShipDesc d = enemy;
            yawAt(0.3f * static_cast<float>(e), 1.1f * static_cast<float>(e), 0.4f * static_cast<float>(e),
                  0.0f, d.ship_to_world);
            EXPECT_EQ(world.spawnEnemy(d, ids[e]), Status::Ok);
        }
        BodyId twin_id;
        if (twin) {
            EXPECT_EQ(world.spawnEnemy(enemy, twin_id), Status::Ok);
        }
        for (int f = 0; f < 4; ++f) {
            EXPECT_EQ(world.step(1.0f / 60.0f), Status::Ok);
            stats.push_back(world.stats());
        }
        return world.hitStreamHash();
    };
    std::vector<StepStats> cpu_stats;
    const std::uint64_t cpu = run(nullptr, cpu_stats);
    ASSERT_GT(cpu_stats[0].mesh_jobs, 1u);
    {
        CpuBackend good;
        std::vector<StepStats> stats;
        EXPECT_EQ(run(&good, stats), cpu);
        EXPECT_GT(good.submits, 0u);
        for (const StepStats& st : stats) {
            EXPECT_TRUE(st.mesh_jobs_on_backend);
            EXPECT_EQ(st.mesh_pairs_refused, 0u);
        }
    }
    // Crossing flags: used from a back end that vouches for them (exact_crossing), with the CPU's
    // hits when they are exact; ignored from one that does not, even when they lie.
    {
        std::vector<StepStats> twin_stats;
        const std::uint64_t cpu_twin = run(nullptr, twin_stats, false, true);
        CpuBackend exact, lying;
        exact.spoil = Spoil::Crossing;
        lying.spoil = Spoil::CrossingEverywhere;
        std::vector<StepStats> stats;
        EXPECT_EQ(run(&exact, stats, true, true), cpu_twin);
        EXPECT_GT(exact.flagged, 0u);
        EXPECT_EQ(run(&lying, stats, false, true), cpu_twin);
        EXPECT_GT(lying.not_crossing, 0u); // some flags lie
        for (const StepStats& st : stats) {
            EXPECT_TRUE(st.mesh_jobs_on_backend);
            EXPECT_EQ(st.mesh_pairs_refused, 0u);
        }
    }
    for (const Spoil spoil : {Spoil::TriangleOutOfRange, Spoil::JobOutOfRange, Spoil::OutOfOrder,
                              Spoil::Repeated, Spoil::CountBeyondCapacity, Spoil::Lost}) {
        SCOPED_TRACE(static_cast<int>(spoil));
        CpuBackend bad;
        bad.spoil = spoil;
        std::vector<StepStats> stats;
        EXPECT_EQ(run(&bad, stats), cpu);
        for (const StepStats& st : stats) {
            EXPECT_FALSE(st.mesh_jobs_on_backend);
            if (spoil == Spoil::Lost) {
                EXPECT_EQ(st.mesh_pairs_refused, 0u); // nothing came back: nothing to refuse
            } else {
                EXPECT_GT(st.mesh_pairs_refused, 0u);
            }
        }
    }
}

// An enemy placed by a mirroring transform (rigid: isRigid lets reflections pass) is the same
// solid as its mirror image, so its hits with another enemy point the same way: from b towards
// a. The icosphere is its own mirror image; mirroring b used to turn the ShipShip normal round
// (b's triangle normals, taken from its mirrored corners, faced inwards). The CPU walk and a
// back end's pairs agree.
TEST(WorldApi, MirroredEnemyHitsPointFromBToA) {
    auto mesh = makeTestMesh(icosphere(2, 2.0f));
    CpuBackend backend;
    for (CpuBackend* use : {static_cast<CpuBackend*>(nullptr), &backend}) {
        for (int mirror = 0; mirror < 4; ++mirror) { // none, then x, y or z of b negated
            SCOPED_TRACE(std::string(use != nullptr ? "back end" : "CPU") + ", mirror " +
                         std::to_string(mirror));
            BackendWorld bw(use, false);
            World& world = bw.host->world;
            BodyId a, b;
            ShipDesc desc = enemyAtOrigin(*mesh);
            ASSERT_EQ(world.spawnEnemy(desc, a), Status::Ok);
            desc.ship_to_world.translation.x = 1.0f;
            Vec3* column[3] = {&desc.ship_to_world.rotation.c0, &desc.ship_to_world.rotation.c1,
                               &desc.ship_to_world.rotation.c2};
            if (mirror > 0) negate(*column[mirror - 1], *column[mirror - 1]);
            ASSERT_EQ(world.spawnEnemy(desc, b), Status::Ok);
            ASSERT_EQ(world.step(1.0f / 60.0f), Status::Ok);
            ASSERT_EQ(world.hitCount(), 1u);
            const Hit& hit = world.hits()[0];
            EXPECT_EQ(hit.kind, HitKind::ShipShip);
            EXPECT_EQ(hit.a, a);
            EXPECT_LT(hit.normal.x, -0.95f);
            EXPECT_EQ(world.stats().mesh_jobs_on_backend, use != nullptr);
        }
    }
}

// Pairs whose triangles do not intersect, added to every job's answer (a job whose meshes do not
// touch got a ShipShip hit from them): each such job is answered on the CPU, its pairs counted as
// refused, and the hits are the CPU's.
TEST(WorldApi, BackEndPairsThatDoNotIntersectAreRefused) {
    auto mesh = makeTestMesh(icosphere(2, 2.0f));
    auto run = [&](CpuBackend* backend, std::vector<StepStats>& stats) {
        BackendWorld bw(backend, false);
        World& world = bw.host->world;
        // Two apart (boxes overlap, meshes do not), two overlapping.
        const float xs[4] = {0.0f, 3.0f, 10.0f, 11.0f};
        const float ys[4] = {0.0f, 3.0f, 0.0f, 0.0f};
        for (int e = 0; e < 4; ++e) {
            ShipDesc d = enemyAtOrigin(*mesh);
            d.ship_to_world.translation = Vec3{xs[e], ys[e], 0.0f};
            BodyId id;
            EXPECT_EQ(world.spawnEnemy(d, id), Status::Ok);
        }
        for (int f = 0; f < 2; ++f) {
            EXPECT_EQ(world.step(1.0f / 60.0f), Status::Ok);
            stats.push_back(world.stats());
        }
        return world.hitStreamHash();
    };
    std::vector<StepStats> cpu_stats, stats;
    const std::uint64_t cpu = run(nullptr, cpu_stats);
    ASSERT_EQ(cpu_stats[0].mesh_jobs, 2u);
    CpuBackend inventing;
    inventing.spoil = Spoil::Invented;
    EXPECT_EQ(run(&inventing, stats), cpu);
    for (const StepStats& st : stats) {
        EXPECT_TRUE(st.mesh_jobs_on_backend);
        EXPECT_EQ(st.mesh_pairs_refused, 2u); // one invented pair a job
    }
}

// Without a back end there is nothing to wait for: GpuWait is 0 whatever the clock.
TEST(WorldApi, GpuWaitIsZeroWithoutABackEnd) {
    WorldConfig config = smallConfig();
    std::uint64_t ticks = 0;
    config.clock = [](void* user) { return *static_cast<std::uint64_t*>(user) += 1000; };
    config.clock_user = &ticks;
    HostWorld hw(config);
    ASSERT_EQ(hw.initStatus(), Status::Ok);
    ASSERT_EQ(hw.world.step(1.0f / 60.0f), Status::Ok);
    EXPECT_EQ(hw.world.stats().phase_ns[static_cast<int>(WorldPhase::GpuWait)], 0u);
    EXPECT_GT(hw.world.stats().phase_ns[static_cast<int>(WorldPhase::Broad)], 0u);
}

// The sizes world_config.h and the README quote for smallWorldConfig and the defaults (one
// worker): a layout change that moves them must move the docs too.
TEST(WorldApi, QuotedBlockSizesHold) {
    const double small_kib = static_cast<double>(World::requiredBytes(smallWorldConfig())) / 1024.0;
    const double default_mib = static_cast<double>(World::requiredBytes(WorldConfig{})) / 1048576.0;
    EXPECT_NEAR(small_kib, 479.0, 0.5);
    EXPECT_NEAR(default_mib, 2.91, 0.005);
}

TEST(WorldApi, PhaseNamesAreStable) {
    EXPECT_STREQ(worldPhaseName(WorldPhase::Broad), "broad");
    EXPECT_STREQ(worldPhaseName(WorldPhase::MeshMesh), "mesh_mesh");
    EXPECT_STREQ(worldPhaseName(WorldPhase::Count), "unknown");
}

TEST(WorldApi, KindNamesAreStableAndDistinct) {
    const char* bodies[] = {"none", "level", "walls", "enemy", "player", "bullet", "beam"};
    static_assert(sizeof(bodies) / sizeof(bodies[0]) == static_cast<std::size_t>(BodyKind::Count),
                  "every kind");
    for (int k = 0; k < static_cast<int>(BodyKind::Count); ++k)
        EXPECT_STREQ(bodyKindName(static_cast<BodyKind>(k)), bodies[k]);
    const char* hits[] = {"bullet", "beam", "ship_ship", "ship_wall"};
    static_assert(sizeof(hits) / sizeof(hits[0]) == static_cast<std::size_t>(HitKind::Count), "every kind");
    for (int k = 0; k < static_cast<int>(HitKind::Count); ++k)
        EXPECT_STREQ(hitKindName(static_cast<HitKind>(k)), hits[k]);
    for (int v = static_cast<int>(BodyKind::Count); v <= 255; ++v)
        EXPECT_STREQ(bodyKindName(static_cast<BodyKind>(v)), "unknown");
    for (int v = static_cast<int>(HitKind::Count); v <= 255; ++v)
        EXPECT_STREQ(hitKindName(static_cast<HitKind>(v)), "unknown");
}

} // namespace
} // namespace flak::test
