// The scene script: ships on closed paths, beams bending towards targets, bullets fired in
// bursts and retired when they hit or grow old. Everything follows from the seed.
#include "scene.h"

#include <flak/shooter/beam.h>

#include <cmath>

namespace flak::scenes {

namespace {

constexpr float kShipRadius = 4.0f; // how far ahead of a ship its bullets start
constexpr std::uint32_t kPlayerTeam = 0;
constexpr std::uint32_t kEnemyTeam = 1;

void yawTransform(float yaw, const Vec3& position, Transform& out) {
    Quat q;
    Vec3 axis;
    set(0.0f, 0.0f, 1.0f, axis);
    fromAxisAngle(axis, yaw, q);
    fromQuatTranslation(q, position, out);
}

} // namespace

std::vector<std::string> sceneNames() { return {"skirmish", "armada", "worst"}; }

bool sceneParams(const std::string& name, SceneParams& out) {
    SceneParams p;
    if (name == "armada") {
        out = p;
        return true;
    }
    if (name == "skirmish") {
        p.players = 1;
        p.enemies = 8;
        p.bullets = 200;
        p.beams = 1;
        p.wall_polygons = 24;
        p.levels = 1;
        p.arena_half_x = 80.0f;
        p.arena_half_y = 50.0f;
        out = p;
        return true;
    }
    if (name == "worst") {
        p.pile_radius = 25.0f;
        out = p;
        return true;
    }
    return false;
}

std::uint64_t Scene::nextRandom() {
    // SplitMix64: a fixed, portable sequence from the seed.
    std::uint64_t z = (m_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float Scene::uniform(float lo, float hi) {
    const float unit = static_cast<float>(nextRandom() >> 40) / 16777216.0f;
    return lo + (hi - lo) * unit;
}

bool Scene::build(const std::string& name, const SceneParams& params, std::uint64_t seed,
                  std::string& error) {
    m_name = name;
    m_params = params;
    m_seed = seed;
    m_rng = seed;
    m_assets = std::make_unique<SceneAssets>();
    if (!buildSceneAssets(params, seed, *m_assets, error)) return false;
    if (params.beam_segments == 0 || params.bullet_life == 0) {
        error = "a scene needs beam_segments >= 1 and bullet_life >= 1";
        return false;
    }
    m_fire_per_frame = (params.bullets + params.bullet_life - 1) / params.bullet_life;
    return true;
}

WorldConfig Scene::worldConfig() const {
    WorldConfig c;
    c.max_levels = m_params.levels > 0 ? m_params.levels : 1;
    c.max_wall_sets = 1;
    c.max_enemies = m_params.enemies;
    c.max_players = m_params.players;
    c.max_bullets = m_params.bullets + 2 * m_fire_per_frame; // the target count plus a frame's trickle
    c.max_beams = m_params.beams;
    c.max_beam_points = m_params.beam_segments + 1;
    c.max_hits = 16384;
    c.max_pairs = 8192;
    c.max_contacts = 4096;
    // With a mesh-mesh back end: the triangle pairs of a step. The worst scene peaks near 68,000
    // (frames 148 to 162); a step whose pairs do not fit is answered on the CPU.
    c.max_mesh_pairs = 131072;
    c.broad_margin = 0.5f;
    return c;
}

void Scene::placeShip(ScriptedShip& ship, float time) const {
    const float a = ship.phase + ship.speed * time;
    Vec3 position;
    set(ship.anchor.x + ship.radius.x * std::cos(a), ship.anchor.y + ship.radius.y * std::sin(2.0f * a), 0.0f,
        position);
    // Heading along the path's tangent.
    const float dx = -ship.radius.x * std::sin(a);
    const float dy = 2.0f * ship.radius.y * std::cos(2.0f * a);
    const float yaw = std::atan2(dy * ship.speed, dx * ship.speed);
    yawTransform(yaw, position, ship.transform);
}

bool Scene::setup(World& world, std::string& error) {
    const SceneAssets& assets = *m_assets;
    const WorldConfig config = worldConfig();
    m_rng = m_seed;
    m_ships.clear();
    m_beams.clear();
    m_bullets.assign(config.max_bullets, ScriptedBullet{});
    m_beam_points.assign(std::size_t{m_params.beams} * (m_params.beam_segments + 1), Vec3{});

    for (std::size_t i = 0; i < assets.level_meshes.size(); ++i) {
        LevelDesc level;
        level.mesh = &assets.level_meshes[i]->mesh;
        level.mesh_to_world = assets.level_placements[i];
        BodyId id;
        if (world.spawnLevel(level, id) != Status::Ok) {
            error = "spawnLevel failed";
            return false;
        }
    }
    if (assets.walls.point_count > 0) {
        WallsDesc walls;
        walls.walls = &assets.walls;
        BodyId id;
        if (world.spawnWalls(walls, id) != Status::Ok) {
            error = "spawnWalls failed";
            return false;
        }
    }
    const bool pile = m_params.pile_radius > 0.0f;
    const float hx = m_params.arena_half_x, hy = m_params.arena_half_y;
    // Enemies fly in a loose grid of closed paths whose neighbours cross now and then.
    const std::uint32_t cols =
        static_cast<std::uint32_t>(std::ceil(std::sqrt(static_cast<double>(m_params.enemies) * 1.6)));
    for (std::uint32_t i = 0; i < m_params.enemies; ++i) {
        ScriptedShip ship;
        ship.player = false;
        if (pile) {
            ship.anchor = Vec2{uniform(-0.4f, 0.4f) * m_params.pile_radius,
                               uniform(-0.4f, 0.4f) * m_params.pile_radius};
            ship.radius =
                Vec2{uniform(0.2f, 0.6f) * m_params.pile_radius, uniform(0.2f, 0.5f) * m_params.pile_radius};
        } else {
            const std::uint32_t cx = i % cols, cy = i / cols;
            const std::uint32_t rows = (m_params.enemies + cols - 1) / cols;
            ship.anchor =
                Vec2{-hx * 0.8f + (static_cast<float>(cx) + 0.5f) * (1.6f * hx / static_cast<float>(cols)),
                     -hy * 0.8f + (static_cast<float>(cy) + 0.5f) * (1.6f * hy / static_cast<float>(rows))};
            ship.radius = Vec2{uniform(6.0f, 14.0f), uniform(4.0f, 10.0f)};
        }
        ship.phase = uniform(0.0f, 6.2831853f);
        ship.speed = uniform(0.3f, 0.9f) * (nextRandom() & 1 ? 1.0f : -1.0f);
        placeShip(ship, 0.0f);
        ship.mesh = static_cast<std::uint32_t>(i % assets.enemy_meshes.size());
        ShipDesc desc;
        desc.mesh = &assets.enemy_meshes[ship.mesh]->mesh;
        desc.ship_to_world = ship.transform;
        desc.team = kEnemyTeam;
        if (world.spawnEnemy(desc, ship.id) != Status::Ok) {
            error = "spawnEnemy failed";
            return false;
        }
        m_ships.push_back(ship);
    }
    for (std::uint32_t i = 0; i < m_params.players; ++i) {
        ScriptedShip ship;
        ship.player = true;
        const float spread = pile ? m_params.pile_radius * 0.3f : hx * 0.6f;
        ship.anchor = Vec2{uniform(-spread, spread), uniform(-spread, spread) * (pile ? 1.0f : hy / hx)};
        ship.radius = Vec2{pile ? m_params.pile_radius * 0.5f : hx * 0.3f,
                           pile ? m_params.pile_radius * 0.4f : hy * 0.3f};
        ship.phase = uniform(0.0f, 6.2831853f);
        ship.speed = uniform(0.2f, 0.4f);
        placeShip(ship, 0.0f);
        ShipDesc desc;
        desc.mesh = &assets.player_mesh->mesh;
        desc.cluster = &assets.player_cluster;
        desc.ship_to_world = ship.transform;
        desc.team = kPlayerTeam;
        if (world.spawnPlayer(desc, ship.id) != Status::Ok) {
            error = "spawnPlayer failed";
            return false;
        }
        m_ships.push_back(ship);
    }
    for (std::uint32_t k = 0; k < m_params.beams; ++k) {
        BeamDesc beam;
        beam.team = m_params.players > 0 ? kPlayerTeam : kEnemyTeam;
        BodyId id;
        if (world.spawnBeam(beam, id) != Status::Ok) {
            error = "spawnBeam failed";
            return false;
        }
        m_beams.push_back(id);
    }
    return true;
}

void Scene::fire(World& world, std::uint32_t frame, std::uint32_t count) {
    if (m_ships.empty()) return;
    const bool pile = m_params.pile_radius > 0.0f;
    for (std::uint32_t n = 0; n < count; ++n) {
        const ScriptedShip& from = m_ships[nextRandom() % m_ships.size()];
        // Aim at a ship of the other side (or at the pile's centre), with some spread.
        const ScriptedShip& to = m_ships[nextRandom() % m_ships.size()];
        Vec3 target = to.transform.translation;
        if (pile) set(0.0f, 0.0f, 0.0f, target);
        Vec3 dir;
        sub(target, from.transform.translation, dir);
        dir.x += uniform(-8.0f, 8.0f);
        dir.y += uniform(-8.0f, 8.0f);
        dir.z = 0.0f;
        if (!normalize(dir, dir)) set(1.0f, 0.0f, 0.0f, dir);
        BulletDesc bullet;
        addScaled(from.transform.translation, dir, kShipRadius, bullet.sphere.center);
        bullet.sphere.center.z = uniform(-0.5f, 0.5f);
        bullet.sphere.radius = uniform(0.15f, 0.5f);
        scale(dir, uniform(40.0f, 420.0f), bullet.velocity);
        bullet.team = from.player ? kPlayerTeam : kEnemyTeam;
        BodyId id;
        if (world.spawnBullet(bullet, id) != Status::Ok) continue; // pool full: the shot is not fired
        m_bullets[id.index] = ScriptedBullet{id, frame};
    }
}

void Scene::update(World& world, std::uint32_t frame) {
    // Bullets that hit something last step are spent.
    const Hit* hits = world.hits();
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) {
        if (hits[i].kind != HitKind::Bullet) continue;
        ScriptedBullet& b = m_bullets[hits[i].a.index];
        if (b.id == hits[i].a) {
            (void)world.despawn(b.id);
            b = ScriptedBullet{};
        }
    }
    // ... and so are old ones.
    for (ScriptedBullet& b : m_bullets) {
        if (!b.id.isNull() && frame - b.born >= m_params.bullet_life) {
            (void)world.despawn(b.id);
            b = ScriptedBullet{};
        }
    }
    const float time = static_cast<float>(frame) * dt();
    for (ScriptedShip& ship : m_ships) {
        if (ship.driven) {
            (void)world.getShipTransform(ship.id, ship.transform);
            continue;
        }
        placeShip(ship, time);
        (void)world.setShipTransform(ship.id, ship.transform);
    }
    // Beams bend from their owner towards a target ship, swaying.
    const std::uint32_t points = m_params.beam_segments + 1;
    for (std::size_t k = 0; k < m_beams.size() && !m_ships.empty(); ++k) {
        const std::size_t owner =
            m_params.players > 0 ? m_params.enemies + k % m_params.players : k % m_ships.size();
        const std::size_t target =
            (k * 7 + frame / 120) % (m_params.enemies > 0 ? m_params.enemies : m_ships.size());
        const Vec3& p0 = m_ships[owner].transform.translation;
        const Vec3& p3 = m_ships[target].transform.translation;
        Vec3 d;
        sub(p3, p0, d);
        const float sway = 0.35f * std::sin(time * 1.7f + static_cast<float>(k));
        Vec3 control[4];
        control[0] = p0;
        set(p0.x + d.x * 0.33f - d.y * sway, p0.y + d.y * 0.33f + d.x * sway, 0.0f, control[1]);
        set(p0.x + d.x * 0.66f + d.y * sway, p0.y + d.y * 0.66f - d.x * sway, 0.0f, control[2]);
        // The beam reaches a little beyond its target.
        set(p3.x + d.x * 0.25f, p3.y + d.y * 0.25f, 0.0f, control[3]);
        Vec3* out = m_beam_points.data() + k * points;
        if (sampleBeam(control, 4, BeamCurve::CatmullRom, m_params.beam_segments, out, points) ==
            Status::Ok) {
            (void)world.setBeamPoints(m_beams[k], out, points);
        }
    }
    // Keep the scene's bullet count up: fire what hits and age took away (at least a trickle).
    std::uint32_t alive = 0;
    for (const ScriptedBullet& b : m_bullets) alive += b.id.isNull() ? 0u : 1u;
    const std::uint32_t deficit = alive < m_params.bullets ? m_params.bullets - alive : 0u;
    fire(world, frame, deficit > m_fire_per_frame ? deficit : m_fire_per_frame);
}

} // namespace flak::scenes
