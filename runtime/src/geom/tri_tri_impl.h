// flak — private: what the triangle-triangle files share. tri_tri.cpp holds the entry points and
// the run-time choice of back-end; the kernels are tri_tri_scalar.cpp (the Guigue-Devillers steps
// in scalar code, which every back-end ends in for its rare paths), tri_tri_sse2.cpp and
// tri_tri_avx2.cpp. Here: whether the AVX2 forms are built, the canonical-form rule, the
// conditioning bound, and the kernels' declarations.
#pragma once

#include <flak/geom/tri_tri.h>
#include <flak/math/simd.h>
#include <flak/math/vec3.h>

#include "geom/tri_tri_classify.h"
#include "geom/triangle_local.h"

#include <cmath>
#include <cstdint>

// Both planes of a pair, and two batches' plane tests, in one pass of 256-bit vectors where the
// CPU has AVX2 (chosen at run time; the library itself is built for SSE2). GCC and Clang on x86
// only; CMake's FLAK_AVX2=OFF (FLAK_NO_AVX2) leaves it out, which the sanitize preset does so that
// CI tests both paths.
#if defined(FLAK_SIMD_SSE2) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) &&            \
    !defined(FLAK_NO_AVX2)
#define FLAK_TRI_TRI_AVX2 1
#define FLAK_AVX2 __attribute__((target("avx2")))
#endif

#if defined(__GNUC__)
#define FLAK_TRI_TRI_COLD __attribute__((noinline, cold))
#define FLAK_TRI_TRI_NOINLINE __attribute__((noinline))
#else
#define FLAK_TRI_TRI_COLD
#define FLAK_TRI_TRI_NOINLINE
#endif

namespace flak::detail {

using Overlap = TriTriKind;

/// The batched kernels' lane masks carry two answers: bit j is "lane j overlaps" and bit
/// kCrossingShift + j is "lane j's classify() is Crossing" (overlapping in 3D, not coplanar, no
/// zero-area triangle); an eight-lane mask has its upper half in bits 4..7 and kCrossingShift + 4..7.
constexpr unsigned kCrossingShift = 16;
constexpr unsigned kOverlapBits = (1u << kCrossingShift) - 1u;

// The canonical form as a table. The original code chooses it with a tree of sign branches on the
// three plane values of a triangle's vertices (d_p, d_q, d_r); on real inputs those branches are
// unpredictable. The same tree, evaluated at compile time for every sign pattern, gives which
// vertex leads (`rot`: 0 = p, 1 = q, 2 = r, the others following in cyclic order) and whether the
// other triangle's remaining two vertices are swapped (`flip`); all three values zero is the
// coplanar case (rot = kCoplanar). The same tree serves both triangles. A value's class is zero,
// positive, negative or NaN: NaN fails every comparison, so it follows zero except in the one
// "d_r >= 0" test, exactly as the comparisons of the branch tree would have it. The GPU kernel
// (shaders/tri_pairs.comp) keeps the tree; the GPU-vs-CPU tests hold the two to the same answers.
struct Canon {
    unsigned char rot;
    unsigned char flip;
};
constexpr unsigned char kCoplanar = 3;
enum SignClass : int { kZero = 0, kPos = 1, kNeg = 2, kNaN = 3 };

constexpr Canon canonOf(int sp, int sq, int sr) {
    if (sp == kPos) {
        if (sq == kPos) return {2, 1};
        if (sr == kPos) return {1, 1};
        return {0, 0};
    }
    if (sp == kNeg) {
        if (sq == kNeg) return {2, 0};
        if (sr == kNeg) return {1, 0};
        return {0, 1};
    }
    if (sq == kNeg) return (sr == kZero || sr == kPos) ? Canon{1, 1} : Canon{0, 0};
    if (sq == kPos) return sr == kPos ? Canon{0, 1} : Canon{1, 0};
    if (sr == kPos) return {2, 0};
    if (sr == kNeg) return {2, 1};
    return {kCoplanar, 0};
}

// Plane sides.
// A float cross product of two edges has an absolute error of ~eps |e1| |e2|, so its direction is
// only good to eps / sin(corner angle): on a needle with its apex at that corner, or on a cap, the
// plane-side signs of the other triangle's vertices would be noise (a 1e-8 thin cap "overlaps" a
// triangle hundreds of units away). Corners with sin^2 < kMinSinSq (sin < 0.05, about 0.2% of
// random triangles) get their plane sides in double instead, where the normal of float vertices
// is good to 1e-16; the float path's error stays below 20 eps of the scale, far inside the band.
constexpr float kMinSinSq = 2.5e-3f;

// Strict: a zero-area corner (n = 0) and one whose squares underflow to 0 both fail; so does NaN.
inline bool wellConditioned(const Vec3& e1, const Vec3& e2, const Vec3& n) {
    return lengthSq(n) > kMinSinSq * (lengthSq(e1) * lengthSq(e2));
}

// Nearly parallel planes.
// Guigue-Devillers decides a crossing pair by where the two triangles cut the line the planes
// share. In float each orientation determinant is good to a few eps of scale^3, which puts an
// end point of a cut off by about eps * scale / sin(dihedral angle) along that line: harmless
// for planes at a real angle, noise when they are nearly parallel (two triangles a hair out of
// one plane "cross" a unit apart). A surviving pair whose float normals are within kParallelSinSq
// (sin^2 of the angle between them, about 7 degrees) is decided again in double, where the same
// error is 2^-29 times smaller; planes parallel even there (sin below 2^-30) are coplanar for
// the 2D test. The routing test is float and bit for bit the same on every back-end and on the
// GPU; a product that overflows or underflows routes to double (only slower, never wrong).
constexpr float kParallelSinSq = 0x1p-6f;
constexpr double kParallelSinSqDouble = 0x1p-60;

/// True when a surviving pair with planes n1 and n2 goes to classifyNearlyParallel: not
/// lengthSq(n1 x n2) > kParallelSinSq * (lengthSq(n1) * lengthSq(n2)), in float.
inline bool nearlyParallel(const Vec3& n1, const Vec3& n2) {
    Vec3 c;
    cross(n1, n2, c);
    return !(lengthSq(c) > kParallelSinSq * (lengthSq(n1) * lengthSq(n2)));
}

// Plane sides within their own rounding.
// Guigue-Devillers takes the plane sides' signs as facts: an edge from the lone vertex to a vertex
// on the other side is taken to cross the plane, and CHECK_MIN_MAX places that crossing where the
// edge's line meets it. When an edge lies in the other plane to within the rounding of its ends,
// a sign that rounding got wrong puts that point anywhere on the line, far outside the triangle
// (a pair 0.4 apart "crossing"). A float side (x - o) . ((p - o') x (q - o')) is off by at most
// about 8 eps |x - o|_1 |p - o'|_1 |q - o'|_1, plus what underflow loses; a side no farther from
// zero than kSideError times that (twice the estimate) plus the underflow terms is not trusted,
// and the pair is decided again with every sign exact (classifyExact). The bound is float
// arithmetic in one fixed order, so every back-end and the GPU send the same pairs there; an
// overflowing bound only sends more. The constants are normal floats (a device that flushes
// denormals reads them alike) and the GPU takes them as bits (flak_gpu_layout.h).
constexpr float kSideError = 0x1p-20f;
constexpr float kSideErrorDouble = 0x1p-49f; ///< the same for sides computed in double (16 double eps)
constexpr float kSideUnderflow = 0x1p-126f;  ///< per unit of |x - o|_1: a normal's lost denormals, amply
constexpr float kSideFloor = 0x1p-120f;      ///< below it every side is in doubt, flushed or not

inline float norm1(const Vec3& v) { return (std::fabs(v.x) + std::fabs(v.y)) + std::fabs(v.z); }

/// The rounding bound of the sides against the plane with edges e1 and e2, per unit of
/// |x - o|_1 (the batched kernels and the GPU compute it with these operations in this order);
/// `error` is kSideError for sides computed in float, kSideErrorDouble for sides in double.
inline float planeSideUnit(float norm_e1, float norm_e2, float error = kSideError) {
    return (norm_e1 * norm_e2) * error + kSideUnderflow;
}

/// True when the six plane sides of a pair (float values as classify() computes them, or double
/// values rounded to float) are each farther from zero than their rounding error can reach. One
/// bound per plane: |x - o|_1 of the other triangle's vertices is bounded by the reach of that
/// triangle's vertices from its own third vertex (r1 or r2) plus |r1 - r2|_1. `in_double1` /
/// `in_double2`: the sides against plane 1 (dp2, dq2, dr2) / plane 2 (dp1, dq1, dr1) were
/// computed in double (a sliver's plane, nearly parallel planes), whose error is far smaller.
inline bool planeSidesCertain(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                              const Vec3& r2, float dp1, float dq1, float dr1, float dp2, float dq2,
                              float dr2, bool in_double1 = false, bool in_double2 = false) {
    Vec3 a, b, c;
    sub(q1, p1, a);
    sub(r1, p1, b);
    sub(q1, r1, c);
    const float f1 = norm1(a), f2 = norm1(b);
    const float unit1 = planeSideUnit(f1, f2, in_double1 ? kSideErrorDouble : kSideError),
                reach1 = maxOf(f2, norm1(c));
    sub(p2, r2, a);
    sub(q2, r2, b);
    const float e1 = norm1(a), e2 = norm1(b);
    const float unit2 = planeSideUnit(e1, e2, in_double2 ? kSideErrorDouble : kSideError),
                reach2 = maxOf(e1, e2);
    sub(r1, r2, c);
    const float w = norm1(c);
    const float bound1 = (reach1 + w) * unit2 + kSideFloor; // triangle 1's vertices against plane 2
    const float bound2 = (reach2 + w) * unit1 + kSideFloor; // triangle 2's against plane 1
    return std::fabs(dp1) > bound1 && std::fabs(dq1) > bound1 && std::fabs(dr1) > bound1 &&
           std::fabs(dp2) > bound2 && std::fabs(dq2) > bound2 && std::fabs(dr2) > bound2;
}

/// The test of a finite pair with every sign exact: the plane sides, the rejections, the
/// canonical form and CHECK_MIN_MAX by exactOrientSign; a pair with one triangle exactly in the
/// other's plane goes to the 2D test (in the axis plane n1 is most aligned with).
FLAK_TRI_TRI_COLD Overlap classifyExact(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                        const Vec3& q2, const Vec3& r2, const Vec3& n1);

// Lane `lane`'s triangle of a batch.
inline void laneTriangle(const TriangleBatch4& batch, int lane, Vec3& out_p, Vec3& out_q, Vec3& out_r) {
    Vec3* out[3] = {&out_p, &out_q, &out_r};
    for (int i = 0; i < 3; ++i) set(batch.v[i][0][lane], batch.v[i][1][lane], batch.v[i][2][lane], *out[i]);
}

// The scalar kernel (tri_tri_scalar.cpp).

/// The 2D test of a coplanar pair, in the axis plane that triangle 1's normal n1 is most
/// aligned with.
bool coplanarOverlap(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                     const Vec3& r2, const Vec3& n1);

/// Everything after the two plane-side tests, from their float values, when both planes passed
/// wellConditioned in float (n1, n2: the triangles' normals as classify() computes them).
Overlap classifyWellConditioned(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                const Vec3& q2, const Vec3& r2, const Vec3& n1, const Vec3& n2, float dp1,
                                float dq1, float dr1, float dp2, float dq2, float dr2);

/// The test of a finite pair that survived both plane tests with nearly parallel planes, from the
/// inputs, all in double (tri_tri_scalar.cpp).
FLAK_TRI_TRI_COLD Overlap classifyNearlyParallel(const Vec3& p1, const Vec3& q1, const Vec3& r1,
                                                 const Vec3& p2, const Vec3& q2, const Vec3& r2);

/// A triangle's plane in double, as the ill-conditioned paths take it: through o with normal
/// (p - o) x (q - o), the float values of o, p, q widened, and that normal as a float direction
/// (its largest component scaled to 1; zero for exactly zero area).
struct PlaneInDouble {
    double o[3];
    double n[3];
    Vec3 n_float;
};

void makePlaneInDouble(const Vec3& o, const Vec3& p, const Vec3& q, PlaneInDouble& out);

/// The sides of x, y, z against the plane, in double, as floats that keep their signs.
void planeSides(const PlaneInDouble& plane, const Vec3& x, const Vec3& y, const Vec3& z, float& out_dx,
                float& out_dy, float& out_dz);

/// classifySlow for a triangle 1 whose plane is ill-conditioned in float, given that plane in
/// double (makePlaneInDouble(p1, q1, r1)): the same answer, the plane made once for many pairs.
Overlap classifySlowPlane1(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                           const Vec3& r2, const PlaneInDouble& plane1);

/// The whole test when a plane is ill-conditioned, that plane's sides in double; restarted from
/// the inputs.
FLAK_TRI_TRI_COLD Overlap classifySlow(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                       const Vec3& q2, const Vec3& r2);

// The back-end's kernels: tri_tri_sse2.cpp where the build has SSE2, else tri_tri_scalar.cpp.

/// The test of one pair (Guigue-Devillers), with how it was decided.
Overlap classify(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                 const Vec3& r2);

/// finishBatch's work on a batch whose lanes 0..used-1 were written: their planes and flags, the
/// other lanes cleared (`reserved` is left to the caller).
void finishBatchLanes(std::uint32_t used, TriangleBatch4& inout);

#if defined(FLAK_TRI_TRI_AVX2)
/// classify() with both planes' sides in one pass of 256-bit vectors (tri_tri_avx2.cpp): same
/// answers. Only for CPUs with AVX2.
Overlap classifyWide(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                     const Vec3& r2) FLAK_AVX2;

/// The intersection segments of four pairs that classify() calls Crossing (tri_tri_crossing_avx2.cpp):
/// lane k is pair lane[k] of `pairs` (a lane may repeat another), written to out_start/out_end[lane[k]]
/// exactly as triTriIntersection writes them, except for the lanes k (bit k of the result) whose
/// planes turned out parallel in double: those need the scalar path. Only for CPUs with AVX2.
unsigned crossingSegments4(const TriTriPairs4& pairs, const int lane[4], Vec3* out_start,
                           Vec3* out_end) FLAK_AVX2;
#endif

} // namespace flak::detail
