// Internal: the escape-index walk over a wall set's 2D tree, and per-edge helpers.
#pragma once

#include <flak/shooter/wall_set.h>

#include <flak/geom/segment_aabb.h>

#include "shooter/shooter_slack.h"

#include <cfloat>

namespace flak::detail {

/// Walks the nodes [begin, end) of the tree (blob_format.h's escape-index loop over WallNode; the
/// whole tree is [0, node_count), a grid's span (wallSpan) a part of it): `enter(node)` decides
/// whether a node's box is entered; at a leaf, `edge(id)` is called for its edges in increasing
/// id and returns false to stop the walk. No stack, one forward loop.
///
/// The step does not branch on the node test: whether a node is entered is data the walk cannot
/// predict (a query enters about half the nodes it tests), so the test only picks the next index
/// (+1 when the node is entered or is a leaf, past its subtree otherwise) and the walk branches on
/// "entered leaf" alone. `enter` runs once per node; cheap and branch-free is best (nodeOverlaps).
template <typename Enter, typename Edge>
inline void walkWalls(const WallSet& walls, std::uint32_t begin, std::uint32_t end, Enter&& enter,
                      Edge&& edge) {
    const WallNode* nodes = walls.nodes;
    std::uint32_t i = begin;
    while (i < end) {
        const WallNode& n = nodes[i];
        const bool in = enter(n);
        const bool leaf = (n.info & kLeafBit) != 0;
        if (in & leaf) {
            const std::uint32_t first = n.info & 0x03FFFFFFu, count = ((n.info >> 26) & 0x1Fu) + 1u;
            for (std::uint32_t e = first; e < first + count; ++e)
                if (!edge(e)) return;
        }
        i += (in | leaf) ? 1u : n.info;
    }
}

/// walkWalls over the whole tree.
template <typename Enter, typename Edge>
inline void walkWalls(const WallSet& walls, Enter&& enter, Edge&& edge) {
    walkWalls(walls, 0u, walls.node_count, enter, edge);
}

/// The node span [out_begin, out_end) a walk for the closed box [lo, hi] (ordered, not NaN) needs
/// to reach every edge whose box meets it: the grid's span (wall_grid.h), or the whole tree
/// without a grid. False when there is nothing to walk.
inline bool wallSpan(const WallSet& walls, const Vec2& lo, const Vec2& hi, std::uint32_t& out_begin,
                     std::uint32_t& out_end) {
    if (walls.grid != nullptr) return wallGridSpan(*walls.grid, lo, hi, out_begin, out_end);
    out_begin = 0;
    out_end = walls.node_count;
    return walls.node_count > 0;
}

/// wallEdgePoints without the range assert, inline, for the walks (edge ids from validated leaves).
inline void edgePoints(const WallSet& walls, std::uint32_t edge_id, Vec2& out_a, Vec2& out_b) {
    const WallEdge& e = walls.edges[edge_id];
    const WallRing& r = walls.rings[e.ring];
    out_a = walls.points[r.first_point + e.index];
    out_b = walls.points[r.first_point + (e.index + 1 == r.point_count ? 0 : e.index + 1)];
}

/// Node test against the box [lo, hi] (closed), four comparisons joined by `&` (no branch).
inline bool nodeOverlaps(const WallNode& n, const Vec2& lo, const Vec2& hi) {
    return (n.min[0] <= hi.x) & (lo.x <= n.max[0]) & (n.min[1] <= hi.y) & (lo.y <= n.max[1]);
}

/// A segment p0 -> p1 in the play plane prepared for box tests: the slab of prepareSegment (z = 0)
/// and the segment's own box (exact: min/max of the end points).
struct WallSweep {
    SlabSegment slab;
    float lo_x = 0.0f, lo_y = 0.0f, hi_x = 0.0f, hi_y = 0.0f;
};

/// Prepares p0 -> p1; out.slab.valid is false on NaN/Inf (as prepareSegment; the box is then
/// meaningless and unused).
inline void prepareWallSweep(const Vec2& p0, const Vec2& p1, WallSweep& out) {
    prepareSegment(Vec3{p0.x, p0.y, 0.0f}, Vec3{p1.x, p1.y, 0.0f}, out.slab);
    out.lo_x = p0.x < p1.x ? p0.x : p1.x, out.lo_y = p0.y < p1.y ? p0.y : p1.y;
    out.hi_x = p0.x < p1.x ? p1.x : p0.x, out.hi_y = p0.y < p1.y ? p1.y : p0.y;
}

/// The signs of a sweep's direction as types, so that each walk is compiled once per quadrant and
/// its node test picks the near and far planes with no branch (Williams et al.'s sign test, made
/// once per query instead of once per node).
template <bool kNegativeX, bool kNegativeY> struct SweepSigns {
    static constexpr bool negative_x = kNegativeX;
    static constexpr bool negative_y = kNegativeY;
};

/// Calls body(SweepSigns<x < 0, y < 0>{}) for the signs of sweep.slab.inv_delta; returns its
/// result.
template <typename Body> inline auto withSweepSigns(const WallSweep& sweep, Body&& body) {
    const bool nx = sweep.slab.inv_delta.x < 0.0f, ny = sweep.slab.inv_delta.y < 0.0f;
    if (nx) return ny ? body(SweepSigns<true, true>{}) : body(SweepSigns<true, false>{});
    return ny ? body(SweepSigns<false, true>{}) : body(SweepSigns<false, false>{});
}

/// Whether the segment meets the box [lo - grow, hi + grow] (a wall node or edge box grown by the
/// query's reach), never false where an edge inside can answer the query: the segment's box
/// against it (exact float comparisons: a point of the segment in the box lies in both boxes),
/// and segmentAabbOverlap(slab, box) of the box in the z = 0 plane, inline and in 2D: the same
/// float operations in the same order on x and y (on z the slab parameters are 0 * inf = NaN,
/// which the comparisons ignore), the same conservative exit round-up and the same refusal of a
/// box that is not finite, so the same decision bit for bit. Every part is evaluated and joined
/// by `&` (no early out: one data-dependent branch for the caller instead of five). `Signs` must
/// be the sweep's (withSweepSigns); `sweep.slab` must be valid; lo <= hi finite (validated
/// boxes), grow >= 0.
template <typename Signs>
inline bool sweepMeetsBox(const WallSweep& sweep, float lo_x, float lo_y, float hi_x, float hi_y,
                          float grow) {
    constexpr float kExitRoundUp = 1.0f + 1.0f / 1048576.0f; // segment_aabb.cpp
    const float bx0 = lo_x - grow, by0 = lo_y - grow, bx1 = hi_x + grow, by1 = hi_y + grow;
    if (bx0 > sweep.hi_x || bx1 < sweep.lo_x || by0 > sweep.hi_y || by1 < sweep.lo_y) return false;
    if (!(bx0 >= -FLT_MAX && by0 >= -FLT_MAX && bx1 <= FLT_MAX && by1 <= FLT_MAX)) return false;
    const SlabSegment& slab = sweep.slab;
    float t_enter = 0.0f, t_exit = slab.t_max;
    const float ix = slab.inv_delta.x, iy = slab.inv_delta.y;
    const float nx = (Signs::negative_x ? bx1 : bx0) - slab.origin.x;
    const float fx = (Signs::negative_x ? bx0 : bx1) - slab.origin.x;
    const float tnx = nx * ix, tfx = fx * ix;
    t_enter = tnx > t_enter ? tnx : t_enter;
    t_exit = tfx < t_exit ? tfx : t_exit;
    const float ny = (Signs::negative_y ? by1 : by0) - slab.origin.y;
    const float fy = (Signs::negative_y ? by0 : by1) - slab.origin.y;
    const float tny = ny * iy, tfy = fy * iy;
    t_enter = tny > t_enter ? tny : t_enter;
    t_exit = tfy < t_exit ? tfy : t_exit;
    return t_enter <= t_exit * kExitRoundUp;
}

/// The hit of a segment or sweep p0 -> p0 + d that starts inside the solid (the caller has made
/// sure: pointInWalls(walls, p0)): t = 0 at p0, normal -d normalised (zero for a zero d), edge and
/// edge_id kNoEdge, the ring and polygon of the nearest solid-on-the-left edge that the crossing
/// ray (+x from p0) meets (segment_walls.cpp).
void insideStartHit(const WallSet& walls, const Vec2& p0, const Vec2& d, WallRayHit& out_hit);

/// Margin of a query at `scale` (its magnitudes and the set's): the slack of shooter_slack.h.
inline float wallMargin(const WallSet& walls, float scale) {
    const float s = maxOf(scale, maxOf(maxAbs(walls.bounds_min), maxAbs(walls.bounds_max)));
    return static_cast<float>(shooterSlack(s));
}

/// The right-hand normal of edge a -> b (out of the solid: the solid is on every edge's left);
/// false for a zero-length edge.
inline bool outwardNormal(const Vec2& a, const Vec2& b, Vec2& out) {
    const Vec2 e{b.x - a.x, b.y - a.y};
    return normalize(Vec2{e.y, -e.x}, out);
}

} // namespace flak::detail
