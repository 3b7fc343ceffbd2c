// The player's hands on the scene: after the scene script has moved everything, player ship 0
// and beam 0 are overridden from keyboard, mouse or gamepad, and the player's own bullets are
// fired and retired. Nothing in the scene library changes; the world simply gets newer calls.
#pragma once

#include "flak_support/shooter_view.h"

#include "scene.h"

#include <flak/platform/sdl_input.h>
#include <flak/world/world.h>

#include <cstdint>
#include <vector>

namespace flak::sample {

class PlayerControl {
public:
    /// Binds to `scene` (its first player ship and first beam, when it has them) and resets.
    void reset(const scenes::Scene& scene);
    /// True when the scene has a player ship to drive.
    bool available() const { return m_ship_index >= 0; }
    /// Index into Scene::ships() of the driven ship, or -1.
    std::int32_t shipIndex() const { return m_ship_index; }
    bool active() const { return m_active; }
    /// Takes the ship over from the script where it is now (on), or hands it back (off).
    void setActive(bool on, const World& world, scenes::Scene& scene);

    /// Before the scene's update: despawns the player's bullets that hit something in the last
    /// step or flew long enough.
    void retireBullets(World& world, std::uint32_t frame);
    /// Before the scene's update: moves the driven ship out of the walls it touched in the last
    /// step, by each ShipWall hit's push-out (normal * depth; the world never moves ships).
    void applyPushOut(const World& world, const scenes::Scene& scene);
    /// After the scene's update: moves the ship and bends the beam from `input` (dt seconds),
    /// then fires while fire is held.
    void apply(World& world, const scenes::Scene& scene, const platform::InputState& input,
               const Camera& camera, float dt, std::uint32_t frame);

    /// The beam's polyline as last set (empty when not active).
    const std::vector<Vec3>& beamPoints() const { return m_beam_points; }

private:
    std::int32_t m_ship_index = -1;
    BodyId m_beam;
    bool m_active = false;
    Vec2 m_position;
    float m_heading = 0.0f; // yaw, radians
    Vec2 m_aim;             // world point the beam reaches for
    bool m_aim_by_stick = false;
    float m_cooldown = 0.0f; // seconds until the next shot
    std::uint32_t m_segments = 32;
    std::vector<Vec3> m_beam_points;
    struct OwnBullet {
        BodyId id;
        std::uint32_t born = 0;
    };
    std::vector<OwnBullet> m_bullets;
};

} // namespace flak::sample
