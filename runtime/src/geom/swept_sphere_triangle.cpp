#include <flak/geom/swept_sphere_triangle.h>

#include <flak/geom/triangle_normal.h>

#include "geom/triangle_local.h"

#include <cmath>

namespace flak {
namespace {

// The earliest feature contact found so far, in the triangle's local frame (origin a).
struct Candidate {
    float t = 2.0f; // > 1: none yet
    Vec3 point;
    float u = 0.0f;
    float v = 0.0f;
};

// Entry time of the moving point m + t d (relative to a vertex, or to an edge axis with the axis
// direction projected out of m and d) into the ball |x| <= r. Not the textbook root of
// |m + t d|^2 = r^2: its coefficient |m|^2 - r^2 carries an absolute error eps |m|^2, which at the
// root means a distance error eps |m|^2 / r (a small sphere far from the feature would touch
// early or late by many bands). Instead, around the time of closest approach t* = -m.d / d.d
// with closest distance rho = |m x d| / |d|: t = t* - sqrt((r - rho)(r + rho)) / |d|, whose
// distance error is ~eps |m|. A point already inside gives t = 0.
bool entryTime(const Vec3& m, const Vec3& d, float r, float& out_t) {
    if (dot(m, m) <= r * r) {
        out_t = 0.0f;
        return true;
    }
    const float dd = dot(d, d);
    const float md = dot(m, d);
    if (!(dd > 0.0f) || !(md < 0.0f)) return false; // not moving, or moving away
    Vec3 c;
    cross(m, d, c);
    const float rho = std::sqrt(dot(c, c) / dd);
    if (!(rho <= r)) return false;
    const float t = -md / dd - std::sqrt((r - rho) * (r + rho) / dd);
    out_t = t > 0.0f ? t : 0.0f;
    return true;
}

// Vertex v as a sphere of radius r.
void vertexContact(const Vec3& p0, const Vec3& d, float r, const Vec3& v, float u, float w, Candidate& best) {
    Vec3 m;
    sub(p0, v, m);
    float t = 0.0f;
    if (!entryTime(m, d, r, t) || !(t < best.t)) return;
    best.t = t;
    best.point = v;
    best.u = u;
    best.v = w;
}

// Edge v0 + s e (s in [0, 1]) as a cylinder of radius r: the motion with the edge direction
// projected out; a contact counts only if its foot lies on the edge, else an end sphere takes it.
void edgeContact(const Vec3& p0, const Vec3& d, float r, const Vec3& v0, const Vec3& e, float u0, float w0,
                 float u1, float w1, Candidate& best) {
    const float ee = dot(e, e);
    if (!(ee > 0.0f)) return;
    Vec3 m, mp, dp;
    sub(p0, v0, m);
    const float md = dot(m, e), dd = dot(d, e);
    addScaled(m, e, -(md / ee), mp);
    addScaled(d, e, -(dd / ee), dp);
    float t = 0.0f;
    if (!entryTime(mp, dp, r, t) || !(t < best.t)) return;
    const float s = (md + t * dd) / ee;
    if (!(s >= 0.0f && s <= 1.0f)) return;
    best.t = t;
    addScaled(v0, e, s, best.point);
    best.u = u0 + (u1 - u0) * s;
    best.v = w0 + (w1 - w0) * s;
}

// Twice the signed area of (from, from + edge, p) seen along the unit normal n.
float edgeFunction(const Vec3& n, const Vec3& from, const Vec3& edge, const Vec3& p) {
    Vec3 fp, c;
    sub(p, from, fp);
    cross(edge, fp, c);
    return dot(n, c);
}

// The normal when the centre sits on the triangle: face normal (or the zero-area stand-in)
// turned against the motion d.
void onTriangleNormal(const Vec3& n, bool has_area, const Vec3& ab, const Vec3& ac, const Vec3& d,
                      Vec3& out) {
    if (has_area)
        out = n;
    else
        detail::degenerateTriangleNormal(ab, ac, out);
    if (dot(out, d) > 0.0f) negate(out, out);
}

} // namespace

// Ericson, Real-Time Collision Detection 5.5.7 (moving sphere vs triangle), done feature by
// feature so that it is exact rather than the book's "closest point then reverse ray" shortcut:
// 1. distance at t = 0 (closest point, 5.1.5): overlap gives t = 0;
// 2. the face: the time the sphere reaches the plane, if the contact point lies inside;
// 3. otherwise the earliest of the three edge cylinders (foot on the edge) and three vertex
//    spheres (Minkowski sum of the triangle's boundary and the ball).
// All in the frame of vertex a; the plane uses the double-accurate unit normal, so slivers keep
// their plane.
bool sweptSphereTriangle(const Vec3& c0, const Vec3& c1, float radius, const Vec3& a, const Vec3& b,
                         const Vec3& c, RayHit& out_hit) {
    if (!isFinite(c0) || !isFinite(c1) || !std::isfinite(radius) || !(radius >= 0.0f) ||
        !detail::isFiniteTriangle(a, b, c))
        return false;
    Vec3 ab, ac, p0, p1, d, n;
    sub(b, a, ab);
    sub(c, a, ac);
    sub(c0, a, p0);
    sub(c1, a, p1);
    // Far from unit scale the fourth powers below (entryTime's |m x d|^2) would underflow or
    // overflow: the local frame is rescaled by a power of two, and the point scaled back.
    float r = radius;
    const float unit = detail::unitScaleFactor(
        detail::maxOf(detail::maxOf(detail::maxOf(detail::maxAbs(ab), detail::maxAbs(ac)),
                                    detail::maxOf(detail::maxAbs(p0), detail::maxAbs(p1))),
                      r));
    if (unit != 1.0f) {
        scale(ab, unit, ab);
        scale(ac, unit, ac);
        scale(p0, unit, p0);
        scale(p1, unit, p1);
        r *= unit;
    }
    sub(p1, p0, d);
    const bool has_area = computeTriangleNormal(a, b, c, n);
    const float rr = r * r;

    // The whole sweep stays beyond r on one side of the plane: nothing to touch.
    const float s0 = dot(p0, n), s1 = dot(p1, n);
    if (has_area && ((s0 > r && s1 > r) || (s0 < -r && s1 < -r))) return false;

    Vec3 q;
    float u = 0.0f, v = 0.0f;
    detail::LazyNormal normal(a, b, c, n, has_area);
    const bool in_face = detail::closestPointLocal(p0, ab, ac, normal, q, u, v);
    Vec3 gap;
    sub(p0, q, gap);
    if (lengthSq(gap) <= rr) {
        out_hit.t = 0.0f;
        out_hit.u = u;
        out_hit.v = v;
        addScaled(a, q, 1.0f / unit, out_hit.point);
        if (in_face && s0 != 0.0f) // the gap is along n: n itself on c0's side
            scale(n, s0 < 0.0f ? -1.0f : 1.0f, out_hit.normal);
        else if (in_face || !detail::normalizeAccurate(gap, out_hit.normal))
            onTriangleNormal(n, has_area, ab, ac, d, out_hit.normal);
        return true;
    }

    if (has_area && (s0 > r || s0 < -r)) {
        const float side = s0 > 0.0f ? 1.0f : -1.0f;
        const float dist = side * s0 - r;        // > 0: gap to the plane at t = 0
        const float approach = side * (s0 - s1); // how far the motion closes it by t = 1
        if (approach > 0.0f && dist <= approach) {
            const float t = dist / approach;
            Vec3 centre, contact, bc;
            addScaled(p0, d, t, centre);
            addScaled(centre, n, -side * r, contact);
            sub(ac, ab, bc);
            const Vec3 zero;
            Vec3 ca;
            negate(ac, ca);
            const float vc = edgeFunction(n, zero, ab, contact);
            const float va = edgeFunction(n, ab, bc, contact);
            const float vb = edgeFunction(n, ac, ca, contact);
            // The sum is twice the area, the longest edge times the height. A sliver whose height
            // is below 2^-20 of its longest edge (far inside the band) is decided by its edges
            // and vertices instead: its edge functions' terms with the height round away or
            // underflow, so a point on its line beyond its ends could pass as inside.
            const float sum = va + vb + vc;
            const float longest_sq = detail::maxOf(detail::maxOf(lengthSq(ab), lengthSq(ac)), lengthSq(bc));
            if (va >= 0.0f && vb >= 0.0f && vc >= 0.0f && sum > 0x1p-20f * longest_sq) {
                out_hit.t = t;
                out_hit.u = vb / sum;
                out_hit.v = vc / sum;
                addScaled(a, contact, 1.0f / unit, out_hit.point);
                scale(n, side, out_hit.normal);
                return true;
            }
        }
    }

    Candidate best;
    const Vec3 zero;
    Vec3 bc;
    sub(ac, ab, bc);
    Vec3 ca;
    negate(ac, ca);
    edgeContact(p0, d, r, zero, ab, 0.0f, 0.0f, 1.0f, 0.0f, best);
    edgeContact(p0, d, r, ab, bc, 1.0f, 0.0f, 0.0f, 1.0f, best);
    edgeContact(p0, d, r, ac, ca, 0.0f, 1.0f, 0.0f, 0.0f, best);
    vertexContact(p0, d, r, zero, 0.0f, 0.0f, best);
    vertexContact(p0, d, r, ab, 1.0f, 0.0f, best);
    vertexContact(p0, d, r, ac, 0.0f, 1.0f, best);
    if (!(best.t <= 1.0f)) return false;

    Vec3 centre, to_centre;
    addScaled(p0, d, best.t, centre);
    sub(centre, best.point, to_centre);
    out_hit.t = best.t;
    out_hit.u = best.u;
    out_hit.v = best.v;
    addScaled(a, best.point, 1.0f / unit, out_hit.point);
    // Radius 0: the centre is on the edge or vertex, and to_centre only the rounding of the two
    // points (any direction at all): the face normal, as the header says.
    if (r == 0.0f || !detail::normalizeAccurate(to_centre, out_hit.normal))
        onTriangleNormal(n, has_area, ab, ac, d, out_hit.normal);
    return true;
}

} // namespace flak
