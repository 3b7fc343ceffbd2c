// flak — the World's private state: body records, pools, trees and step scratch, all carved from
// the host block at init.
#pragma once

#include <flak/arena.h>
#include <flak/broad/dynamic_tree.h>
#include <flak/fixed_pool.h>
#include <flak/out_buffer.h>
#include <flak/world/world.h>

#include <cstdint>

namespace flak {

struct LevelBody {
    const MeshBlob* mesh = nullptr;
    Transform mesh_to_world;
    ProxyId proxy;
};

struct WallsBody {
    const WallSet* walls = nullptr;
    ProxyId proxy;
};

struct ShipBody {
    const MeshBlob* mesh = nullptr;         // required for enemies
    const SphereCluster* cluster = nullptr; // required for players
    Transform ship_to_world;
    Aabb local_box; // mesh bounds merged with the cluster's bounding sphere, ship space
    std::uint32_t team = 0;
    ProxyId proxy;
};

// Bullets and beams are not in the broad-phase trees: each step queries the trees with their
// path's box (world_shots.cpp).
struct BulletBody {
    Sphere sphere; // where the last step left it (the start of the next step's path)
    Vec3 velocity;
    std::uint32_t team = 0;
};

struct BeamBody {
    std::uint32_t team = 0;
    std::uint32_t point_count = 0;
    Vec3* points = nullptr; // max_beam_points, carved at init for this slot
};

struct BodyPair;

/// Everything a World owns. Lives at the start of the host block.
struct WorldState {
    WorldConfig config;

    FixedPool<LevelBody> levels;
    FixedPool<WallsBody> walls;
    FixedPool<ShipBody> enemies;
    FixedPool<ShipBody> players;
    FixedPool<BulletBody> bullets;
    FixedPool<BeamBody> beams;
    Vec3* beam_points = nullptr; // max_beams * max_beam_points

    DynamicTree static_tree; // levels and wall sets
    DynamicTree moving_tree; // ships

    TreePair* pairs = nullptr; // max_pairs
    std::uint32_t pair_count = 0;
    BodyPair* body_pairs = nullptr; // the pairs the narrow phase tests, in scratch (this step only)
    std::uint32_t body_pair_count = 0;

    // The mesh-mesh phase, in scratch for the step: enemy pairs as jobs (and the body pair each
    // came from), their triangle pairs sorted by (job, a, b), and whether a back end has them.
    MeshMeshJob* mesh_jobs = nullptr;
    std::uint32_t* mesh_job_pairs = nullptr;
    std::uint32_t mesh_job_count = 0;
    MeshMeshPair* mesh_pairs = nullptr; // max_mesh_pairs
    std::uint32_t mesh_pair_count = 0;
    bool mesh_submitted = false;

    OutBuffer<Hit> hits; // max_hits; its dropped becomes StepStats::hits_dropped

    Arena scratch; // per-step scratch, reset at each step start
    std::size_t scratch_high_water = 0;

    StepStats stats;
    std::uint64_t hash = kHitHashSeed;
    std::uint64_t steps = 0;
};

/// Scratch bytes a step needs at most for `config` (as requested from an Arena).
std::size_t stepScratchBytes(const WorldConfig& config);

/// Proxy user value of a body: kind in the high word, pool index in the low word.
inline std::uint64_t bodyUserValue(BodyKind kind, std::uint32_t index) {
    return (static_cast<std::uint64_t>(kind) << 32) | index;
}
inline BodyKind userKind(std::uint64_t value) { return static_cast<BodyKind>(value >> 32); }
inline std::uint32_t userIndex(std::uint64_t value) { return static_cast<std::uint32_t>(value); }

/// Broad-phase category bit of a body kind.
inline std::uint32_t categoryOf(BodyKind kind) { return 1u << static_cast<std::uint32_t>(kind); }

template <typename T> BodyId toBodyId(BodyKind kind, const Handle<T>& handle) {
    BodyId id;
    id.index = handle.index;
    id.generation = handle.generation;
    id.kind = kind;
    return id;
}

template <typename T> Handle<T> toHandle(const BodyId& id) { return Handle<T>{id.index, id.generation}; }

/// The live body id in slot `index` of `kind`'s pool (the null id for a free slot).
BodyId liveBodyId(const WorldState& state, BodyKind kind, std::uint32_t index);

/// Appends a hit unless the buffer is full (then counts it as dropped).
inline void emitHit(WorldState& state, const Hit& hit) { (void)state.hits.append(hit); }

// The narrow phases of a step (world_shots.cpp: bullets, beams; world_ships.cpp: walls, ships); each runs
// over the step's pairs and emits hits.
void runBulletPhase(WorldState& state, float dt);
void runBeamPhase(WorldState& state);
void runWallPhase(WorldState& state);
void runShipPhase(WorldState& state);
/// Gathers the enemy pairs as mesh-mesh jobs and hands them to the back end, if any (after the
/// broad phase, so the back end works while the other phases run).
void startMeshMeshPhase(WorldState& state);
/// Waits for the back end's pairs (the GpuWait phase); nothing without a back end.
void collectMeshMeshPhase(WorldState& state);
/// The CPU's pairs where no back end answered, then one hit per touching enemy pair.
void runMeshMeshPhase(WorldState& state);

} // namespace flak
