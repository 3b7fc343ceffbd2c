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

// Lane `lane`'s vertex `vertex` (0: p, 1: q, 2: r) of a batch.
inline void laneVertex(const TriangleBatch4& batch, int vertex, int lane, Vec3& out) {
    set(batch.v[vertex][0][lane], batch.v[vertex][1][lane], batch.v[vertex][2][lane], out);
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

/// Whether this CPU has AVX2 (asked once).
bool cpuHasAvx2();

/// The intersection segments of four pairs that classify() calls Crossing (tri_tri_crossing_avx2.cpp):
/// lane k is pair lane[k] of `pairs` (a lane may repeat another), written to out_start/out_end[lane[k]]
/// exactly as triTriIntersection writes them, except for the lanes k (bit k of the result) whose
/// planes turned out parallel in double: those need the scalar path. Only for CPUs with AVX2.
unsigned crossingSegments4(const TriTriPairs4& pairs, const int lane[4], Vec3* out_start,
                           Vec3* out_end) FLAK_AVX2;
#endif

} // namespace flak::detail
