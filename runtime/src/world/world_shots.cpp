// flak — the shot phases of a step: bullets (swept over the step) and beams (cast in order).
//
// Bullets and beams are not proxies of the broad phase: thousands of short-lived, fast bullets
// would churn the tree. Each one queries the two trees instead (ships; levels and wall sets) with
// the box of its path, keeps the bodies it may hit (not its own team's ships), sorts them by
// (kind, index) so ties resolve the same way whatever order the trees return them in, and hands
// them to the shooter room's casts (sweptBulletFirstHit, castBeam) as one ShotTargets list. At
// most one hit per bullet or beam, emitted in pool index order.
#include "world_pairs.h"
#include "world_state.h"

#include <flak/shooter/beam.h>
#include <flak/shooter/swept_bullet.h>

namespace flak {

namespace {

// A level or wall set as its broad-phase box, read once per phase (see gatherCandidates).
struct StaticBody {
    Aabb box; // the proxy's tight box: what the static tree's leaf holds and queryBox tests
    BodyId id;
};
static_assert(sizeof(StaticBody) <= sizeof(Aabb) + sizeof(BodyId),
              "stepScratchBytes counts StaticBody as this");

// The candidate bodies of one shot (capacity: every level, wall set and ship), and the phase's
// static bodies.
struct Candidates {
    const WorldState* state = nullptr;
    const DynamicTree* tree = nullptr;
    BodyId* items = nullptr;
    std::uint32_t count = 0;
    std::uint32_t capacity = 0;
    std::uint32_t team = 0;
    const StaticBody* statics = nullptr;
    std::uint32_t static_count = 0;
};

bool collectCandidate(void* user, const ProxyId& proxy) {
    Candidates& c = *static_cast<Candidates*>(user);
    ProxyDesc desc;
    if (c.tree->getProxy(proxy, desc) != Status::Ok) return true;
    const BodyId id = liveBodyId(*c.state, userKind(desc.user_value), userIndex(desc.user_value));
    if (id.isNull()) return true;
    if (id.kind == BodyKind::Enemy || id.kind == BodyKind::Player) {
        const FixedPool<ShipBody>& pool = id.kind == BodyKind::Enemy ? c.state->enemies : c.state->players;
        if (pool.get(toHandle<ShipBody>(id))->team == c.team) return true; // no friendly fire
    }
    if (c.count < c.capacity) c.items[c.count++] = id; // capacity covers every body: never full
    return true;
}

// Reads the static tree's live bodies (levels, then wall sets) into `out` (room for every one):
// their tight boxes, as collectCandidate would find them. Returns how many.
std::uint32_t readStaticBodies(const WorldState& s, StaticBody* out) {
    std::uint32_t count = 0;
    auto add = [&](const ProxyId& proxy) {
        ProxyDesc desc;
        if (s.static_tree.getProxy(proxy, desc) != Status::Ok || desc.category == 0) return;
        const BodyId id = liveBodyId(s, userKind(desc.user_value), userIndex(desc.user_value));
        if (!id.isNull()) out[count++] = StaticBody{desc.box, id};
    };
    for (std::uint32_t i = 0; i < s.levels.capacity(); ++i) {
        const Handle<LevelBody> h = s.levels.handleAt(i);
        if (!h.isNull()) add(s.levels.get(h)->proxy);
    }
    for (std::uint32_t i = 0; i < s.walls.capacity(); ++i) {
        const Handle<WallsBody> h = s.walls.handleAt(i);
        if (!h.isNull()) add(s.walls.get(h)->proxy);
    }
    return count;
}

// Fills `c` with the bodies whose broad-phase boxes overlap `box`, sorted by (kind, index).
// The static tree holds a few bodies that do not move during the phase, so they are tested as
// the list readStaticBodies made: the same set queryBox finds (its leaf test is this closed-box
// overlap with the proxy's tight box, an internal node's box holds its leaves' boxes, and an
// unordered or NaN region finds nothing), without a walk and a visitor call per shot.
void gatherCandidates(const WorldState& s, const Aabb& box, std::uint32_t team, Candidates& c) {
    c.state = &s;
    c.count = 0;
    c.team = team;
    if (c.statics == nullptr) {
        c.tree = &s.static_tree;
        if (s.static_tree.proxyCount() > 0)
            (void)s.static_tree.queryBox(box, 0xFFFFFFFFu, collectCandidate, &c);
    } else if (box.min.x <= box.max.x && box.min.y <= box.max.y && box.min.z <= box.max.z) {
        for (std::uint32_t i = 0; i < c.static_count; ++i) {
            const Aabb& b = c.statics[i].box;
            const bool overlap = (box.min.x <= b.max.x) & (b.min.x <= box.max.x) & (box.min.y <= b.max.y) &
                                 (b.min.y <= box.max.y) & (box.min.z <= b.max.z) & (b.min.z <= box.max.z);
            if (overlap && c.count < c.capacity) c.items[c.count++] = c.statics[i].id;
        }
    }
    c.tree = &s.moving_tree;
    if (s.moving_tree.proxyCount() > 0) (void)s.moving_tree.queryBox(box, 0xFFFFFFFFu, collectCandidate, &c);
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

// Scratch arrays for one body's ShotTargets, sized for the largest group.
struct TargetArrays {
    MeshTarget* meshes = nullptr;
    WallTarget* walls = nullptr;
    ClusterTarget* clusters = nullptr;
};

bool makeTargetArrays(WorldState& s, std::uint32_t largest, TargetArrays& out) {
    out.meshes = s.scratch.allocateArray<MeshTarget>(largest);
    out.walls = s.scratch.allocateArray<WallTarget>(largest);
    out.clusters = s.scratch.allocateArray<ClusterTarget>(largest);
    return out.meshes != nullptr && out.walls != nullptr && out.clusters != nullptr;
}

// Fills `targets` with the bodies of one group; ids index the group's BodyId array.
void fillTargets(const WorldState& s, const BodyId* bodies, std::uint32_t count, TargetArrays& arrays,
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
            arrays.walls[targets.wall_count++] = WallTarget{walls.walls, i};
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

void emitShotHit(WorldState& s, HitKind kind, const BodyId& shooter, const BodyId* bodies,
                 const ShotHit& shot, float t) {
    Hit hit;
    hit.kind = kind;
    hit.a = shooter;
    hit.b = bodies[shot.id];
    hit.feature = shot.feature;
    if (shot.kind == ShotTargetKind::Walls) {
        const WallsBody& walls = *s.walls.get(toHandle<WallsBody>(hit.b));
        hit.feature = wallFeature(*walls.walls, shot.ring, shot.feature);
    }
    hit.point = shot.point;
    hit.normal = shot.normal;
    hit.t = t;
    emitHit(s, hit);
}

std::uint32_t candidateCapacity(const WorldConfig& c) {
    return c.max_levels + c.max_wall_sets + c.max_enemies + c.max_players;
}

// Scratch for one phase's shots: room for every body as a candidate, and the target arrays.
struct ShotScratch {
    Candidates candidates;
    TargetArrays arrays;
};

bool makeShotScratch(WorldState& s, ShotScratch& out) {
    const std::uint32_t capacity = candidateCapacity(s.config);
    out.candidates.items = s.scratch.allocateArray<BodyId>(capacity);
    out.candidates.capacity = capacity;
    if (out.candidates.items == nullptr || !makeTargetArrays(s, capacity, out.arrays)) return false;
    // stepScratchBytes counts the static list; should it ever find no room, the shots query the
    // static tree instead, with the same result.
    StaticBody* statics =
        s.scratch.allocateArray<StaticBody>(std::size_t{s.config.max_levels} + s.config.max_wall_sets);
    if (statics != nullptr) out.candidates.static_count = readStaticBodies(s, statics);
    out.candidates.statics = statics;
    return true;
}

// The targets of one shot whose path lies in `box`: false when nothing is near.
bool shotTargets(WorldState& s, const Aabb& box, std::uint32_t team, ShotScratch& scratch, ShotTargets& out) {
    gatherCandidates(s, box, team, scratch.candidates);
    s.stats.shot_candidates += scratch.candidates.count;
    if (scratch.candidates.count == 0) return false;
    fillTargets(s, scratch.candidates.items, scratch.candidates.count, scratch.arrays, out);
    return true;
}

} // namespace

void runBulletPhase(WorldState& s, float dt) {
    const ArenaMarker marker = s.scratch.mark();
    ShotScratch scratch;
    const std::uint32_t slots = makeShotScratch(s, scratch) ? s.bullets.capacity() : 0u;
    for (std::uint32_t i = 0; i < slots; ++i) {
        const Handle<BulletBody> handle = s.bullets.handleAt(i);
        if (handle.isNull()) continue;
        const BulletBody& bullet = *s.bullets.get(handle);
        Vec3 motion, end;
        scale(bullet.velocity, dt, motion);
        add(bullet.sphere.center, motion, end);
        if (!isFinite(end)) {
            ++s.stats.skipped_bodies;
            continue;
        }
        // Fast bullets sweep the step; slow ones are tested where the step leaves them (a
        // zero-length sweep), reported at t = 1.
        const float r = bullet.sphere.radius;
        const float reach = s.config.sweep_radii * r;
        const bool fast = lengthSq(motion) > reach * reach;
        const Vec3& start = fast ? bullet.sphere.center : end;
        Aabb box;
        min(start, end, box.min);
        max(start, end, box.max);
        inflate(box, r, box);
        ShotTargets targets;
        ShotHit shot;
        if (!shotTargets(s, box, bullet.team, scratch, targets) ||
            !sweptBulletFirstHit(start, end, r, targets, shot))
            continue;
        emitShotHit(s, HitKind::Bullet, toBodyId(BodyKind::Bullet, handle), scratch.candidates.items, shot,
                    fast ? shot.t : 1.0f);
    }
    (void)s.scratch.rewind(marker);
}

void runBeamPhase(WorldState& s) {
    const ArenaMarker marker = s.scratch.mark();
    ShotScratch scratch;
    const std::uint32_t slots = makeShotScratch(s, scratch) ? s.beams.capacity() : 0u;
    for (std::uint32_t i = 0; i < slots; ++i) {
        const Handle<BeamBody> handle = s.beams.handleAt(i);
        if (handle.isNull()) continue;
        const BeamBody& beam = *s.beams.get(handle);
        if (beam.point_count < 2) continue;
        Aabb box;
        fromPoints(beam.points, beam.point_count, box);
        ShotTargets targets;
        ShotHit shot;
        if (!shotTargets(s, box, beam.team, scratch, targets) ||
            !castBeam(beam.points, beam.point_count, targets, shot))
            continue;
        emitShotHit(s, HitKind::Beam, toBodyId(BodyKind::Beam, handle), scratch.candidates.items, shot,
                    shot.distance);
    }
    (void)s.scratch.rewind(marker);
}

} // namespace flak
