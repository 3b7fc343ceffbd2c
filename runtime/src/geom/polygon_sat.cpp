#include <flak/geom/polygon_sat.h>

#include <cmath>
#include <limits>

namespace flak {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Interval {
    float lo = kInf;
    float hi = -kInf;
};

// Projection of a polygon (relative to `origin`) onto an unnormalised axis.
void project(const Vec2* points, std::uint32_t count, const Vec2& origin, const Vec2& axis, Interval& out) {
    Interval r;
    for (std::uint32_t i = 0; i < count; ++i) {
        Vec2 p;
        sub(points[i], origin, p);
        const float s = dot(p, axis);
        if (s < r.lo) r.lo = s;
        if (s > r.hi) r.hi = s;
    }
    out = r;
}

struct SatState {
    const Vec2* a;
    std::uint32_t na;
    const Vec2* b;
    std::uint32_t nb;
    Vec2 origin;
    float best_depth = kInf;
    Vec2 best_axis{1.0f, 0.0f};
    bool have_axis = false;

    // False when `axis` (unnormalised, non-zero) separates the polygons; otherwise records the
    // depth along it when it is the smallest so far.
    bool test(const Vec2& axis) {
        const float len = length(axis);
        if (!(len > 0.0f)) return true;
        Interval ia, ib;
        project(a, na, origin, axis, ia);
        project(b, nb, origin, axis, ib);
        if (ia.hi < ib.lo || ib.hi < ia.lo) return false;
        // Push A along +axis by (ib.hi - ia.lo), or along -axis by (ia.hi - ib.lo).
        const float up = ib.hi - ia.lo;
        const float down = ia.hi - ib.lo;
        const float depth = (up < down ? up : down) / len;
        if (depth < best_depth) {
            best_depth = depth;
            scale(axis, (up < down ? 1.0f : -1.0f) / len, best_axis);
            have_axis = true;
        }
        return true;
    }

    bool testEdgeNormals(const Vec2* points, std::uint32_t count) {
        for (std::uint32_t i = 0; i < count; ++i) {
            Vec2 e, nrm;
            sub(points[i + 1 == count ? 0 : i + 1], points[i], e);
            perp(e, nrm);
            if (!test(nrm)) return false;
        }
        return true;
    }
};

bool allFinite(const Vec2* points, std::uint32_t count) {
    float probe = 0.0f;
    for (std::uint32_t i = 0; i < count; ++i)
        probe += (points[i].x - points[i].x) + (points[i].y - points[i].y);
    return probe == 0.0f;
}

} // namespace

// Separating axis theorem for convex polygons (Gottschalk, Lin & Manocha 1996 in 2D form; Ericson,
// RTCD 4.4 / 5.2.1): two convex sets are disjoint iff their projections on some edge normal of
// either are disjoint, and the smallest overlap over those normals is the penetration depth (the
// normals of A - B's edges). Projections are relative to a[0] so rounding follows the local scale.
bool polygonSat(const Vec2* a, std::uint32_t a_count, const Vec2* b, std::uint32_t b_count,
                PolygonMtv& out_mtv) {
    if (a == nullptr || b == nullptr || a_count == 0 || b_count == 0) return false;
    if (!allFinite(a, a_count) || !allFinite(b, b_count)) return false;
    SatState sat{a, a_count, b, b_count, a[0]};
    if (!sat.testEdgeNormals(a, a_count) || !sat.testEdgeNormals(b, b_count)) return false;
    // When A - B is a segment or a point (both polygons degenerate and parallel), its end normals
    // are not among the edge normals: the perpendicular of the best axis covers them. For
    // full-dimensional pairs it can only report a depth at least the true one.
    // Two single points have no edges at all: start from +x.
    if (!sat.have_axis && !sat.test(Vec2{1.0f, 0.0f})) return false;
    Vec2 extra;
    perp(sat.best_axis, extra);
    if (!sat.test(extra)) return false;
    out_mtv.axis = sat.best_axis;
    out_mtv.depth = sat.best_depth < 0.0f ? 0.0f : sat.best_depth;
    return true;
}

} // namespace flak
