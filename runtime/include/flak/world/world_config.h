// flak — how big a World is (capacities, fixed at init) and what one step reports about itself.
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/math/transform.h>
#include <flak/out_buffer.h>
#include <flak/status.h>
#include <flak/task_system.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// One enemy-vs-enemy pair for the mesh-mesh phase: mesh `a`, mesh `b` and b's mesh space in
/// a's (relative(a_to_world, b_to_world)), as meshMeshPairs(a, b, b_to_a) takes them.
struct MeshMeshJob {
    const MeshBlob* a = nullptr;
    const MeshBlob* b = nullptr;
    Transform b_to_a;
};

/// MeshMeshPair::flags: the pair crosses in 3D (neither coplanar nor through a zero-area
/// triangle), so the contact summary takes its crossing segment without classifying it again.
/// Used only from a back end with MeshMeshBackend::exact_crossing set.
constexpr std::uint32_t kMeshMeshPairCrossing = 1u;

/// An intersecting triangle pair of job `job` (16 bytes): triangle `a` of mesh a, `b` of mesh b.
struct MeshMeshPair {
    std::uint32_t job = 0;
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    std::uint32_t flags = 0; ///< kMeshMeshPairCrossing or 0
};
static_assert(sizeof(MeshMeshPair) == 16, "MeshMeshPair is three ids and flags");

/// A back end for the enemy-vs-enemy mesh-mesh phase, such as runtime/gpu's GPU collider
/// (gpu_world_backend.h). The world submits the step's jobs right after the broad phase, runs the
/// other phases, then collects (the wait is timed as WorldPhase::GpuWait). It must return exactly
/// meshMeshPairs' pairs for each job, sorted by (job, a, b): the world then builds the same hits
/// as without a back end, bit for bit.
struct MeshMeshBackend {
    void* user = nullptr; ///< passed back to both calls
    /// Starts the jobs (the array is valid until collect returns). False: not started (no room,
    /// device lost, ...), and the world answers on the CPU this step.
    bool (*submit)(void* user, const MeshMeshJob* jobs, std::uint32_t count) = nullptr;
    /// Waits for the submitted jobs and appends their pairs, sorted by (job, a, b), to
    /// inout_pairs (empty when called), counting those that do not fit in its dropped. Returns Ok,
    /// or BufferFull when some were dropped; any other status means the results are lost, and
    /// the world answers on the CPU this step. The world checks every record before it uses
    /// one, and each pair's triangles for an intersection as it sums the contact
    /// (StepStats::mesh_pairs_refused): a broken answer costs its CPU time, never a read out of
    /// bounds or a wrong hit (crossing flags aside: see exact_crossing). A pair the back end
    /// leaves out cannot be seen: the world trusts it to find them all.
    Status (*collect)(void* user, OutBuffer<MeshMeshPair>& inout_pairs) = nullptr;
    /// The back end sets kMeshMeshPairCrossing exactly where the CPU's classification finds a
    /// crossing (it may leave it off anywhere). The world cannot check that cheaply, so it uses
    /// the flag only when this is set: a flag on a pair that does not cross would give the
    /// step a wrong contact point. runtime/gpu's back end sets it.
    bool exact_crossing = false;
};

/// Host clock for per-phase timings: monotonic nanoseconds. Called a few times per step.
using WorldClock = std::uint64_t (*)(void* user);

/// Capacities and tuning of a World. Everything is sized from this at init; nothing grows.
struct WorldConfig {
    std::uint32_t max_levels = 4;       ///< static level meshes
    std::uint32_t max_wall_sets = 4;    ///< wall sets
    std::uint32_t max_enemies = 64;     ///< enemy ships
    std::uint32_t max_players = 4;      ///< player ships
    std::uint32_t max_bullets = 4096;   ///< bullets
    std::uint32_t max_beams = 8;        ///< beams
    std::uint32_t max_beam_points = 65; ///< points per beam polyline (segments = points - 1), >= 2
    std::uint32_t max_hits = 8192;      ///< hit records per step; more are counted, not written
    /// Ship-ship and ship-walls pairs per step; more are counted, not tested. Only pairs the step
    /// tests take room: those of live bodies whose filters meet, and ship-walls pairs only for ships
    /// with a cluster.
    std::uint32_t max_pairs = 4096;
    /// Contacts one cluster-vs-walls query may gather (a player vs an enemy mesh keeps only each
    /// sphere's deepest contact and gathers none).
    std::uint32_t max_contacts = 256;
    /// With a mesh-mesh back end: the intersecting triangle pairs it may hand back in one step,
    /// over all enemy pairs (a step whose pairs do not all fit is answered on the CPU, which
    /// needs no pair buffer: the same hits either way). Unused without a back end.
    std::uint32_t max_mesh_pairs = 65536;
    /// Cells of the occupancy grid the world builds over each wall set at spawn (wall_grid.h:
    /// shots in open space skip the set's trees, the others walk only the part of the tree
    /// their cells name; same hits either way). 8 bytes a cell, carved at init for every wall
    /// set slot: max_wall_sets * wall_grid_cells * 8 bytes (128 KiB a set by default). 0: no
    /// grid.
    std::uint32_t wall_grid_cells = 16384;
    /// Optional back end for the mesh-mesh phase (not owned; must outlive the world). Null: CPU.
    const MeshMeshBackend* mesh_mesh_backend = nullptr;
    /// Optional host workers (task_system.h; not owned; must outlive the world). Null: the step
    /// runs on the calling thread. Each worker gets its own step scratch (requiredBytes grows
    /// with worker_count); the hits, stats and hash are the same for any worker count.
    const TaskSystem* tasks = nullptr;
    float broad_margin = 0.25f; ///< fat-box margin of the ships' broad-phase boxes (world units)
    /// A bullet whose step moves it more than this many radii is swept over the step (first time
    /// of impact); a slower one is tested as a sphere where the step leaves it (t = 1).
    float sweep_radii = 1.0f;
    WorldClock clock = nullptr; ///< per-phase timings; null: all timings read 0
    void* clock_user = nullptr; ///< passed to `clock`
};

/// One part of a World's block (World::explainMemory): a name ("bullets pool", "hits", "wall
/// grids", ...) and its bytes, every request of that name summed (the per-worker parts over all
/// workers).
struct WorldMemoryItem {
    const char* name = nullptr;
    std::size_t bytes = 0;
};

/// Where a config's bytes go, or why the config is invalid (World::explainMemory).
struct WorldMemoryReport {
    const char* invalid_field = nullptr; ///< the WorldConfig field at fault; null when valid
    const char* why = nullptr;           ///< what is wrong with it; null when valid
    std::size_t total_bytes = 0;         ///< World::requiredBytes(config); 0 when invalid
    std::size_t padding_bytes = 0;       ///< alignment between the parts (total - sum of items)
    static constexpr std::uint32_t kMaxItems = 24;
    WorldMemoryItem items[kMaxItems]; ///< in layout order
    std::uint32_t item_count = 0;
};

/// A config for low-memory targets: 479 KiB with one worker, against 2.91 MiB for the defaults
/// (each further worker adds about 150 KiB of its own scratch to either). 1 level, 1 wall set
/// with a 4,096-cell grid, 16 enemies, 2 players, 512 bullets, 2 beams of 16 segments, 1,024
/// hits, 512 pairs, 64 contacts, and no mesh pairs (raise max_mesh_pairs with a mesh-mesh back
/// end). Every capacity stays a plain field to change; World::explainMemory shows where the
/// bytes go.
WorldConfig smallWorldConfig();

/// The phases of a step, in the order they run, for timings.
enum class WorldPhase : std::uint8_t {
    Broad = 0, ///< find pairs (the trees were moved by setShipTransform)
    Bullets,   ///< bullets vs ships, levels and walls
    Beams,     ///< beams vs everything but bullets
    Walls,     ///< ships vs walls, with push-out
    Ships,     ///< ships vs ships with a cluster on either side
    GpuWait,   ///< waiting for the mesh-mesh back end's pairs (0 without one)
    MeshMesh,  ///< enemy vs enemy mesh-mesh
    Output,    ///< sorting and hashing the hits
    Count      ///< number of phases; not a phase
};

/// Stable name of a phase ("broad", "bullets", ...). Never null.
const char* worldPhaseName(WorldPhase phase);

/// What a step did (read with World::stats after step). Every count saturates at 0xFFFFFFFF
/// instead of wrapping (saturatingAdd).
struct StepStats {
    std::uint64_t phase_ns[static_cast<int>(WorldPhase::Count)] = {}; ///< per-phase time (0 without a clock)
    std::uint64_t total_ns = 0;                                       ///< whole step (0 without a clock)
    std::uint32_t pairs = 0;            ///< broad-phase pairs found that the step tests (see max_pairs)
    std::uint32_t shot_candidates = 0;  ///< bodies the bullets' and beams' tree queries returned
    std::uint32_t pairs_dropped = 0;    ///< pairs found but not tested: max_pairs was too small
    std::uint32_t hits = 0;             ///< hits written
    std::uint32_t hits_dropped = 0;     ///< hits found but not written: max_hits was too small
    std::uint32_t contacts_dropped = 0; ///< contacts a query could not gather: max_contacts too small
    std::uint32_t skipped_bodies = 0;   ///< bodies not tested this step (NaN/Inf transform or shape,
                                        ///< or a bullet's path or a beam's points spread beyond float)
    std::uint32_t mesh_jobs = 0;        ///< enemy pairs tested mesh against mesh
    bool mesh_jobs_on_backend = false;  ///< the back end answered them (false: the CPU did)
    /// Records of the back end's answer that broke MeshMeshBackend's contract: a pair naming no
    /// job or a triangle its mesh lacks, out of (job, a, b) order or repeated, or a count beyond
    /// the buffer's capacity (the whole answer was refused and the CPU answered this step); or a
    /// pair whose triangles do not intersect (the CPU answered that job).
    std::uint32_t mesh_pairs_refused = 0;
};

/// Pool use of one kind (capacity and the most live at once since init).
struct PoolUsage {
    std::uint32_t live = 0;
    std::uint32_t high_water = 0;
    std::uint32_t capacity = 0;
};

} // namespace flak
