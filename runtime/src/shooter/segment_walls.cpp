#include <flak/geom/point_in_polygon.h>
#include <flak/geom/segment_aabb.h>
#include <flak/geom/segment_polygon.h>
#include <flak/shooter/wall_set.h>

#include "shooter/wall_walk.h"

#include <cmath>

namespace flak {

namespace {

// The polygon a start inside the solid lies in: the nearest edge the +x crossing ray meets (the
// region between the start and that edge holds no boundary, and the solid lies on every edge's
// left, so that edge bounds the start's polygon). Ties to the lowest edge id.
//
// The walk skips a node whose box starts beyond the best crossing so far by more than the
// crossing's rounding: every edge in it crosses the ray at x >= its smaller end's x, and the
// computed crossing (a few roundings of values at most the node's far x from the start) errs by
// far less than 2^-16 of that far x, plus 2^-84 where the product underflows: with |p.y| >= 2^-40
// every non-zero relative y is at least 2^-65, so the divisor is too, and an underflowed product's
// 2^-150 becomes at most 2^-85. A start nearer the x axis (its edges' ends may lie a subnormal
// distance from the ray, and the crossing can then err by a good part of an edge's width) walks
// without skipping. So a skipped node holds no crossing at or before the best, and ties keep
// going to the lowest id. With a grid, the span of the start's own cell is walked first, so that
// the best starts near (any genuine crossing serves).
std::uint32_t insidePolygonEdge(const WallSet& walls, const Vec2& p) {
    float best_x = INFINITY;
    std::uint32_t best = 0;
    auto visit = [&](std::uint32_t e) {
        Vec2 a, b;
        detail::edgePoints(walls, e, a, b);
        sub(a, p, a);
        sub(b, p, b);
        if (!crossingVote(a, b)) return true;
        const float x = a.x + (0.0f - a.y) * (b.x - a.x) / (b.y - a.y);
        if (x < best_x || (x == best_x && e < best)) {
            best_x = x;
            best = e;
        }
        return true;
    };
    const bool skip = std::fabs(p.y) >= 0x1p-40f;
    auto enter = [&](const WallNode& n) {
        const float near = n.min[0] - p.x, far = n.max[0] - p.x;
        return (n.max[0] >= p.x) & (n.min[1] <= p.y) & (n.max[1] >= p.y) &
               !(skip && near - far * 0x1p-16f - 0x1p-80f > best_x);
    };
    std::uint32_t begin = 0, end = 0;
    if (walls.grid != nullptr && detail::wallSpan(walls, p, p, begin, end))
        detail::walkWalls(walls, begin, end, enter, visit);
    detail::walkWalls(walls, enter, visit);
    return best;
}

} // namespace

namespace detail {

void insideStartHit(const WallSet& walls, const Vec2& p0, const Vec2& d, WallRayHit& out_hit) {
    const WallEdge& e = walls.edges[insidePolygonEdge(walls, p0)];
    out_hit.t = 0.0f;
    out_hit.point = p0;
    Vec2 n;
    scale(d, -1.0f, n);
    normalize(n, out_hit.normal);
    out_hit.ring = e.ring;
    out_hit.polygon = walls.rings[e.ring].polygon;
    out_hit.edge = kNoEdge;
    out_hit.edge_id = kNoEdge;
}

} // namespace detail

bool segmentWallsFirstHit(const WallSet& walls, const Vec2& p0, const Vec2& p1, WallRayHit& out_hit) {
    if (walls.node_count == 0 || !isFinite(p0) || !isFinite(p1)) return false;
    Vec2 d;
    sub(p1, p0, d);
    if (!isFinite(d)) return false;
    if (pointInWalls(walls, p0)) {
        detail::insideStartHit(walls, p0, d, out_hit);
        return true;
    }
    // Node boxes grown by the margin against the conservative slab test (segment_aabb.h, in the
    // z = 0 plane); the slab's end shrinks to the best hit so far (later equal-t edges lose ties).
    detail::WallSweep sweep;
    detail::prepareWallSweep(p0, p1, sweep);
    if (!sweep.slab.valid) return false;
    const float m = detail::wallMargin(walls, detail::maxOf(detail::maxAbs(p0), detail::maxAbs(p1)));
    std::uint32_t begin = 0, end = 0;
    if (!detail::wallSpan(walls, Vec2{sweep.lo_x - m, sweep.lo_y - m}, Vec2{sweep.hi_x + m, sweep.hi_y + m},
                          begin, end))
        return false;
    bool found = false;
    SegmentPolygonHit best;
    std::uint32_t best_edge = 0;
    detail::withSweepSigns(sweep, [&](auto signs) {
        using Signs = decltype(signs);
        detail::walkWalls(
            walls, begin, end,
            [&](const WallNode& n) {
                return detail::sweepMeetsBox<Signs>(sweep, n.min[0], n.min[1], n.max[0], n.max[1], m);
            },
            [&](std::uint32_t e) {
                Vec2 ab[2];
                detail::edgePoints(walls, e, ab[0], ab[1]);
                SegmentPolygonHit h;
                if (!segmentPolygon(p0, p1, ab, 2, h)) return true;
                if (!found || h.t < best.t) {
                    best = h;
                    best_edge = e;
                    found = true;
                    sweep.slab.t_max = h.t;
                }
                return true;
            });
    });
    if (!found) return false;
    const WallEdge& e = walls.edges[best_edge];
    out_hit.t = best.t;
    out_hit.point = best.point;
    out_hit.normal = best.normal;
    out_hit.ring = e.ring;
    out_hit.polygon = walls.rings[e.ring].polygon;
    out_hit.edge = e.index;
    out_hit.edge_id = best_edge;
    return true;
}

} // namespace flak
