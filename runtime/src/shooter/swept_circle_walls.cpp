#include <flak/geom/segment_aabb.h>
#include <flak/shooter/swept_bullet.h>

#include "shooter/wall_walk.h"

#include <cmath>

namespace flak {

namespace {

struct D2 {
    double x, y;
};

// Closest point parameter of segment a + s e (s in [0, 1]) to p, all relative to a.
double closestParam(const D2& p, const D2& e) {
    const double ee = e.x * e.x + e.y * e.y;
    if (!(ee > 0.0)) return 0.0;
    const double s = (p.x * e.x + p.y * e.y) / ee;
    return s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
}

// Smallest root in [0, 1] of |m + t d|^2 = r^2 for a start outside (|m| > r) (RTCD 5.3.2).
bool rayCircle(const D2& m, const D2& d, double r, double& inout_t) {
    const double a = d.x * d.x + d.y * d.y, b = m.x * d.x + m.y * d.y, c = m.x * m.x + m.y * m.y - r * r;
    if (a == 0.0 || b > 0.0) return false;
    const double disc = b * b - a * c;
    if (disc < 0.0) return false;
    const double t = (-b - std::sqrt(disc)) / a;
    if (t < 0.0 || t > 1.0 || !(t < inout_t)) return false;
    inout_t = t;
    return true;
}

} // namespace

// The swept circle's first contact with the segment is its centre's first entry into the capsule
// of radius r around it (Ericson, RTCD 5.3.7, in 2D): the two sides offset by +-r along the
// normal, where the entry lies within the segment's extent, and the two end discs. Double
// throughout, relative to a, so the float inputs are exact.
bool sweptCircleEdge(const Vec2& c0, const Vec2& c1, float radius, const Vec2& a, const Vec2& b,
                     WallRayHit& out_hit) {
    if (!isFinite(c0) || !isFinite(c1) || !isFinite(a) || !isFinite(b) || !std::isfinite(radius) ||
        !(radius >= 0.0f))
        return false;
    const D2 m{double(c0.x) - a.x, double(c0.y) - a.y};
    const D2 d{double(c1.x) - c0.x, double(c1.y) - c0.y};
    const D2 e{double(b.x) - a.x, double(b.y) - a.y};
    const double r = radius;
    double t = 2.0;
    const double s0 = closestParam(m, e);
    const D2 q0{m.x - s0 * e.x, m.y - s0 * e.y};
    if (q0.x * q0.x + q0.y * q0.y <= r * r) {
        t = 0.0;
    } else {
        const double ee = e.x * e.x + e.y * e.y;
        if (ee > 0.0) {
            const double len = std::sqrt(ee);
            const D2 n{e.y / len, -e.x / len};
            const double h0 = m.x * n.x + m.y * n.y, hd = d.x * n.x + d.y * n.y;
            if (hd != 0.0) {
                const double side = h0 > 0.0 ? r : -r; // the side the centre starts on
                const double ts = (side - h0) / hd;
                if (ts >= 0.0 && ts <= 1.0) {
                    const double s = ((m.x + ts * d.x) * e.x + (m.y + ts * d.y) * e.y) / ee;
                    if (s >= 0.0 && s <= 1.0 && ts < t) t = ts;
                }
            }
        }
        rayCircle(m, d, r, t);
        rayCircle(D2{m.x - e.x, m.y - e.y}, d, r, t);
        if (t > 1.0) return false;
    }
    const D2 ct{m.x + t * d.x, m.y + t * d.y};
    const double s = closestParam(ct, e);
    const D2 q{s * e.x, s * e.y};
    D2 n{ct.x - q.x, ct.y - q.y};
    double len = std::sqrt(n.x * n.x + n.y * n.y);
    if (!(len > 0.0)) {
        n = D2{-d.x, -d.y};
        len = std::sqrt(n.x * n.x + n.y * n.y);
        if (!(len > 0.0)) n = D2{1.0, 0.0}, len = 1.0;
    }
    out_hit.t = static_cast<float>(t);
    set(static_cast<float>(a.x + q.x), static_cast<float>(a.y + q.y), out_hit.point);
    set(static_cast<float>(n.x / len), static_cast<float>(n.y / len), out_hit.normal);
    return true;
}

bool sweptCircleWallsFirstHit(const WallSet& walls, const Vec2& c0, const Vec2& c1, float radius,
                              WallRayHit& out_hit) {
    if (walls.node_count == 0 || !isFinite(c0) || !isFinite(c1) || !std::isfinite(radius) ||
        !(radius >= 0.0f))
        return false;
    Vec2 d;
    sub(c1, c0, d);
    if (!isFinite(d)) return false;
    const float m = detail::wallMargin(walls, detail::maxOf(detail::maxAbs(c0), detail::maxAbs(c1)) + radius);
    const float grow = radius + m;
    // The node test: the sweep's own box grown by radius + 2 margins against the node's box, four
    // comparisons and no arithmetic per node. It accepts every node holding an edge that the edge
    // test below accepts: that test's first part is the same box test with the edge's box grown by
    // radius + 1 margin (the node's box holds the edge's, exactly), and the second margin is far
    // more than the roundings of the two ways of growing (a few ulps at the query's scale; the
    // margin is 4e-5 of it, and below the normal range the sums are exact). The slab test is left
    // to the edges: on a bullet's short sweep it rejected few nodes the box test had passed.
    const float reach = grow + m;
    const Vec2 reach_lo{(c0.x < c1.x ? c0.x : c1.x) - reach, (c0.y < c1.y ? c0.y : c1.y) - reach},
        reach_hi{(c0.x < c1.x ? c1.x : c0.x) + reach, (c0.y < c1.y ? c1.y : c0.y) + reach};
    std::uint32_t begin = 0, end = 0;
    const bool near = detail::wallSpan(walls, reach_lo, reach_hi, begin, end);
    // In open space (no edge's box reaches the box's cells), the grid knows the start's side too.
    const std::uint32_t side = near ? kWallFreeUnknown : detail::wallGridSide(*walls.grid, c0);
    if (side == kWallFreeOutside) return false;
    if (side == kWallFreeInside || pointInWalls(walls, c0)) {
        // Same answer as a segment starting inside (segmentWallsFirstHit names the polygon).
        detail::insideStartHit(walls, c0, d, out_hit);
        return true;
    }
    if (!near) return false;
    detail::WallSweep sweep;
    detail::prepareWallSweep(c0, c1, sweep);
    if (!sweep.slab.valid) return false;
    bool found = false;
    WallRayHit best;
    std::uint32_t best_edge = 0;
    float best_gap = 0.0f; // at t = 0: the nearest touching edge wins
    // Before the double solve, each edge's own box, grown by radius + margin, against the sweep's
    // box and the conservative slab test (sweepMeetsBox: it never rejects an edge the solve hits),
    // the slab's end shrinking to the best hit so far.
    detail::withSweepSigns(sweep, [&](auto signs) {
        using Signs = decltype(signs);
        detail::walkWalls(
            walls, begin, end, [&](const WallNode& n) { return detail::nodeOverlaps(n, reach_lo, reach_hi); },
            [&](std::uint32_t e) {
                Vec2 a, b;
                detail::edgePoints(walls, e, a, b);
                if (!detail::sweepMeetsBox<Signs>(sweep, a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y,
                                                  a.x < b.x ? b.x : a.x, a.y < b.y ? b.y : a.y, grow))
                    return true;
                WallRayHit h;
                if (!sweptCircleEdge(c0, c1, radius, a, b, h)) return true;
                Vec2 rel;
                sub(h.point, c0, rel);
                const float gap = h.t == 0.0f ? lengthSq(rel) : 0.0f;
                if (!found || h.t < best.t || (h.t == 0.0f && best.t == 0.0f && gap < best_gap)) {
                    best = h;
                    best_edge = e;
                    best_gap = gap;
                    found = true;
                    sweep.slab.t_max = h.t;
                }
                return true;
            });
    });
    if (!found) return false;
    out_hit = best;
    const WallEdge& e = walls.edges[best_edge];
    out_hit.ring = e.ring;
    out_hit.polygon = walls.rings[e.ring].polygon;
    out_hit.edge = e.index;
    out_hit.edge_id = best_edge;
    return true;
}

} // namespace flak
