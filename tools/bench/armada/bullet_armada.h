// The armada frame composed from Bullet (libbullet-dev) calls: the peer of World::step, driven by
// the same scripted state (armada_frame.h).
//
// Two btCollisionWorlds (btDbvtBroadphase, btCollisionDispatcher, btDefaultCollisionConfiguration):
//  - main: levels and enemies as btBvhTriangleMeshShape (one shape per mesh, enemies share their
//    type's shape), the wall set as one btBvhTriangleMeshShape of its edges extruded into prisms
//    from z = -kWallHalfHeight to +kWallHalfHeight (two triangles per edge, no caps), players as a
//    btCompoundShape of the cluster's 29 btSphereShape. Collision filter groups reproduce the
//    World's rules: shots hit no ship of their own team, enemies (no cluster) ignore walls, ships
//    ignore levels.
//  - mesh-mesh: the enemies again as btGImpactMeshShape with btGImpactCollisionAlgorithm
//    registered, because Bullet's dispatcher has no concave-vs-concave algorithm for
//    btBvhTriangleMeshShape; only enemy-vs-enemy pairs are tested there.
// A frame: set ship transforms, updateAabbs + computeOverlappingPairs in both worlds (broad);
// each bullet a convexSweepTest of a btSphereShape from its start to its end, closest hit (fast
// bullets) or a contactTest of a sphere object where the step leaves it (slow ones, by the World's
// rule: moving no more than sweep_radii radii); each beam a rayTest per segment, in order, until
// the first segment that hits (closest hit); ships: dispatchAllCollisionPairs in main (player vs
// enemy mesh, player vs player, player vs walls) and in the mesh-mesh world.
#pragma once

#include "armada_frame.h"
#include "bench_clock.h"
#include "scene.h"

#include <cstdint>
#include <memory>

namespace flak::bench {

/// Half height of the wall prisms in the Bullet world (world units). Ships fly at z = 0, bullets
/// start within |z| <= 0.5 with radius <= 0.5 and never change height, beams lie in z = 0, so
/// nothing reaches the ends of the prisms.
constexpr float kWallHalfHeight = 50.0f;

/// The phases of the composed frame, in the order they run.
enum class BulletPhase : int { Broad = 0, Bullets, Beams, Ships, MeshMesh, Count };

/// What one composed frame did.
struct BulletFrameResult {
    std::uint64_t phase_ns[static_cast<int>(BulletPhase::Count)] = {};
    std::uint64_t total_ns = 0;
    std::uint32_t bullet_hits = 0;        ///< bullets with a hit (sweep or contact)
    std::uint32_t bullet_hits_on[4] = {}; ///< of those, by what was hit: level, walls, enemy, player
    std::uint32_t beam_hits = 0;          ///< beams with a hit
    std::uint32_t ship_ship = 0;          ///< ship pairs with a penetrating contact, a player on a side
    std::uint32_t ship_wall = 0;          ///< players touching the walls
    std::uint32_t enemy_enemy = 0;        ///< enemy pairs with a GImpact contact
};

/// Kinds of object in the Bullet world, as indexed in bullet_hits_on.
constexpr int kBulletTargetKinds = 4;
extern const char* const kBulletTargetNames[kBulletTargetKinds];

/// Stable name of a phase.
const char* bulletPhaseName(BulletPhase phase);

struct BulletArmadaState;

/// Owns the Bullet worlds and shapes for one built scene.
class BulletArmada {
public:
    /// Builds the shapes and objects from the scene's baked assets (the same triangles).
    explicit BulletArmada(const scenes::Scene& scene);
    ~BulletArmada();
    BulletArmada(const BulletArmada&) = delete;
    BulletArmada& operator=(const BulletArmada&) = delete;

    /// Runs the composed frame on `frame` with step dt and the World's sweep_radii; times the
    /// phases with `clock`. Shots are counted as they are answered (an increment); the ship
    /// contacts are counted from the manifolds after the clock stops.
    /// `contact_only`: every bullet is a contactTest where the step leaves it (the benchmark scene's
    /// "sphere contact tests"; fast bullets may then pass through thin things), not a sweep.
    void runFrame(const ArmadaFrame& frame, float dt, float sweep_radii, bool contact_only, BenchClock clock,
                  BulletFrameResult& out);

    /// Triangles of the Bullet wall mesh.
    std::uint32_t wallTriangles() const;

private:
    std::unique_ptr<BulletArmadaState> m_state;
};

} // namespace flak::bench
