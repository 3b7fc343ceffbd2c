#include <flak/geom/segment_triangle.h>

#include <flak/assert.h>
#include <flak/geom/triangle_normal.h>
#include <flak/math/simd.h>

#include "geom/triangle_local.h"

#include <cfloat>
#include <cmath>

namespace flak {
namespace {

struct D3 {
    double x, y, z;
};
D3 toD(const Vec3& v) { return {v.x, v.y, v.z}; }
D3 dsub(const D3& a, const D3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double ddot(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 dcross(const D3& a, const D3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// Closest approach of the line t * d (through the origin) and the segment p + s * e, s in [0, 1]:
// writes t, s and returns the squared distance.
double lineSegmentApproach(const D3& d, const D3& p, const D3& e, double& out_t, double& out_s) {
    const double dd = ddot(d, d), de = ddot(d, e), ee = ddot(e, e), dp = ddot(d, p), ep = ddot(e, p);
    const double den = dd * ee - de * de;
    double s = den > 0.0 ? (de * dp - dd * ep) / den : 0.0;
    s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    const double t = (dp + s * de) / dd;
    const D3 gap = {d.x * t - p.x - e.x * s, d.y * t - p.y - e.y * s, d.z * t - p.z - e.z * s};
    out_t = t;
    out_s = s;
    return ddot(gap, gap);
}

// A candidate that the float test let through, settled in double relative to the origin o: the
// crossing of the line o + t dir with the plane, t in [0, t_max], and (for the Moller-Trumbore
// path, `require_inside`) the crossing inside the closed triangle. Differences and products of
// float inputs are exact in double, so the plane, t and the edge functions carry only a couple of
// roundings of 2^-53: the hit data are exact to float precision even on needles, caps and
// grazing rays. The watertight path keeps its float decision (it must, to stay watertight); when
// rounding accepted a line that in double passes just outside (or a zero-area triangle), t is
// taken where the line comes closest to the triangle's boundary, which is what the float test saw.
bool settleInDouble(const Vec3& o, const Vec3& dir, float t_max, const Vec3& a, const Vec3& b, const Vec3& c,
                    bool require_inside, RayHit& out_hit) {
    const D3 O = toD(o), A = dsub(toD(a), O), B = dsub(toD(b), O), C = dsub(toD(c), O), d = toD(dir);
    const D3 ab = dsub(B, A), bc = dsub(C, B), ca = dsub(A, C);
    const D3 n = dcross(ab, dsub(C, A));
    const double nn = ddot(n, n), sd = ddot(n, d);
    double t = 0.0, wa = -1.0, wb = -1.0, wc = -1.0;
    if (nn > 0.0 && sd != 0.0) {
        t = ddot(n, A) / sd;
        const D3 x = {d.x * t, d.y * t, d.z * t};
        wa = ddot(n, dcross(bc, dsub(x, B)));
        wb = ddot(n, dcross(ca, dsub(x, C)));
        wc = ddot(n, dcross(ab, dsub(x, A)));
    }
    if (!(wa >= 0.0 && wb >= 0.0 && wc >= 0.0 && wa + wb + wc > 0.0)) {
        if (require_inside) return false;
        double ts[3], ss[3];
        const double d0 = lineSegmentApproach(d, A, ab, ts[0], ss[0]);
        const double d1 = lineSegmentApproach(d, B, bc, ts[1], ss[1]);
        const double d2 = lineSegmentApproach(d, C, ca, ts[2], ss[2]);
        const int e = d0 <= d1 ? (d0 <= d2 ? 0 : 2) : (d1 <= d2 ? 1 : 2);
        t = ts[e];
        const double sv = ss[e];
        wa = e == 0 ? 1.0 - sv : (e == 2 ? sv : 0.0);
        wb = e == 0 ? sv : (e == 1 ? 1.0 - sv : 0.0);
        wc = e == 1 ? sv : (e == 2 ? 1.0 - sv : 0.0);
    }
    if (!(t >= 0.0 && t <= static_cast<double>(t_max))) return false;
    const double sum = wa + wb + wc;
    out_hit.t = static_cast<float>(t);
    out_hit.u = static_cast<float>(wb / sum);
    out_hit.v = static_cast<float>(wc / sum);
    set(static_cast<float>(O.x + d.x * t), static_cast<float>(O.y + d.y * t),
        static_cast<float>(O.z + d.z * t), out_hit.point);
    if (nn > 0.0) {
        const double scale = (sd > 0.0 ? -1.0 : 1.0) / std::sqrt(nn);
        set(static_cast<float>(n.x * scale), static_cast<float>(n.y * scale), static_cast<float>(n.z * scale),
            out_hit.normal);
    } else { // zero area: the documented stand-in, turned against the ray
        Vec3 fab, fac;
        sub(b, a, fab);
        sub(c, a, fac);
        detail::degenerateTriangleNormal(fab, fac, out_hit.normal);
        if (dot(out_hit.normal, dir) > 0.0f) negate(out_hit.normal, out_hit.normal);
    }
    return true;
}

} // namespace

// Moller, Trumbore 1997, "Fast, Minimum Storage Ray/Triangle Intersection": the line test, two-
// sided and division-free (det carries the sign). Two changes for accuracy:
// - the vertices are rotated so that the implicit edge (the u + v <= det test, whose value is a
//   difference of the others) is the longest one: on a needle the short edge would otherwise be
//   tested with an error of eps * |p0 - a| * longest / shortest;
// - MT's t-range test and its outputs t = T/det, u, v are not used: on grazing segments t is
//   inconsistent with u, v (a segment ending a rounding error from the plane could "hit" at a
//   point far from the triangle), and on caps det cancels. Candidates that pass the line test,
//   typically a small share of the calls, are settled exactly in double (settleInDouble).
bool segmentTriangle(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b, const Vec3& c,
                     RayHit& out_hit) {
    Vec3 ab, bc, ca, delta, from_a;
    sub(b, a, ab);
    sub(c, b, bc);
    sub(a, c, ca);
    sub(p1, p0, delta); // as given, for settleInDouble
    sub(p0, a, from_a);
    // Far from unit scale det (a triple product) would underflow or overflow: the edges, the
    // direction and p0's offset are rescaled by a power of two (the signs below do not change,
    // and settleInDouble takes the inputs as given).
    const float unit = detail::unitScaleFactor(detail::maxOf(
        detail::maxOf(detail::maxOf(detail::maxAbs(ab), detail::maxAbs(ca)), detail::maxAbs(delta)),
        detail::maxAbs(from_a)));
    Vec3 dir = delta;
    if (unit != 1.0f) {
        scale(ab, unit, ab);
        scale(bc, unit, bc);
        scale(ca, unit, ca);
        scale(delta, unit, dir);
    }
    const float lab = lengthSq(ab), lbc = lengthSq(bc), lca = lengthSq(ca);
    const Vec3* v0 = &a;
    Vec3 e1 = ab, e2; // e2 = v2 - v0
    negate(ca, e2);
    if (!(lbc >= lab && lbc >= lca)) {
        if (lca >= lab) { // ca longest: start at b
            v0 = &b;
            e1 = bc;
            negate(ab, e2);
        } else { // ab longest: start at c
            v0 = &c;
            e1 = ca;
            negate(bc, e2);
        }
    }
    Vec3 pvec, tvec, qvec;
    cross(dir, e2, pvec);
    const float det = dot(e1, pvec);
    if (det == 0.0f) return false;
    sub(p0, *v0, tvec);
    if (unit != 1.0f) scale(tvec, unit, tvec);
    const float u = dot(tvec, pvec);
    if (det > 0.0f ? (u < 0.0f || u > det) : (u > 0.0f || u < det)) return false;
    cross(tvec, e1, qvec);
    const float v = dot(dir, qvec);
    const float uv = u + v;
    if (det > 0.0f ? (v < 0.0f || uv > det) : (v > 0.0f || uv < det)) return false;
    // NaN slips through every comparison above; only a candidate pays for the check.
    if (!isFinite(p0) || !isFinite(p1) || !detail::isFiniteTriangle(a, b, c)) return false;
    return settleInDouble(p0, delta, 1.0f, a, b, c, true, out_hit);
}

bool makeWatertightRay(const Vec3& origin, const Vec3& dir, float t_max, WatertightRay& out_ray) {
    out_ray = WatertightRay{};
    if (!isFinite(origin) || !isFinite(dir) || !std::isfinite(t_max) || !(t_max >= 0.0f)) return false;
    // The largest direction component becomes z; x, y follow cyclically and swap when dir[kz] < 0
    // so the triangle winding (front/back) is preserved (Woop et al., section 3).
    const int kz = largestAxis(dir);
    if (dir[kz] == 0.0f) return false;
    int kx = kz + 1 == 3 ? 0 : kz + 1;
    int ky = kx + 1 == 3 ? 0 : kx + 1;
    if (dir[kz] < 0.0f) {
        const int tmp = kx;
        kx = ky;
        ky = tmp;
    }
    out_ray.origin = origin;
    out_ray.dir = dir;
    out_ray.kx = kx;
    out_ray.ky = ky;
    out_ray.kz = kz;
    out_ray.shear_x = dir[kx] / dir[kz];
    out_ray.shear_y = dir[ky] / dir[kz];
    out_ray.shear_z = 1.0f / dir[kz];
    out_ray.t_max = t_max;
    return true;
}

namespace {

// Sign-exact 2D edge function q x p = qx py - qy px in double: the products of two floats are
// exact in double, so the one rounding of the difference cannot change its sign.
float exactEdge(float qx, float qy, float px, float py) {
    const double d =
        static_cast<double>(qx) * static_cast<double>(py) - static_cast<double>(qy) * static_cast<double>(px);
    const float f = static_cast<float>(d);
    if (f == 0.0f && d != 0.0) return d > 0.0 ? FLT_TRUE_MIN : -FLT_TRUE_MIN; // keep the sign
    return f;
}

} // namespace

// Woop, Benthin, Wald 2013, "Watertight Ray/Triangle Intersection" (JCGT 2(1)): translate the
// vertices to the ray origin, shear so the ray is the +z axis, and decide with the 2D edge
// functions U, V, W of the sheared vertices. fl(x*y) is monotone, so a float edge function is
// never of the wrong sign, only sometimes 0 where the exact value is not; those are recomputed in
// double. Since every triangle sharing a vertex transforms it identically, a ray through a shared
// edge or vertex is accepted by at least one of the triangles.
// The decision is the paper's. Its t = T / det is not used: with the absolute error
// eps * |b| * |c| of U, V, W the weights, hence t, are wrong on needles and caps, and a t off by a
// rounding on a grazing ray moves the hit far along the ray. The (few) accepted triangles get t,
// the t-range test and the hit data from settleInDouble instead; the watertight decision stands.
bool rayTriangleWatertight(const WatertightRay& ray, const Vec3& a, const Vec3& b, const Vec3& c,
                           RayHit& out_hit) {
    Vec3 A, B, C;
    sub(a, ray.origin, A);
    sub(b, ray.origin, B);
    sub(c, ray.origin, C);
    const int kx = ray.kx, ky = ray.ky, kz = ray.kz;
    const float sx = ray.shear_x, sy = ray.shear_y;
    const float ax = A[kx] - sx * A[kz], ay = A[ky] - sy * A[kz];
    const float bx = B[kx] - sx * B[kz], by = B[ky] - sy * B[kz];
    const float cx = C[kx] - sx * C[kz], cy = C[ky] - sy * C[kz];
    float U = cx * by - cy * bx;
    float V = ax * cy - ay * cx;
    float W = bx * ay - by * ax;
    if (U == 0.0f || V == 0.0f || W == 0.0f) {
        U = exactEdge(cx, cy, bx, by);
        V = exactEdge(ax, ay, cx, cy);
        W = exactEdge(bx, by, ax, ay);
    }
    // Vertices some 1.8e19 or more from the ray's origin: the sheared products overflow, and
    // inf - inf is a NaN that no sign test below would refuse.
    if (!std::isfinite(U) || !std::isfinite(V) || !std::isfinite(W)) return false;
    if ((U < 0.0f || V < 0.0f || W < 0.0f) && (U > 0.0f || V > 0.0f || W > 0.0f)) return false;
    const float det = U + V + W;
    if (det == 0.0f) return false;

    if (!detail::isFiniteTriangle(a, b, c)) return false;
    return settleInDouble(ray.origin, ray.dir, ray.t_max, a, b, c, false, out_hit);
}

void setTriangleLane(int lane, const Vec3& a, const Vec3& b, const Vec3& c, TriangleLanes& inout) {
    FLAK_ASSERT(lane >= 0 && lane < 4, "triangle lane out of range");
    if (lane < 0 || lane >= 4) return;
    const Vec3* v[3] = {&a, &b, &c};
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) inout.v[i][k][lane] = (*v[i])[k];
}

unsigned watertightCandidates(const WatertightRay& ray, const TriangleLanes& tris, unsigned lanes) {
    // rayTriangleWatertight's float steps, lane by lane: A = a - origin; ax = A[kx] - sx * A[kz],
    // ay = A[ky] - sy * A[kz]; likewise b, c; then U, V, W.
    F4 sx, sy, ox, oy, oz, zero;
    f4Splat(ray.shear_x, sx);
    f4Splat(ray.shear_y, sy);
    f4Splat(ray.origin[ray.kx], ox);
    f4Splat(ray.origin[ray.ky], oy);
    f4Splat(ray.origin[ray.kz], oz);
    f4Splat(0.0f, zero);
    F4 x[3], y[3];
    for (int i = 0; i < 3; ++i) {
        F4 px, py, pz, t;
        f4Load(tris.v[i][ray.kx], px);
        f4Load(tris.v[i][ray.ky], py);
        f4Load(tris.v[i][ray.kz], pz);
        f4Sub(px, ox, px);
        f4Sub(py, oy, py);
        f4Sub(pz, oz, pz);
        f4Mul(sx, pz, t);
        f4Sub(px, t, x[i]);
        f4Mul(sy, pz, t);
        f4Sub(py, t, y[i]);
    }
    F4 e[3], l, r; // U = cx by - cy bx, V = ax cy - ay cx, W = bx ay - by ax
    const int first[3] = {2, 0, 1}, second[3] = {1, 2, 0};
    for (int j = 0; j < 3; ++j) {
        f4Mul(x[first[j]], y[second[j]], l);
        f4Mul(y[first[j]], x[second[j]], r);
        f4Sub(l, r, e[j]);
    }
    const unsigned negative = f4LessMask(e[0], zero) | f4LessMask(e[1], zero) | f4LessMask(e[2], zero);
    const unsigned positive = f4LessMask(zero, e[0]) | f4LessMask(zero, e[1]) | f4LessMask(zero, e[2]);
    return lanes & ~(negative & positive) & 0xFu;
}

bool segmentTriangleWatertight(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b, const Vec3& c,
                               RayHit& out_hit) {
    Vec3 dir;
    sub(p1, p0, dir);
    WatertightRay ray;
    if (!makeWatertightRay(p0, dir, 1.0f, ray)) return false;
    return rayTriangleWatertight(ray, a, b, c, out_hit);
}

} // namespace flak
