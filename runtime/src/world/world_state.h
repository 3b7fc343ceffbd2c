// flak — the World's private state: body records, pools, trees and step scratch, all carved from
// the host block at init.
#pragma once

#include <flak/arena.h>
#include <flak/broad/dynamic_tree.h>
#include <flak/fixed_pool.h>
#include <flak/out_buffer.h>
#include <flak/shooter/shot_targets.h>
#include <flak/world/world.h>

#include <cstdint>

namespace flak {

struct LevelBody {
    const MeshBlob* mesh = nullptr;
    Transform mesh_to_world;
    ProxyId proxy;
    std::uint64_t user = 0;
    CollisionFilter filter;
};

struct WallsBody {
    WallSet set; // a copy of the host's view, with this body's grid attached
    WallGrid grid;
    ProxyId proxy;
    std::uint64_t user = 0;
    CollisionFilter filter;
};

struct ShipBody {
    const MeshBlob* mesh = nullptr;         // required for enemies
    const SphereCluster* cluster = nullptr; // required for players
    Transform ship_to_world;
    Aabb local_box; // mesh bounds merged with the cluster's bounding sphere, ship space
    std::uint32_t team = 0;
    ProxyId proxy;
    std::uint64_t user = 0;
    CollisionFilter filter;
};

// Bullets and beams are not in the broad-phase trees: each step queries the trees with their
// path's box (world_shots.cpp).
struct BulletBody {
    Sphere sphere; // where the last step left it (the start of the next step's path)
    Vec3 velocity;
    std::uint32_t team = 0;
    std::uint64_t user = 0;
    CollisionFilter filter;
};

struct BeamBody {
    std::uint32_t team = 0;
    std::uint32_t point_count = 0;
    Vec3* points = nullptr; // max_beam_points, carved at init for this slot
    std::uint64_t user = 0;
    CollisionFilter filter;
};

struct BodyPair;

/// A level or wall set as its broad-phase box: the shot phases' list of static bodies, read once
/// per step (world_shots.cpp).
struct StaticBody {
    Aabb box; // the proxy's tight box: what the static tree's leaf holds and queryBox tests
    BodyId id;
    CollisionFilter filter;
};

/// Most ships the shots find through the ship list (ShipBoxes); with more they query the moving
/// tree.
constexpr std::uint32_t kShipListLimit = 256;
/// The ship list's grid: kShipGridSize x kShipGridSize cells over the ships' boxes in the play
/// plane, each a bit set of the ships whose box's cell range holds it (math/grid_index.h).
constexpr std::uint32_t kShipGridSize = 16;
constexpr std::uint32_t kShipGridWords = kShipListLimit / 64;

/// The ships as the shot phases find them (world_shots.cpp): each one's tight broad-phase box
/// (what the moving tree's leaf holds and queryBox tests), its id and team, in (kind, slot)
/// order, and a grid of bit sets over the boxes so that a shot tests only the ships filed under
/// its cells.
struct ShipBoxes {
    Aabb* boxes = nullptr;
    BodyId* ids = nullptr;
    std::uint32_t* teams = nullptr;
    CollisionFilter* filters = nullptr;
    std::uint64_t* cells = nullptr; // kShipGridSize^2 cells of kShipGridWords words, row-major
    Vec2 origin;                    // the boxes' lower corner in the play plane
    Vec2 inv_cell;                  // cells per unit (0 on an axis with no extent)
    std::uint32_t count = 0;
};

/// What one work item of a phase left in its output slot.
enum class SlotState : std::uint8_t {
    Empty = 0, ///< no hit
    Hit,       ///< a hit, in the slot
    Dropped,   ///< a hit that could not be formed (its contacts did not fit): counted as dropped
};

/// One shot's candidate bodies and the target arrays its casts read, with room for every level,
/// wall set and ship (shotTargetCapacity): a worker's own, carved at init.
struct ShotArrays {
    BodyId* candidates = nullptr;
    MeshTarget* meshes = nullptr;
    WallTarget* walls = nullptr;
    ClusterTarget* clusters = nullptr;
};

/// Room a shot's arrays need: every level, wall set and ship.
inline std::uint32_t shotTargetCapacity(const WorldConfig& c) {
    return c.max_levels + c.max_wall_sets + c.max_enemies + c.max_players;
}

/// One worker's share of a step: its shot arrays, its scratch, and the counters its items add to
/// (summed into StepStats after each phase: sums do not depend on which worker ran what). A
/// cache line of its own: workers write theirs on every item.
struct alignas(64) WorkerState {
    ShotArrays shots;
    Arena scratch;
    std::uint32_t shot_candidates = 0;
    std::uint32_t contacts_dropped = 0;
    std::uint32_t skipped_bodies = 0;
    std::uint32_t mesh_pairs_refused = 0;
};

/// Everything a World owns. Lives at the start of the host block.
struct WorldState {
    WorldConfig config;

    FixedPool<LevelBody> levels;
    FixedPool<WallsBody> walls;
    FixedPool<ShipBody> enemies;
    FixedPool<ShipBody> players;
    FixedPool<BulletBody> bullets;
    FixedPool<BeamBody> beams;
    Vec3* beam_points = nullptr;        // max_beams * max_beam_points
    std::uint8_t* wall_grids = nullptr; // max_wall_sets * wallGridBytes(wall_grid_cells): slot i's grid at i

    DynamicTree static_tree; // levels and wall sets
    DynamicTree moving_tree; // ships

    TreePair* pairs = nullptr; // max_pairs
    std::uint32_t pair_count = 0;
    BodyPair* body_pairs = nullptr; // the pairs the narrow phase tests, in scratch (this step only)
    std::uint32_t body_pair_count = 0;

    // The mesh-mesh phase, in scratch for the step: enemy pairs as jobs (and the body pair each
    // came from), and with a back end its triangle pairs sorted by (job, a, b) and where each
    // job's pairs start.
    MeshMeshJob* mesh_jobs = nullptr;
    std::uint32_t* mesh_job_pairs = nullptr;
    std::uint32_t mesh_job_count = 0;
    MeshMeshPair* mesh_pairs = nullptr;      // max_mesh_pairs (with a back end only)
    std::uint32_t* mesh_job_first = nullptr; // mesh_job_count + 1 (with a back end only)
    std::uint32_t mesh_pair_count = 0;
    bool mesh_submitted = false;

    // The shot phases' static bodies (levels, wall sets) and ships, read after the broad phase.
    StaticBody* statics = nullptr;
    std::uint32_t static_count = 0;
    ShipBoxes ship_boxes; // empty (null arrays) when the shots query the moving tree instead

    // One output slot per work item of a phase (every phase gives at most one hit per item):
    // room for the largest phase (max_bullets, max_beams or max_pairs items).
    Hit* slot_hits = nullptr;
    SlotState* slot_states = nullptr;
    std::uint32_t slot_capacity = 0;

    OutBuffer<Hit> hits; // max_hits; its dropped becomes StepStats::hits_dropped

    Arena scratch; // per-step scratch of the calling thread, reset at each step start
    std::size_t scratch_high_water = 0;
    WorkerState* workers = nullptr; // one per TaskSystem worker (one without a TaskSystem)
    std::uint32_t worker_count = 1;

    StepStats stats;
    std::uint64_t hash = kHitHashSeed;
    std::uint64_t steps = 0;
    std::uint16_t epoch = 1; // World::init's count on this World object (BodyId::epoch)
};

/// Scratch bytes a step needs at most on the calling thread for `config` (as requested from an
/// Arena), and on each worker.
std::size_t stepScratchBytes(const WorldConfig& config);
std::size_t workerScratchBytes(const WorldConfig& config);

/// Runs item(i, worker, slot_hits[i]) -> SlotState for every item i in [0, count) (count at most
/// slot_capacity), on the host's workers when there are some, then appends the slots' hits to
/// state.hits in item order and adds the workers' counters to state.stats: the same hits and
/// stats for any worker count. Item must be safe to call from several threads at once.
template <class Item>
void runPhaseItems(WorldState& state, std::uint32_t count, std::uint32_t min_range, const Item& item);

/// Proxy user value of a body: kind in the high word, pool index in the low word.
inline std::uint64_t bodyUserValue(BodyKind kind, std::uint32_t index) {
    return (static_cast<std::uint64_t>(kind) << 32) | index;
}
inline BodyKind userKind(std::uint64_t value) { return static_cast<BodyKind>(value >> 32); }
inline std::uint32_t userIndex(std::uint64_t value) { return static_cast<std::uint32_t>(value); }

/// Broad-phase category bit of a body kind.
inline std::uint32_t categoryOf(BodyKind kind) { return 1u << static_cast<std::uint32_t>(kind); }

/// The id of a live body of `kind` in the world of `state` (the null id for a null handle).
template <typename T> BodyId toBodyId(const WorldState& state, BodyKind kind, const Handle<T>& handle) {
    BodyId id;
    if (handle.isNull()) return id;
    id.index = handle.index;
    id.generation = handle.generation;
    id.kind = kind;
    id.epoch = state.epoch;
    return id;
}

template <typename T> Handle<T> toHandle(const BodyId& id) { return Handle<T>{id.index, id.generation}; }

/// The live body id in slot `index` of `kind`'s pool (the null id for a free slot).
BodyId liveBodyId(const WorldState& state, BodyKind kind, std::uint32_t index);

/// The host's user values of both bodies of `hit` (Hit::a_user, b_user).
void carryUserValues(const WorldState& state, Hit& hit);

/// The host's user value of a live body (0 for a null or stale id).
std::uint64_t bodyUser(const WorldState& state, const BodyId& id);

/// The collision filter of a live body (the default filter for a null or stale id).
CollisionFilter bodyFilter(const WorldState& state, const BodyId& id);

/// A wall set's broad-phase box: its polygons' bounds, as a tall prism (walls have no height).
void wallSetBox(const WallSet& walls, Aabb& out);

/// A ship's broad-phase box: its local box (mesh and cluster) placed in the world.
void shipWorldBox(const ShipBody& ship, Aabb& out);

/// Whether the kernels can take a shot or query with this box: its size (max - min) is finite.
/// Finite bounds alone are not enough: from -FLT_MAX to FLT_MAX the size overflows, and the mesh
/// and wall kernels would answer "no hit" where the cluster kernels (in double) would not.
inline bool sizeIsFinite(const Aabb& box) {
    Vec3 size;
    sub(box.max, box.min, size);
    return isFinite(size);
}

/// Runs fn over [0, count) on the host's workers (or inline on this thread without them).
void parallelFor(WorldState& state, std::uint32_t count, std::uint32_t min_range, TaskFunction fn,
                 void* context);
/// Appends the slots of items [0, count) to the hits in item order; sums and clears the workers'
/// counters into the stats.
void mergeSlots(WorldState& state, std::uint32_t count);

template <class Item> struct PhaseTask {
    WorldState* state;
    const Item* item;

    static void run(std::uint32_t begin, std::uint32_t end, std::uint32_t worker, void* context) {
        PhaseTask& task = *static_cast<PhaseTask*>(context);
        WorldState& s = *task.state;
        // A worker index past the declared count breaks the TaskSystem contract; wrapping keeps
        // every access in bounds (two ranges may then share a worker's state: the host's bug).
        WorkerState& w = s.workers[worker < s.worker_count ? worker : worker % s.worker_count];
        for (std::uint32_t i = begin; i < end; ++i) {
            s.slot_states[i] = (*task.item)(i, w, s.slot_hits[i]);
            if (s.slot_states[i] == SlotState::Hit) carryUserValues(s, s.slot_hits[i]);
        }
    }
};

template <class Item>
void runPhaseItems(WorldState& state, std::uint32_t count, std::uint32_t min_range, const Item& item) {
    if (count > state.slot_capacity) count = state.slot_capacity; // sized at init: does not happen
    PhaseTask<Item> task{&state, &item};
    parallelFor(state, count, min_range, &PhaseTask<Item>::run, &task);
    mergeSlots(state, count);
}

// The narrow phases of a step (world_shots.cpp: bullets, beams; world_ships.cpp: walls, ships,
// mesh-mesh); each runs its items through runPhaseItems.
/// Reads the static bodies and the ships for the shot phases (after the broad phase).
void readShotBodies(WorldState& state);
/// Worker scratch one ship-walls or ship-ship item takes at most (world_ships.cpp).
std::size_t shipScratchBytes(const WorldConfig& config);
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
