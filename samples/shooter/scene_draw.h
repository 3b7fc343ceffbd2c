// Drawing a scene's World from above through SDL_Renderer: walls, asteroids, enemy and player
// hulls, the player's sphere cluster, bullets, beams, hit flashes with their normals, and the
// debug boxes (a selected mesh's BVH, the broad phase's two trees).
#pragma once

#include "flak_support/shooter_view.h"

#include "scene.h"

#include <flak/world/world.h>

#include <SDL.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace flak::sample {

/// A live bullet as the last step left it.
struct BulletView {
    Sphere sphere;
    Vec3 velocity;
};

/// The world's live bullets, in slot order (World::bodyAt, World::getBullet).
void collectBullets(const World& world, std::vector<BulletView>& out);

/// A hit being shown: `age` frames old (0: a hit of the last step, drawn in its exact colour).
struct HitFlash {
    Hit hit;
    int age = 0;
};

/// Frames a hit stays on screen, fading.
constexpr int kHitFlashFrames = 18;

/// What to draw besides the scene itself.
struct DrawOptions {
    bool bvh = false;             ///< the BVH boxes of the selected ship's mesh
    int bvh_depth = 4;            ///< deepest BVH level drawn (0 = the root)
    bool tree = false;            ///< the broad phase's node boxes (moving and static trees)
    std::size_t selected = 0;     ///< index into Scene::ships() for the BVH boxes and the highlight
    bool highlight = false;       ///< ring around the selected ship
    std::int32_t controlled = -1; ///< index into Scene::ships() of the player-controlled ship, or -1
};

/// The polyline of one beam as drawn (its points as last set on the world).
struct BeamView {
    BodyId id;
    const Vec3* points = nullptr;
    std::uint32_t count = 0;
};

/// Draws one frame of a scene. Keeps scratch buffers between frames (samples may allocate).
class SceneDraw {
public:
    void draw(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene, const World& world,
              const std::vector<BulletView>& bullets, const std::vector<BeamView>& beams,
              const std::vector<HitFlash>& flashes, const DrawOptions& options);
    /// Draws one blob from above where it was baked (`--view`): its walls, its mesh, its sphere
    /// cluster and, with bvh_depth >= 0, its BVH boxes down to that depth. Each part may be null.
    void drawBlob(SDL_Renderer* renderer, const Camera& camera, const MeshBlob* mesh, const WallSet* walls,
                  const SphereCluster* cluster, int bvh_depth);

private:
    void addMesh(const MeshBlob& mesh, const Transform& to_world, Rgb base, const Camera& camera);
    void addThickLine(float x0, float y0, float x1, float y1, float width, SDL_Color color);
    void addDisc(float cx, float cy, float radius, SDL_Color color, int segments);
    void flushGeometry(SDL_Renderer* renderer);
    void drawWalls(SDL_Renderer* renderer, const Camera& camera, const WallSet& walls, int width, int height);
    void drawCircle(SDL_Renderer* renderer, float cx, float cy, float radius, int segments);
    void drawBvh(SDL_Renderer* renderer, const Camera& camera, const MeshBlob& mesh,
                 const Transform& to_world, int max_depth);
    void drawTree(SDL_Renderer* renderer, const Camera& camera, const DynamicTree& tree, Rgb color);
    // The layers of draw(), bottom to top.
    void drawHulls(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene,
                   const World& world);
    void drawClusters(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene,
                      const World& world);
    void drawBullets(SDL_Renderer* renderer, const Camera& camera, const std::vector<BulletView>& bullets);
    void addBeam(const Camera& camera, const BeamView& beam, float hit_t);
    void drawBeams(SDL_Renderer* renderer, const Camera& camera, const World& world,
                   const std::vector<BeamView>& beams);
    void drawDebugBoxes(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene,
                        const World& world, const DrawOptions& options);
    void drawShipRings(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene,
                       const World& world, const DrawOptions& options);
    void drawHitFlashes(SDL_Renderer* renderer, const Camera& camera, const std::vector<HitFlash>& flashes);
    void drawHitMarkers(SDL_Renderer* renderer, const Camera& camera, const std::vector<HitFlash>& flashes);

    std::vector<SDL_Vertex> m_vertices;
    std::vector<Vec3> m_world_points;
    std::vector<SDL_FRect> m_frects;
    std::vector<SDL_FPoint> m_points;
    std::vector<float> m_crossings;
    std::vector<std::uint32_t> m_node_depth; ///< drawBvh: each wide node's depth
};

} // namespace flak::sample
