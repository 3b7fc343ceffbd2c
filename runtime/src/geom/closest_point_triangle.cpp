#include <flak/geom/closest_point_triangle.h>

#include <flak/geom/triangle_normal.h>

#include "geom/triangle_local.h"

namespace flak {
namespace detail {
namespace {

// Closest point on segment s0 + s * e (s in [0, 1]) to p; returns the squared distance.
float closestOnSegment(const Vec3& p, const Vec3& s0, const Vec3& e, Vec3& out_q, float& out_s) {
    Vec3 d;
    sub(p, s0, d);
    const float ee = dot(e, e);
    float s = 0.0f;
    if (ee > 0.0f) {
        s = dot(d, e) / ee;
        s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
    }
    addScaled(s0, e, s, out_q);
    out_s = s;
    return distanceSq(p, out_q);
}

// Zero-area triangle: rule 5 of tolerance.h, it behaves as the union of its three edges.
void closestOnEdges(const Vec3& ap, const Vec3& ab, const Vec3& ac, Vec3& out_q, float& out_u, float& out_v) {
    const Vec3 zero;
    Vec3 bc, q;
    sub(ac, ab, bc);
    float s = 0.0f;
    float best = closestOnSegment(ap, zero, ab, out_q, s);
    out_u = s;
    out_v = 0.0f;
    float d = closestOnSegment(ap, zero, ac, q, s);
    if (d < best) {
        best = d;
        out_q = q;
        out_u = 0.0f;
        out_v = s;
    }
    d = closestOnSegment(ap, ab, bc, q, s);
    if (d < best) {
        out_q = q;
        out_u = 1.0f - s;
        out_v = s;
    }
}

// Twice the signed area of (from, from + edge, p) projected along the unit normal n: the edge
// function, positive on the inner side of a counter-clockwise edge.
float edgeFunction(const Vec3& n, const Vec3& edge, const Vec3& to_p) {
    Vec3 c;
    cross(edge, to_p, c);
    return dot(n, c);
}

} // namespace

// Ericson, Real-Time Collision Detection 5.1.5 (ClosestPtPointTriangle): classify p into the
// Voronoi regions of the vertices, edges and face with the dot products d1..d6. Ericson forms the
// three face-region tests va, vb, vc as differences of products of those dot products; on a
// sliver that cancels catastrophically (relative error ~ eps * longest edge / height), so here
// they are the edge functions against the double-accurate unit normal instead (same value up to
// the factor |n|, error ~ eps * |p - a|). For the same reason the face point is p projected onto
// the plane, not a + ab * v + ac * w.
bool closestPointLocal(const Vec3& ap, const Vec3& ab, const Vec3& ac, LazyNormal& normal, Vec3& out_q,
                       float& out_u, float& out_v) {
    // The vertex regions are half-space tests that hold for any triangle, zero-area ones too.
    const float d1 = dot(ab, ap);
    const float d2 = dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) { // vertex a
        set(0.0f, 0.0f, 0.0f, out_q);
        out_u = 0.0f;
        out_v = 0.0f;
        return false;
    }
    Vec3 bp;
    sub(ap, ab, bp);
    const float d3 = dot(ab, bp);
    const float d4 = dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) { // vertex b
        out_q = ab;
        out_u = 1.0f;
        out_v = 0.0f;
        return false;
    }
    Vec3 cp;
    sub(ap, ac, cp);
    const float d5 = dot(ab, cp);
    const float d6 = dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) { // vertex c
        out_q = ac;
        out_u = 0.0f;
        out_v = 1.0f;
        return false;
    }
    normal.compute();
    if (!normal.has_area) {
        closestOnEdges(ap, ab, ac, out_q, out_u, out_v);
        return false;
    }
    const Vec3& n = normal.n;
    const float vc = edgeFunction(n, ab, ap);
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) { // edge ab
        const float den = d1 - d3;
        const float s = den > 0.0f ? d1 / den : 0.0f;
        scale(ab, s, out_q);
        out_u = s;
        out_v = 0.0f;
        return false;
    }
    Vec3 ca;
    negate(ac, ca);
    const float vb = edgeFunction(n, ca, cp);
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) { // edge ac
        const float den = d2 - d6;
        const float s = den > 0.0f ? d2 / den : 0.0f;
        scale(ac, s, out_q);
        out_u = 0.0f;
        out_v = s;
        return false;
    }
    Vec3 bc;
    sub(ac, ab, bc);
    const float va = edgeFunction(n, bc, bp);
    const float e4 = d4 - d3;
    const float e5 = d5 - d6;
    if (va <= 0.0f && e4 >= 0.0f && e5 >= 0.0f) { // edge bc
        const float den = e4 + e5;
        const float s = den > 0.0f ? e4 / den : 0.0f;
        addScaled(ab, bc, s, out_q);
        out_u = 1.0f - s;
        out_v = s;
        return false;
    }
    // Face region: project onto the plane. Rounding can leave one edge function slightly
    // negative here; clamp the weights so the barycentrics stay a convex combination.
    addScaled(ap, n, -dot(ap, n), out_q);
    const float wa = va > 0.0f ? va : 0.0f;
    const float wb = vb > 0.0f ? vb : 0.0f;
    const float wc = vc > 0.0f ? vc : 0.0f;
    const float sum = wa + wb + wc;
    if (sum > 0.0f) {
        out_u = wb / sum;
        out_v = wc / sum;
    } else {
        out_u = 1.0f / 3.0f;
        out_v = 1.0f / 3.0f;
    }
    return true;
}

void LazyNormal::compute() {
    if (computed) return;
    has_area = computeTriangleNormal(*a, *b, *c, n);
    computed = true;
}

void degenerateTriangleNormal(const Vec3& ab, const Vec3& ac, Vec3& out_normal) {
    Vec3 bc;
    sub(ac, ab, bc);
    Vec3 e = ab;
    if (lengthSq(ac) > lengthSq(e)) e = ac;
    if (lengthSq(bc) > lengthSq(e)) e = bc;
    if (!(lengthSq(e) > 0.0f)) {
        set(1.0f, 0.0f, 0.0f, out_normal);
        return;
    }
    Vec3 axis;
    const float ax = std::fabs(e.x), ay = std::fabs(e.y), az = std::fabs(e.z);
    if (ax <= ay && ax <= az)
        set(1.0f, 0.0f, 0.0f, axis);
    else if (ay <= az)
        set(0.0f, 1.0f, 0.0f, axis);
    else
        set(0.0f, 0.0f, 1.0f, axis);
    Vec3 n;
    cross(e, axis, n);
    if (!normalize(n, out_normal)) set(1.0f, 0.0f, 0.0f, out_normal);
}

} // namespace detail

bool closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Vec3& out_point,
                            float& out_u, float& out_v) {
    if (!isFinite(p) || !detail::isFiniteTriangle(a, b, c)) {
        out_point = p;
        out_u = 0.0f;
        out_v = 0.0f;
        return false;
    }
    Vec3 ab, ac, ap, q;
    sub(b, a, ab);
    sub(c, a, ac);
    sub(p, a, ap);
    detail::LazyNormal normal(a, b, c);
    normal.compute(); // now: its double sqrt overlaps the vertex-region tests (measured faster)
    detail::closestPointLocal(ap, ab, ac, normal, q, out_u, out_v);
    add(a, q, out_point);
    return true;
}

} // namespace flak
