// flak — the World's queries between steps (world_query.h): casts and overlaps over the bodies
// in (kind, slot) order, each body first tested by its broad-phase box, then by the kernels a
// step's bullets use.
#include "world_state.h"

#include <flak/bvh/box_query.h>
#include <flak/geom/sphere_aabb.h>
#include <flak/shooter/swept_bullet.h>

#include <cmath>

namespace flak {

namespace {

constexpr BodyKind kQueryKinds[] = {BodyKind::Level, BodyKind::Walls, BodyKind::Enemy, BodyKind::Player};

// One body a query may meet: its id, its broad-phase box and the one shot target it is.
struct QueryBody {
    BodyId id;
    Aabb box;
    ShotTargets targets;
    MeshTarget mesh;
    WallTarget walls;
    ClusterTarget cluster;
    const WallsBody* wall_body = nullptr;
};

// Fills `out` for the live body at `slot` of `kind` when the filter keeps it.
bool queryBody(const WorldState& s, BodyKind kind, std::uint32_t slot, const QueryFilter& filter,
               QueryBody& out) {
    if (((filter.kinds >> static_cast<std::uint32_t>(kind)) & 1u) == 0u) return false;
    out.id = liveBodyId(s, kind, slot);
    if (out.id.isNull() || out.id == filter.ignore || !interacts(filter.filter, bodyFilter(s, out.id)))
        return false;
    out.targets = ShotTargets{};
    out.wall_body = nullptr;
    switch (kind) {
    case BodyKind::Level: {
        const LevelBody& level = *s.levels.get(toHandle<LevelBody>(out.id));
        transformAabb(level.mesh_to_world, level.mesh->bounds, out.box);
        out.mesh = MeshTarget{level.mesh, level.mesh_to_world, 0};
        out.targets.meshes = &out.mesh;
        out.targets.mesh_count = 1;
        return true;
    }
    case BodyKind::Walls: {
        const WallsBody& walls = *s.walls.get(toHandle<WallsBody>(out.id));
        wallSetBox(walls.set, out.box);
        out.walls = WallTarget{&walls.set, 0};
        out.targets.walls = &out.walls;
        out.targets.wall_count = 1;
        out.wall_body = &walls;
        return true;
    }
    case BodyKind::Enemy:
    case BodyKind::Player: {
        const FixedPool<ShipBody>& pool = kind == BodyKind::Enemy ? s.enemies : s.players;
        const ShipBody& ship = *pool.get(toHandle<ShipBody>(out.id));
        if (filter.skip_team != kNoTeamFilter && ship.team == filter.skip_team) return false;
        shipWorldBox(ship, out.box);
        if (kind == BodyKind::Enemy) { // as a shot sees them: enemies by mesh, players by cluster
            out.mesh = MeshTarget{ship.mesh, ship.ship_to_world, 0};
            out.targets.meshes = &out.mesh;
            out.targets.mesh_count = 1;
        } else {
            out.cluster = ClusterTarget{ship.cluster, ship.ship_to_world, 0};
            out.targets.clusters = &out.cluster;
            out.targets.cluster_count = 1;
        }
        return true;
    }
    default: return false;
    }
}

std::uint32_t slotCount(const WorldState& s, BodyKind kind) {
    switch (kind) {
    case BodyKind::Level: return s.levels.capacity();
    case BodyKind::Walls: return s.walls.capacity();
    case BodyKind::Enemy: return s.enemies.capacity();
    case BodyKind::Player: return s.players.capacity();
    default: return 0;
    }
}

// Calls visit(body) for every body the filter keeps whose box overlaps `box`, in (kind, slot)
// order; visit returns false to stop.
template <typename Visit>
void forBodies(const WorldState& s, const Aabb& box, const QueryFilter& filter, Visit&& visit) {
    QueryBody body;
    for (const BodyKind kind : kQueryKinds)
        for (std::uint32_t slot = 0, n = slotCount(s, kind); slot < n; ++slot) {
            if (!queryBody(s, kind, slot, filter, body) || !overlaps(box, body.box)) continue;
            if (!visit(body)) return;
        }
}

void grownBox(const Vec3& a, const Vec3& b, float radius, Aabb& out) {
    min(a, b, out.min);
    max(a, b, out.max);
    inflate(out, radius, out);
}

// The order of equal-t hits among the bodies a shot meets: the order in which a step's bullets
// cast their targets (meshes: levels, then enemies; then wall sets; then players' clusters).
int shotRank(BodyKind kind) {
    switch (kind) {
    case BodyKind::Level: return 0;
    case BodyKind::Enemy: return 1;
    case BodyKind::Walls: return 2;
    default: return 3;
    }
}

// The wall-set-wide feature of a shot's wall hit (Hit::feature's rule).
std::uint32_t wallFeature(const WallSet& walls, const ShotHit& hit) {
    if (hit.feature == kNoEdge || hit.ring >= walls.ring_count) return kNoFeature;
    return walls.rings[hit.ring].first_point + hit.feature;
}

bool cast(const WorldState* state, const Vec3& from, const Vec3& to, float radius, const QueryFilter& filter,
          QueryHit& out_hit) {
    if (state == nullptr || !isFinite(from) || !isFinite(to) || !std::isfinite(radius) || radius < 0.0f)
        return false;
    Aabb box;
    grownBox(from, to, radius, box);
    if (!sizeIsFinite(box)) return false;
    bool found = false;
    QueryHit best;
    forBodies(*state, box, filter, [&](const QueryBody& body) {
        ShotHit hit;
        if (!sweptBulletFirstHit(from, to, radius, body.targets, hit)) return true;
        // Bodies come in (kind, slot) order: of equal t, a lower shot rank replaces the hit held.
        if (found &&
            !(hit.t < best.t || (hit.t == best.t && shotRank(body.id.kind) < shotRank(best.body.kind))))
            return true;
        found = true;
        best = QueryHit{};
        best.body = body.id;
        best.feature = body.wall_body != nullptr ? wallFeature(body.wall_body->set, hit) : hit.feature;
        best.point = hit.point;
        best.normal = hit.normal;
        best.t = hit.t;
        best.distance = hit.distance;
        best.user = bodyUser(*state, body.id);
        return true;
    });
    if (found) out_hit = best;
    return found;
}

// Whether the closed box touches the wall set's solid (any height): a corner of its play-plane
// rectangle inside, a rectangle side across an edge, or a polygon point inside the rectangle
// (a polygon wholly within it).
bool boxTouchesWalls(const WallSet& walls, const Aabb& box) {
    const Vec2 corners[4] = {
        {box.min.x, box.min.y}, {box.max.x, box.min.y}, {box.max.x, box.max.y}, {box.min.x, box.max.y}};
    for (const Vec2& c : corners)
        if (pointInWalls(walls, c)) return true;
    for (int i = 0; i < 4; ++i) {
        WallRayHit hit;
        if (segmentWallsFirstHit(walls, corners[i], corners[(i + 1) % 4], hit)) return true;
    }
    for (std::uint32_t i = 0; i < walls.point_count; ++i) {
        const Vec2& p = walls.points[i];
        if (p.x >= box.min.x && p.x <= box.max.x && p.y >= box.min.y && p.y <= box.max.y) return true;
    }
    return false;
}

bool boxTouchesBody(const QueryBody& body, const Aabb& box) {
    if (body.targets.mesh_count > 0) {
        Obb obb;
        center(box, obb.center);
        // A box whose size is finite but whose ends' sum is not (both near +-FLT_MAX): the
        // centre from the halves, which cannot overflow.
        if (!isFinite(obb.center))
            set(box.min.x * 0.5f + box.max.x * 0.5f, box.min.y * 0.5f + box.max.y * 0.5f,
                box.min.z * 0.5f + box.max.z * 0.5f, obb.center);
        halfExtents(box, obb.halfExtents);
        setIdentity(obb.rotation);
        OutBuffer<std::uint32_t> none; // no room: a touching triangle shows as dropped
        (void)obbOverlapTriangles(*body.mesh.blob, body.mesh.mesh_to_world, obb, none);
        return none.dropped > 0;
    }
    if (body.targets.cluster_count > 0) {
        for (std::uint32_t k = 0; k < body.cluster.cluster->count; ++k) {
            Sphere sphere;
            clusterWorldSphere(*body.cluster.cluster, body.cluster.cluster_to_world, k, sphere);
            if (sphereAabbOverlap(sphere, box)) return true;
        }
        return false;
    }
    return body.wall_body != nullptr && boxTouchesWalls(body.wall_body->set, box);
}

} // namespace

bool World::castSegment(const Vec3& from, const Vec3& to, const QueryFilter& filter,
                        QueryHit& out_hit) const {
    return cast(m_state, from, to, 0.0f, filter, out_hit);
}

bool World::sweepSphere(const Vec3& from, const Vec3& to, float radius, const QueryFilter& filter,
                        QueryHit& out_hit) const {
    return cast(m_state, from, to, radius, filter, out_hit);
}

Status World::overlapSphere(const Sphere& sphere, const QueryFilter& filter,
                            OutBuffer<BodyId>& inout_bodies) const {
    if (m_state == nullptr) return Status::InvalidArgument;
    if (!isFinite(sphere.center) || !std::isfinite(sphere.radius) || sphere.radius < 0.0f)
        return Status::InvalidArgument;
    Aabb box;
    grownBox(sphere.center, sphere.center, sphere.radius, box);
    if (!sizeIsFinite(box)) return Status::InvalidArgument;
    bool full = false;
    forBodies(*m_state, box, filter, [&](const QueryBody& body) {
        ShotHit hit; // a bullet that does not move: where a slow bullet is tested
        if (sweptBulletFirstHit(sphere.center, sphere.center, sphere.radius, body.targets, hit) &&
            !inout_bodies.append(body.id))
            full = true;
        return true;
    });
    return full ? Status::BufferFull : Status::Ok;
}

Status World::overlapBox(const Aabb& box, const QueryFilter& filter, OutBuffer<BodyId>& inout_bodies) const {
    if (m_state == nullptr) return Status::InvalidArgument;
    if (!isFinite(box.min) || !isFinite(box.max) || !(box.min.x <= box.max.x) || !(box.min.y <= box.max.y) ||
        !(box.min.z <= box.max.z) || !sizeIsFinite(box))
        return Status::InvalidArgument;
    bool full = false;
    forBodies(*m_state, box, filter, [&](const QueryBody& body) {
        if (boxTouchesBody(body, box) && !inout_bodies.append(body.id)) full = true;
        return true;
    });
    return full ? Status::BufferFull : Status::Ok;
}

} // namespace flak
