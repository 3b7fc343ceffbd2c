// flak — the ship phases of a step: ships vs walls (push-out), ships vs ships with a cluster on
// either side, and enemy vs enemy mesh-mesh. Each pair (or mesh-mesh job) is one work item
// (runPhaseItems): it reads the world and writes only its slot and its worker's scratch.
#include "world_pairs.h"
#include "world_state.h"

#include "bvh/contact_summary.h"

#include <flak/bvh/mesh_mesh.h>
#include <flak/bvh/sphere_query.h>
#include <flak/memory_requirements.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/wall_set.h>

namespace flak {

namespace {

constexpr std::uint32_t kClusterPairCapacity = kMaxClusterSpheres * kMaxClusterSpheres;

const ShipBody* shipOf(const WorldState& s, const BodyId& id) {
    const FixedPool<ShipBody>& pool = id.kind == BodyKind::Enemy ? s.enemies : s.players;
    return pool.get(toHandle<ShipBody>(id));
}

// Deepest contact wins; ties go to the first one found (the queries append in a defined order).
template <typename Item, typename DepthOf>
std::uint32_t deepest(const Item* items, std::uint32_t count, DepthOf depth_of) {
    std::uint32_t best = 0;
    for (std::uint32_t i = 1; i < count; ++i) {
        if (depth_of(items[i]) > depth_of(items[best])) best = i;
    }
    return best;
}

// Player cluster vs enemy mesh: `enemy` is a, `player` is b. Each world sphere's deepest contact
// (sphereDeepestHit: the deepest of sphereAllHits' contacts, clusterMeshContacts' own method,
// without gathering them, so nothing is dropped); the deepest over the spheres wins, ties to the
// lower (sphere, triangle).
SlotState enemyVsPlayer(const BodyId& enemy_id, const ShipBody& enemy, const BodyId& player_id,
                        const ShipBody& player, Hit& out) {
    Sphere bound;
    clusterWorldBound(*player.cluster, player.ship_to_world, bound);
    if (!sphereAnyHit(*enemy.mesh, enemy.ship_to_world, bound)) return SlotState::Empty;
    bool found = false;
    MeshContact best;
    std::uint32_t best_sphere = 0;
    for (std::uint32_t k = 0; k < player.cluster->count; ++k) {
        Sphere sphere;
        clusterWorldSphere(*player.cluster, player.ship_to_world, k, sphere);
        MeshContact deepest;
        if (!sphereDeepestHit(*enemy.mesh, enemy.ship_to_world, sphere, deepest)) continue;
        if (!found || deepest.contact.depth > best.contact.depth) {
            best = deepest;
            best_sphere = k;
            found = true;
        }
    }
    if (!found) return SlotState::Empty;
    Hit hit;
    hit.kind = HitKind::ShipShip;
    hit.a = enemy_id;
    hit.b = player_id;
    hit.feature = best_sphere;
    hit.point = best.contact.point;          // on the enemy's triangle
    negate(best.contact.normal, hit.normal); // the kernel's normal points at the player's sphere
    hit.depth = best.contact.depth;
    out = hit;
    return SlotState::Hit;
}

// Player vs player: cluster pairs, the deepest one.
SlotState playerVsPlayer(WorkerState& worker, const BodyId& a_id, const ShipBody& a, const BodyId& b_id,
                         const ShipBody& b, Hit& out) {
    const ArenaMarker marker = worker.scratch.mark();
    OutBuffer<ClusterPair> buffer; // room for every sphere pair: nothing is ever dropped here
    buffer.items = worker.scratch.allocateArray<ClusterPair>(kClusterPairCapacity);
    buffer.capacity = buffer.items != nullptr ? kClusterPairCapacity : 0;
    (void)clusterClusterPairs(*a.cluster, a.ship_to_world, *b.cluster, b.ship_to_world, buffer);
    worker.contacts_dropped = saturatingAdd(worker.contacts_dropped, buffer.dropped);
    SlotState state = SlotState::Empty;
    if (buffer.count > 0) {
        const ClusterPair& p = buffer.items[deepest(buffer.items, buffer.count,
                                                    [](const ClusterPair& c) { return c.contact.depth; })];
        Hit hit;
        hit.kind = HitKind::ShipShip;
        hit.a = a_id;
        hit.b = b_id;
        hit.feature = p.b;
        hit.point = p.contact.point;   // on b's sphere
        hit.normal = p.contact.normal; // from b towards a
        hit.depth = p.contact.depth;
        out = hit;
        state = SlotState::Hit;
    } else if (buffer.dropped > 0) {
        state = SlotState::Dropped;
    }
    (void)worker.scratch.rewind(marker);
    return state;
}

// A ship against a wall set: the push-out, and the deepest contact.
SlotState shipVsWalls(const WorldState& s, WorkerState& worker, const BodyPair& pair, Hit& out) {
    const ShipBody* ship = shipOf(s, pair.a);
    const WallsBody* walls = s.walls.get(toHandle<WallsBody>(pair.b));
    if (ship == nullptr || walls == nullptr || ship->cluster == nullptr) return SlotState::Empty;
    const ArenaMarker marker = worker.scratch.mark();
    OutBuffer<WallContact> buffer = OutBuffer<WallContact>::over(
        worker.scratch.allocateArray<WallContact>(s.config.max_contacts), s.config.max_contacts);
    WallPush push;
    (void)clusterWalls(walls->set, *ship->cluster, ship->ship_to_world, buffer, push);
    SlotState state = SlotState::Empty;
    if (push.contact_count > 0) {
        // The deepest contact: from the buffer, or, when it overflowed, sphere by sphere
        // (circleWalls of each sphere: clusterWalls' own method) so none is missed unless one
        // sphere alone has more than max_contacts (counted, and the step answers BufferFull).
        WallContact deepest_contact;
        bool have = false;
        auto consider = [&](const WallContact* items, std::uint32_t count) {
            for (std::uint32_t k = 0; k < count; ++k) {
                if (!have || items[k].depth > deepest_contact.depth) {
                    deepest_contact = items[k];
                    have = true;
                }
            }
        };
        if (buffer.dropped == 0) {
            consider(buffer.items, buffer.count);
        } else {
            for (std::uint32_t k = 0; k < ship->cluster->count; ++k) {
                Sphere sphere;
                clusterWorldSphere(*ship->cluster, ship->ship_to_world, k, sphere);
                buffer.clear();
                WallPush one;
                Vec2 center;
                set(sphere.center.x, sphere.center.y, center);
                (void)circleWalls(walls->set, center, sphere.radius, buffer, one);
                worker.contacts_dropped = saturatingAdd(worker.contacts_dropped, buffer.dropped);
                for (std::uint32_t c = 0; c < buffer.count; ++c) buffer.items[c].sphere = k;
                consider(buffer.items, buffer.count);
            }
        }
        Hit hit;
        hit.kind = HitKind::ShipWall;
        hit.a = pair.a;
        hit.b = pair.b;
        const float push_length = length(push.push);
        if (have) {
            hit.feature = walls->set.rings[deepest_contact.ring].first_point + deepest_contact.edge;
            set(deepest_contact.point.x, deepest_contact.point.y, ship->ship_to_world.translation.z,
                hit.point);
            set(deepest_contact.normal.x, deepest_contact.normal.y, 0.0f, hit.normal);
        } else {
            hit.point = ship->ship_to_world.translation;
        }
        if (push_length > 0.0f) set(push.push.x / push_length, push.push.y / push_length, 0.0f, hit.normal);
        hit.depth = push_length;
        out = hit;
        state = SlotState::Hit;
    }
    (void)worker.scratch.rewind(marker);
    return state;
}

struct WallItem {
    const WorldState* s;
    SlotState operator()(std::uint32_t i, WorkerState& worker, Hit& out) const {
        const BodyPair& pair = s->body_pairs[i];
        if (pair.kind != PairKind::ShipWalls) return SlotState::Empty;
        return shipVsWalls(*s, worker, pair, out);
    }
};

struct ShipItem {
    const WorldState* s;
    SlotState operator()(std::uint32_t i, WorkerState& worker, Hit& out) const {
        const BodyPair& pair = s->body_pairs[i];
        if (pair.kind != PairKind::ShipShip) return SlotState::Empty;
        if (pair.a.kind == BodyKind::Enemy && pair.b.kind == BodyKind::Enemy)
            return SlotState::Empty; // mesh-mesh
        const ShipBody* a = shipOf(*s, pair.a);
        const ShipBody* b = shipOf(*s, pair.b);
        if (a == nullptr || b == nullptr) return SlotState::Empty;
        if (pair.a.kind == BodyKind::Enemy) return enemyVsPlayer(pair.a, *a, pair.b, *b, out);
        return playerVsPlayer(worker, pair.a, *a, pair.b, *b, out);
    }
};

// The contact summary of one job from a back end's pairs (mesh_mesh.h's MeshContactSummary, B in
// A's space mapped with transformPoint as the walk does; the sums do not depend on the order).
// out_misses: the pairs whose triangles do not intersect (a broken answer for this job).
bool summarizePairs(const MeshMeshJob& job, const MeshMeshPair* pairs, std::uint32_t count,
                    bool exact_crossing, MeshContactSummary& out, std::uint64_t& out_misses) {
    detail::SummarySums sums(job.a->bounds, job.b_to_a);
    for (std::uint32_t k = 0; k < count; ++k) {
        Vec3 va[3], vb[3], src[3];
        triangleVertices(*job.a, pairs[k].a, va[0], va[1], va[2]);
        triangleVertices(*job.b, pairs[k].b, src[0], src[1], src[2]);
        transformPoints(job.b_to_a, src, 3, vb);
        sums.add(va, vb, exact_crossing && (pairs[k].flags & kMeshMeshPairCrossing) != 0u);
    }
    const bool touching = sums.finish(out);
    out_misses = sums.misses;
    return touching;
}

// One enemy pair: its contact summary (from the back end's pairs, or the CPU's walk), as a hit.
struct MeshMeshItem {
    const WorldState* s;
    SlotState operator()(std::uint32_t j, WorkerState& worker, Hit& out) const {
        const MeshMeshJob& job = s->mesh_jobs[j];
        MeshContactSummary summary;
        bool touching = false;
        std::uint64_t misses = 0;
        if (s->mesh_submitted)
            touching = summarizePairs(job, s->mesh_pairs + s->mesh_job_first[j],
                                      s->mesh_job_first[j + 1] - s->mesh_job_first[j],
                                      s->config.mesh_mesh_backend->exact_crossing, summary, misses);
        if (misses > 0) // pairs that do not intersect: this job's answer is refused and counted
            worker.mesh_pairs_refused =
                saturatingAdd(worker.mesh_pairs_refused,
                              misses < 0xFFFFFFFFull ? static_cast<std::uint32_t>(misses) : 0xFFFFFFFFu);
        if (!s->mesh_submitted || misses > 0) touching = meshMeshSummary(*job.a, *job.b, job.b_to_a, summary);
        if (!touching) return SlotState::Empty;
        const BodyPair& pair = s->body_pairs[s->mesh_job_pairs[j]];
        const ShipBody* a = shipOf(*s, pair.a);
        Hit hit;
        hit.kind = HitKind::ShipShip;
        hit.a = pair.a;
        hit.b = pair.b;
        hit.feature = summary.pair_count;
        transformPoint(a->ship_to_world, summary.point, hit.point);
        // b's outward normals face a; fall back to a's reversed when b's cancel out.
        Vec3 normal = summary.normal_b;
        if (lengthSq(normal) == 0.0f) negate(summary.normal_a, normal);
        transformVector(a->ship_to_world, normal, hit.normal);
        out = hit;
        return SlotState::Hit;
    }
};

} // namespace

std::size_t shipScratchBytes(const WorldConfig& c) {
    // The larger of the two items' buffers (one item at a time per worker).
    const std::size_t walls = sizeof(WallContact) * std::size_t{c.max_contacts};
    const std::size_t clusters = sizeof(ClusterPair) * std::size_t{kClusterPairCapacity};
    MemoryRequirements req;
    req.add(walls > clusters ? walls : clusters,
            alignof(WallContact) > alignof(ClusterPair) ? alignof(WallContact) : alignof(ClusterPair));
    return req.bytes;
}

void runWallPhase(WorldState& s) { runPhaseItems(s, s.body_pair_count, 4, WallItem{&s}); }

void runShipPhase(WorldState& s) { runPhaseItems(s, s.body_pair_count, 4, ShipItem{&s}); }

namespace {

// The records of a back end's answer that break its contract (world_config.h: MeshMeshBackend):
// a buffer it left with a count beyond its capacity or over other storage (every record then),
// or pairs naming no job, a triangle their meshes lack, or not strictly after the pair before in
// (job, a, b) order. Zero when the answer may be used.
std::uint32_t refusedPairs(const WorldState& s, const OutBuffer<MeshMeshPair>& pairs) {
    if (pairs.items != s.mesh_pairs || pairs.capacity != s.config.max_mesh_pairs ||
        pairs.count > pairs.capacity)
        return pairs.count > 0 ? pairs.count : 1u;
    std::uint32_t refused = 0;
    for (std::uint32_t k = 0; k < pairs.count; ++k) {
        const MeshMeshPair& p = pairs.items[k];
        bool ok = p.job < s.mesh_job_count && p.a < s.mesh_jobs[p.job].a->triangle_count &&
                  p.b < s.mesh_jobs[p.job].b->triangle_count;
        if (ok && k > 0) {
            const MeshMeshPair& q = pairs.items[k - 1];
            ok = q.job != p.job ? q.job < p.job : (q.a != p.a ? q.a < p.a : q.b < p.b);
        }
        refused += ok ? 0u : 1u;
    }
    return refused;
}

} // namespace

void startMeshMeshPhase(WorldState& s) {
    s.mesh_job_count = 0;
    s.mesh_pair_count = 0;
    s.mesh_submitted = false;
    s.mesh_jobs = s.scratch.allocateArray<MeshMeshJob>(s.body_pair_count);
    s.mesh_job_pairs = s.scratch.allocateArray<std::uint32_t>(s.body_pair_count);
    if (s.mesh_jobs == nullptr || s.mesh_job_pairs == nullptr) return; // sized: does not happen
    for (std::uint32_t i = 0; i < s.body_pair_count; ++i) {
        const BodyPair& pair = s.body_pairs[i];
        if (pair.kind != PairKind::ShipShip) continue;
        if (pair.a.kind != BodyKind::Enemy || pair.b.kind != BodyKind::Enemy) continue;
        const ShipBody* a = shipOf(s, pair.a);
        const ShipBody* b = shipOf(s, pair.b);
        if (a == nullptr || b == nullptr) continue;
        MeshMeshJob& job = s.mesh_jobs[s.mesh_job_count];
        job.a = a->mesh;
        job.b = b->mesh;
        relative(a->ship_to_world, b->ship_to_world, job.b_to_a);
        s.mesh_job_pairs[s.mesh_job_count++] = i;
    }
    s.stats.mesh_jobs = s.mesh_job_count;
    const MeshMeshBackend* backend = s.config.mesh_mesh_backend;
    if (backend == nullptr || s.mesh_job_count == 0) return;
    s.mesh_pairs = s.scratch.allocateArray<MeshMeshPair>(s.config.max_mesh_pairs);
    s.mesh_job_first = s.scratch.allocateArray<std::uint32_t>(std::size_t{s.mesh_job_count} + 1);
    if (s.mesh_pairs == nullptr || s.mesh_job_first == nullptr) return; // sized: does not happen
    s.mesh_submitted = backend->submit(backend->user, s.mesh_jobs, s.mesh_job_count);
}

void collectMeshMeshPhase(WorldState& s) {
    if (!s.mesh_submitted) return;
    const MeshMeshBackend* backend = s.config.mesh_mesh_backend;
    OutBuffer<MeshMeshPair> pairs = OutBuffer<MeshMeshPair>::over(s.mesh_pairs, s.config.max_mesh_pairs);
    // Only a whole answer is used: lost results or pairs that did not fit (BufferFull) leave the
    // step to the CPU, which needs no pair buffer, so no contact is ever dropped here.
    const Status status = backend->collect(backend->user, pairs);
    s.mesh_submitted = status == Status::Ok && pairs.dropped == 0;
    if (!s.mesh_submitted) return;
    const std::uint32_t refused = refusedPairs(s, pairs);
    if (refused != 0) {
        s.stats.mesh_pairs_refused = refused;
        s.mesh_submitted = false;
        return;
    }
    s.mesh_pair_count = pairs.count;
    // Where each job's pairs start (they come sorted by job, every job index in range).
    std::uint32_t at = 0;
    for (std::uint32_t j = 0; j < s.mesh_job_count; ++j) {
        s.mesh_job_first[j] = at;
        while (at < s.mesh_pair_count && s.mesh_pairs[at].job == j) ++at;
    }
    s.mesh_job_first[s.mesh_job_count] = at;
    s.stats.mesh_jobs_on_backend = true;
}

void runMeshMeshPhase(WorldState& s) {
    if (s.mesh_jobs == nullptr) return;
    runPhaseItems(s, s.mesh_job_count, 1, MeshMeshItem{&s});
}

} // namespace flak
