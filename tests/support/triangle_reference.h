// Test oracle for the triangle kernels: double-precision references built from plain distance
// computations (a method independent of the kernels'). The double vectors, the band, seeding and
// the tally are support/oracle.h's (included here, so its D3, d3(), dot(), cross(), len(),
// maxAbs() and bandOf() come with this header).
#pragma once

#include <flak/math/vec3.h>

#include "support/oracle.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

namespace flak::test {

// ---- double helpers ---------------------------------------------------------------------------
inline D3 lerp(const D3& a, const D3& b, double t) { return a + (b - a) * t; }
inline double clamp01(double s) { return s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s); }

struct DTri {
    D3 a, b, c;
};
inline DTri dtri(const Vec3& a, const Vec3& b, const Vec3& c) { return {d3(a), d3(b), d3(c)}; }

// ---- distances ------------------------------------------------------------------------------------
inline D3 closestOnSegment(const D3& p, const D3& a, const D3& b) {
    const D3 e = b - a;
    const double ee = dot(e, e);
    return ee > 0.0 ? lerp(a, b, clamp01(dot(p - a, e) / ee)) : a;
}

// Closest point on a triangle: the plane projection when it falls inside (edge functions against
// the double cross product, which is correctly rounded for float inputs), else the best of the
// three edges. Zero-area triangles: edges only.
inline D3 closestOnTriangle(const D3& p, const DTri& t) {
    const D3 n = cross(t.b - t.a, t.c - t.a);
    const double nn = dot(n, n);
    if (nn > 0.0) {
        const D3 q = p - n * (dot(p - t.a, n) / nn);
        if (dot(n, cross(t.b - t.a, q - t.a)) >= 0.0 && dot(n, cross(t.c - t.b, q - t.b)) >= 0.0 &&
            dot(n, cross(t.a - t.c, q - t.c)) >= 0.0)
            return q;
    }
    const D3 e[3] = {closestOnSegment(p, t.a, t.b), closestOnSegment(p, t.b, t.c),
                     closestOnSegment(p, t.c, t.a)};
    int best = 0;
    for (int i = 1; i < 3; ++i)
        if (dot(p - e[i], p - e[i]) < dot(p - e[best], p - e[best])) best = i;
    return e[best];
}
inline double pointTriangleDistance(const D3& p, const DTri& t) { return len(p - closestOnTriangle(p, t)); }

// Ericson 5.1.9 (closest points of two segments), in double.
inline double segmentSegmentDistance(const D3& p1, const D3& q1, const D3& p2, const D3& q2) {
    const D3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    double s = 0.0, t = 0.0;
    if (a <= 0.0 && e <= 0.0) return len(r);
    if (a <= 0.0) {
        t = clamp01(f / e);
    } else {
        const double c = dot(d1, r);
        if (e <= 0.0) {
            s = clamp01(-c / a);
        } else {
            const double b = dot(d1, d2), den = a * e - b * b;
            s = den > 0.0 ? clamp01((b * f - c * e) / den) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = clamp01(-c / a);
            } else if (t > 1.0) {
                t = 1.0;
                s = clamp01((b - c) / a);
            }
        }
    }
    return len((p1 + d1 * s) - (p2 + d2 * t));
}

// Does segment p0-p1 cross the triangle (plane crossing inside, closed)? Writes the parameter.
inline bool segmentCrossesTriangle(const D3& p0, const D3& p1, const DTri& t, double* out_t = nullptr) {
    const D3 n = cross(t.b - t.a, t.c - t.a);
    if (!(dot(n, n) > 0.0)) return false;
    const double s0 = dot(p0 - t.a, n), s1 = dot(p1 - t.a, n);
    if ((s0 > 0.0 && s1 > 0.0) || (s0 < 0.0 && s1 < 0.0) || s0 == s1) return false;
    const double tt = s0 / (s0 - s1);
    const D3 x = lerp(p0, p1, tt);
    if (dot(n, cross(t.b - t.a, x - t.a)) >= 0.0 && dot(n, cross(t.c - t.b, x - t.b)) >= 0.0 &&
        dot(n, cross(t.a - t.c, x - t.c)) >= 0.0) {
        if (out_t) *out_t = tt;
        return true;
    }
    return false;
}

// Distance between a segment and a triangle (0 when they cross).
inline double segmentTriangleDistance(const D3& p0, const D3& p1, const DTri& t) {
    if (segmentCrossesTriangle(p0, p1, t)) return 0.0;
    double d = std::min(pointTriangleDistance(p0, t), pointTriangleDistance(p1, t));
    d = std::min(d, segmentSegmentDistance(p0, p1, t.a, t.b));
    d = std::min(d, segmentSegmentDistance(p0, p1, t.b, t.c));
    return std::min(d, segmentSegmentDistance(p0, p1, t.c, t.a));
}

// How far segment or triangle must move before a crossing stops: distance from the segment to
// the triangle's edges, and from its ends to the triangle.
inline double segmentHitEventDistance(const D3& p0, const D3& p1, const DTri& t) {
    double d = std::min(pointTriangleDistance(p0, t), pointTriangleDistance(p1, t));
    d = std::min(d, segmentSegmentDistance(p0, p1, t.a, t.b));
    d = std::min(d, segmentSegmentDistance(p0, p1, t.b, t.c));
    return std::min(d, segmentSegmentDistance(p0, p1, t.c, t.a));
}

// Distance between two triangles: every closest pair involves an edge of one of them.
inline double triangleTriangleDistance(const DTri& s, const DTri& t) {
    double d = segmentTriangleDistance(s.a, s.b, t);
    d = std::min(d, segmentTriangleDistance(s.b, s.c, t));
    d = std::min(d, segmentTriangleDistance(s.c, s.a, t));
    d = std::min(d, segmentTriangleDistance(t.a, t.b, s));
    d = std::min(d, segmentTriangleDistance(t.b, t.c, s));
    return std::min(d, segmentTriangleDistance(t.c, t.a, s));
}

// Penetration depth of two intersecting triangles: the smallest overlap of their projections
// over the separating-axis candidates (the facet normals of their Minkowski difference: the two
// face normals and the nine edge cross products). In-plane variant for coplanar pairs: the six
// in-plane edge normals.
inline double projectionOverlap(const DTri& s, const DTri& t, const D3& axis) {
    const double l = len(axis);
    const double a0 = dot(s.a, axis) / l, a1 = dot(s.b, axis) / l, a2 = dot(s.c, axis) / l;
    const double b0 = dot(t.a, axis) / l, b1 = dot(t.b, axis) / l, b2 = dot(t.c, axis) / l;
    const double lo = std::max(std::min(a0, std::min(a1, a2)), std::min(b0, std::min(b1, b2)));
    const double hi = std::min(std::max(a0, std::max(a1, a2)), std::max(b0, std::max(b1, b2)));
    return hi - lo;
}
inline double penetrationDepth3d(const DTri& s, const DTri& t) {
    const D3 es[3] = {s.b - s.a, s.c - s.b, s.a - s.c}, et[3] = {t.b - t.a, t.c - t.b, t.a - t.c};
    D3 axes[11] = {cross(es[0], es[1]), cross(et[0], et[1])};
    int n = 2;
    for (const D3& u : es)
        for (const D3& v : et) axes[n++] = cross(u, v);
    // No axis at all: every edge is parallel (collinear degenerate pair), the difference has no
    // interior and an infinitesimal move separates them.
    double depth = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i)
        if (dot(axes[i], axes[i]) > 0.0) depth = std::min(depth, projectionOverlap(s, t, axes[i]));
    return depth == std::numeric_limits<double>::infinity() ? 0.0 : std::max(depth, 0.0);
}
inline double penetrationDepth2d(const DTri& s, const DTri& t) {
    D3 n = cross(s.b - s.a, s.c - s.a);
    if (!(dot(n, n) > 0.0)) n = cross(t.b - t.a, t.c - t.a);
    const D3 e[6] = {s.b - s.a, s.c - s.b, s.a - s.c, t.b - t.a, t.c - t.b, t.a - t.c};
    double depth = std::numeric_limits<double>::infinity();
    for (const D3& v : e) {
        const D3 axis = cross(n, v);
        if (dot(axis, axis) > 0.0) depth = std::min(depth, projectionOverlap(s, t, axis));
    }
    return depth == std::numeric_limits<double>::infinity() ? 0.0 : std::max(depth, 0.0);
}

// ---- output rounding -------------------------------------------------------------------------------
// Rounding of a float output coordinate of magnitude m: half an ulp of each of 3 components.
inline double outputRounding(const D3& p) { return 1.0 * static_cast<double>(FLT_EPSILON) * maxAbs(p); }

} // namespace flak::test
