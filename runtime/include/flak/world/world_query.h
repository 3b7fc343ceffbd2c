// flak — questions a game asks the World between steps: what a ray or a moving sphere meets
// first, and which bodies touch a sphere or a box (World::castSegment, sweepSphere,
// overlapSphere, overlapBox).
//
// The targets are the bodies a shot can meet: levels and enemies by their meshes' surfaces (a
// sphere or box wholly inside a closed hull does not touch it), players by their sphere clusters,
// wall sets as solid prisms over their polygons (from z = -1e18 to 1e18, the height of their
// broad-phase box, as in a step), each with the very kernels a step's bullets use: a cast is a
// bullet's sweep (sweptBulletFirstHit; a segment is a sweep of radius 0), a sphere overlap a
// bullet that does not move; a box overlap takes obbOverlapTriangles on meshes,
// sphereAabbOverlap on cluster spheres and, on walls, a corner of the box's play-plane rectangle
// inside the solid, a side across an edge, or a wall point inside the rectangle.
// Bullets and beams are never targets. Every body is read where the last call left it (spawn,
// setShipTransform), and the bodies are visited in (kind, slot) order, so the answers do not
// depend on any tree's shape. Queries are const: several threads may ask at once between steps
// (never while step runs). Nothing is allocated.
#pragma once

#include <flak/math/vec3.h>
#include <flak/world/body.h>
#include <flak/world/hit.h>

#include <cstdint>

namespace flak {

/// `QueryFilter::skip_team` that skips no team.
constexpr std::uint32_t kNoTeamFilter = 0xFFFFFFFFu;

/// The kind bits of QueryFilter::kinds.
constexpr std::uint32_t queryKindBit(BodyKind kind) { return 1u << static_cast<std::uint32_t>(kind); }

/// Every kind a query can meet: levels, wall sets, enemies, players.
constexpr std::uint32_t kQueryAllKinds = queryKindBit(BodyKind::Level) | queryKindBit(BodyKind::Walls) |
                                         queryKindBit(BodyKind::Enemy) | queryKindBit(BodyKind::Player);

/// Which bodies a query considers.
struct QueryFilter {
    std::uint32_t kinds = kQueryAllKinds;    ///< queryKindBit of each kind to consider
    std::uint32_t skip_team = kNoTeamFilter; ///< ships of this team are left out (as a shot's own)
    BodyId ignore;                           ///< one body left out (the null id: none)
    CollisionFilter filter = {};             ///< bodies it does not interact with are left out
};

/// What a cast met first (64 bytes), world space.
struct QueryHit {
    BodyId body;                        ///< the body met
    std::uint32_t feature = kNoFeature; ///< its triangle, cluster sphere or wall edge (as Hit::feature)
    Vec3 point;                         ///< the contact point, on the body's surface
    Vec3 normal;                        ///< unit, from the body towards the caster
    float t = 0.0f;                     ///< fraction of the way from `from` to `to`, in [0, 1]
    float distance = 0.0f;              ///< t * |to - from|
    std::uint64_t user = 0;             ///< the body's user value (its desc's `user`)
    std::uint32_t reserved[2] = {0, 0};
};
static_assert(sizeof(QueryHit) == 64, "QueryHit is 64 bytes");

} // namespace flak
