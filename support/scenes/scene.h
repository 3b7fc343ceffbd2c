// flak's scripted, seeded shooter scenes: one place shared by the frame-budget runner, the SDL2
// sample and the tests. A scene owns its baked assets (enemy meshes, the player ship and its
// sphere cluster, level meshes, the wall set), sizes a World for itself, spawns its bodies and
// moves them frame by frame from its seed alone, so the same (scene, seed) gives the same calls.
#pragma once

#include "scene_assets.h"

#include <flak/world/world.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace flak::scenes {

/// What a scene holds; the named scenes are presets of this.
struct SceneParams {
    std::uint32_t players = 4;
    std::uint32_t enemies = 64;
    std::uint32_t bullets = 4000;   ///< bullets alive at steady state
    std::uint32_t bullet_life = 90; ///< frames a bullet lives unless it hits something
    std::uint32_t beams = 8;
    std::uint32_t beam_segments = 64;
    std::uint32_t wall_polygons = 300;
    std::uint32_t levels = 2;    ///< static asteroid meshes
    float arena_half_x = 200.0f; ///< play area: [-x, x] by [-y, y] in the X-Y plane
    float arena_half_y = 130.0f;
    float pile_radius = 0.0f; ///< > 0: ships and fire piled into a disc of this radius ("worst")
};

/// Names of the built-in scenes: "skirmish", "armada", "worst".
std::vector<std::string> sceneNames();
/// The parameters of a built-in scene; false for an unknown name.
bool sceneParams(const std::string& name, SceneParams& out);

/// A body the script drives, remembered for drawing and scripting.
struct ScriptedShip {
    BodyId id;
    bool player = false;
    float phase = 0.0f;     ///< path phase
    float speed = 0.0f;     ///< path speed (radians per second)
    Vec2 anchor;            ///< path centre
    Vec2 radius;            ///< path radii
    std::uint32_t mesh = 0; ///< enemies: index into SceneAssets::enemy_meshes
    bool driven = false;    ///< moved by someone else (a player at the controls): see Scene::setDriven
    Transform transform;
};

struct ScriptedBullet {
    BodyId id;
    std::uint32_t born = 0;
};

/// A scene: assets, a world config, and the script.
class Scene {
public:
    /// Builds the assets of `params` (baking meshes, fitting the cluster, making the walls) from
    /// `seed`. False with a message on failure.
    bool build(const std::string& name, const SceneParams& params, std::uint64_t seed, std::string& error);

    const std::string& name() const { return m_name; }
    std::uint64_t seed() const { return m_seed; }
    const SceneParams& params() const { return m_params; }
    const SceneAssets& assets() const { return *m_assets; }
    /// A World config with room for this scene (and headroom for its peaks).
    WorldConfig worldConfig() const;
    /// Seconds per frame (1/60).
    float dt() const { return 1.0f / 60.0f; }

    /// Spawns the level, walls, ships and beams (frame 0). False with a message on failure.
    bool setup(World& world, std::string& error);
    /// The scripted changes before the step of `frame`: moves ships, bends beams, despawns
    /// bullets that hit something last frame or grew old, fires new ones. Allocates nothing.
    void update(World& world, std::uint32_t frame);

    const std::vector<ScriptedShip>& ships() const { return m_ships; }
    /// The script's bullets by pool slot (null ids in free slots).
    const std::vector<ScriptedBullet>& bullets() const { return m_bullets; }
    /// Hands ship `index` (ships() order) to someone else, or back to the script: a driven ship
    /// is not moved by update(), which reads its transform back from the World instead (so its
    /// beams and shots start where it really is).
    void setDriven(std::size_t index, bool driven) { m_ships[index].driven = driven; }
    const std::vector<BodyId>& beams() const { return m_beams; }
    /// The polyline of beam k as last set.
    const Vec3* beamPoints(std::size_t k) const {
        return m_beam_points.data() + k * (m_params.beam_segments + 1);
    }

private:
    void placeShip(ScriptedShip& ship, float time) const;
    void fire(World& world, std::uint32_t frame, std::uint32_t count);
    std::uint64_t nextRandom();
    float uniform(float lo, float hi);

    std::string m_name;
    SceneParams m_params;
    std::uint64_t m_seed = 0;
    std::uint64_t m_rng = 0;
    std::unique_ptr<SceneAssets> m_assets;
    std::vector<ScriptedShip> m_ships;
    std::vector<ScriptedBullet> m_bullets; ///< live bullets, fixed capacity (reserved at setup)
    std::vector<BodyId> m_beams;
    std::vector<Vec3> m_beam_points; ///< beams * (segments + 1)
    std::uint32_t m_fire_per_frame = 0;
};

} // namespace flak::scenes
