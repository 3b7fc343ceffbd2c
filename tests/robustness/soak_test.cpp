// Soak: a long seeded World run through the public API: random spawns and despawns (stale ones
// too), ships circling and teleporting far, bullets and beams fired from them, pools driven to
// capacity (spawns then answer PoolFull and change nothing), and injected NaN / Inf transforms,
// bullets, beam points and dt (refused with InvalidArgument, nothing changed). Every frame checks
// the invariants: both broad-phase trees validate, the hit buffer is sorted by hitLess and names
// live bodies only, hit normals are finite and unit length, every pool's live count matches the
// script's own bookkeeping and stays within capacity. At the end the pools' and the step
// scratch's high-water marks must equal those reached during the warm-up (whose first part
// drives every pool and the pair count to their designed peak): nothing creeps up, nothing leaks.
//
// 20,000 frames in optimised builds (a few seconds); under AddressSanitizer (about 4x slower)
// 5,000, so the sanitize preset stays within its budget. The seed is printed on failure.
#include "bad_input.h"

#include <flak/world/world.h>
#include <world/world_fixture.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>

#if defined(__SANITIZE_ADDRESS__)
#define FLAK_SOAK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FLAK_SOAK_SANITIZED 1
#endif
#endif

namespace flak::test {
namespace {

#if defined(FLAK_SOAK_SANITIZED)
constexpr std::uint32_t kSoakFrames = 5000;
#else
constexpr std::uint32_t kSoakFrames = 20000;
#endif
constexpr std::uint32_t kWarmupFrames = 600;
constexpr std::uint32_t kPeakFrames = 120; // the first frames: every pool full, ships piled up

WorldConfig soakConfig() {
    WorldConfig c;
    c.max_levels = 2;
    c.max_wall_sets = 1;
    c.max_enemies = 10;
    c.max_players = 3;
    c.max_bullets = 200;
    c.max_beams = 3;
    c.max_beam_points = 9;
    c.max_hits = 4096;
    c.max_pairs = 512;
    c.max_contacts = 128;
    return c;
}

struct LiveShip {
    BodyId id;
    float phase = 0, speed = 0, radius = 0;
    Vec2 anchor;
    Transform placed;
};

struct LiveBullet {
    BodyId id;
    std::uint32_t born = 0;
};

class Soak {
public:
    explicit Soak(std::uint64_t seed) : m_rng(seed), m_host(soakConfig()) {
        m_level_mesh = loadBaked(bakeBytes(terrain(12, 60.0f)));
        m_enemy_mesh = goodMesh();
        m_cluster = goodCluster();
        std::vector<bake::WallPolygon> polys(3);
        polys[0].rings.push_back(rectRing(-40, 30, -20, 34));
        polys[1].rings.push_back(rectRing(20, -34, 40, -30));
        polys[2].rings.push_back({Vec2{-5, -5}, Vec2{5, -5}, Vec2{0, 3}});
        m_walls = bakeLevel(std::move(polys));
    }

    World& world() { return m_host.world; }

    void setup() {
        ASSERT_EQ(m_host.initStatus(), Status::Ok);
        Transform below = identityTransform();
        set(-30, -30, -6, below.translation);
        BodyId id;
        ASSERT_EQ(world().spawnLevel(LevelDesc{&m_level_mesh->blob, below}, id), Status::Ok);
        ASSERT_EQ(world().spawnWalls(WallsDesc{&m_walls->walls}, id), Status::Ok);
        m_statics = 2;
        for (std::uint32_t b = 0; b < world().config().max_beams; ++b) {
            ASSERT_EQ(world().spawnBeam(BeamDesc{b % 2}, id), Status::Ok);
            m_beams.push_back(id);
        }
    }

    void frame(std::uint32_t f) {
        const bool peak = f < kPeakFrames;
        const float time = static_cast<float>(f) / 60.0f;
        moveShips(time, peak);
        if (peak) {
            fillPools(f);
        } else {
            churn(f);
        }
        fire(f, peak ? 12u : 4u);
        bendBeams(time);
        injectBadInput(f);
        const Status st = world().step(1.0f / 60.0f);
        ASSERT_TRUE(st == Status::Ok || st == Status::BufferFull) << statusName(st);
        checkInvariants();
        retireBullets(f);
    }

    std::uint64_t nextRandom() { return m_rng.next(); }
    std::uint32_t teleports() const { return m_teleports; }
    std::uint32_t refusals() const { return m_refusals; }
    std::uint64_t hits() const { return m_hits; }

private:
    bool chance(double p) { return m_rng.u() < p; }

    void placeShip(LiveShip& s, float time) {
        const float a = s.phase + s.speed * time;
        Quat q;
        fromAxisAngle(vec3(0, 0, 1), a, q);
        const Vec3 t = vec3(s.anchor.x + s.radius * std::cos(a), s.anchor.y + s.radius * std::sin(a), 0);
        fromQuatTranslation(q, t, s.placed);
    }

    void spawnShip(bool player, bool piled) {
        LiveShip s;
        s.phase = m_rng.rangef(0, 6.28);
        s.speed = m_rng.rangef(0.2, 1.5);
        s.radius = piled ? m_rng.rangef(0, 2) : m_rng.rangef(2, 15);
        s.anchor = piled ? Vec2{0, 0} : Vec2{m_rng.rangef(-40, 40), m_rng.rangef(-30, 30)};
        placeShip(s, 0.0f);
        ShipDesc desc;
        desc.mesh = player ? nullptr : &m_enemy_mesh->blob;
        desc.cluster = player || chance(0.5) ? &m_cluster->cluster : nullptr;
        desc.ship_to_world = s.placed;
        desc.team = player ? 0 : 1;
        std::vector<LiveShip>& list = player ? m_players : m_enemies;
        const std::uint32_t cap = player ? world().config().max_players : world().config().max_enemies;
        const Status st = player ? world().spawnPlayer(desc, s.id) : world().spawnEnemy(desc, s.id);
        if (list.size() >= cap) {
            EXPECT_EQ(st, Status::PoolFull);
            EXPECT_TRUE(s.id.isNull());
            ++m_refusals;
            return;
        }
        ASSERT_EQ(st, Status::Ok);
        list.push_back(s);
    }

    void despawnAt(std::vector<LiveShip>& list, std::size_t k) {
        ASSERT_EQ(world().despawn(list[k].id), Status::Ok);
        m_dead.push_back(list[k].id);
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(k));
    }

    void fillPools(std::uint32_t f) {
        // Drive every pool to capacity and one past it (PoolFull, nothing changes).
        while (m_enemies.size() < world().config().max_enemies) spawnShip(false, true);
        while (m_players.size() < world().config().max_players) spawnShip(true, true);
        spawnShip(false, true); // PoolFull
        spawnShip(true, true);
        if (f == kPeakFrames - 1) { // then spread them out for the rest of the run
            while (!m_enemies.empty()) despawnAt(m_enemies, m_enemies.size() - 1);
            while (!m_players.empty()) despawnAt(m_players, m_players.size() - 1);
        }
    }

    void churn(std::uint32_t) {
        if (chance(0.02)) spawnShip(false, false);
        if (chance(0.01)) spawnShip(true, false);
        if (!m_enemies.empty() && chance(0.015)) despawnAt(m_enemies, m_rng.next() % m_enemies.size());
        if (!m_players.empty() && chance(0.008)) despawnAt(m_players, m_rng.next() % m_players.size());
        // Stale despawns: ids of bodies despawned earlier (their slots may have been reused).
        if (!m_dead.empty() && chance(0.05)) {
            const BodyId& stale = m_dead[m_rng.next() % m_dead.size()];
            EXPECT_EQ(world().despawn(stale), Status::StaleHandle);
            EXPECT_FALSE(world().isAlive(stale));
        }
        if (m_dead.size() > 256) m_dead.erase(m_dead.begin(), m_dead.begin() + 128);
    }

    void moveShips(float time, bool peak) {
        for (std::vector<LiveShip>* list : {&m_enemies, &m_players})
            for (LiveShip& s : *list) {
                if (!peak && chance(0.002)) {
                    // Teleport: a jump far away (up to 1e30) and, next frames, back on its path.
                    Transform far = s.placed;
                    const float reach = chance(0.5) ? 1e6f : 1e30f;
                    set(m_rng.rangef(-1, 1) * reach, m_rng.rangef(-1, 1) * reach, 0, far.translation);
                    ASSERT_EQ(world().setShipTransform(s.id, far), Status::Ok);
                    ++m_teleports;
                    // From there a jump across the float range overflows: refused, stays put.
                    Transform across = far;
                    across.translation.x = far.translation.x < 0 ? 3e38f : -3e38f;
                    if (reach == 1e30f) {
                        set(-3e38f, 0, 0, far.translation);
                        ASSERT_EQ(world().setShipTransform(s.id, far), Status::Ok);
                        across.translation.x = 3e38f;
                        EXPECT_EQ(world().setShipTransform(s.id, across), Status::InvalidArgument);
                        expectShipAt(s.id, far);
                        ++m_refusals;
                    }
                    continue;
                }
                placeShip(s, time);
                ASSERT_EQ(world().setShipTransform(s.id, s.placed), Status::Ok);
            }
    }

    void expectShipAt(const BodyId& id, const Transform& t) {
        Transform now;
        ASSERT_EQ(world().getShipTransform(id, now), Status::Ok);
        EXPECT_EQ(std::memcmp(&now, &t, sizeof(Transform)), 0);
    }

    void fire(std::uint32_t f, std::uint32_t count) {
        const std::vector<LiveShip>& from = m_enemies.empty() ? m_players : m_enemies;
        for (std::uint32_t k = 0; k < count; ++k) {
            BulletDesc b;
            if (!from.empty()) {
                b.sphere.center = from[m_rng.next() % from.size()].placed.translation;
            } else {
                set(m_rng.rangef(-40, 40), m_rng.rangef(-30, 30), 0, b.sphere.center);
            }
            b.sphere.radius = m_rng.rangef(0.05, 0.4);
            const float speed = chance(0.3) ? 3000.0f : 30.0f; // some fast enough to be swept
            const float a = m_rng.rangef(0, 6.28);
            set(speed * std::cos(a), speed * std::sin(a), m_rng.rangef(-1, 1), b.velocity);
            b.team = static_cast<std::uint32_t>(m_rng.next() % 2);
            BodyId id;
            const Status st = world().spawnBullet(b, id);
            if (m_bullets.size() >= world().config().max_bullets) {
                EXPECT_EQ(st, Status::PoolFull);
                ++m_refusals;
                continue;
            }
            ASSERT_EQ(st, Status::Ok);
            m_bullets.push_back(LiveBullet{id, f});
        }
    }

    void bendBeams(float time) {
        for (std::size_t k = 0; k < m_beams.size(); ++k) {
            std::array<Vec3, 9> pts;
            for (std::uint32_t i = 0; i < pts.size(); ++i) {
                const float u = static_cast<float>(i) / 8.0f;
                set(-50.0f + 100.0f * u, 20.0f * std::sin(time + static_cast<float>(k) + 3.0f * u), 0.0f,
                    pts[i]);
            }
            ASSERT_EQ(world().setBeamPoints(m_beams[k], pts.data(), static_cast<std::uint32_t>(pts.size())),
                      Status::Ok);
        }
    }

    void injectBadInput(std::uint32_t) {
        const std::vector<float> bad = nonFiniteValues();
        const float v = bad[m_rng.next() % bad.size()];
        const std::uint32_t live_bullets = world().poolUsage(BodyKind::Bullet).live;
        // A ship's transform.
        std::vector<LiveShip>& list = chance(0.5) ? m_enemies : m_players;
        if (!list.empty()) {
            LiveShip& s = list[m_rng.next() % list.size()];
            Transform before;
            ASSERT_EQ(world().getShipTransform(s.id, before), Status::Ok);
            Transform t = before;
            (chance(0.5) ? t.rotation.c1 : t.translation)[static_cast<int>(m_rng.next() % 3)] = v;
            EXPECT_EQ(world().setShipTransform(s.id, t), Status::InvalidArgument);
            expectShipAt(s.id, before);
            ++m_refusals;
        }
        // A bullet's sphere or velocity, and a new bullet.
        if (!m_bullets.empty()) {
            const BodyId& id = m_bullets[m_rng.next() % m_bullets.size()].id;
            BulletDesc before;
            ASSERT_EQ(world().getBullet(id, before), Status::Ok);
            Sphere s = before.sphere;
            Vec3 vel = before.velocity;
            switch (m_rng.next() % 3) {
            case 0: s.center[static_cast<int>(m_rng.next() % 3)] = v; break;
            case 1: s.radius = std::isnan(v) ? v : -1.0f; break;
            default: vel[static_cast<int>(m_rng.next() % 3)] = v; break;
            }
            EXPECT_EQ(world().setBullet(id, s, vel), Status::InvalidArgument);
            BulletDesc after;
            ASSERT_EQ(world().getBullet(id, after), Status::Ok);
            EXPECT_EQ(std::memcmp(&after.sphere, &before.sphere, sizeof(Sphere)), 0);
            EXPECT_EQ(std::memcmp(&after.velocity, &before.velocity, sizeof(Vec3)), 0);
            ++m_refusals;
        }
        BulletDesc nan_bullet;
        nan_bullet.sphere.radius = 0.1f;
        nan_bullet.velocity.y = v;
        BodyId none;
        EXPECT_EQ(world().spawnBullet(nan_bullet, none), Status::InvalidArgument);
        EXPECT_EQ(world().poolUsage(BodyKind::Bullet).live, live_bullets);
        // A beam point, and a bad dt.
        std::array<Vec3, 3> pts = {vec3(0, 0, 0), vec3(1, v, 0), vec3(2, 0, 0)};
        EXPECT_EQ(world().setBeamPoints(m_beams[m_rng.next() % m_beams.size()], pts.data(), 3),
                  Status::InvalidArgument);
        const std::uint64_t steps = world().stepCount();
        EXPECT_EQ(world().step(v), Status::InvalidArgument);
        EXPECT_EQ(world().stepCount(), steps);
        m_refusals += 3;
    }

    void retireBullets(std::uint32_t f) {
        // Bullets that hit something or grew old are despawned; a few are left to wander far.
        std::vector<BodyId> hit_by;
        for (std::uint32_t i = 0; i < world().hitCount(); ++i)
            if (world().hits()[i].kind == HitKind::Bullet) hit_by.push_back(world().hits()[i].a);
        for (std::size_t k = 0; k < m_bullets.size();) {
            const bool hit = std::find(hit_by.begin(), hit_by.end(), m_bullets[k].id) != hit_by.end();
            if (hit || f - m_bullets[k].born > 90) {
                ASSERT_EQ(world().despawn(m_bullets[k].id), Status::Ok);
                m_dead.push_back(m_bullets[k].id);
                m_bullets[k] = m_bullets.back();
                m_bullets.pop_back();
            } else {
                ++k;
            }
        }
    }

    void checkInvariants() {
        World& w = world();
        TreeReport report;
        ASSERT_TRUE(w.movingTree()->validate(report)) << report.what << " at " << report.node;
        ASSERT_TRUE(w.staticTree()->validate(report)) << report.what << " at " << report.node;
        EXPECT_EQ(w.movingTree()->proxyCount(), m_enemies.size() + m_players.size());
        EXPECT_EQ(w.staticTree()->proxyCount(), m_statics);
        const std::size_t expected[static_cast<int>(BodyKind::Count)] = {
            0, 1, 1, m_enemies.size(), m_players.size(), m_bullets.size(), m_beams.size()};
        for (int k = 1; k < static_cast<int>(BodyKind::Count); ++k) {
            const PoolUsage u = w.poolUsage(static_cast<BodyKind>(k));
            EXPECT_EQ(u.live, expected[k]) << "kind " << k;
            EXPECT_LE(u.live, u.capacity);
            EXPECT_LE(u.high_water, u.capacity);
        }
        EXPECT_LE(w.scratchHighWater(), w.scratchCapacity());
        const std::uint32_t n = w.hitCount();
        EXPECT_LE(n, w.config().max_hits);
        EXPECT_EQ(w.stats().hits, n);
        m_hits += n;
        const Hit* hits = w.hits();
        for (std::uint32_t i = 0; i < n; ++i) {
            const Hit& h = hits[i];
            if (i + 1 < n) {
                EXPECT_FALSE(hitLess(hits[i + 1], h)) << "hits not sorted at " << i;
            }
            EXPECT_TRUE(w.isAlive(h.a)) << i;
            EXPECT_TRUE(w.isAlive(h.b)) << i;
            EXPECT_TRUE(isFinite(h.point)) << i;
            EXPECT_TRUE(isFinite(h.normal)) << i;
            EXPECT_NEAR(length(h.normal), 1.0f, 1e-4f) << "hit " << i << " kind " << int(h.kind);
            EXPECT_TRUE(std::isfinite(h.t) && std::isfinite(h.depth)) << i;
            EXPECT_GE(h.depth, 0.0f) << i;
            if (h.kind == HitKind::Bullet) {
                EXPECT_GE(h.t, 0.0f);
                EXPECT_LE(h.t, 1.0f);
            }
        }
    }

    SplitMix64 m_rng;
    HostWorld m_host;
    std::unique_ptr<BadInputMesh> m_level_mesh, m_enemy_mesh;
    std::unique_ptr<BadInputCluster> m_cluster;
    std::unique_ptr<Level> m_walls;
    std::vector<LiveShip> m_enemies, m_players;
    std::vector<LiveBullet> m_bullets;
    std::vector<BodyId> m_beams, m_dead;
    std::uint32_t m_statics = 0;
    std::uint32_t m_teleports = 0, m_refusals = 0;
    std::uint64_t m_hits = 0;
};

TEST(Soak, SeededWorldRunKeepsInvariantsAndFlatHighWater) {
    const std::uint64_t seed = 0x5EED0011u;
    SCOPED_TRACE(testing::Message() << "seed " << seed << ", " << kSoakFrames << " frames");
    Soak soak(seed);
    soak.setup();
    ASSERT_FALSE(testing::Test::HasFatalFailure());
    World& world = soak.world();
    std::array<std::uint32_t, static_cast<int>(BodyKind::Count)> warm_high{};
    std::size_t warm_scratch = 0;
    for (std::uint32_t f = 0; f < kSoakFrames; ++f) {
        soak.frame(f);
        if (testing::Test::HasFailure()) {
            ADD_FAILURE() << "first failure at frame " << f;
            return;
        }
        if (f + 1 == kWarmupFrames) {
            for (std::size_t k = 1; k < static_cast<std::size_t>(BodyKind::Count); ++k)
                warm_high[k] = world.poolUsage(static_cast<BodyKind>(k)).high_water;
            warm_scratch = world.scratchHighWater();
        }
    }
    // Flat high-water marks: the warm-up's peak was the designed one, nothing crept up after it.
    for (std::size_t k = 1; k < static_cast<std::size_t>(BodyKind::Count); ++k) {
        const PoolUsage u = world.poolUsage(static_cast<BodyKind>(k));
        EXPECT_EQ(u.high_water, warm_high[k]) << "kind " << k;
    }
    EXPECT_EQ(world.scratchHighWater(), warm_scratch);
    EXPECT_EQ(world.stepCount(), kSoakFrames);
    EXPECT_GT(soak.teleports(), 10u);
    EXPECT_GT(soak.refusals(), kSoakFrames);
    EXPECT_GT(soak.hits(), kSoakFrames); // a busy run, not an empty one
    std::printf("soak: %u frames, %llu hits, %u teleports, %u refusals, scratch high water %zu of %zu\n",
                kSoakFrames, static_cast<unsigned long long>(soak.hits()), soak.teleports(), soak.refusals(),
                world.scratchHighWater(), world.scratchCapacity());
}

} // namespace
} // namespace flak::test
