// The state of one scripted frame as the Bullet composition needs it, read back from a flak World
// after Scene::update and before World::step: ship transforms, every live bullet (its position at
// the start of the step, velocity, radius and team) and the beams' polylines.
#pragma once

#include "scene.h"

#include <flak/world/world.h>

#include <cstdint>
#include <vector>

namespace flak::bench {

/// Team numbers of the scene script (scene.cpp: players 0, enemies 1).
constexpr std::uint32_t kPlayerTeam = 0;
constexpr std::uint32_t kEnemyTeam = 1;

/// One live bullet at the start of a step: the step sweeps it from `center` to center + velocity * dt.
struct FrameBullet {
    Vec3 center;
    Vec3 velocity;
    float radius = 0.0f;
    std::uint32_t team = 0;
};

/// What one frame's collision work is asked about.
struct ArmadaFrame {
    std::vector<Transform> ships;     ///< Scene::ships() order: enemies, then players
    std::vector<FrameBullet> bullets; ///< live bullets in pool slot order
    std::vector<Vec3> beam_points;    ///< beams * points, Scene::beamPoints order
    std::uint32_t beam_count = 0;
    std::uint32_t beam_point_count = 0; ///< points per beam
    std::uint32_t beam_team = 0;
};

/// Reads the frame after scene.update(world, f) and before world.step: ship transforms, the live
/// bullets in slot order (World::bodyAt, World::getBullet) and the beams' polylines.
void captureFrame(const World& world, const scenes::Scene& scene, ArmadaFrame& out_frame);

} // namespace flak::bench
