// flak — 2D wall sets: polygons in the play plane (concave, with holes) and their queries.
//
// The play plane is the world X-Y plane: a 2D point (x, y) is the world point (x, y, any z).
// Walls are infinite vertical prisms: z ("height") is ignored by every wall query; 3D callers pass
// (x, y) of their points and spheres (a sphere acts as the circle of its radius at its centre's
// (x, y)). Wall sets are in world space (level geometry), in world units.
//
// The solid is the even-odd interior of all rings (see shooter/blob_sections.h: the baker makes it the
// union of the polygons and orients every ring with the solid on its left). Each query walks the
// set's 2D tree over edges once (the escape-index walk of blob_format.h on WallNode boxes: exact
// float boxes, so no margin is needed), with no recursion, no stack and no allocation; the inside
// test walks the section's inside tree instead, which reaches only the rings near the point. Edge
// results come from the polygon kernels applied to each edge alone as a two-point polygon
// (circlePolygon, segmentPolygon), the inside test from point_in_polygon.h's crossing vote, so
// answers equal those of the kernels run over every edge (the brute-force oracle of the tests).
// Edges are visited, and results appended, in increasing edge id (leaf order). Thread-safe on a
// shared set (read only).
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/geom/segment_polygon.h>
#include <flak/math/transform.h>
#include <flak/math/vec2.h>
#include <flak/out_buffer.h>
#include <flak/shooter/blob_sections.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/wall_grid.h>
#include <flak/status.h>

#include <cstdint>

namespace flak {

/// A view of a wall set in a blob's Walls section (pointers into the blob's bytes, which must
/// outlive it; not owned). Cheap to copy. Build with loadWallSet().
struct WallSet {
    const WallRing* rings = nullptr;
    const Vec2* points = nullptr;                 ///< ring points, rings contiguous
    const WallNode* nodes = nullptr;              ///< 2D tree, depth-first with skip links
    const WallEdge* edges = nullptr;              ///< edges in leaf order; an edge id is an index here
    const WallInsideNode* inside_nodes = nullptr; ///< pointInWalls' tree: rings, then their edges
    std::uint32_t polygon_count = 0;
    std::uint32_t ring_count = 0;
    std::uint32_t point_count = 0; ///< = edge count
    std::uint32_t node_count = 0;
    std::uint32_t inside_node_count = 0;
    Vec2 bounds_min; ///< exact box of every point
    Vec2 bounds_max;
    /// Optional (null from loadWallSet): the set's occupancy grid (buildWallGrid), which lets
    /// pointInWalls and sweptCircleWallsFirstHit answer in open space without walking the trees.
    /// Same answers either way; the grid's memory must outlive every copy of the view.
    const WallGrid* grid = nullptr;
};

/// A contact of a circle with one wall edge (40 bytes), world units.
struct WallContact {
    Vec2 point; ///< closest point of the edge to the circle's centre
    /// Unit push direction for this edge: outside the solid, the two-point circlePolygon's push
    /// direction (from `point` towards the centre, computed relative to the centre so it stays
    /// exact a few ulps from the edge); inside, the reverse (from the centre through `point`, out
    /// of the solid). A centre on the edge itself (closest point equal to it, or a push that rounds
    /// to the full radius) takes the edge's outward (right-hand) normal.
    Vec2 normal;
    float depth = 0.0f;        ///< push along `normal` that clears this edge: r - d outside, r + d inside
    std::uint32_t polygon = 0; ///< polygon of the edge
    std::uint32_t ring = 0;    ///< ring of the edge (global ring index)
    std::uint32_t edge = 0;    ///< edge index within its ring (from point edge to edge + 1)
    std::uint32_t sphere = 0;  ///< cluster sphere for clusterWalls; 0 for circleWalls
    std::uint32_t edge_id = 0; ///< edge id in the set (leaf order)
};
static_assert(sizeof(WallContact) == 40, "WallContact is 40 bytes");

/// The most rounds of the projection pass that circleWalls and clusterWalls run for one push.
constexpr std::uint32_t kWallPushRounds = 8;

/// The combined push-out of a circle (or cluster) against a wall set (16 bytes).
struct WallPush {
    Vec2 push;                       ///< translation to apply in the play plane (zero: no contact)
    std::uint32_t contact_count = 0; ///< contacts found, including those a full buffer dropped
    std::uint32_t inside = 0;        ///< circles whose centre lies inside the solid
};
static_assert(sizeof(WallPush) == 16, "WallPush is 16 bytes");

/// A segment or swept-circle hit on a wall set (36 bytes), world units.
struct WallRayHit {
    float t = 0.0f;               ///< parameter along the query: p0 + t (p1 - p0), t in [0, 1]
    Vec2 point;                   ///< the hit point on the wall (segments: on the segment too)
    Vec2 normal;                  ///< unit normal facing against the query (see each query)
    std::uint32_t polygon = 0;    ///< polygon hit
    std::uint32_t ring = 0;       ///< ring hit
    std::uint32_t edge = kNoEdge; ///< edge index within the ring; kNoEdge when the start is inside the solid
    std::uint32_t edge_id = kNoEdge; ///< edge id in the set (leaf order); kNoEdge as above
};
static_assert(sizeof(WallRayHit) == 36, "WallRayHit is 36 bytes");

/// The wall set a blob carries (its Walls section) as a view into the blob's bytes, after one
/// linear pass over the section proves what the wall queries rely on: counts, rings and points in
/// range, finite points within kMaxBlobCoordinate, the header's bounds their exact box, both trees
/// binary with skip links in range, every box containing its children's and every leaf box its
/// edges, edge references in range. So any wall set that loads answers every edge query as brute
/// force over the edges it holds would, and the inside test as the crossing vote over the ring
/// runs its inside tree names (docs/blob_format.md). What one pass cannot prove (rings simple and
/// apart, holes inside their outer ring, each edge held once by the edges and by the inside tree,
/// so that the two agree) is left to `flak_bake verify`. InvalidArgument
/// (out_walls emptied) when the blob has no walls; BlobCorrupt (out_error, if given, says what and
/// where, as loadMeshBlob's) when the section fails a check. Never reads outside the section.
[[nodiscard]] Status loadWallSet(const Blob& blob, WallSet& out_walls, BlobError* out_error = nullptr);

/// End points of edge `edge_id` (leaf order, < point_count; FLAK_ASSERT). An id out of range
/// (when the assert handler returns or asserts are off) writes zeros and reads nothing.
void wallEdgePoints(const WallSet& walls, std::uint32_t edge_id, Vec2& out_a, Vec2& out_b);

/// True when `point` lies inside the solid: the crossing number over every edge with
/// pointInPolygon's half-open vote (so exactly the XOR of pointInPolygon over the rings; a point
/// on an edge shared by two adjacent polygons is inside exactly one). NaN/Inf: false.
bool pointInWalls(const WallSet& walls, const Vec2& point);

/// Every edge the closed disc touches (circlePolygon of the edge alone), appended to
/// inout_contacts in edge id order, oriented as WallContact says; when the centre is inside the
/// solid and no edge is within `radius`, the nearest edge is reported instead (depth r + d).
/// out_push: the translation that frees the circle. One round combines the contacts' pushes in
/// edge id order by a projection pass (push += n * max(0, depth - dot(push, n))), a centre inside
/// the solid contributing only its push through the nearest boundary point (ties to the lowest
/// edge id); the round is run again where the push so far leaves the circle, adding its push,
/// until a round would not move it, adding nothing or less than float can add to the centre
/// (the circle then at most touches the walls, up to the push's rounding), or kWallPushRounds
/// have run: the push is then the last round's, which may leave the circle inside, even deeper
/// than before. That happens where the walls leave it no room along the pushes (a slot narrower
/// than it) and in sharp notches, whose way out the rounds approach only slowly. The contacts
/// and counts are those where the circle is.
/// Returns Ok, or BufferFull when some contacts did not fit (the push still uses them all).
/// NaN/Inf or a negative radius: no contacts, zero push, Ok.
[[nodiscard]] Status circleWalls(const WallSet& walls, const Vec2& center, float radius,
                                 OutBuffer<WallContact>& inout_contacts, WallPush& out_push);

/// circleWalls for every sphere of a cluster (as the circle at its world centre's (x, y)), sphere
/// by sphere; WallContact::sphere names the sphere. out_push frees the whole cluster as
/// circleWalls' frees a circle: each round combines every contact of every sphere in that order
/// by the projection pass, an inside sphere contributing its nearest-boundary push as one more
/// contact, and the rounds move the cluster as one. Ok or BufferFull.
[[nodiscard]] Status clusterWalls(const WallSet& walls, const SphereCluster& cluster,
                                  const Transform& cluster_to_world, OutBuffer<WallContact>& inout_contacts,
                                  WallPush& out_push);

/// First hit of the segment p0 -> p1 on the solid. A start inside the solid (pointInWalls) hits
/// at t = 0 with edge kNoEdge, normal -(p1 - p0) normalised (zero for a zero-length segment) and
/// the polygon owning the nearest solid-on-the-left edge that the crossing ray (+x from the start)
/// meets; otherwise the smallest
/// segmentPolygon t over the edges alone (normal facing against the segment), ties to the lowest
/// edge id. False (out_hit untouched) on no hit, NaN/Inf or an empty set.
bool segmentWallsFirstHit(const WallSet& walls, const Vec2& p0, const Vec2& p1, WallRayHit& out_hit);

} // namespace flak
