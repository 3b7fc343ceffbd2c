// flak — triangle vs triangle, the scalar kernel (Guigue & Devillers 2003): the canonical form
// and its two orientation determinants, the coplanar 2D test, zero-area triangles, and the plane
// sides of ill-conditioned triangles in double. Every back-end ends in these paths for its rare
// pairs; without SSE2 (FLAK_SIMD=none, or no x86) the whole test and finishBatch run here.
#include "geom/tri_tri_impl.h"

#include <flak/geom/segment_triangle.h>

#include "geom/exact_orient.h"
#include "geom/triangle_local.h"

#include <cfloat>
#include <cmath>
#include <limits>

namespace flak::detail {
namespace {

bool isZero(const Vec3& v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }

bool allPositive(float a, float b, float c) { return a > 0.0f && b > 0.0f && c > 0.0f; }
bool allNegative(float a, float b, float c) { return a < 0.0f && b < 0.0f && c < 0.0f; }

// Double vectors for the plane sides of ill-conditioned triangles.
struct D3 {
    double x, y, z;
};
D3 toLocal(const Vec3& v, const Vec3& o) {
    return {static_cast<double>(v.x) - o.x, static_cast<double>(v.y) - o.y, static_cast<double>(v.z) - o.z};
}
D3 dsub(const D3& a, const D3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double ddot(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 dcross(const D3& a, const D3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// Guigue & Devillers 2003.
// After the two plane-side tests, both triangles are permuted into a canonical form in which p1
// (resp. p2) is alone on its side of the other's plane; the triangles then overlap iff the two
// segments in which they cut the line L = plane1 ^ plane2 overlap, which reduces to the signs of
// two orientation determinants [p1, q1, p2, q2] <= 0 and [p1, r1, r2, p2] <= 0 (CHECK_MIN_MAX).
// The "dp * dq > 0" products of the original code are written as sign tests: the products
// underflow for small triangles and overflow for large ones.

// Both orientation determinants are always evaluated (no early out): which one decides is a coin
// toss on real inputs, and a mispredicted branch costs more than the second determinant.
bool checkMinMax(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                 const Vec3& r2) {
    Vec3 v1, v2, n;
    sub(p2, q1, v1);
    sub(p1, q1, v2);
    cross(v1, v2, n);
    sub(q2, q1, v1);
    const float s1 = dot(v1, n);
    sub(p2, p1, v1);
    sub(r1, p1, v2);
    cross(v1, v2, n);
    sub(r2, p1, v1);
    const float s2 = dot(v1, n);
    return !(s1 > 0.0f) & !(s2 > 0.0f);
}

struct CanonTable {
    Canon entry[64];
};
constexpr CanonTable makeCanonTable() {
    CanonTable t{};
    for (int i = 0; i < 64; ++i) t.entry[i] = canonOf(i >> 4, (i >> 2) & 3, i & 3);
    return t;
}
constexpr CanonTable kCanon = makeCanonTable();

int signOf(float d) {
    return static_cast<int>(d > 0.0f) | (static_cast<int>(d < 0.0f) << 1) | (static_cast<int>(d != d) * kNaN);
}

Overlap crossing(bool overlap) { return overlap ? Overlap::Crossing : Overlap::Disjoint; }

// The canonical form of both triangles from the classes (signOf) of their plane sides: triangle
// 1's lead vertex and the other two in order into out1, triangle 2's into out2, as CHECK_MIN_MAX
// takes them. False when either triangle lies in the other's plane (all three sides zero).
// Indices and pointers are selected, not branched on.
bool canonicalOrder(const Vec3* const t1[3], const Vec3* const t2[3], int sp1, int sq1, int sr1, int sp2,
                    int sq2, int sr2, const Vec3* out1[3], const Vec3* out2[3]) {
    static constexpr unsigned char kNext[5] = {0, 1, 2, 0, 1};
    const Canon c1 = kCanon.entry[sp1 << 4 | sq1 << 2 | sr1];
    if (c1.rot == kCoplanar) return false;
    // Triangle 2 with q2 and r2 swapped when triangle 1's form asks for it.
    const Canon c2 = kCanon.entry[sp2 << 4 | (c1.flip ? sr2 : sq2) << 2 | (c1.flip ? sq2 : sr2)];
    if (c2.rot == kCoplanar) return false;
    const Vec3* u2[3] = {t2[0], c1.flip ? t2[2] : t2[1], c1.flip ? t2[1] : t2[2]};
    const Vec3* b = t1[kNext[c1.rot + 1]];
    const Vec3* c = t1[kNext[c1.rot + 2]];
    out1[0] = t1[c1.rot];
    out1[1] = c2.flip ? c : b;
    out1[2] = c2.flip ? b : c;
    out2[0] = u2[c2.rot];
    out2[1] = u2[kNext[c2.rot + 1]];
    out2[2] = u2[kNext[c2.rot + 2]];
    return true;
}

// Both canonical permutations, then CHECK_MIN_MAX; Coplanar when either triangle lies in the
// other's plane.
Overlap canonicalCrossing(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                          const Vec3& r2, float dp1, float dq1, float dr1, float dp2, float dq2, float dr2) {
    const Vec3* const t1[3] = {&p1, &q1, &r1};
    const Vec3* const t2[3] = {&p2, &q2, &r2};
    const Vec3 *a[3], *b[3];
    if (!canonicalOrder(t1, t2, signOf(dp1), signOf(dq1), signOf(dr1), signOf(dp2), signOf(dq2), signOf(dr2),
                        a, b))
        return Overlap::Coplanar;
    return crossing(checkMinMax(*a[0], *a[1], *a[2], *b[0], *b[1], *b[2]));
}

// Coplanar pairs: a 2D separating-axis test over the six edge lines.
// The triangles are projected onto the axis plane that the first normal is most aligned with.
// Convex polygons in 2D are disjoint iff one of their edge lines separates them; for a triangle
// that projects to zero area (float) both sides of its edge lines are tried, and the 2D bounding
// boxes catch collinear pieces. Orientation predicates as in Guigue & Devillers' 2D test.

struct P2 {
    float x, y;
};

float orient2d(const P2& a, const P2& b, const P2& c) {
    return (a.x - c.x) * (b.y - c.y) - (a.y - c.y) * (b.x - c.x);
}

bool separatedByEdgesOf(const P2* t, const P2* o) {
    const float area = orient2d(t[0], t[1], t[2]);
    for (int i = 0; i < 3; ++i) {
        const P2& e0 = t[i];
        const P2& e1 = t[i == 2 ? 0 : i + 1];
        const float s0 = orient2d(e0, e1, o[0]);
        const float s1 = orient2d(e0, e1, o[1]);
        const float s2 = orient2d(e0, e1, o[2]);
        const bool outside_neg = allNegative(s0, s1, s2);
        const bool outside_pos = allPositive(s0, s1, s2);
        if (area > 0.0f ? outside_neg : (area < 0.0f ? outside_pos : (outside_neg || outside_pos)))
            return true;
    }
    return false;
}

bool boxesDisjoint(const P2* t, const P2* o) {
    float tlo_x = t[0].x, thi_x = t[0].x, tlo_y = t[0].y, thi_y = t[0].y;
    float olo_x = o[0].x, ohi_x = o[0].x, olo_y = o[0].y, ohi_y = o[0].y;
    for (int i = 1; i < 3; ++i) {
        tlo_x = t[i].x < tlo_x ? t[i].x : tlo_x;
        thi_x = t[i].x > thi_x ? t[i].x : thi_x;
        tlo_y = t[i].y < tlo_y ? t[i].y : tlo_y;
        thi_y = t[i].y > thi_y ? t[i].y : thi_y;
        olo_x = o[i].x < olo_x ? o[i].x : olo_x;
        ohi_x = o[i].x > ohi_x ? o[i].x : ohi_x;
        olo_y = o[i].y < olo_y ? o[i].y : olo_y;
        ohi_y = o[i].y > ohi_y ? o[i].y : ohi_y;
    }
    return thi_x < olo_x || ohi_x < tlo_x || thi_y < olo_y || ohi_y < tlo_y;
}

// A zero-area triangle behaves as its three edges (tolerance.h rule 5).
bool edgesCrossTriangle(const Vec3& s0, const Vec3& s1, const Vec3& s2, const Vec3& a, const Vec3& b,
                        const Vec3& c) {
    RayHit hit;
    return segmentTriangle(s0, s1, a, b, c, hit) || segmentTriangle(s1, s2, a, b, c, hit) ||
           segmentTriangle(s2, s0, a, b, c, hit);
}

bool allFinite(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
               const Vec3& r2) {
    return detail::isFiniteTriangle(p1, q1, r1) && detail::isFiniteTriangle(p2, q2, r2);
}

D3 toD3(const Vec3& v) { return {v.x, v.y, v.z}; }

int signOfD(double d) {
    return static_cast<int>(d > 0.0) | (static_cast<int>(d < 0.0) << 1) | (static_cast<int>(d != d) * kNaN);
}

// A double direction as float, scaled by its largest magnitude first (zero stays zero).
void floatDirection(const D3& n, Vec3& out) {
    const double m = std::fmax(std::fabs(n.x), std::fmax(std::fabs(n.y), std::fabs(n.z)));
    if (m > 0.0)
        set(static_cast<float>(n.x / m), static_cast<float>(n.y / m), static_cast<float>(n.z / m), out);
    else
        set(0.0f, 0.0f, 0.0f, out);
}

// checkMinMax in double.
bool checkMinMaxDouble(const D3& p1, const D3& q1, const D3& r1, const D3& p2, const D3& q2, const D3& r2) {
    const double s1 = ddot(dsub(q2, q1), dcross(dsub(p2, q1), dsub(p1, q1)));
    const double s2 = ddot(dsub(r2, p1), dcross(dsub(p2, p1), dsub(r1, p1)));
    return !(s1 > 0.0) & !(s2 > 0.0);
}

float signCarrying(double d) {
    const float f = static_cast<float>(d);
    return (f == 0.0f && d != 0.0) ? (d > 0.0 ? FLT_TRUE_MIN : -FLT_TRUE_MIN) : f;
}

// Plane through o with normal (p - o) x (q - o), in double: writes the signed values for x, y, z
// (only their signs are used later) and the normal scaled to a float-safe size (zero when the
// triangle has exactly zero area).
void planeSidesDouble(const Vec3& o, const Vec3& p, const Vec3& q, const Vec3& x, const Vec3& y,
                      const Vec3& z, Vec3& out_n, float& out_dx, float& out_dy, float& out_dz) {
    PlaneInDouble plane;
    makePlaneInDouble(o, p, q, plane);
    planeSides(plane, x, y, z, out_dx, out_dy, out_dz);
    out_n = plane.n_float;
}

// The sides of x, y, z against the plane through o with normal n, in float: dot(v - o, n).
void floatSides(const Vec3& o, const Vec3& n, const Vec3& x, const Vec3& y, const Vec3& z, float& out_dx,
                float& out_dy, float& out_dz) {
    Vec3 v;
    sub(x, o, v);
    out_dx = dot(v, n);
    sub(y, o, v);
    out_dy = dot(v, n);
    sub(z, o, v);
    out_dz = dot(v, n);
}

// The sides of p1, q1, r1 against the plane of triangle 2 as classify() takes them: in float
// when that plane is well-conditioned, else in double. Returns whether they were taken in double.
bool plane2Sides(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                 const Vec3& r2, Vec3& out_n2, float& out_dp1, float& out_dq1, float& out_dr1) {
    Vec3 v1, v2;
    sub(p2, r2, v1);
    sub(q2, r2, v2);
    cross(v1, v2, out_n2);
    if (!wellConditioned(v1, v2, out_n2)) {
        planeSidesDouble(r2, p2, q2, p1, q1, r1, out_n2, out_dp1, out_dq1, out_dr1);
        return true;
    }
    floatSides(r2, out_n2, p1, q1, r1, out_dp1, out_dq1, out_dr1);
    return false;
}

// Everything after the two plane-side rejection tests, from their float values. Shared by the
// scalar and the batched entry points, which is what makes their answers identical.
// `in_double1` / `in_double2`: plane 1's / plane 2's sides came from planeSidesDouble.
Overlap classifyAfterPlanes(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                            const Vec3& r2, const Vec3& n1, const Vec3& n2, float dp1, float dq1, float dr1,
                            float dp2, float dq2, float dr2, bool in_double1, bool in_double2) {
    const bool flat1 = isZero(n1), flat2 = isZero(n2);
    if (flat1 || flat2) {
        if (flat1 && flat2) return Overlap::Disjoint;
        const bool hit =
            flat2 ? edgesCrossTriangle(p2, q2, r2, p1, q1, r1) : edgesCrossTriangle(p1, q1, r1, p2, q2, r2);
        return hit && allFinite(p1, q1, r1, p2, q2, r2) ? Overlap::Degenerate : Overlap::Disjoint;
    }
    if (nearlyParallel(n1, n2))
        return allFinite(p1, q1, r1, p2, q2, r2) ? classifyNearlyParallel(p1, q1, r1, p2, q2, r2)
                                                 : Overlap::Disjoint;
    if (!planeSidesCertain(p1, q1, r1, p2, q2, r2, dp1, dq1, dr1, dp2, dq2, dr2, in_double1, in_double2))
        return allFinite(p1, q1, r1, p2, q2, r2) ? classifyExact(p1, q1, r1, p2, q2, r2, n1)
                                                 : Overlap::Disjoint;
    const Overlap result = canonicalCrossing(p1, q1, r1, p2, q2, r2, dp1, dq1, dr1, dp2, dq2, dr2);
    if (result == Overlap::Coplanar && !coplanarOverlap(p1, q1, r1, p2, q2, r2, n1)) return Overlap::Disjoint;
    // NaN passes every sign test above as "not positive, not negative"; only a "yes" pays for the
    // check (the degenerate path's segment tests check their own input).
    if (result != Overlap::Disjoint && !allFinite(p1, q1, r1, p2, q2, r2)) return Overlap::Disjoint;
    return result;
}

} // namespace

// The 2D test of a coplanar pair (above): both triangles projected onto the axis plane that n1 is
// most aligned with, then their boxes and the six edge lines.
bool coplanarOverlap(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                     const Vec3& r2, const Vec3& n1) {
    const int k = largestAxis(n1);
    const int i = k == 2 ? 0 : k + 1;
    const int j = i == 2 ? 0 : i + 1;
    P2 t1[3] = {{p1[i], p1[j]}, {q1[i], q1[j]}, {r1[i], r1[j]}};
    P2 t2[3] = {{p2[i], p2[j]}, {q2[i], q2[j]}, {r2[i], r2[j]}};
    // Below 2^-40 the edge-line products (squares of coordinate differences) can fall under
    // float's normal range, round to 0, and no edge separates pairs that are apart: the points
    // are scaled up by a power of two (exact; the signs are what the test reads). From 2^-40 up
    // nothing is scaled, so those answers, and the GPU shader's, are as before.
    float most = 0.0f;
    for (int v = 0; v < 3; ++v)
        most = std::fmax(most, std::fmax(std::fmax(std::fabs(t1[v].x), std::fabs(t1[v].y)),
                                         std::fmax(std::fabs(t2[v].x), std::fabs(t2[v].y))));
    if (most > 0.0f && most < 0x1p-40f) {
        int exponent = 0;
        (void)std::frexp(most, &exponent);
        const float up = std::ldexp(1.0f, -exponent); // most * up in [0.5, 1)
        for (int v = 0; v < 3; ++v) {
            t1[v].x *= up, t1[v].y *= up;
            t2[v].x *= up, t2[v].y *= up;
        }
    }
    return !boxesDisjoint(t1, t2) && !separatedByEdgesOf(t1, t2) && !separatedByEdgesOf(t2, t1);
}

// classifyAfterPlanes for the hot paths, where both planes passed wellConditioned in float. That
// test fails for a zero normal and for any non-finite edge, and finite edges (p - r, q - r) mean
// finite vertices, so here neither triangle is flat and every input is finite: the flat branch
// and the finiteness check of classifyAfterPlanes could not change the answer and are left out.
Overlap classifyWellConditioned(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                const Vec3& q2, const Vec3& r2, const Vec3& n1, const Vec3& n2, float dp1,
                                float dq1, float dr1, float dp2, float dq2, float dr2) {
    if (nearlyParallel(n1, n2)) return classifyNearlyParallel(p1, q1, r1, p2, q2, r2);
    if (!planeSidesCertain(p1, q1, r1, p2, q2, r2, dp1, dq1, dr1, dp2, dq2, dr2))
        return classifyExact(p1, q1, r1, p2, q2, r2, n1);
    const Overlap result = canonicalCrossing(p1, q1, r1, p2, q2, r2, dp1, dq1, dr1, dp2, dq2, dr2);
    if (result == Overlap::Coplanar && !coplanarOverlap(p1, q1, r1, p2, q2, r2, n1)) return Overlap::Disjoint;
    return result;
}

namespace {

int exactClass(int s) { return s > 0 ? kPos : (s < 0 ? kNeg : kZero); }

} // namespace

// The sides as classify() defines them: (x - r2) . ((p2 - r2) x (q2 - r2)) for triangle 1's
// vertices, (x - r1) . ((q1 - p1) x (r1 - p1)) = (x - p1) . (the same normal) for triangle 2's;
// CHECK_MIN_MAX's two determinants as checkMinMax writes them.
FLAK_TRI_TRI_COLD Overlap classifyExact(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                        const Vec3& q2, const Vec3& r2, const Vec3& n1) {
    const int sp1 = exactOrientSign(r2, p2, q2, p1), sq1 = exactOrientSign(r2, p2, q2, q1),
              sr1 = exactOrientSign(r2, p2, q2, r1);
    if ((sp1 > 0 && sq1 > 0 && sr1 > 0) || (sp1 < 0 && sq1 < 0 && sr1 < 0)) return Overlap::Disjoint;
    const int sp2 = exactOrientSign(p1, q1, r1, p2), sq2 = exactOrientSign(p1, q1, r1, q2),
              sr2 = exactOrientSign(p1, q1, r1, r2);
    if ((sp2 > 0 && sq2 > 0 && sr2 > 0) || (sp2 < 0 && sq2 < 0 && sr2 < 0)) return Overlap::Disjoint;
    const Vec3* const t1[3] = {&p1, &q1, &r1};
    const Vec3* const t2[3] = {&p2, &q2, &r2};
    const Vec3 *a[3], *b[3];
    if (!canonicalOrder(t1, t2, exactClass(sp1), exactClass(sq1), exactClass(sr1), exactClass(sp2),
                        exactClass(sq2), exactClass(sr2), a, b))
        return coplanarOverlap(p1, q1, r1, p2, q2, r2, n1) ? Overlap::Coplanar : Overlap::Disjoint;
    const bool overlap =
        exactOrientSign(*a[1], *b[0], *a[0], *b[1]) <= 0 && exactOrientSign(*a[0], *b[0], *a[2], *b[2]) <= 0;
    return crossing(overlap);
}

// Nearly parallel planes (tri_tri_impl.h): the plane sides, the rejections, the canonical form and
// CHECK_MIN_MAX again, each in double from the float inputs; planes parallel even in double go to
// the 2D test in triangle 1's plane.
FLAK_TRI_TRI_COLD Overlap classifyNearlyParallel(const Vec3& p1, const Vec3& q1, const Vec3& r1,
                                                 const Vec3& p2, const Vec3& q2, const Vec3& r2) {
    const D3 P1 = toD3(p1), Q1 = toD3(q1), R1 = toD3(r1), P2 = toD3(p2), Q2 = toD3(q2), R2 = toD3(r2);
    const D3 n2 = dcross(dsub(P2, R2), dsub(Q2, R2));
    const double dp1 = ddot(dsub(P1, R2), n2), dq1 = ddot(dsub(Q1, R2), n2), dr1 = ddot(dsub(R1, R2), n2);
    if ((dp1 > 0.0 && dq1 > 0.0 && dr1 > 0.0) || (dp1 < 0.0 && dq1 < 0.0 && dr1 < 0.0))
        return Overlap::Disjoint;
    const D3 n1 = dcross(dsub(Q1, P1), dsub(R1, P1));
    const double dp2 = ddot(dsub(P2, R1), n1), dq2 = ddot(dsub(Q2, R1), n1), dr2 = ddot(dsub(R2, R1), n1);
    if ((dp2 > 0.0 && dq2 > 0.0 && dr2 > 0.0) || (dp2 < 0.0 && dq2 < 0.0 && dr2 < 0.0))
        return Overlap::Disjoint;
    Vec3 plane1;
    floatDirection(n1, plane1);
    const D3 c = dcross(n1, n2);
    if (ddot(c, c) <= kParallelSinSqDouble * (ddot(n1, n1) * ddot(n2, n2)))
        return coplanarOverlap(p1, q1, r1, p2, q2, r2, plane1) ? Overlap::Coplanar : Overlap::Disjoint;
    if (!planeSidesCertain(p1, q1, r1, p2, q2, r2, signCarrying(dp1), signCarrying(dq1), signCarrying(dr1),
                           signCarrying(dp2), signCarrying(dq2), signCarrying(dr2), true, true))
        return classifyExact(p1, q1, r1, p2, q2, r2, plane1);
    const Vec3* const t1[3] = {&p1, &q1, &r1};
    const Vec3* const t2[3] = {&p2, &q2, &r2};
    const Vec3 *a[3], *b[3];
    if (!canonicalOrder(t1, t2, signOfD(dp1), signOfD(dq1), signOfD(dr1), signOfD(dp2), signOfD(dq2),
                        signOfD(dr2), a, b))
        return coplanarOverlap(p1, q1, r1, p2, q2, r2, plane1) ? Overlap::Coplanar : Overlap::Disjoint;
    return crossing(
        checkMinMaxDouble(toD3(*a[0]), toD3(*a[1]), toD3(*a[2]), toD3(*b[0]), toD3(*b[1]), toD3(*b[2])));
}

// The whole test when a plane is ill-conditioned: the same steps, with that plane's sides taken
// in double. Kept out of line and restarted from the inputs, so that the hot path holds no
// values across a call (every xmm register is caller-saved) and pays nothing for it.
FLAK_TRI_TRI_COLD Overlap classifySlow(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                       const Vec3& q2, const Vec3& r2) {
    Vec3 v1, v2, n1, n2;
    float dp1, dq1, dr1, dp2, dq2, dr2;
    const bool in_double2 = plane2Sides(p1, q1, r1, p2, q2, r2, n2, dp1, dq1, dr1);
    if (allPositive(dp1, dq1, dr1) || allNegative(dp1, dq1, dr1)) return Overlap::Disjoint;
    sub(q1, p1, v1);
    sub(r1, p1, v2);
    cross(v1, v2, n1);
    const bool in_double1 = !wellConditioned(v1, v2, n1);
    if (!in_double1)
        floatSides(r1, n1, p2, q2, r2, dp2, dq2, dr2);
    else
        planeSidesDouble(p1, q1, r1, p2, q2, r2, n1, dp2, dq2, dr2);
    if (allPositive(dp2, dq2, dr2) || allNegative(dp2, dq2, dr2)) return Overlap::Disjoint;
    return classifyAfterPlanes(p1, q1, r1, p2, q2, r2, n1, n2, dp1, dq1, dr1, dp2, dq2, dr2, in_double1,
                               in_double2);
}

Overlap classifySlowPlane1(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                           const Vec3& r2, const PlaneInDouble& plane1) {
    Vec3 n2;
    float dp1, dq1, dr1, dp2, dq2, dr2;
    const bool in_double2 = plane2Sides(p1, q1, r1, p2, q2, r2, n2, dp1, dq1, dr1);
    if (allPositive(dp1, dq1, dr1) || allNegative(dp1, dq1, dr1)) return Overlap::Disjoint;
    planeSides(plane1, p2, q2, r2, dp2, dq2, dr2);
    if (allPositive(dp2, dq2, dr2) || allNegative(dp2, dq2, dr2)) return Overlap::Disjoint;
    return classifyAfterPlanes(p1, q1, r1, p2, q2, r2, plane1.n_float, n2, dp1, dq1, dr1, dp2, dq2, dr2, true,
                               in_double2);
}

void makePlaneInDouble(const Vec3& o, const Vec3& p, const Vec3& q, PlaneInDouble& out) {
    const D3 O = toLocal(o, Vec3{});
    const D3 n = dcross(dsub(toLocal(p, Vec3{}), O), dsub(toLocal(q, Vec3{}), O));
    out.o[0] = O.x, out.o[1] = O.y, out.o[2] = O.z;
    out.n[0] = n.x, out.n[1] = n.y, out.n[2] = n.z;
    floatDirection(n, out.n_float);
}

void planeSides(const PlaneInDouble& plane, const Vec3& x, const Vec3& y, const Vec3& z, float& out_dx,
                float& out_dy, float& out_dz) {
    const D3 O{plane.o[0], plane.o[1], plane.o[2]}, n{plane.n[0], plane.n[1], plane.n[2]};
    out_dx = signCarrying(ddot(dsub(toLocal(x, Vec3{}), O), n));
    out_dy = signCarrying(ddot(dsub(toLocal(y, Vec3{}), O), n));
    out_dz = signCarrying(ddot(dsub(toLocal(z, Vec3{}), O), n));
}

#if !defined(FLAK_SIMD_SSE2)
// Scalar back-end (FLAK_SIMD=none): the same operations one float at a time.
Overlap classify(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                 const Vec3& r2) {
    Vec3 v1, v2, n1, n2;
    // Signs of p1, q1, r1 against the plane of triangle 2.
    sub(p2, r2, v1);
    sub(q2, r2, v2);
    cross(v1, v2, n2);
    if (!wellConditioned(v1, v2, n2)) return classifySlow(p1, q1, r1, p2, q2, r2);
    sub(p1, r2, v1);
    const float dp1 = dot(v1, n2);
    sub(q1, r2, v1);
    const float dq1 = dot(v1, n2);
    sub(r1, r2, v1);
    const float dr1 = dot(v1, n2);
    if (allPositive(dp1, dq1, dr1) || allNegative(dp1, dq1, dr1)) return Overlap::Disjoint;
    // Signs of p2, q2, r2 against the plane of triangle 1.
    sub(q1, p1, v1);
    sub(r1, p1, v2);
    cross(v1, v2, n1);
    if (!wellConditioned(v1, v2, n1)) return classifySlow(p1, q1, r1, p2, q2, r2);
    sub(p2, r1, v1);
    const float dp2 = dot(v1, n1);
    sub(q2, r1, v1);
    const float dq2 = dot(v1, n1);
    sub(r2, r1, v1);
    const float dr2 = dot(v1, n1);
    if (allPositive(dp2, dq2, dr2) || allNegative(dp2, dq2, dr2)) return Overlap::Disjoint;
    return classifyWellConditioned(p1, q1, r1, p2, q2, r2, n1, n2, dp1, dq1, dr1, dp2, dq2, dr2);
}

// finishBatch one lane at a time: the lanes past `used` filled with NaN, then every lane through
// setBatchTriangle itself.
void finishBatchLanes(std::uint32_t used, TriangleBatch4& inout) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (std::uint32_t lane = used; lane < 4u; ++lane)
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) inout.v[i][j][lane] = nan;
    inout.scalar_lanes = 0u;
    inout.empty_lanes = 0u;
    for (std::uint32_t lane = 0; lane < 4u; ++lane) {
        Vec3 a, b, c;
        set(inout.v[0][0][lane], inout.v[0][1][lane], inout.v[0][2][lane], a);
        set(inout.v[1][0][lane], inout.v[1][1][lane], inout.v[1][2][lane], b);
        set(inout.v[2][0][lane], inout.v[2][1][lane], inout.v[2][2][lane], c);
        setBatchTriangle(static_cast<int>(lane), a, b, c, inout);
    }
}
#endif

} // namespace flak::detail
