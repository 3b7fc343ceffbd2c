// flak — World: memory layout, bodies, and the order of a step.
#include "world_state.h"

#include "stable_sort.h"
#include "world_pairs.h"

#include <flak/memory_requirements.h>
#include <flak/shooter/beam.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/wall_set.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <new>

namespace flak {

namespace {

constexpr std::uint32_t kLevelCat = 1u << static_cast<std::uint32_t>(BodyKind::Level);
constexpr std::uint32_t kWallsCat = 1u << static_cast<std::uint32_t>(BodyKind::Walls);
constexpr std::uint32_t kEnemyCat = 1u << static_cast<std::uint32_t>(BodyKind::Enemy);
constexpr std::uint32_t kPlayerCat = 1u << static_cast<std::uint32_t>(BodyKind::Player);
constexpr std::uint32_t kShipCats = kEnemyCat | kPlayerCat;

// Which kinds a body kind pairs with in the pair searches: ships with ships, and ships with a
// sphere cluster with wall sets (the walls meet a ship through its cluster). Levels take part only
// in the shots' queries (bullets and beams are queries, not proxies).
std::uint32_t maskOf(BodyKind kind, bool has_cluster = false) {
    switch (kind) {
    case BodyKind::Level: return 0;
    case BodyKind::Walls: return kShipCats;
    case BodyKind::Enemy:
    case BodyKind::Player: return has_cluster ? kShipCats | kWallsCat : kShipCats;
    default: return 0;
    }
}

const StepStats kNoStats{}; // what an uninitialised world reports
const WorldConfig kNoConfig{};

std::uint32_t atLeastOne(std::uint32_t n) { return n > 0 ? n : 1u; }

DynamicTreeConfig staticTreeConfig(const WorldConfig& config) {
    DynamicTreeConfig tree;
    tree.proxy_capacity = atLeastOne(config.max_levels + config.max_wall_sets);
    tree.margin = 0.0f; // static bodies never move
    return tree;
}

DynamicTreeConfig movingTreeConfig(const WorldConfig& config) {
    DynamicTreeConfig tree;
    tree.proxy_capacity = atLeastOne(config.max_enemies + config.max_players);
    tree.margin = config.broad_margin;
    tree.velocity_extension = 1.0f; // fat boxes reach one move ahead
    return tree;
}

constexpr std::size_t kNoSize = std::numeric_limits<std::size_t>::max();

// The first field of `config` that makes it invalid, and why; false when it is valid.
bool configProblem(const WorldConfig& config, const char*& out_field, const char*& out_why) {
    const auto problem = [&](const char* field, const char* why) {
        out_field = field;
        out_why = why;
        return true;
    };
    if (config.max_hits == 0) return problem("max_hits", "must be at least 1");
    if (config.max_pairs == 0) return problem("max_pairs", "must be at least 1");
    if (config.max_contacts == 0) return problem("max_contacts", "must be at least 1");
    if (config.max_beam_points < 2) return problem("max_beam_points", "must be at least 2 (one segment)");
    if (!(config.broad_margin >= 0.0f) || !std::isfinite(config.broad_margin))
        return problem("broad_margin", "must be finite and at least 0");
    if (!(config.sweep_radii >= 0.0f) || !std::isfinite(config.sweep_radii))
        return problem("sweep_radii", "must be finite and at least 0");
    const std::uint64_t ships = std::uint64_t{config.max_enemies} + config.max_players;
    if (ships >= DynamicTree::kMaxProxies)
        return problem("max_enemies", "max_enemies + max_players must stay below DynamicTree::kMaxProxies");
    // The static tree holds levels and wall sets: the same limit (the uint32 sum could wrap).
    const std::uint64_t statics = std::uint64_t{config.max_levels} + config.max_wall_sets;
    if (statics >= DynamicTree::kMaxProxies)
        return problem("max_levels", "max_levels + max_wall_sets must stay below DynamicTree::kMaxProxies");
    if (std::uint64_t{config.max_beams} * config.max_beam_points > 0xFFFFFFFFull)
        return problem("max_beam_points", "max_beams * max_beam_points must stay below 2^32");
    if (config.mesh_mesh_backend != nullptr &&
        (config.mesh_mesh_backend->submit == nullptr || config.mesh_mesh_backend->collect == nullptr))
        return problem("mesh_mesh_backend", "needs both submit and collect");
    if (config.tasks != nullptr && (config.tasks->enqueue == nullptr || config.tasks->finish == nullptr))
        return problem("tasks", "needs both enqueue and finish");
    if (config.tasks != nullptr &&
        (config.tasks->worker_count == 0 || config.tasks->worker_count > kMaxWorkers))
        return problem("tasks", "worker_count must be 1 to kMaxWorkers");
    return false;
}

bool configIsValid(const WorldConfig& config) {
    const char* field = nullptr;
    const char* why = nullptr;
    return !configProblem(config, field, why);
}

// The one description of the block's layout, walked twice: to size it (Sizer) and to carve it
// (Carver). Both see the same requests in the same order.
// Each request carries the name explainMemory reports it under.
struct Sizer {
    MemoryRequirements req;
    bool failed = false;
    void* take(const char*, std::size_t bytes, std::size_t alignment) {
        req.add(bytes, alignment);
        return nullptr;
    }
};

// Sums the requests by name, in the order the names first appear.
struct Explainer {
    WorldMemoryReport* report;
    bool failed = false;
    void* take(const char* name, std::size_t bytes, std::size_t) {
        for (std::uint32_t i = 0; i < report->item_count; ++i)
            if (std::strcmp(report->items[i].name, name) == 0) {
                report->items[i].bytes += bytes;
                return nullptr;
            }
        if (report->item_count < WorldMemoryReport::kMaxItems)
            report->items[report->item_count++] = WorldMemoryItem{name, bytes};
        return nullptr;
    }
};

struct Carver {
    Arena* arena;
    bool failed = false;
    void* take(const char*, std::size_t bytes, std::size_t alignment) {
        void* p = arena->allocate(bytes, alignment);
        if (p == nullptr) failed = true;
        return p;
    }
};

template <typename T> std::size_t poolBytes(std::uint32_t capacity) {
    return FixedPool<T>::requiredBytes(capacity);
}

std::uint32_t workerCount(const WorldConfig& config) {
    return config.tasks != nullptr ? config.tasks->worker_count : 1u;
}

// One output slot per work item of the largest phase (world_state.h).
std::uint32_t slotCapacity(const WorldConfig& config) {
    std::uint32_t n = config.max_bullets;
    if (config.max_beams > n) n = config.max_beams;
    if (config.max_pairs > n) n = config.max_pairs;
    return n;
}

template <typename Sink> void layoutBlocks(const WorldConfig& config, Sink& sink, WorldState* state) {
    struct PoolRequest {
        const char* name;
        std::size_t bytes;
        std::size_t align;
    };
    const std::uint32_t caps[6] = {config.max_levels,  config.max_wall_sets, config.max_enemies,
                                   config.max_players, config.max_bullets,   config.max_beams};
    const PoolRequest pools[6] = {
        {"levels pool", poolBytes<LevelBody>(caps[0]), FixedPool<LevelBody>::kAlignment},
        {"wall sets pool", poolBytes<WallsBody>(caps[1]), FixedPool<WallsBody>::kAlignment},
        {"enemies pool", poolBytes<ShipBody>(caps[2]), FixedPool<ShipBody>::kAlignment},
        {"players pool", poolBytes<ShipBody>(caps[3]), FixedPool<ShipBody>::kAlignment},
        {"bullets pool", poolBytes<BulletBody>(caps[4]), FixedPool<BulletBody>::kAlignment},
        {"beams pool", poolBytes<BeamBody>(caps[5]), FixedPool<BeamBody>::kAlignment},
    };
    void* pool_memory[6];
    for (int i = 0; i < 6; ++i) pool_memory[i] = sink.take(pools[i].name, pools[i].bytes, pools[i].align);
    const std::size_t beam_point_count = std::size_t{config.max_beams} * config.max_beam_points;
    void* beam_points = sink.take("beam points", sizeof(Vec3) * beam_point_count, alignof(Vec3));
    // The one product of two counts: saturated, so a size that does not fit stays visible (blockBytes).
    const std::size_t grid_bytes = wallGridBytes(config.wall_grid_cells);
    const std::size_t all_grids = config.max_wall_sets != 0 && grid_bytes > kNoSize / config.max_wall_sets
                                      ? kNoSize
                                      : grid_bytes * config.max_wall_sets;
    void* wall_grids = sink.take("wall grids", all_grids, 1);
    const DynamicTreeConfig static_cfg = staticTreeConfig(config);
    const DynamicTreeConfig moving_cfg = movingTreeConfig(config);
    const std::size_t static_bytes = DynamicTree::requiredBytes(static_cfg);
    const std::size_t moving_bytes = DynamicTree::requiredBytes(moving_cfg);
    void* static_tree = sink.take("static tree", static_bytes, DynamicTree::kAlignment);
    void* moving_tree = sink.take("moving tree", moving_bytes, DynamicTree::kAlignment);
    void* pairs = sink.take("pairs", sizeof(TreePair) * config.max_pairs, alignof(TreePair));
    void* hits = sink.take("hits", sizeof(Hit) * config.max_hits, alignof(Hit));
    const std::uint32_t slots = slotCapacity(config);
    void* slot_hits = sink.take("item slots", sizeof(Hit) * slots, alignof(Hit));
    void* slot_states = sink.take("item slots", sizeof(SlotState) * slots, alignof(SlotState));
    const std::size_t scratch_bytes = stepScratchBytes(config);
    void* scratch = sink.take("step scratch", scratch_bytes, kMinAlignment);
    const std::uint32_t workers = workerCount(config);
    void* worker_states = sink.take("worker states", sizeof(WorkerState) * workers, alignof(WorkerState));
    const std::size_t worker_bytes = workerScratchBytes(config);
    const std::size_t targets = shotTargetCapacity(config);
    void* worker_scratch[kMaxWorkers];
    void* shot_arrays[kMaxWorkers][4];
    for (std::uint32_t w = 0; w < workers; ++w) {
        worker_scratch[w] = sink.take("worker scratch", worker_bytes, kMinAlignment);
        shot_arrays[w][0] = sink.take("worker shot targets", sizeof(BodyId) * targets, alignof(BodyId));
        shot_arrays[w][1] =
            sink.take("worker shot targets", sizeof(MeshTarget) * targets, alignof(MeshTarget));
        shot_arrays[w][2] =
            sink.take("worker shot targets", sizeof(WallTarget) * targets, alignof(WallTarget));
        shot_arrays[w][3] =
            sink.take("worker shot targets", sizeof(ClusterTarget) * targets, alignof(ClusterTarget));
    }
    if (state == nullptr || sink.failed) return;

    // Carving: hand each piece to its owner (every call below was sized above).
    (void)state->levels.init(pool_memory[0], pools[0].bytes, caps[0]);
    (void)state->walls.init(pool_memory[1], pools[1].bytes, caps[1]);
    (void)state->enemies.init(pool_memory[2], pools[2].bytes, caps[2]);
    (void)state->players.init(pool_memory[3], pools[3].bytes, caps[3]);
    (void)state->bullets.init(pool_memory[4], pools[4].bytes, caps[4]);
    (void)state->beams.init(pool_memory[5], pools[5].bytes, caps[5]);
    state->beam_points = static_cast<Vec3*>(beam_points);
    state->wall_grids = static_cast<std::uint8_t*>(wall_grids);
    (void)state->static_tree.init(static_tree, static_bytes, static_cfg);
    (void)state->moving_tree.init(moving_tree, moving_bytes, moving_cfg);
    state->pairs = static_cast<TreePair*>(pairs);
    state->hits = OutBuffer<Hit>::over(static_cast<Hit*>(hits), config.max_hits);
    state->slot_hits = static_cast<Hit*>(slot_hits);
    state->slot_states = static_cast<SlotState*>(slot_states);
    state->slot_capacity = slots;
    (void)state->scratch.init(scratch, scratch_bytes);
    state->workers = static_cast<WorkerState*>(worker_states);
    state->worker_count = workers;
    for (std::uint32_t w = 0; w < workers; ++w) {
        WorkerState* worker = new (&state->workers[w]) WorkerState();
        (void)worker->scratch.init(worker_scratch[w], worker_bytes);
        worker->shots.candidates = static_cast<BodyId*>(shot_arrays[w][0]);
        worker->shots.meshes = static_cast<MeshTarget*>(shot_arrays[w][1]);
        worker->shots.walls = static_cast<WallTarget*>(shot_arrays[w][2]);
        worker->shots.clusters = static_cast<ClusterTarget*>(shot_arrays[w][3]);
    }
}

bool finiteSphere(const Sphere& s) {
    return isFinite(s.center) && std::isfinite(s.radius) && s.radius >= 0.0f;
}

void sphereBox(const Sphere& s, Aabb& out) {
    set(s.center.x - s.radius, s.center.y - s.radius, s.center.z - s.radius, out.min);
    set(s.center.x + s.radius, s.center.y + s.radius, s.center.z + s.radius, out.max);
}

Status validateId(const WorldState* state, const BodyId& id) {
    if (state == nullptr) return Status::InvalidArgument;
    if (id.isNull()) return Status::NullHandle;
    if (id.epoch != state->epoch) return Status::StaleHandle; // from before the last init()
    return Status::Ok;
}

} // namespace

// Walls are infinite vertical prisms; the broad phase gives them a tall finite box, so in the World
// (steps and queries alike) they reach |z| = 1e18 (world_query.h).
constexpr float kWallHalfHeight = 1.0e18f;

void wallSetBox(const WallSet& walls, Aabb& out) {
    if (walls.point_count == 0) {
        setEmpty(out);
        return;
    }
    set(walls.bounds_min.x, walls.bounds_min.y, -kWallHalfHeight, out.min);
    set(walls.bounds_max.x, walls.bounds_max.y, kWallHalfHeight, out.max);
}

void shipWorldBox(const ShipBody& ship, Aabb& out) { transformAabb(ship.ship_to_world, ship.local_box, out); }

std::size_t stepScratchBytes(const WorldConfig& c) {
    // An upper bound: every piece the calling thread takes in a step, added up.
    MemoryRequirements req;
    req.add(sizeof(BodyPair) * std::size_t{c.max_pairs}); // classified pairs, live for the step
    // The shot phases' list of static bodies (world_shots.cpp: StaticBody, a box, an id and a
    // filter).
    req.add((sizeof(Aabb) + sizeof(BodyId) + sizeof(CollisionFilter)) *
            (std::size_t{c.max_levels} + c.max_wall_sets));
    // The shot phases' ship list (ShipBoxes: a box, an id, a team and a filter a ship, and the
    // grid).
    const std::size_t ship_slots = std::size_t{c.max_enemies} + c.max_players;
    req.add(sizeof(Aabb) * ship_slots);
    req.add(sizeof(BodyId) * ship_slots);
    req.add(sizeof(std::uint32_t) * ship_slots);
    req.add(sizeof(CollisionFilter) * ship_slots);
    req.add(sizeof(std::uint64_t) * kShipGridSize * kShipGridSize * kShipGridWords);
    req.add(sizeof(MeshMeshJob) * std::size_t{c.max_pairs}); // mesh-mesh jobs, live for the step
    req.add(sizeof(std::uint32_t) * std::size_t{c.max_pairs});
    if (c.mesh_mesh_backend != nullptr) { // the back end's pairs and where each job's pairs start
        req.add(sizeof(MeshMeshPair) * std::size_t{c.max_mesh_pairs});
        req.add(sizeof(std::uint32_t) * (std::size_t{c.max_pairs} + 1));
    }
    req.add(stableSortScratchBytes<Hit>(c.max_hits));
    return req.bytes + 16 * kMinAlignment; // per-allocation rounding slack
}

std::size_t workerScratchBytes(const WorldConfig& c) {
    // One item at a time per worker; shots use their arrays (ShotArrays), carved apart.
    return shipScratchBytes(c) + 8 * kMinAlignment;
}

void parallelFor(WorldState& s, std::uint32_t count, std::uint32_t min_range, TaskFunction fn,
                 void* context) {
    if (count == 0) return;
    const TaskSystem* tasks = s.config.tasks;
    if (min_range == 0) min_range = 1;
    // The per-worker states were carved for the worker count at init: a task system whose count
    // has grown since is not used (its workers could share a state), the items run here.
    if (tasks == nullptr || tasks->worker_count < 2 || tasks->worker_count > s.worker_count ||
        count <= min_range) {
        fn(0, count, 0, context);
        return;
    }
    void* task = tasks->enqueue(fn, count, min_range, context, tasks->user);
    if (task != nullptr) tasks->finish(task, tasks->user);
}

void mergeSlots(WorldState& s, std::uint32_t count) {
    for (std::uint32_t i = 0; i < count; ++i) {
        if (s.slot_states[i] == SlotState::Hit) {
            (void)s.hits.append(s.slot_hits[i]);
        } else if (s.slot_states[i] == SlotState::Dropped) {
            s.hits.drop(1);
        }
    }
    for (std::uint32_t w = 0; w < s.worker_count; ++w) {
        WorkerState& worker = s.workers[w];
        s.stats.shot_candidates = saturatingAdd(s.stats.shot_candidates, worker.shot_candidates);
        s.stats.contacts_dropped = saturatingAdd(s.stats.contacts_dropped, worker.contacts_dropped);
        s.stats.skipped_bodies = saturatingAdd(s.stats.skipped_bodies, worker.skipped_bodies);
        s.stats.mesh_pairs_refused = saturatingAdd(s.stats.mesh_pairs_refused, worker.mesh_pairs_refused);
        worker.shot_candidates = worker.contacts_dropped = worker.skipped_bodies = worker.mesh_pairs_refused =
            0;
    }
}

const char* worldPhaseName(WorldPhase phase) {
    switch (phase) {
    case WorldPhase::Broad: return "broad";
    case WorldPhase::Bullets: return "bullets";
    case WorldPhase::Beams: return "beams";
    case WorldPhase::Walls: return "walls";
    case WorldPhase::Ships: return "ships";
    case WorldPhase::MeshMesh: return "mesh_mesh";
    case WorldPhase::GpuWait: return "gpu_wait";
    case WorldPhase::Output: return "output";
    default: return "unknown";
    }
}

BodyId liveBodyId(const WorldState& state, BodyKind kind, std::uint32_t index) {
    switch (kind) {
    case BodyKind::Level: return toBodyId(state, kind, state.levels.handleAt(index));
    case BodyKind::Walls: return toBodyId(state, kind, state.walls.handleAt(index));
    case BodyKind::Enemy: return toBodyId(state, kind, state.enemies.handleAt(index));
    case BodyKind::Player: return toBodyId(state, kind, state.players.handleAt(index));
    case BodyKind::Bullet: return toBodyId(state, kind, state.bullets.handleAt(index));
    case BodyKind::Beam: return toBodyId(state, kind, state.beams.handleAt(index));
    default: return BodyId{};
    }
}

namespace {

// f(body) for the live body `id` names, whatever its kind; `none` for a null, stale or unknown id.
template <typename R, typename F> R onBody(const WorldState& state, const BodyId& id, R none, F f) {
    if (id.isNull() || id.epoch != state.epoch) return none;
    const auto apply = [&](const auto* body) { return body != nullptr ? f(*body) : none; };
    switch (id.kind) {
    case BodyKind::Level: return apply(state.levels.get(toHandle<LevelBody>(id)));
    case BodyKind::Walls: return apply(state.walls.get(toHandle<WallsBody>(id)));
    case BodyKind::Enemy: return apply(state.enemies.get(toHandle<ShipBody>(id)));
    case BodyKind::Player: return apply(state.players.get(toHandle<ShipBody>(id)));
    case BodyKind::Bullet: return apply(state.bullets.get(toHandle<BulletBody>(id)));
    case BodyKind::Beam: return apply(state.beams.get(toHandle<BeamBody>(id)));
    default: return none;
    }
}

} // namespace

std::uint64_t bodyUser(const WorldState& state, const BodyId& id) {
    return onBody(state, id, std::uint64_t{0}, [](const auto& body) { return body.user; });
}

CollisionFilter bodyFilter(const WorldState& state, const BodyId& id) {
    return onBody(state, id, CollisionFilter{}, [](const auto& body) { return body.filter; });
}

void carryUserValues(const WorldState& state, Hit& hit) {
    hit.a_user = bodyUser(state, hit.a);
    hit.b_user = bodyUser(state, hit.b);
}

WorldConfig smallWorldConfig() {
    WorldConfig c;
    c.max_levels = 1;
    c.max_wall_sets = 1;
    c.max_enemies = 16;
    c.max_players = 2;
    c.max_bullets = 512;
    c.max_beams = 2;
    c.max_beam_points = 17;
    c.max_hits = 1024;
    c.max_pairs = 512;
    c.max_contacts = 64;
    c.max_mesh_pairs = 0;
    c.wall_grid_cells = 4096;
    return c;
}

namespace {

// The block's size for a config whose fields are valid, or 0 when it does not fit in size_t.
// Every part but the wall grids is at most a few hundred bytes per uint32 count, so only they
// (max_wall_sets * wall_grid_cells cells of 8 bytes) can get there.
std::size_t blockBytes(const WorldConfig& config) {
    Sizer sizer;
    sizer.take("world state", sizeof(WorldState), alignof(WorldState));
    layoutBlocks(config, sizer, nullptr);
    if (sizer.req.overflowed() || sizer.req.bytes > kNoSize - World::kAlignment) return 0;
    return alignUp(sizer.req.bytes, World::kAlignment);
}

} // namespace

std::size_t World::requiredBytes(const WorldConfig& config) {
    return configIsValid(config) ? blockBytes(config) : 0;
}

bool World::explainMemory(const WorldConfig& config, WorldMemoryReport& out) {
    out = WorldMemoryReport{};
    if (configProblem(config, out.invalid_field, out.why)) return false;
    const std::size_t total = blockBytes(config); // what requiredBytes answers for a valid config
    if (total == 0) {
        out.invalid_field = "wall_grid_cells";
        out.why = "max_wall_sets * wall_grid_cells grid cells make the block's size overflow size_t";
        return false;
    }
    Explainer explainer{&out};
    explainer.take("world state", sizeof(WorldState), alignof(WorldState));
    layoutBlocks(config, explainer, nullptr);
    out.total_bytes = total;
    std::size_t items = 0;
    for (std::uint32_t i = 0; i < out.item_count; ++i) items += out.items[i].bytes;
    out.padding_bytes = out.total_bytes - items;
    return true;
}

Status World::init(void* memory, std::size_t bytes, const WorldConfig& config) {
    m_state = nullptr;
    if (memory == nullptr) return Status::NullMemory;
    if (!isAligned(memory, kAlignment)) return Status::Misaligned;
    const std::size_t need = requiredBytes(config);
    if (need == 0) return Status::InvalidArgument;
    if (bytes < need) return Status::TooSmall;
    Arena root;
    if (root.init(memory, bytes) != Status::Ok) return Status::Misaligned;
    Carver carver{&root};
    void* state_memory = carver.take("world state", sizeof(WorldState), alignof(WorldState));
    if (state_memory == nullptr) return Status::TooSmall;
    WorldState* state = ::new (state_memory) WorldState();
    state->config = config;
    m_epoch = m_epoch == 0xFFFFu ? 1u : static_cast<std::uint16_t>(m_epoch + 1u);
    state->epoch = m_epoch;
    layoutBlocks(config, carver, state);
    if (carver.failed) return Status::TooSmall;
    m_state = state;
    return Status::Ok;
}

Status World::spawnLevel(const LevelDesc& desc, BodyId& out_id) {
    out_id = BodyId{};
    if (m_state == nullptr || desc.mesh == nullptr || desc.mesh->triangle_count == 0 ||
        !isFinite(desc.mesh_to_world) || !isRigid(desc.mesh_to_world))
        return Status::InvalidArgument;
    WorldState& s = *m_state;
    Handle<LevelBody> handle;
    const Status status = s.levels.create(handle);
    if (status != Status::Ok) return status;
    LevelBody& body = *s.levels.get(handle);
    body.mesh = desc.mesh;
    body.mesh_to_world = desc.mesh_to_world;
    body.user = desc.user;
    body.filter = desc.filter;
    ProxyDesc proxy;
    transformAabb(desc.mesh_to_world, desc.mesh->bounds, proxy.box);
    proxy.user_value = bodyUserValue(BodyKind::Level, handle.index);
    proxy.category = kLevelCat;
    proxy.mask = maskOf(BodyKind::Level);
    const Status tree_status = s.static_tree.createProxy(proxy, body.proxy);
    if (tree_status != Status::Ok) { // room for every level: a world box that overflowed, as for ships
        (void)s.levels.destroy(handle);
        return tree_status;
    }
    out_id = toBodyId(s, BodyKind::Level, handle);
    return Status::Ok;
}

Status World::spawnWalls(const WallsDesc& desc, BodyId& out_id) {
    out_id = BodyId{};
    if (m_state == nullptr || desc.walls == nullptr) return Status::InvalidArgument;
    WorldState& s = *m_state;
    Aabb box;
    wallSetBox(*desc.walls, box);
    if (isEmpty(box)) return Status::InvalidArgument;
    Handle<WallsBody> handle;
    const Status status = s.walls.create(handle);
    if (status != Status::Ok) return status;
    WallsBody& body = *s.walls.get(handle);
    body.set = *desc.walls;
    body.set.grid = nullptr;
    body.user = desc.user;
    body.filter = desc.filter;
    if (s.config.wall_grid_cells > 0) {
        std::uint8_t* cells =
            s.wall_grids + std::size_t{handle.index} * wallGridBytes(s.config.wall_grid_cells);
        // A set the grid cannot cover (beyond its magnitude window) is walked as before.
        if (buildWallGrid(body.set, s.config.wall_grid_cells, cells, wallGridBytes(s.config.wall_grid_cells),
                          body.grid) == Status::Ok)
            body.set.grid = &body.grid;
    }
    ProxyDesc proxy;
    proxy.box = box;
    proxy.user_value = bodyUserValue(BodyKind::Walls, handle.index);
    proxy.category = kWallsCat;
    proxy.mask = maskOf(BodyKind::Walls);
    const Status tree_status = s.static_tree.createProxy(proxy, body.proxy);
    if (tree_status != Status::Ok) { // room for every set: a box the tree refuses (not finite, inverted)
        (void)s.walls.destroy(handle);
        return tree_status;
    }
    out_id = toBodyId(s, BodyKind::Walls, handle);
    return Status::Ok;
}

namespace {

Status spawnShip(WorldState& s, BodyKind kind, const ShipDesc& desc, BodyId& out_id) {
    FixedPool<ShipBody>& pool = kind == BodyKind::Enemy ? s.enemies : s.players;
    Handle<ShipBody> handle;
    const Status status = pool.create(handle);
    if (status != Status::Ok) return status;
    ShipBody& body = *pool.get(handle);
    body.mesh = desc.mesh;
    body.cluster = desc.cluster;
    body.ship_to_world = desc.ship_to_world;
    body.team = desc.team;
    body.user = desc.user;
    body.filter = desc.filter;
    setEmpty(body.local_box);
    if (desc.mesh != nullptr) body.local_box = desc.mesh->bounds;
    if (desc.cluster != nullptr) {
        Aabb cluster_box;
        sphereBox(desc.cluster->bound, cluster_box);
        merge(body.local_box, cluster_box, body.local_box);
    }
    ProxyDesc proxy;
    shipWorldBox(body, proxy.box);
    proxy.user_value = bodyUserValue(kind, handle.index);
    proxy.category = categoryOf(kind);
    proxy.mask = maskOf(kind, desc.cluster != nullptr);
    const Status tree_status = s.moving_tree.createProxy(proxy, body.proxy);
    if (tree_status != Status::Ok) {
        // The tree has room for every ship, so this is a world box that overflowed (a finite
        // transform far from rigid): InvalidArgument, not PoolFull.
        (void)pool.destroy(handle);
        return tree_status;
    }
    out_id = toBodyId(s, kind, handle);
    return Status::Ok;
}

} // namespace

Status World::spawnEnemy(const ShipDesc& desc, BodyId& out_id) {
    out_id = BodyId{};
    if (m_state == nullptr || desc.mesh == nullptr || desc.mesh->triangle_count == 0 ||
        !isFinite(desc.ship_to_world) || !isRigid(desc.ship_to_world))
        return Status::InvalidArgument;
    if (desc.cluster != nullptr && !sphereClusterIsValid(*desc.cluster)) return Status::InvalidArgument;
    return spawnShip(*m_state, BodyKind::Enemy, desc, out_id);
}

Status World::spawnPlayer(const ShipDesc& desc, BodyId& out_id) {
    out_id = BodyId{};
    if (m_state == nullptr || desc.cluster == nullptr || !sphereClusterIsValid(*desc.cluster) ||
        !isFinite(desc.ship_to_world) || !isRigid(desc.ship_to_world))
        return Status::InvalidArgument;
    if (desc.mesh != nullptr && desc.mesh->triangle_count == 0) return Status::InvalidArgument;
    return spawnShip(*m_state, BodyKind::Player, desc, out_id);
}

Status World::spawnBullet(const BulletDesc& desc, BodyId& out_id) {
    out_id = BodyId{};
    if (m_state == nullptr || !finiteSphere(desc.sphere) || !isFinite(desc.velocity))
        return Status::InvalidArgument;
    WorldState& s = *m_state;
    Handle<BulletBody> handle;
    const Status status = s.bullets.create(handle);
    if (status != Status::Ok) return status;
    BulletBody& body = *s.bullets.get(handle);
    body.sphere = desc.sphere;
    body.velocity = desc.velocity;
    body.team = desc.team;
    body.user = desc.user;
    body.filter = desc.filter;
    out_id = toBodyId(s, BodyKind::Bullet, handle);
    return Status::Ok;
}

Status World::spawnBeam(const BeamDesc& desc, BodyId& out_id) {
    out_id = BodyId{};
    if (m_state == nullptr) return Status::InvalidArgument;
    WorldState& s = *m_state;
    Handle<BeamBody> handle;
    const Status status = s.beams.create(handle);
    if (status != Status::Ok) return status;
    BeamBody& body = *s.beams.get(handle);
    body.team = desc.team;
    body.user = desc.user;
    body.filter = desc.filter;
    body.point_count = 0;
    body.points = s.beam_points + std::size_t{handle.index} * s.config.max_beam_points;
    out_id = toBodyId(s, BodyKind::Beam, handle);
    return Status::Ok;
}

Status World::despawn(const BodyId& id) {
    const Status valid = validateId(m_state, id);
    if (valid != Status::Ok) return valid;
    WorldState& s = *m_state;
    switch (id.kind) {
    case BodyKind::Level: {
        const Handle<LevelBody> h = toHandle<LevelBody>(id);
        if (const LevelBody* b = s.levels.get(h)) (void)s.static_tree.destroyProxy(b->proxy);
        return s.levels.destroy(h);
    }
    case BodyKind::Walls: {
        const Handle<WallsBody> h = toHandle<WallsBody>(id);
        if (const WallsBody* b = s.walls.get(h)) (void)s.static_tree.destroyProxy(b->proxy);
        return s.walls.destroy(h);
    }
    case BodyKind::Enemy:
    case BodyKind::Player: {
        FixedPool<ShipBody>& pool = id.kind == BodyKind::Enemy ? s.enemies : s.players;
        const Handle<ShipBody> h = toHandle<ShipBody>(id);
        if (const ShipBody* b = pool.get(h)) (void)s.moving_tree.destroyProxy(b->proxy);
        return pool.destroy(h);
    }
    case BodyKind::Bullet: return s.bullets.destroy(toHandle<BulletBody>(id));
    case BodyKind::Beam: return s.beams.destroy(toHandle<BeamBody>(id));
    default: return Status::StaleHandle;
    }
}

Status World::setShipTransform(const BodyId& id, const Transform& ship_to_world) {
    const Status valid = validateId(m_state, id);
    if (valid != Status::Ok) return valid;
    if (id.kind != BodyKind::Enemy && id.kind != BodyKind::Player) return Status::InvalidArgument;
    WorldState& s = *m_state;
    FixedPool<ShipBody>& pool = id.kind == BodyKind::Enemy ? s.enemies : s.players;
    ShipBody* body = pool.get(toHandle<ShipBody>(id));
    if (body == nullptr) return Status::StaleHandle;
    if (!isFinite(ship_to_world) || !isRigid(ship_to_world)) return Status::InvalidArgument;
    Vec3 displacement;
    sub(ship_to_world.translation, body->ship_to_world.translation, displacement);
    Aabb box;
    transformAabb(ship_to_world, body->local_box, box);
    // The tree refuses a box or a jump that overflows (a finite transform far from rigid, or a
    // teleport across most of the float range): keep the old transform then, so the body and its
    // broad-phase box never disagree.
    const Status status = s.moving_tree.moveProxy(body->proxy, box, displacement);
    if (status == Status::Ok) body->ship_to_world = ship_to_world;
    return status;
}

Status World::setBullet(const BodyId& id, const Sphere& sphere, const Vec3& velocity) {
    const Status valid = validateId(m_state, id);
    if (valid != Status::Ok) return valid;
    if (id.kind != BodyKind::Bullet) return Status::InvalidArgument;
    WorldState& s = *m_state;
    BulletBody* body = s.bullets.get(toHandle<BulletBody>(id));
    if (body == nullptr) return Status::StaleHandle;
    if (!finiteSphere(sphere) || !isFinite(velocity)) return Status::InvalidArgument;
    body->sphere = sphere;
    body->velocity = velocity;
    return Status::Ok;
}

Status World::setBeamPoints(const BodyId& id, const Vec3* points, std::uint32_t count) {
    const Status valid = validateId(m_state, id);
    if (valid != Status::Ok) return valid;
    if (id.kind != BodyKind::Beam) return Status::InvalidArgument;
    WorldState& s = *m_state;
    BeamBody* body = s.beams.get(toHandle<BeamBody>(id));
    if (body == nullptr) return Status::StaleHandle;
    if (count > s.config.max_beam_points || (points == nullptr && count > 0)) return Status::InvalidArgument;
    for (std::uint32_t i = 0; i < count; ++i) {
        if (!isFinite(points[i])) return Status::InvalidArgument;
    }
    for (std::uint32_t i = 0; i < count; ++i) body->points[i] = points[i];
    body->point_count = count;
    return Status::Ok;
}

namespace {

std::uint64_t now(const WorldConfig& config) {
    return config.clock != nullptr ? config.clock(config.clock_user) : 0;
}

void findPairs(WorldState& s) {
    s.body_pair_count = 0;
    OutBuffer<TreePair> pairs = OutBuffer<TreePair>::over(s.pairs, s.config.max_pairs);
    const PairFilter testable = testablePairs(s);
    (void)s.moving_tree.findPairs(pairs, testable);
    const std::uint32_t moving_written = pairs.count;
    if (s.static_tree.proxyCount() > 0 && s.moving_tree.proxyCount() > 0) {
        (void)findTreePairs(s.static_tree, s.moving_tree, pairs, testable);
    }
    s.pair_count = pairs.count;
    s.stats.pairs = saturatingAdd(pairs.count, pairs.dropped);
    s.stats.pairs_dropped = pairs.dropped;
    classifyPairs(s, moving_written);
    startMeshMeshPhase(s);
    readShotBodies(s);
}

} // namespace

Status World::step(float dt) {
    if (m_state == nullptr || !(dt >= 0.0f) || !std::isfinite(dt)) return Status::InvalidArgument;
    WorldState& s = *m_state;
    s.stats = StepStats{};
    s.hits.clear();
    s.scratch.reset();
    s.mesh_jobs = nullptr; // the mesh-mesh phase's scratch is made again below
    s.mesh_pairs = nullptr;
    s.mesh_job_first = nullptr;
    s.mesh_submitted = false;
    s.statics = nullptr;
    s.static_count = 0;
    s.ship_boxes = ShipBoxes{};
    for (std::uint32_t w = 0; w < s.worker_count; ++w) s.workers[w].scratch.reset();
    const WorldConfig& c = s.config;
    std::uint64_t t0 = now(c);
    const std::uint64_t start = t0;
    auto lap = [&](WorldPhase phase) {
        const std::uint64_t t1 = now(c);
        s.stats.phase_ns[static_cast<int>(phase)] = t1 - t0;
        t0 = t1;
    };

    findPairs(s);
    lap(WorldPhase::Broad);
    runBulletPhase(s, dt);
    lap(WorldPhase::Bullets);
    runBeamPhase(s);
    lap(WorldPhase::Beams);
    runWallPhase(s);
    lap(WorldPhase::Walls);
    runShipPhase(s);
    lap(WorldPhase::Ships);
    if (s.mesh_submitted) { // nothing to wait for otherwise: GpuWait stays 0, as documented
        collectMeshMeshPhase(s);
        lap(WorldPhase::GpuWait);
    }
    runMeshMeshPhase(s);
    lap(WorldPhase::MeshMesh);
    sortHits(s.hits.items, s.hits.count, s.scratch);
    std::uint64_t hash = s.hash;
    for (std::uint32_t i = 0; i < s.hits.count; ++i) hash = hashHit(s.hits.items[i], hash);
    s.hash = hashStepEnd(s.hits.count, hash);
    ++s.steps;
    s.stats.hits = s.hits.count;
    s.stats.hits_dropped = s.hits.dropped;
    lap(WorldPhase::Output);
    s.stats.total_ns = t0 - start;
    std::size_t high_water = s.scratch.highWater();
    for (std::uint32_t w = 0; w < s.worker_count; ++w) high_water += s.workers[w].scratch.highWater();
    if (high_water > s.scratch_high_water) s.scratch_high_water = high_water;
    return s.stats.hits_dropped > 0 || s.stats.pairs_dropped > 0 || s.stats.contacts_dropped > 0
               ? Status::BufferFull
               : Status::Ok;
}

const Hit* World::hits() const { return m_state != nullptr ? m_state->hits.items : nullptr; }
std::uint32_t World::hitCount() const { return m_state != nullptr ? m_state->hits.count : 0; }

const StepStats& World::stats() const { return m_state != nullptr ? m_state->stats : kNoStats; }

std::uint64_t World::hitStreamHash() const { return m_state != nullptr ? m_state->hash : kHitHashSeed; }
std::uint64_t World::stepCount() const { return m_state != nullptr ? m_state->steps : 0; }

bool World::isAlive(const BodyId& id) const {
    if (m_state == nullptr || id.isNull()) return false;
    const BodyId live = liveBodyId(*m_state, id.kind, id.index);
    return live == id;
}

BodyId World::bodyAt(BodyKind kind, std::uint32_t slot) const {
    return m_state != nullptr ? liveBodyId(*m_state, kind, slot) : BodyId{};
}

Status World::getBullet(const BodyId& id, BulletDesc& out_bullet) const {
    const Status valid = validateId(m_state, id);
    if (valid != Status::Ok) return valid;
    if (id.kind != BodyKind::Bullet) return Status::InvalidArgument;
    const BulletBody* body = m_state->bullets.get(toHandle<BulletBody>(id));
    if (body == nullptr) return Status::StaleHandle;
    out_bullet.sphere = body->sphere;
    out_bullet.velocity = body->velocity;
    out_bullet.team = body->team;
    out_bullet.user = body->user;
    out_bullet.filter = body->filter;
    return Status::Ok;
}

Status World::getShipTransform(const BodyId& id, Transform& out_ship_to_world) const {
    const Status valid = validateId(m_state, id);
    if (valid != Status::Ok) return valid;
    if (id.kind != BodyKind::Enemy && id.kind != BodyKind::Player) return Status::InvalidArgument;
    const FixedPool<ShipBody>& pool = id.kind == BodyKind::Enemy ? m_state->enemies : m_state->players;
    const ShipBody* body = pool.get(toHandle<ShipBody>(id));
    if (body == nullptr) return Status::StaleHandle;
    out_ship_to_world = body->ship_to_world;
    return Status::Ok;
}

PoolUsage World::poolUsage(BodyKind kind) const {
    PoolUsage usage;
    if (m_state == nullptr) return usage;
    const WorldState& s = *m_state;
    auto fill = [&usage](auto& pool) {
        usage.live = pool.size();
        usage.high_water = pool.highWater();
        usage.capacity = pool.capacity();
    };
    switch (kind) {
    case BodyKind::Level: fill(s.levels); break;
    case BodyKind::Walls: fill(s.walls); break;
    case BodyKind::Enemy: fill(s.enemies); break;
    case BodyKind::Player: fill(s.players); break;
    case BodyKind::Bullet: fill(s.bullets); break;
    case BodyKind::Beam: fill(s.beams); break;
    default: break;
    }
    return usage;
}

std::size_t World::scratchHighWater() const { return m_state != nullptr ? m_state->scratch_high_water : 0; }
std::size_t World::scratchCapacity() const {
    if (m_state == nullptr) return 0;
    std::size_t bytes = m_state->scratch.capacity();
    for (std::uint32_t w = 0; w < m_state->worker_count; ++w) bytes += m_state->workers[w].scratch.capacity();
    return bytes;
}
const DynamicTree* World::movingTree() const { return m_state != nullptr ? &m_state->moving_tree : nullptr; }
const DynamicTree* World::staticTree() const { return m_state != nullptr ? &m_state->static_tree : nullptr; }

const WorldConfig& World::config() const { return m_state != nullptr ? m_state->config : kNoConfig; }

} // namespace flak
