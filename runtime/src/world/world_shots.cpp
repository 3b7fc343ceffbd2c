// flak — the shot phases of a step: bullets (swept over the step) and beams (cast in order).
//
// Bullets and beams are not proxies of the broad phase: thousands of short-lived, fast bullets
// would churn the tree. Each one queries the two trees instead (ships; levels and wall sets) with
// the box of its path, keeps the bodies it may hit (not its own team's ships), sorts them by
// (kind, index) so ties resolve the same way whatever order the trees return them in, and hands
// them to the shooter room's casts (sweptBulletFirstHit, castBeam) as one ShotTargets list. At
// most one hit per bullet or beam, emitted in pool index order. Each bullet and beam is one work
// item (runPhaseItems): it reads the world and writes only its slot and its worker's scratch.
#include "world_pairs.h"
#include "world_state.h"

#include <flak/math/grid_index.h>
#include <flak/shooter/beam.h>
#include <flak/shooter/swept_bullet.h>

#include <cfloat>

namespace flak {

namespace {

static_assert(sizeof(StaticBody) <= sizeof(Aabb) + sizeof(BodyId) + sizeof(CollisionFilter),
              "stepScratchBytes counts StaticBody as this");

// The candidate bodies of one shot (capacity: every level, wall set and ship).
struct Candidates {
    const WorldState* state = nullptr;
    const DynamicTree* tree = nullptr;
    BodyId* items = nullptr;
    std::uint32_t count = 0;
    std::uint32_t capacity = 0;
    std::uint32_t team = 0;
    CollisionFilter filter; // the shot's
};

bool collectCandidate(void* user, const ProxyId& proxy) {
    Candidates& c = *static_cast<Candidates*>(user);
    ProxyDesc desc;
    if (c.tree->getProxy(proxy, desc) != Status::Ok) return true;
    const BodyId id = liveBodyId(*c.state, userKind(desc.user_value), userIndex(desc.user_value));
    if (id.isNull() || !interacts(c.filter, bodyFilter(*c.state, id))) return true;
    if (id.kind == BodyKind::Enemy || id.kind == BodyKind::Player) {
        const FixedPool<ShipBody>& pool = id.kind == BodyKind::Enemy ? c.state->enemies : c.state->players;
        if (pool.get(toHandle<ShipBody>(id))->team == c.team) return true; // no friendly fire
    }
    if (c.count < c.capacity) c.items[c.count++] = id; // capacity covers every body: never full
    return true;
}

// The ship grid's cells under a box's play-plane bounds.
GridRange shipCells(const ShipBoxes& list, const Aabb& box) {
    return gridRange(Vec2{box.min.x, box.min.y}, Vec2{box.max.x, box.max.y}, list.origin, list.inv_cell,
                     kShipGridSize, kShipGridSize);
}

// Appends the ships of `list` whose boxes overlap the ordered box `box` and whose team is not
// `team`: the set queryBox and collectCandidate find (the leaf test is this closed-box overlap
// with the tight box). Only the ships filed under the box's cells can overlap it (grid_index.h).
void findShips(const ShipBoxes& list, const Aabb& box, std::uint32_t team, Candidates& c) {
    const GridRange k = shipCells(list, box);
    std::uint64_t near[kShipGridWords] = {};
    for (std::uint32_t r = k.r0; r <= k.r1; ++r)
        for (std::uint32_t col = k.c0; col <= k.c1; ++col) {
            const std::uint64_t* cell = list.cells + (std::size_t{r} * kShipGridSize + col) * kShipGridWords;
            for (std::uint32_t w = 0; w < kShipGridWords; ++w) near[w] |= cell[w];
        }
    for (std::uint32_t w = 0; w < kShipGridWords; ++w) {
        std::uint64_t bits = near[w];
        while (bits != 0) {
            const std::uint32_t i = w * 64u + static_cast<std::uint32_t>(__builtin_ctzll(bits));
            bits &= bits - 1u;
            if (!overlaps(box, list.boxes[i]) || list.teams[i] == team ||
                !interacts(c.filter, list.filters[i]))
                continue; // no friendly fire, nothing the filters keep apart
            if (c.count < c.capacity) c.items[c.count++] = list.ids[i]; // capacity covers every body
        }
    }
}

// Fills `c` with the bodies whose broad-phase boxes overlap `box`, sorted by (kind, index).
// The static tree holds a few bodies that do not move during the step, so they are tested as
// the list readShotBodies made: the same set queryBox finds (its leaf test is this closed-box
// overlap with the proxy's tight box, an internal node's box holds its leaves' boxes, and an
// unordered or NaN region finds nothing), without a walk and a visitor call per shot. The ships
// likewise, up to kShipListLimit of them.
void gatherCandidates(const WorldState& s, const Aabb& box, std::uint32_t team, const CollisionFilter& filter,
                      Candidates& c) {
    c.state = &s;
    c.count = 0;
    c.team = team;
    c.filter = filter;
    const bool ordered = box.min.x <= box.max.x && box.min.y <= box.max.y && box.min.z <= box.max.z;
    if (s.statics == nullptr) {
        c.tree = &s.static_tree;
        if (s.static_tree.proxyCount() > 0)
            (void)s.static_tree.queryBox(box, 0xFFFFFFFFu, collectCandidate, &c);
    } else if (ordered) {
        for (std::uint32_t i = 0; i < s.static_count; ++i) {
            if (overlaps(box, s.statics[i].box) && interacts(filter, s.statics[i].filter) &&
                c.count < c.capacity)
                c.items[c.count++] = s.statics[i].id;
        }
    }
    if (s.ship_boxes.ids != nullptr) {
        if (ordered && s.ship_boxes.count > 0) findShips(s.ship_boxes, box, team, c);
    } else {
        c.tree = &s.moving_tree;
        if (s.moving_tree.proxyCount() > 0)
            (void)s.moving_tree.queryBox(box, 0xFFFFFFFFu, collectCandidate, &c);
    }
    for (std::uint32_t i = 1; i < c.count; ++i) { // few candidates: insertion sort
        const BodyId item = c.items[i];
        std::uint32_t j = i;
        while (j > 0 && bodyLess(item, c.items[j - 1])) {
            c.items[j] = c.items[j - 1];
            --j;
        }
        c.items[j] = item;
    }
}

// Fills `targets` with the bodies of one group; ids index the group's BodyId array.
void fillTargets(const WorldState& s, const BodyId* bodies, std::uint32_t count, const ShotArrays& arrays,
                 ShotTargets& targets) {
    targets = ShotTargets{};
    targets.meshes = arrays.meshes;
    targets.walls = arrays.walls;
    targets.clusters = arrays.clusters;
    for (std::uint32_t i = 0; i < count; ++i) {
        const BodyId& id = bodies[i];
        switch (id.kind) {
        case BodyKind::Level: {
            const LevelBody& level = *s.levels.get(toHandle<LevelBody>(id));
            arrays.meshes[targets.mesh_count++] = MeshTarget{level.mesh, level.mesh_to_world, i};
            break;
        }
        case BodyKind::Walls: {
            const WallsBody& walls = *s.walls.get(toHandle<WallsBody>(id));
            arrays.walls[targets.wall_count++] = WallTarget{&walls.set, i};
            break;
        }
        case BodyKind::Enemy: {
            const ShipBody& ship = *s.enemies.get(toHandle<ShipBody>(id));
            arrays.meshes[targets.mesh_count++] = MeshTarget{ship.mesh, ship.ship_to_world, i};
            break;
        }
        case BodyKind::Player: {
            const ShipBody& ship = *s.players.get(toHandle<ShipBody>(id));
            arrays.clusters[targets.cluster_count++] = ClusterTarget{ship.cluster, ship.ship_to_world, i};
            break;
        }
        default: break;
        }
    }
}

// The wall-set-wide id of a wall edge: its first point's index (kNoFeature for a start inside).
std::uint32_t wallFeature(const WallSet& walls, std::uint32_t ring, std::uint32_t edge) {
    if (edge == kNoEdge || ring >= walls.ring_count) return kNoFeature;
    return walls.rings[ring].first_point + edge;
}

void shotHit(const WorldState& s, HitKind kind, const BodyId& shooter, const BodyId* bodies,
             const ShotHit& shot, float t, Hit& out) {
    Hit hit;
    hit.kind = kind;
    hit.a = shooter;
    hit.b = bodies[shot.id];
    hit.feature = shot.feature;
    if (shot.kind == ShotTargetKind::Walls) {
        const WallsBody& walls = *s.walls.get(toHandle<WallsBody>(hit.b));
        hit.feature = wallFeature(walls.set, shot.ring, shot.feature);
    }
    hit.point = shot.point;
    hit.normal = shot.normal;
    hit.t = t;
    out = hit;
}

// The targets of one shot whose path lies in `box`, in the worker's shot arrays (candidates in
// out_candidates): false when nothing is near.
bool shotTargets(const WorldState& s, WorkerState& worker, const Aabb& box, std::uint32_t team,
                 const CollisionFilter& filter, Candidates& out_candidates, ShotTargets& out) {
    out_candidates.items = worker.shots.candidates;
    out_candidates.capacity = shotTargetCapacity(s.config);
    gatherCandidates(s, box, team, filter, out_candidates);
    worker.shot_candidates = saturatingAdd(worker.shot_candidates, out_candidates.count);
    if (out_candidates.count == 0) return false;
    fillTargets(s, out_candidates.items, out_candidates.count, worker.shots, out);
    return true;
}

// Bullets per work item range at least: a bullet is about a microsecond of work.
constexpr std::uint32_t kBulletRange = 32;

// A bullet's item tests its path, then moves the bullet to the path's end (the bullet is the
// item's own: no other item reads bullets).
struct BulletItem {
    const WorldState* s;
    FixedPool<BulletBody>* bullets; // the same pool as s->bullets, to move the item's bullet
    float dt;

    SlotState operator()(std::uint32_t slot, WorkerState& worker, Hit& out) const {
        const Handle<BulletBody> handle = s->bullets.handleAt(slot);
        if (handle.isNull()) return SlotState::Empty;
        const SlotState state = test(handle, worker, out);
        BulletBody& b = *bullets->get(handle);
        Vec3 end;
        addScaled(b.sphere.center, b.velocity, dt, end);
        if (isFinite(end)) b.sphere.center = end;
        return state;
    }

    SlotState test(const Handle<BulletBody>& handle, WorkerState& worker, Hit& out) const {
        const BulletBody& bullet = *s->bullets.get(handle);
        Vec3 motion, end;
        scale(bullet.velocity, dt, motion);
        add(bullet.sphere.center, motion, end);
        if (!isFinite(end)) {
            worker.skipped_bodies = saturatingAdd(worker.skipped_bodies, 1);
            return SlotState::Empty;
        }
        // Fast bullets sweep the step; slow ones are tested where the step leaves them (a
        // zero-length sweep), reported at t = 1.
        const float r = bullet.sphere.radius;
        const float reach = s->config.sweep_radii * r;
        const bool fast = lengthSq(motion) > reach * reach;
        const Vec3& start = fast ? bullet.sphere.center : end;
        Aabb box;
        min(start, end, box.min);
        max(start, end, box.max);
        inflate(box, r, box);
        if (!sizeIsFinite(box)) { // a path too long for float: the kernels cannot answer it
            worker.skipped_bodies = saturatingAdd(worker.skipped_bodies, 1);
            return SlotState::Empty;
        }
        Candidates candidates;
        ShotTargets targets;
        ShotHit shot;
        if (!shotTargets(*s, worker, box, bullet.team, bullet.filter, candidates, targets) ||
            !sweptBulletFirstHit(start, end, r, targets, shot))
            return SlotState::Empty;
        shotHit(*s, HitKind::Bullet, toBodyId(*s, BodyKind::Bullet, handle), candidates.items, shot,
                fast ? shot.t : 1.0f, out);
        return SlotState::Hit;
    }
};

struct BeamItem {
    const WorldState* s;

    SlotState operator()(std::uint32_t slot, WorkerState& worker, Hit& out) const {
        const Handle<BeamBody> handle = s->beams.handleAt(slot);
        if (handle.isNull()) return SlotState::Empty;
        const BeamBody& beam = *s->beams.get(handle);
        if (beam.point_count < 2) return SlotState::Empty;
        Aabb box;
        fromPoints(beam.points, beam.point_count, box);
        if (!sizeIsFinite(box)) { // points spread beyond float: as a bullet's path
            worker.skipped_bodies = saturatingAdd(worker.skipped_bodies, 1);
            return SlotState::Empty;
        }
        Candidates candidates;
        ShotTargets targets;
        ShotHit shot;
        if (!shotTargets(*s, worker, box, beam.team, beam.filter, candidates, targets) ||
            !castBeam(beam.points, beam.point_count, targets, shot))
            return SlotState::Empty;
        shotHit(*s, HitKind::Beam, toBodyId(*s, BodyKind::Beam, handle), candidates.items, shot,
                shot.distance, out);
        return SlotState::Hit;
    }
};

} // namespace

namespace {

void readStaticBodies(WorldState& s) {
    s.static_count = 0;
    // stepScratchBytes counts the list; should it ever find no room, the shots query the static
    // tree instead, with the same result.
    s.statics =
        s.scratch.allocateArray<StaticBody>(std::size_t{s.config.max_levels} + s.config.max_wall_sets);
    if (s.statics == nullptr) return;
    auto add = [&](const ProxyId& proxy) {
        ProxyDesc desc;
        if (s.static_tree.getProxy(proxy, desc) != Status::Ok || desc.category == 0) return;
        const BodyId id = liveBodyId(s, userKind(desc.user_value), userIndex(desc.user_value));
        if (!id.isNull()) s.statics[s.static_count++] = StaticBody{desc.box, id, bodyFilter(s, id)};
    };
    for (std::uint32_t i = 0; i < s.levels.capacity(); ++i) {
        const Handle<LevelBody> h = s.levels.handleAt(i);
        if (!h.isNull()) add(s.levels.get(h)->proxy);
    }
    for (std::uint32_t i = 0; i < s.walls.capacity(); ++i) {
        const Handle<WallsBody> h = s.walls.handleAt(i);
        if (!h.isNull()) add(s.walls.get(h)->proxy);
    }
}

// The ship list, in (kind, slot) order as the candidates sort, and its grid; left empty (the
// shots query the moving tree) above kShipListLimit ships or should the scratch have no room (it
// is counted).
void readShipBoxes(WorldState& s) {
    if (s.moving_tree.proxyCount() > kShipListLimit) return;
    const std::size_t slots = std::size_t{s.config.max_enemies} + s.config.max_players;
    ShipBoxes list;
    list.boxes = s.scratch.allocateArray<Aabb>(slots);
    list.ids = s.scratch.allocateArray<BodyId>(slots);
    list.teams = s.scratch.allocateArray<std::uint32_t>(slots);
    list.filters = s.scratch.allocateArray<CollisionFilter>(slots);
    list.cells =
        s.scratch.allocateArray<std::uint64_t>(std::size_t{kShipGridSize} * kShipGridSize * kShipGridWords);
    if (list.boxes == nullptr || list.ids == nullptr || list.teams == nullptr || list.filters == nullptr ||
        list.cells == nullptr)
        return;
    Aabb all;
    setEmpty(all);
    const BodyKind kinds[2] = {BodyKind::Enemy, BodyKind::Player};
    for (const BodyKind kind : kinds) {
        const FixedPool<ShipBody>& pool = kind == BodyKind::Enemy ? s.enemies : s.players;
        for (std::uint32_t i = 0; i < pool.capacity() && list.count < kShipListLimit; ++i) {
            const Handle<ShipBody> h = pool.handleAt(i);
            if (h.isNull()) continue;
            const ShipBody& ship = *pool.get(h);
            ProxyDesc desc;
            if (s.moving_tree.getProxy(ship.proxy, desc) != Status::Ok || desc.category == 0) continue;
            const std::uint32_t n = list.count++;
            list.boxes[n] = desc.box;
            list.ids[n] = toBodyId(s, kind, h);
            list.teams[n] = ship.team;
            list.filters[n] = ship.filter;
            merge(all, desc.box, all);
        }
    }
    for (std::size_t k = 0; k < std::size_t{kShipGridSize} * kShipGridSize * kShipGridWords; ++k)
        list.cells[k] = 0;
    if (list.count > 0) {
        // Boxes are finite (the tree refuses others), so the extents are finite or +Inf (then 0).
        list.origin = Vec2{all.min.x, all.min.y};
        const float ex = all.max.x - all.min.x, ey = all.max.y - all.min.y;
        auto inverse = [](float extent) { // cells per unit; 0 (one column) where that is not finite
            const float inv = static_cast<float>(kShipGridSize) / extent;
            return extent > 0.0f && inv <= FLT_MAX ? inv : 0.0f;
        };
        list.inv_cell = Vec2{inverse(ex), inverse(ey)};
        for (std::uint32_t i = 0; i < list.count; ++i) {
            const GridRange k = shipCells(list, list.boxes[i]);
            for (std::uint32_t r = k.r0; r <= k.r1; ++r)
                for (std::uint32_t col = k.c0; col <= k.c1; ++col)
                    list.cells[(std::size_t{r} * kShipGridSize + col) * kShipGridWords + i / 64u] |=
                        std::uint64_t{1} << (i % 64u);
        }
    }
    s.ship_boxes = list;
}

} // namespace

void readShotBodies(WorldState& s) {
    readStaticBodies(s);
    readShipBoxes(s);
}

void runBulletPhase(WorldState& s, float dt) {
    runPhaseItems(s, s.bullets.capacity(), kBulletRange, BulletItem{&s, &s.bullets, dt});
}

void runBeamPhase(WorldState& s) { runPhaseItems(s, s.beams.capacity(), 1, BeamItem{&s}); }

} // namespace flak
