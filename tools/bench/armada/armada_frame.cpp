// Reading a scripted frame back from the World.
#include "armada_frame.h"

namespace flak::bench {

void captureFrame(const World& world, const scenes::Scene& scene, ArmadaFrame& out) {
    out.ships.clear();
    for (const scenes::ScriptedShip& ship : scene.ships()) out.ships.push_back(ship.transform);

    out.bullets.clear();
    const std::uint32_t slots = world.poolUsage(BodyKind::Bullet).capacity;
    for (std::uint32_t i = 0; i < slots; ++i) {
        const BodyId id = world.bodyAt(BodyKind::Bullet, i);
        BulletDesc desc;
        if (id.isNull() || world.getBullet(id, desc) != Status::Ok) continue;
        FrameBullet bullet;
        bullet.center = desc.sphere.center;
        bullet.radius = desc.sphere.radius;
        bullet.velocity = desc.velocity;
        bullet.team = desc.team;
        out.bullets.push_back(bullet);
    }

    const scenes::SceneParams& params = scene.params();
    out.beam_count = static_cast<std::uint32_t>(scene.beams().size());
    out.beam_point_count = params.beam_segments + 1;
    // The script's rule (scene.cpp): beams belong to the players when there are any.
    out.beam_team = params.players > 0 ? kPlayerTeam : kEnemyTeam;
    out.beam_points.clear();
    for (std::uint32_t k = 0; k < out.beam_count; ++k) {
        const Vec3* points = scene.beamPoints(k);
        out.beam_points.insert(out.beam_points.end(), points, points + out.beam_point_count);
    }
}

} // namespace flak::bench
