// Twin-stick control: the ship moves with the left hand and turns towards the aim at a limited
// rate; the beam leaves the nose along the heading and bends towards the aim point (a quadratic
// Bezier through sampleBeam), so quick aiming makes it curve.
#include "player_control.h"

#include <flak/shooter/beam.h>

#include <algorithm>
#include <cmath>

namespace flak::sample {

namespace {

constexpr float kSpeed = 32.0f;        // world units per second
constexpr float kTurnRate = 3.5f;      // radians per second
constexpr float kStickReach = 40.0f;   // aim distance at full right-stick deflection
constexpr float kFireInterval = 0.09f; // seconds between shots
constexpr float kBulletSpeed = 140.0f;
constexpr float kBulletRadius = 0.45f;
constexpr std::uint32_t kBulletLife = 90; // frames
constexpr std::uint32_t kPlayerTeam = 0;  // the scene's player team (scene.cpp)
constexpr float kPi = 3.14159265f;

void yawTransform(float yaw, const Vec2& position, Transform& out) {
    Quat q;
    Vec3 axis, t;
    set(0.0f, 0.0f, 1.0f, axis);
    fromAxisAngle(axis, yaw, q);
    set(position.x, position.y, 0.0f, t);
    fromQuatTranslation(q, t, out);
}

} // namespace

void PlayerControl::reset(const scenes::Scene& scene) {
    m_ship_index = -1;
    m_beam = BodyId{};
    m_active = false;
    m_bullets.clear();
    m_beam_points.clear();
    const std::vector<scenes::ScriptedShip>& ships = scene.ships();
    for (std::size_t i = 0; i < ships.size(); ++i) {
        if (ships[i].player) {
            m_ship_index = static_cast<std::int32_t>(i);
            break;
        }
    }
    if (!scene.beams().empty()) m_beam = scene.beams()[0];
    m_segments = scene.params().beam_segments;
}

void PlayerControl::setActive(bool on, const World& world, scenes::Scene& scene) {
    if (!available()) on = false;
    if (on && !m_active) {
        Transform t;
        if (world.getShipTransform(scene.ships()[static_cast<std::size_t>(m_ship_index)].id, t) != Status::Ok)
            return;
        m_position = Vec2{t.translation.x, t.translation.y};
        Vec3 forward, x_axis;
        set(1.0f, 0.0f, 0.0f, x_axis);
        transformVector(t, x_axis, forward);
        m_heading = std::atan2(forward.y, forward.x);
        m_aim = Vec2{m_position.x + 20.0f * std::cos(m_heading), m_position.y + 20.0f * std::sin(m_heading)};
    }
    if (!on) m_beam_points.clear();
    m_active = on;
    if (available()) scene.setDriven(static_cast<std::size_t>(m_ship_index), on); // the script lets go of it
}

void PlayerControl::retireBullets(World& world, std::uint32_t frame) {
    const Hit* hits = world.hits();
    for (OwnBullet& b : m_bullets) {
        bool spent = frame - b.born >= kBulletLife;
        for (std::uint32_t i = 0; i < world.hitCount() && !spent; ++i) {
            spent = hits[i].kind == HitKind::Bullet && hits[i].a == b.id;
        }
        if (spent) {
            (void)world.despawn(b.id);
            b.id = BodyId{};
        }
    }
    m_bullets.erase(
        std::remove_if(m_bullets.begin(), m_bullets.end(), [](const OwnBullet& b) { return b.id.isNull(); }),
        m_bullets.end());
}

void PlayerControl::applyPushOut(const World& world, const scenes::Scene& scene) {
    if (!m_active) return;
    const BodyId ship = scene.ships()[static_cast<std::size_t>(m_ship_index)].id;
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) {
        const Hit& hit = world.hits()[i];
        if (hit.kind != HitKind::ShipWall || hit.a != ship) continue;
        m_position.x += hit.normal.x * hit.depth;
        m_position.y += hit.normal.y * hit.depth;
    }
}

void PlayerControl::apply(World& world, const scenes::Scene& scene, const platform::InputState& input,
                          const Camera& camera, float dt, std::uint32_t frame) {
    if (!m_active) return;
    const scenes::SceneParams& params = scene.params();
    m_position.x =
        std::clamp(m_position.x + input.move_x * kSpeed * dt, -params.arena_half_x, params.arena_half_x);
    m_position.y =
        std::clamp(m_position.y + input.move_y * kSpeed * dt, -params.arena_half_y, params.arena_half_y);
    if (input.aim_stick) m_aim_by_stick = true;
    if (input.mouse_moved) m_aim_by_stick = false;
    if (m_aim_by_stick) {
        if (input.aim_stick) {
            m_aim = Vec2{m_position.x + input.aim_x * kStickReach, m_position.y + input.aim_y * kStickReach};
        }
    } else if (input.mouse_seen) {
        m_aim = Vec2{camera.toWorldX(static_cast<float>(input.mouse_x) + 0.5f),
                     camera.toWorldY(static_cast<float>(input.mouse_y) + 0.5f)};
    }
    // Turn towards the aim, at most kTurnRate * dt.
    Vec2 to_aim;
    sub(m_aim, m_position, to_aim);
    if (lengthSq(to_aim) > 1e-4f) {
        float delta = std::atan2(to_aim.y, to_aim.x) - m_heading;
        while (delta > kPi) delta -= 2.0f * kPi;
        while (delta < -kPi) delta += 2.0f * kPi;
        m_heading += std::clamp(delta, -kTurnRate * dt, kTurnRate * dt);
    }
    Transform t;
    yawTransform(m_heading, m_position, t);
    (void)world.setShipTransform(scene.ships()[static_cast<std::size_t>(m_ship_index)].id, t);

    const Vec2 heading{std::cos(m_heading), std::sin(m_heading)};
    if (!m_beam.isNull()) {
        const float reach = std::max(5.0f, length(to_aim));
        Vec3 control[3];
        set(m_position.x + heading.x * 3.5f, m_position.y + heading.y * 3.5f, 0.0f, control[0]);
        set(m_position.x + heading.x * reach * 0.6f, m_position.y + heading.y * reach * 0.6f, 0.0f,
            control[1]);
        set(m_aim.x, m_aim.y, 0.0f, control[2]);
        m_beam_points.resize(m_segments + 1);
        if (sampleBeam(control, 3, BeamCurve::Bezier, m_segments, m_beam_points.data(), m_segments + 1) ==
            Status::Ok) {
            (void)world.setBeamPoints(m_beam, m_beam_points.data(), m_segments + 1);
        }
    }

    m_cooldown = std::max(0.0f, m_cooldown - dt);
    if (input.fire && m_cooldown <= 0.0f) {
        m_cooldown = kFireInterval;
        BulletDesc bullet;
        set(m_position.x + heading.x * 4.0f, m_position.y + heading.y * 4.0f, 0.0f, bullet.sphere.center);
        bullet.sphere.radius = kBulletRadius;
        set(heading.x * kBulletSpeed, heading.y * kBulletSpeed, 0.0f, bullet.velocity);
        bullet.team = kPlayerTeam;
        BodyId id;
        if (world.spawnBullet(bullet, id) == Status::Ok) m_bullets.push_back(OwnBullet{id, frame});
    }
}

} // namespace flak::sample
