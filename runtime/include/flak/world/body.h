// flak — the bodies of a World: what kinds there are, how they are named, how they are described.
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/math/sphere.h>
#include <flak/math/transform.h>
#include <flak/math/vec3.h>

#include <cstdint>

namespace flak {

struct SphereCluster;
struct WallSet;

/// The kinds of body a World holds. The order is part of the hit sort key (hit.h).
enum class BodyKind : std::uint8_t {
    None = 0, ///< the null body
    Level,    ///< a static level mesh (a baked blob, placed once)
    Walls,    ///< a 2D wall set in the play plane (the world X-Y plane)
    Enemy,    ///< an enemy ship: a baked mesh (and optionally its sphere cluster) with a transform
    Player,   ///< a player ship: a sphere cluster (and optionally a mesh) with a transform
    Bullet,   ///< a sphere with a velocity, swept over the step when fast
    Beam,     ///< a polyline cast in order; ends at its first hit
    Count     ///< number of kinds; not a kind
};

/// The kind's name for logs and reports: "none", "level", "walls", "enemy", "player", "bullet",
/// "beam"; "unknown" for any other value. The names are stable.
const char* bodyKindName(BodyKind kind);

/// Names a body of one World (12 bytes): its kind, its slot in that kind's pool, and the slot's
/// generation when it was spawned. A body id outlives its body: after despawn() it is stale,
/// detected, never dereferenced. The value-initialised id is the null body. An id carries no
/// mark of its World object: given to another World, it names whatever body that world has with
/// the same kind, slot, generation and epoch (each World object counts its own inits from 1, so
/// ids are the same on every run and every machine). Keep ids with the world that issued them.
struct BodyId {
    std::uint32_t index = 0;      ///< slot in the kind's pool
    std::uint32_t generation = 0; ///< 0 only for the null body
    BodyKind kind = BodyKind::None;
    std::uint8_t reserved = 0;
    /// Which init() of its World object issued the id (1, 2, ... wrapping from 65535 to 1; 0 for
    /// the null body): an id from before a re-init is stale even where the slot and generation
    /// match a new body. Not part of the hit sort key or the hit-stream hash, so a replay after a
    /// re-init gives the same hits and hash.
    std::uint16_t epoch = 0;

    bool isNull() const { return generation == 0; }
    friend bool operator==(const BodyId& a, const BodyId& b) {
        return a.kind == b.kind && a.index == b.index && a.generation == b.generation && a.epoch == b.epoch;
    }
    friend bool operator!=(const BodyId& a, const BodyId& b) { return !(a == b); }
};
static_assert(sizeof(BodyId) == 12, "BodyId is index, generation and kind");

/// Which groups a body is in and which it meets, as Box2D's filters: two bodies meet only when
/// each one's category shares a bit with the other's mask (interacts), on top of the team rule.
/// Applies to every pair a step tests (a shot and its target, two ships, a ship and a wall set)
/// and to world queries (QueryFilter::filter). The defaults meet everything.
struct CollisionFilter {
    std::uint32_t category = 1;       ///< the groups this body is in (bits)
    std::uint32_t mask = 0xFFFFFFFFu; ///< the groups it meets (bits)
};

/// Whether bodies with filters `a` and `b` meet.
constexpr bool interacts(const CollisionFilter& a, const CollisionFilter& b) {
    return (a.category & b.mask) != 0u && (b.category & a.mask) != 0u;
}

/// A static level mesh. The blob view (and the bytes behind it) must outlive the body.
struct LevelDesc {
    const MeshBlob* mesh = nullptr; ///< validated blob (loadMeshBlob); not owned
    Transform mesh_to_world;        ///< placement, fixed for the body's life
    std::uint64_t user = 0;         ///< the host's value for this body, carried into its hits
    CollisionFilter filter = {};    ///< what it meets (with the other body's filter)
};

/// A wall set in the play plane. The set (and its bytes) must outlive the body.
struct WallsDesc {
    /// Loaded wall set. The world keeps a copy of the view (with its own occupancy grid attached:
    /// WorldConfig::wall_grid_cells), so the WallSet struct may go; the blob's bytes must outlive
    /// the body. Not owned.
    const WallSet* walls = nullptr;
    std::uint64_t user = 0;      ///< the host's value for this body, carried into its hits
    CollisionFilter filter = {}; ///< what it meets (with the other body's filter)
};

/// A ship: an enemy (mesh required, cluster optional) or a player (cluster required, mesh
/// optional). Pair tests (see World::step): two enemies mesh against mesh (their clusters are
/// not used), an enemy and a player the player's cluster against the enemy's mesh, two players
/// cluster against cluster; against a wall set, the ship's cluster (an enemy without one does
/// not meet walls). Views must outlive the body.
struct ShipDesc {
    const MeshBlob* mesh = nullptr;         ///< baked mesh; not owned
    const SphereCluster* cluster = nullptr; ///< sphere cluster in the mesh's space; not owned
    Transform ship_to_world;                ///< placement now
    std::uint32_t team = 0;                 ///< bullets and beams of a team do not hit its ships
    std::uint64_t user = 0;                 ///< the host's value for this body, carried into its hits
    CollisionFilter filter = {};            ///< what it meets (with the other body's filter)
};

/// A bullet: a sphere that moves by velocity * dt each step (World::step moves it).
struct BulletDesc {
    Sphere sphere;               ///< world position now, radius >= 0
    Vec3 velocity;               ///< world units per second
    std::uint32_t team = 0;      ///< hits no ship of its own team; never hits bullets
    std::uint64_t user = 0;      ///< the host's value for this body, carried into its hits
    CollisionFilter filter = {}; ///< what it meets (with the other body's filter)
};

/// A beam: a polyline of at most WorldConfig::max_beam_points points, cast in order from the
/// first point; it stops at its first hit. Set the points with World::setBeamPoints.
struct BeamDesc {
    std::uint32_t team = 0;      ///< hits no ship of its own team; never hits bullets
    std::uint64_t user = 0;      ///< the host's value for this body, carried into its hits
    CollisionFilter filter = {}; ///< what it meets (with the other body's filter)
};

} // namespace flak
