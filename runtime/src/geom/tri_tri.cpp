#include <flak/geom/tri_tri.h>

#include <flak/assert.h>
#include <flak/geom/segment_triangle.h>
#include <flak/math/simd.h>

#include "geom/tri_tri_classify.h"
#include "geom/triangle_local.h"

#include <cfloat>
#include <cmath>
#include <limits>

// Both planes of a pair, and two batches' plane tests, in one pass of 256-bit vectors where the
// CPU has AVX2 (chosen at run time; the library itself is built for SSE2). GCC and Clang on x86
// only; CMake's FLAK_AVX2=OFF (FLAK_NO_AVX2) leaves it out, which the sanitize preset does so that
// CI tests both paths.
#if defined(FLAK_SIMD_SSE2) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) &&            \
    !defined(FLAK_NO_AVX2)
#define FLAK_TRI_TRI_AVX2 1
#include <immintrin.h>
#define FLAK_AVX2 __attribute__((target("avx2")))
#endif

namespace flak {
namespace {

using Overlap = detail::TriTriKind;

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

// Both canonical permutations, then CHECK_MIN_MAX; Coplanar when either triangle lies in the
// other's plane. Indices and pointers are selected, not branched on.
Overlap canonicalCrossing(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                          const Vec3& r2, float dp1, float dq1, float dr1, float dp2, float dq2, float dr2) {
    static constexpr unsigned char kNext[5] = {0, 1, 2, 0, 1};
    const Canon c1 = kCanon.entry[signOf(dp1) << 4 | signOf(dq1) << 2 | signOf(dr1)];
    if (c1.rot == kCoplanar) return Overlap::Coplanar;
    // Triangle 2 with q2 and r2 swapped when triangle 1's form asks for it.
    const int sq2 = signOf(dq2), sr2 = signOf(dr2);
    const Canon c2 = kCanon.entry[signOf(dp2) << 4 | (c1.flip ? sr2 : sq2) << 2 | (c1.flip ? sq2 : sr2)];
    if (c2.rot == kCoplanar) return Overlap::Coplanar;
    const Vec3* t1[3] = {&p1, &q1, &r1};
    const Vec3* t2[3] = {&p2, c1.flip ? &r2 : &q2, c1.flip ? &q2 : &r2};
    const Vec3* b = t1[kNext[c1.rot + 1]];
    const Vec3* c = t1[kNext[c1.rot + 2]];
    return crossing(checkMinMax(*t1[c1.rot], c2.flip ? *c : *b, c2.flip ? *b : *c, *t2[c2.rot],
                                *t2[kNext[c2.rot + 1]], *t2[kNext[c2.rot + 2]]));
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

bool coplanarOverlap(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                     const Vec3& r2, const Vec3& n1) {
    const int k = largestAxis(n1);
    const int i = k == 2 ? 0 : k + 1;
    const int j = i == 2 ? 0 : i + 1;
    const P2 t1[3] = {{p1[i], p1[j]}, {q1[i], q1[j]}, {r1[i], r1[j]}};
    const P2 t2[3] = {{p2[i], p2[j]}, {q2[i], q2[j]}, {r2[i], r2[j]}};
    return !boxesDisjoint(t1, t2) && !separatedByEdgesOf(t1, t2) && !separatedByEdgesOf(t2, t1);
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

// Plane sides.
// A float cross product of two edges has an absolute error of ~eps |e1| |e2|, so its direction is
// only good to eps / sin(corner angle): on a needle with its apex at that corner, or on a cap, the
// plane-side signs of the other triangle's vertices would be noise (a 1e-8 thin cap "overlaps" a
// triangle hundreds of units away). Corners with sin^2 < kMinSinSq (sin < 0.05, about 0.2% of
// random triangles) get their plane sides in double instead, where the normal of float vertices
// is good to 1e-16; the float path's error stays below 20 eps of the scale, far inside the band.
constexpr float kMinSinSq = 2.5e-3f;

// Strict: a zero-area corner (n = 0) and one whose squares underflow to 0 both fail; so does NaN.
bool wellConditioned(const Vec3& e1, const Vec3& e2, const Vec3& n) {
    return lengthSq(n) > kMinSinSq * (lengthSq(e1) * lengthSq(e2));
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
    const D3 O = toLocal(o, Vec3{});
    const D3 n = dcross(dsub(toLocal(p, Vec3{}), O), dsub(toLocal(q, Vec3{}), O));
    out_dx = signCarrying(ddot(dsub(toLocal(x, Vec3{}), O), n));
    out_dy = signCarrying(ddot(dsub(toLocal(y, Vec3{}), O), n));
    out_dz = signCarrying(ddot(dsub(toLocal(z, Vec3{}), O), n));
    const double m = std::fmax(std::fabs(n.x), std::fmax(std::fabs(n.y), std::fabs(n.z)));
    if (m > 0.0)
        set(static_cast<float>(n.x / m), static_cast<float>(n.y / m), static_cast<float>(n.z / m), out_n);
    else
        set(0.0f, 0.0f, 0.0f, out_n);
}

// Everything after the two plane-side rejection tests, from their float values. Shared by the
// scalar and the batched entry points, which is what makes their answers identical.
Overlap classifyAfterPlanes(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                            const Vec3& r2, const Vec3& n1, const Vec3& n2, float dp1, float dq1, float dr1,
                            float dp2, float dq2, float dr2) {
    const bool flat1 = isZero(n1), flat2 = isZero(n2);
    if (flat1 || flat2) {
        if (flat1 && flat2) return Overlap::Disjoint;
        const bool hit =
            flat2 ? edgesCrossTriangle(p2, q2, r2, p1, q1, r1) : edgesCrossTriangle(p1, q1, r1, p2, q2, r2);
        return hit && allFinite(p1, q1, r1, p2, q2, r2) ? Overlap::Degenerate : Overlap::Disjoint;
    }
    const Overlap result = canonicalCrossing(p1, q1, r1, p2, q2, r2, dp1, dq1, dr1, dp2, dq2, dr2);
    if (result == Overlap::Coplanar && !coplanarOverlap(p1, q1, r1, p2, q2, r2, n1)) return Overlap::Disjoint;
    // NaN passes every sign test above as "not positive, not negative"; only a "yes" pays for the
    // check (the degenerate path's segment tests check their own input).
    if (result != Overlap::Disjoint && !allFinite(p1, q1, r1, p2, q2, r2)) return Overlap::Disjoint;
    return result;
}

// classifyAfterPlanes for the hot paths, where both planes passed wellConditioned in float. That
// test fails for a zero normal and for any non-finite edge, and finite edges (p - r, q - r) mean
// finite vertices, so here neither triangle is flat and every input is finite: the flat branch
// and the finiteness check of classifyAfterPlanes could not change the answer and are left out.
Overlap classifyWellConditioned(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                const Vec3& q2, const Vec3& r2, const Vec3& n1, float dp1, float dq1,
                                float dr1, float dp2, float dq2, float dr2) {
    const Overlap result = canonicalCrossing(p1, q1, r1, p2, q2, r2, dp1, dq1, dr1, dp2, dq2, dr2);
    if (result == Overlap::Coplanar && !coplanarOverlap(p1, q1, r1, p2, q2, r2, n1)) return Overlap::Disjoint;
    return result;
}

#if defined(__GNUC__)
#define FLAK_TRI_TRI_COLD __attribute__((noinline, cold))
#define FLAK_TRI_TRI_NOINLINE __attribute__((noinline))
#else
#define FLAK_TRI_TRI_COLD
#define FLAK_TRI_TRI_NOINLINE
#endif

// The whole test when a plane is ill-conditioned: the same steps, with that plane's sides taken
// in double. Kept out of line and restarted from the inputs, so that the hot path holds no
// values across a call (every xmm register is caller-saved) and pays nothing for it.
FLAK_TRI_TRI_COLD Overlap classifySlow(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                       const Vec3& q2, const Vec3& r2) {
    Vec3 v1, v2, n1, n2;
    float dp1, dq1, dr1, dp2, dq2, dr2;
    sub(p2, r2, v1);
    sub(q2, r2, v2);
    cross(v1, v2, n2);
    if (wellConditioned(v1, v2, n2)) {
        sub(p1, r2, v1);
        dp1 = dot(v1, n2);
        sub(q1, r2, v1);
        dq1 = dot(v1, n2);
        sub(r1, r2, v1);
        dr1 = dot(v1, n2);
    } else {
        planeSidesDouble(r2, p2, q2, p1, q1, r1, n2, dp1, dq1, dr1);
    }
    if (allPositive(dp1, dq1, dr1) || allNegative(dp1, dq1, dr1)) return Overlap::Disjoint;
    sub(q1, p1, v1);
    sub(r1, p1, v2);
    cross(v1, v2, n1);
    if (wellConditioned(v1, v2, n1)) {
        sub(p2, r1, v1);
        dp2 = dot(v1, n1);
        sub(q2, r1, v1);
        dq2 = dot(v1, n1);
        sub(r2, r1, v1);
        dr2 = dot(v1, n1);
    } else {
        planeSidesDouble(p1, q1, r1, p2, q2, r2, n1, dp2, dq2, dr2);
    }
    if (allPositive(dp2, dq2, dr2) || allNegative(dp2, dq2, dr2)) return Overlap::Disjoint;
    return classifyAfterPlanes(p1, q1, r1, p2, q2, r2, n1, n2, dp1, dq1, dr1, dp2, dq2, dr2);
}

#if defined(FLAK_SIMD_SSE2)
// The two plane-side tests of classify() with 4-wide vectors (x, y, z, 0) per vertex instead of
// scalar code: the hot path is bound by the number of float operations, and the sliver guard
// (three squared lengths) alone was a third of them. Every lane computes the scalar expression
// with the same IEEE single operations in the same order — cross as a.y*b.z - a.z*b.y (lanes
// rotated by shuffles), dot and lengthSq as ((x*x + y*y) + z*z) after a transpose — so the values
// are bit for bit those of the scalar formulation below (and of the batched lanes).
// x and y in one 8-byte load, z in a 4-byte one: three instructions instead of five, and nothing
// read past the 12 bytes of the Vec3.
__m128 load3(const Vec3& v) {
    const __m128 xy = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&v.x)));
    return _mm_movelh_ps(xy, _mm_load_ss(&v.z));
}

// A one-source lane permute with pshufd, which writes a new register: no copy of `a` first.
template <int imm> __m128 permute(__m128 a) {
    return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(a), imm));
}
__m128 yzx(__m128 a) { return permute<_MM_SHUFFLE(3, 0, 2, 1)>(a); }
__m128 zxy(__m128 a) { return permute<_MM_SHUFFLE(3, 1, 0, 2)>(a); }

// (a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x, 0) for w = 0 inputs. Four permutes,
// all at the start: shorter in latency than cross4Wide's three, for the survivors' chains.
__m128 cross4(__m128 a, __m128 b) {
    return _mm_sub_ps(_mm_mul_ps(yzx(a), zxy(b)), _mm_mul_ps(zxy(a), yzx(b)));
}

// Lane i: (m_i.x + m_i.y) + m_i.z, for four vectors m0..m3.
__m128 hsum3x4(__m128 m0, __m128 m1, __m128 m2, __m128 m3) {
    const __m128 t0 = _mm_unpacklo_ps(m0, m1); // m0x m1x m0y m1y
    const __m128 t1 = _mm_unpacklo_ps(m2, m3); // m2x m3x m2y m3y
    const __m128 t2 = _mm_unpackhi_ps(m0, m1); // m0z m1z . .
    const __m128 t3 = _mm_unpackhi_ps(m2, m3); // m2z m3z . .
    const __m128 x = _mm_movelh_ps(t0, t1);
    const __m128 y = _mm_movehl_ps(t1, t0);
    const __m128 z = _mm_movelh_ps(t2, t3);
    return _mm_add_ps(_mm_add_ps(x, y), z);
}

// The plane tests' own vertex layout, (x, y, y, z): x and y in one 8-byte load and y and z in
// another (two instructions where load3 takes three, again reading only the Vec3's 12 bytes).
// y is read from lane 2 (lane 1 is a copy that no result reads); cross4Wide and hsum3x4Wide are
// cross4 and hsum3x4 for this layout, with the same operations on x, y, z.
__m128 load3Wide(const Vec3& v) {
    const __m128 xy = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&v.x)));
    return _mm_loadh_pi(xy, reinterpret_cast<const __m64*>(&v.y));
}

__m128 cross4Wide(__m128 a, __m128 b) {
    // Three permutes, for throughput: with y read from lane 2, (a.x, a.y, a.z) in lanes 0, 2, 3
    // permuted to lanes 2, 3, 0 (lane 1 kept) turns a * p(b) - p(a) * b into (c.z, *, c.x, c.y),
    // each lane's products in cross4's order, and p once more into (c.x, *, c.y, c.z).
    const auto p = [](__m128 v) { return permute<_MM_SHUFFLE(0, 3, 1, 2)>(v); };
    return p(_mm_sub_ps(_mm_mul_ps(a, p(b)), _mm_mul_ps(p(a), b)));
}

// Lane i: (m_i.x + m_i.y) + m_i.z, for four vectors m0..m3 in the (x, *, y, z) layout.
__m128 hsum3x4Wide(__m128 m0, __m128 m1, __m128 m2, __m128 m3) {
    const __m128 t0 = _mm_unpacklo_ps(m0, m1); // m0x m1x . .
    const __m128 t1 = _mm_unpacklo_ps(m2, m3); // m2x m3x . .
    const __m128 t2 = _mm_unpackhi_ps(m0, m1); // m0y m1y m0z m1z
    const __m128 t3 = _mm_unpackhi_ps(m2, m3); // m2y m3y m2z m3z
    const __m128 x = _mm_movelh_ps(t0, t1);
    const __m128 y = _mm_movelh_ps(t2, t3);
    const __m128 z = _mm_movehl_ps(t3, t2);
    return _mm_add_ps(_mm_add_ps(x, y), z);
}

// One plane (load3Wide layout): n = a x b, out_d = (dot(x - o, n), dot(y - o, n), dot(z - o, n),
// lengthSq(n)).
void planeSides4(__m128 a, __m128 b, __m128 o, __m128 x, __m128 y, __m128 z, __m128& out_n, __m128& out_d) {
    out_n = cross4Wide(a, b);
    out_d = hsum3x4Wide(_mm_mul_ps(_mm_sub_ps(x, o), out_n), _mm_mul_ps(_mm_sub_ps(y, o), out_n),
                        _mm_mul_ps(_mm_sub_ps(z, o), out_n), _mm_mul_ps(out_n, out_n));
}

// wellConditioned(a2, b2, n2) && wellConditioned(a1, b1, n1) in one transpose, from lengthSq(n2)
// and lengthSq(n1) in lane 3 of d2 and d1: lane 0 checks plane 2 and lane 2 plane 1 (a product of
// two floats does not depend on their order).
bool bothWellConditioned(__m128 a2, __m128 b2, __m128 a1, __m128 b1, __m128 d1, __m128 d2) {
    const __m128 len =
        hsum3x4Wide(_mm_mul_ps(a2, a2), _mm_mul_ps(b2, b2), _mm_mul_ps(a1, a1), _mm_mul_ps(b1, b1));
    const __m128 bound = _mm_mul_ps(_mm_set1_ps(kMinSinSq),
                                    _mm_mul_ps(len, _mm_shuffle_ps(len, len, _MM_SHUFFLE(2, 3, 0, 1))));
    const __m128 len_n = _mm_shuffle_ps(d1, d2, _MM_SHUFFLE(3, 3, 3, 3));
    return (_mm_movemask_ps(_mm_cmpgt_ps(len_n, bound)) & 5) == 5;
}

// Lanes 0..2 of a or of b all > 0 or all < 0 (NaN is neither). Written as one sum, so that the
// compiler keeps it one branch: the four fields of three bits sit in nibbles, and a field is all
// ones exactly when adding 1 carries into its nibble's top bit.
bool sameSide3(__m128 a, __m128 b) {
    // The four compare masks narrowed to bytes (saturating packs keep 0 and -1) and gathered by
    // one byte movemask: a > 0, a < 0, b > 0, b < 0 in the four nibbles.
    const __m128 zero = _mm_setzero_ps();
    const __m128i ma =
        _mm_packs_epi32(_mm_castps_si128(_mm_cmpgt_ps(a, zero)), _mm_castps_si128(_mm_cmplt_ps(a, zero)));
    const __m128i mb =
        _mm_packs_epi32(_mm_castps_si128(_mm_cmpgt_ps(b, zero)), _mm_castps_si128(_mm_cmplt_ps(b, zero)));
    const unsigned fields = static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(ma, mb))) & 0x7777u;
    return ((fields + 0x1111u) & 0x8888u) != 0u;
}

// The canonical form straight from sign bits (bit 0 = p, 1 = q, 2 = r of a movemask): code[swap]
// [pos | neg << 3] is kCanon's entry for those classes (q and r swapped when `swap`, as triangle 2
// is when triangle 1's form flips), packed as rot * 2 + flip (6 and 7: coplanar). A NaN value has
// neither bit but is not a zero for kCanon ("d_r >= 0" tells them apart): callers keep NaN out.
struct CanonBitsTable {
    unsigned char code[2][64];
};
constexpr int classOfBit(int pos, int neg, int bit) {
    return ((pos >> bit) & 1) != 0 ? kPos : (((neg >> bit) & 1) != 0 ? kNeg : kZero);
}
constexpr CanonBitsTable makeCanonBitsTable() {
    CanonBitsTable t{};
    for (int swap = 0; swap < 2; ++swap)
        for (int i = 0; i < 64; ++i) {
            const int pos = i & 7, neg = i >> 3;
            const Canon c = canonOf(classOfBit(pos, neg, 0), classOfBit(pos, neg, swap != 0 ? 2 : 1),
                                    classOfBit(pos, neg, swap != 0 ? 1 : 2));
            t.code[swap][i] = static_cast<unsigned char>(c.rot * 2 + c.flip);
        }
    return t;
}
constexpr CanonBitsTable kCanonBits = makeCanonBitsTable();

// For both codes (code1 << 3 | code2): the vertices canonicalCrossing hands to checkMinMax, as
// indices into (p1, q1, r1) and (p2, q2, r2). Coplanar codes get index 0 (their answer is unused).
struct CanonOrder {
    unsigned char v1[3], v2[3];
};
struct CanonOrderTable {
    CanonOrder entry[64];
};
constexpr CanonOrderTable makeCanonOrderTable() {
    CanonOrderTable t{};
    constexpr unsigned char kNext[5] = {0, 1, 2, 0, 1};
    for (int code1 = 0; code1 < 6; ++code1)
        for (int code2 = 0; code2 < 6; ++code2) {
            const int rot1 = code1 >> 1, flip1 = code1 & 1, rot2 = code2 >> 1, flip2 = code2 & 1;
            const unsigned char b = kNext[rot1 + 1], c = kNext[rot1 + 2];
            const unsigned char t2[3] = {0, static_cast<unsigned char>(flip1 != 0 ? 2 : 1),
                                         static_cast<unsigned char>(flip1 != 0 ? 1 : 2)};
            CanonOrder& o = t.entry[code1 << 3 | code2];
            o.v1[0] = static_cast<unsigned char>(rot1);
            o.v1[1] = flip2 != 0 ? c : b;
            o.v1[2] = flip2 != 0 ? b : c;
            o.v2[0] = t2[rot2];
            o.v2[1] = t2[kNext[rot2 + 1]];
            o.v2[2] = t2[kNext[rot2 + 2]];
        }
    return t;
}
constexpr CanonOrderTable kCanonOrder = makeCanonOrderTable();

// Both triangles' sign bits at once (i1 << 6 | i2, i = pos | neg << 3) to the six canonical vertex
// indices, two bits each (v1[0..2] then v2[0..2]), and bit 12 for coplanar: one load instead of
// three dependent ones on the survivors' critical path (8 KiB).
struct CanonPairTable {
    std::uint16_t entry[64 * 64];
};
constexpr CanonPairTable makeCanonPairTable() {
    CanonPairTable t{};
    for (int i1 = 0; i1 < 64; ++i1)
        for (int i2 = 0; i2 < 64; ++i2) {
            const unsigned code1 = kCanonBits.code[0][i1];
            const unsigned code2 = kCanonBits.code[code1 & 1u][i2];
            const CanonOrder& o = kCanonOrder.entry[code1 << 3 | code2];
            const unsigned coplanar = code1 >= 6u || code2 >= 6u ? 1u : 0u;
            const unsigned slots = static_cast<unsigned>(o.v1[0] | o.v1[1] << 2 | o.v1[2] << 4 |
                                                         o.v2[0] << 6 | o.v2[1] << 8 | o.v2[2] << 10);
            t.entry[i1 << 6 | i2] = static_cast<std::uint16_t>(slots | coplanar << 12);
        }
    return t;
}
constexpr CanonPairTable kCanonPair = makeCanonPairTable();

// kCanonPair indexed by base-3 digits and holding load offsets, for the survivors: a plane side's
// digit is 0 (zero), 1 (d > 0) or 2 (d < 0); the key is 27 * (digits of p1, q1, r1 against plane 2,
// p1's the lowest) + (digits of p2, q2, r2 against plane 1), which SIMD code sums from compare
// masks. Each entry gives the canonical vertices as float offsets, of triangle 1 into p1, q1, r1
// stored 4 floats apart, of triangle 2 into p2, q2, r2 stored 12 floats apart (as a TriangleBatch4
// holds a lane's vertices), and the coplanar flag: the loads need no shifts or masks. 729 entries of
// 8 bytes (5.7 KiB, against 8 KiB for kCanonPair).
struct CanonSlots {
    unsigned char v1[3];
    unsigned char v2[3];
    unsigned char coplanar;
    unsigned char unused;
};
struct CanonSlotsTable {
    CanonSlots entry[729];
};
constexpr int signBitsOfDigits(int digits) {
    int pos = 0, neg = 0;
    for (int k = 0; k < 3; ++k, digits /= 3) {
        pos |= (digits % 3 == 1 ? 1 : 0) << k;
        neg |= (digits % 3 == 2 ? 1 : 0) << k;
    }
    return pos | neg << 3;
}
constexpr CanonSlotsTable makeCanonSlotsTable() {
    CanonSlotsTable t{};
    for (int key = 0; key < 729; ++key) {
        const unsigned e = kCanonPair.entry[signBitsOfDigits(key / 27) << 6 | signBitsOfDigits(key % 27)];
        CanonSlots& c = t.entry[key];
        for (int k = 0; k < 3; ++k) {
            c.v1[k] = static_cast<unsigned char>(4u * (e >> (2 * k) & 3u));
            c.v2[k] = static_cast<unsigned char>(12u * (e >> (6 + 2 * k) & 3u));
        }
        c.coplanar = static_cast<unsigned char>(e >> 12 & 1u);
    }
    return t;
}
constexpr CanonSlotsTable kCanonSlots = makeCanonSlotsTable();
static_assert(sizeof(CanonSlots) == 8, "CanonSlots entry");

// The kCanonSlots digit weights of a plane side d > 0 (d < 0 weighs twice as much): triangle 2's
// sides against plane 1 (d2 = dp2, dq2, dr2) and triangle 1's against plane 2 (d1).
constexpr std::int32_t kDigit2[3] = {1, 3, 9};
constexpr std::int32_t kDigit1[3] = {27, 81, 243};

// checkMinMax of the canonical vertices (a1, b1, c1) and (a2, b2, c2): both orientation
// determinants side by side with its operations (cross4, and ((x + y) + z) for the dots).
// 1 when they cross.
unsigned crossingOf(__m128 a1, __m128 b1, __m128 c1, __m128 a2, __m128 b2, __m128 c2) {
    const __m128 na = cross4(_mm_sub_ps(a2, b1), _mm_sub_ps(a1, b1));
    const __m128 nb = cross4(_mm_sub_ps(a2, a1), _mm_sub_ps(c1, a1));
    const __m128 m0 = _mm_mul_ps(_mm_sub_ps(b2, b1), na), m1 = _mm_mul_ps(_mm_sub_ps(c2, a1), nb);
    const __m128 xy = _mm_unpacklo_ps(m0, m1); // m0x m1x m0y m1y
    const __m128 s = _mm_add_ps(_mm_add_ps(xy, _mm_movehl_ps(xy, xy)), _mm_unpackhi_ps(m0, m1));
    return static_cast<unsigned>((_mm_movemask_ps(_mm_cmpgt_ps(s, _mm_setzero_ps())) & 3) == 0);
}

// canonicalCrossing of vertex vectors (x, y, z, *) with plane sides d1 = (dp1, dq1, dr1, *) and
// d2 = (dp2, dq2, dr2, *), without a branch: the kCanonSlots key is summed from compare masks, the
// canonical vertices are loaded at the table's offsets (t1: p1, q1, r1 4 floats apart; t2: p2, q2,
// r2 12 floats apart), and checkMinMax's two determinants are computed side by side. Bit 0: they
// cross (meaningless when coplanar); bit 1: coplanar. No NaN among the sides.
unsigned canonicalCrossing4(const float* t1, const float* t2, __m128 d1, __m128 d2) {
    const __m128 zero = _mm_setzero_ps();
    const __m128i w1 = _mm_setr_epi32(kDigit1[0], kDigit1[1], kDigit1[2], 0);
    const __m128i w2 = _mm_setr_epi32(kDigit2[0], kDigit2[1], kDigit2[2], 0);
    const __m128i pos = _mm_add_epi32(_mm_and_si128(_mm_castps_si128(_mm_cmpgt_ps(d1, zero)), w1),
                                      _mm_and_si128(_mm_castps_si128(_mm_cmpgt_ps(d2, zero)), w2));
    const __m128i neg = _mm_add_epi32(_mm_and_si128(_mm_castps_si128(_mm_cmplt_ps(d1, zero)), w1),
                                      _mm_and_si128(_mm_castps_si128(_mm_cmplt_ps(d2, zero)), w2));
    const __m128i v = _mm_add_epi32(pos, _mm_add_epi32(neg, neg));
    const __m128i h = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    const CanonSlots& c =
        kCanonSlots.entry[_mm_cvtsi128_si32(_mm_add_epi32(h, _mm_shuffle_epi32(h, _MM_SHUFFLE(2, 3, 0, 1))))];
    return crossingOf(_mm_load_ps(t1 + c.v1[0]), _mm_load_ps(t1 + c.v1[1]), _mm_load_ps(t1 + c.v1[2]),
                      _mm_load_ps(t2 + c.v2[0]), _mm_load_ps(t2 + c.v2[1]), _mm_load_ps(t2 + c.v2[2])) |
           static_cast<unsigned>(c.coplanar) << 1;
}

// Triangle 1's normal as classify() computes it, (q1 - p1) x (r1 - p1), for the rare paths that
// need it as a Vec3.
void plane1Normal(const Vec3& p1, const Vec3& q1, const Vec3& r1, Vec3& out) {
    Vec3 e1, e2;
    sub(q1, p1, e1);
    sub(r1, p1, e2);
    cross(e1, e2, out);
}

// The rare ends of classifySurvivor, out of line so that it saves no registers: a NaN plane side
// (huge input) takes the scalar finish, a coplanar pair the 2D test. Not marked cold: with its tail
// calls moved to a cold section, classifySurvivor measured 0.7 ns a dense pair slower.
FLAK_TRI_TRI_NOINLINE Overlap classifySurvivorNaN(const Vec3& p1, const Vec3& q1, const Vec3& r1,
                                                  const Vec3& p2, const Vec3& q2, const Vec3& r2, __m128 d1,
                                                  __m128 d2) {
    Vec3 n1;
    plane1Normal(p1, q1, r1, n1);
    alignas(16) float s1[4], s2[4];
    _mm_store_ps(s1, d1);
    _mm_store_ps(s2, d2);
    return classifyWellConditioned(p1, q1, r1, p2, q2, r2, n1, s1[0], s1[1], s1[2], s2[0], s2[1], s2[2]);
}

FLAK_TRI_TRI_NOINLINE Overlap classifyCoplanar(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                               const Vec3& q2, const Vec3& r2) {
    Vec3 n1;
    plane1Normal(p1, q1, r1, n1);
    return coplanarOverlap(p1, q1, r1, p2, q2, r2, n1) ? Overlap::Coplanar : Overlap::Disjoint;
}

// classify() after both plane tests passed, from its plane sides (d1, d2 carry lengthSq(n) in
// lane 3). Out of line, and called last, so that classify() needs no stack frame and saves no
// registers on the paths that reject. The vertices are loaded again (L1 hits, off the critical
// path): classify() then need not keep six vectors live across its plane tests.
FLAK_TRI_TRI_NOINLINE Overlap classifySurvivor(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                               const Vec3& q2, const Vec3& r2, __m128 d1, __m128 d2) {
    if ((_mm_movemask_ps(_mm_cmpunord_ps(d1, d2)) & 7) != 0)
        return classifySurvivorNaN(p1, q1, r1, p2, q2, r2, d1, d2);
    // Triangle 1's vertices 4 floats apart, triangle 2's 12 (kCanonSlots' offsets).
    alignas(16) float t1[12], t2[28];
    _mm_store_ps(t1, load3(p1));
    _mm_store_ps(t1 + 4, load3(q1));
    _mm_store_ps(t1 + 8, load3(r1));
    _mm_store_ps(t2, load3(p2));
    _mm_store_ps(t2 + 12, load3(q2));
    _mm_store_ps(t2 + 24, load3(r2));
    const unsigned r = canonicalCrossing4(t1, t2, d1, d2);
    if (r & 2u) return classifyCoplanar(p1, q1, r1, p2, q2, r2);
    return static_cast<Overlap>(r);
}

// classifyWide below is the same with both planes in one pass of 256-bit vectors (AVX2).
Overlap classify(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                 const Vec3& r2) {
    const __m128 P1 = load3Wide(p1), Q1 = load3Wide(q1), R1 = load3Wide(r1);
    const __m128 P2 = load3Wide(p2), Q2 = load3Wide(q2), R2 = load3Wide(r2);
    __m128 n1, n2, d1, d2;
    // Signs of p1, q1, r1 against the plane of triangle 2: n2 = (p2 - r2) x (q2 - r2), origin r2;
    // and of p2, q2, r2 against the plane of triangle 1: n1 = (q1 - p1) x (r1 - p1), origin r1.
    // Both are computed before either is looked at: one branch on "rejected by either plane"
    // mispredicts less than two in a row, and costs fewer cycles than it saves. (An ill-conditioned
    // plane restarts in classifySlow, which repeats the float test of a well-conditioned one, so
    // the answer does not depend on the order.)
    const __m128 a2 = _mm_sub_ps(P2, R2), b2 = _mm_sub_ps(Q2, R2), a1 = _mm_sub_ps(Q1, P1),
                 b1 = _mm_sub_ps(R1, P1);
    planeSides4(a2, b2, R2, P1, Q1, R1, n2, d1);
    planeSides4(a1, b1, R1, P2, Q2, R2, n1, d2);
    if (!bothWellConditioned(a2, b2, a1, b1, d1, d2)) return classifySlow(p1, q1, r1, p2, q2, r2);
    if (sameSide3(d1, d2)) return Overlap::Disjoint;
    return classifySurvivor(p1, q1, r1, p2, q2, r2, d1, d2);
}

#if defined(FLAK_TRI_TRI_AVX2)
__m256 join(__m128 lo, __m128 hi) FLAK_AVX2;
__m256 join(__m128 lo, __m128 hi) { return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1); }

// cross4Wide's permute, on both halves.
__m256 rotate256(__m256 v) FLAK_AVX2;
__m256 rotate256(__m256 v) { return _mm256_permute_ps(v, _MM_SHUFFLE(0, 3, 1, 2)); }

// Whether the AVX2 forms may run: asked once.
bool haveAvx2() {
    static const bool yes = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return yes;
}

// classify() with both planes' sides in one pass of 256-bit vectors: plane 2 (sides of triangle
// 1) in the low 128 bits, plane 1 in the high ones. Permutes, unpacks and shuffles of 256-bit
// vectors act on each 128-bit half alone, so each half is planeSides4's very operations and d1,
// d2 are bit for bit classify()'s.
Overlap classifyWide(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                     const Vec3& r2) FLAK_AVX2;
Overlap classifyWide(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                     const Vec3& r2) {
    const __m128 P1 = load3Wide(p1), Q1 = load3Wide(q1), R1 = load3Wide(r1);
    const __m128 P2 = load3Wide(p2), Q2 = load3Wide(q2), R2 = load3Wide(r2);
    const __m128 a2 = _mm_sub_ps(P2, R2), b2 = _mm_sub_ps(Q2, R2), a1 = _mm_sub_ps(Q1, P1),
                 b1 = _mm_sub_ps(R1, P1);
    const __m256 a = join(a2, a1), b = join(b2, b1), o = join(R2, R1);
    const __m256 n = rotate256(_mm256_sub_ps(_mm256_mul_ps(a, rotate256(b)), _mm256_mul_ps(rotate256(a), b)));
    const __m256 m0 = _mm256_mul_ps(_mm256_sub_ps(join(P1, P2), o), n);
    const __m256 m1 = _mm256_mul_ps(_mm256_sub_ps(join(Q1, Q2), o), n);
    const __m256 m2 = _mm256_mul_ps(_mm256_sub_ps(join(R1, R2), o), n);
    const __m256 m3 = _mm256_mul_ps(n, n);
    // hsum3x4Wide, with the shuffles that equal its movelh / movehl.
    const __m256 t0 = _mm256_unpacklo_ps(m0, m1), t1 = _mm256_unpacklo_ps(m2, m3);
    const __m256 t2 = _mm256_unpackhi_ps(m0, m1), t3 = _mm256_unpackhi_ps(m2, m3);
    const __m256 x = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 y = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 z = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 d = _mm256_add_ps(_mm256_add_ps(x, y), z);
    const __m128 d1 = _mm256_castps256_ps128(d), d2 = _mm256_extractf128_ps(d, 1);
    if (!bothWellConditioned(a2, b2, a1, b1, d1, d2)) return classifySlow(p1, q1, r1, p2, q2, r2);
    if (sameSide3(d1, d2)) return Overlap::Disjoint;
    return classifySurvivor(p1, q1, r1, p2, q2, r2, d1, d2);
}
#endif
#else
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
    return classifyWellConditioned(p1, q1, r1, p2, q2, r2, n1, dp1, dq1, dr1, dp2, dq2, dr2);
}

#endif

// classify() for one pair: the 256-bit form where the CPU has AVX2 (same answers).
Overlap classifyPair(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                     const Vec3& r2) {
#if defined(FLAK_TRI_TRI_AVX2)
    if (haveAvx2()) return classifyWide(p1, q1, r1, p2, q2, r2);
#endif
    return classify(p1, q1, r1, p2, q2, r2);
}

} // namespace

namespace detail {

TriTriKind classifyTriTri(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                          const Vec3& r2) {
    return classifyPair(p1, q1, r1, p2, q2, r2);
}

} // namespace detail

bool triTriOverlap(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                   const Vec3& r2) {
    return classifyPair(p1, q1, r1, p2, q2, r2) != Overlap::Disjoint;
}

void setBatchTriangle(int lane, const Vec3& a, const Vec3& b, const Vec3& c, TriangleBatch4& inout) {
    FLAK_ASSERT(lane >= 0 && lane < 4, "batch lane out of range");
    if (lane < 0 || lane >= 4) return;
    const Vec3* v[3] = {&a, &b, &c};
    for (int i = 0; i < 3; ++i) {
        inout.v[i][0][lane] = v[i]->x;
        inout.v[i][1][lane] = v[i]->y;
        inout.v[i][2][lane] = v[i]->z;
    }
    // The lane's plane exactly as classify() computes it for the second triangle.
    Vec3 e1, e2, n;
    sub(a, c, e1);
    sub(b, c, e2);
    cross(e1, e2, n);
    inout.n[0][lane] = n.x;
    inout.n[1][lane] = n.y;
    inout.n[2][lane] = n.z;
    const unsigned bit = 1u << lane;
    // Any NaN or infinite vertex makes triTriOverlap answer no, on every path (classifyAfterPlanes
    // checks finiteness before a yes): such a lane is skipped rather than decided.
    const bool finite = detail::isFiniteTriangle(a, b, c);
    inout.empty_lanes = finite ? inout.empty_lanes & ~bit : inout.empty_lanes | bit;
    inout.scalar_lanes =
        finite && !wellConditioned(e1, e2, n) ? inout.scalar_lanes | bit : inout.scalar_lanes & ~bit;
}

void clearBatch(TriangleBatch4& out) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 4; ++k) {
            for (int j = 0; j < 3; ++j) out.v[i][j][k] = nan;
            out.n[i][k] = nan;
        }
    out.scalar_lanes = 0u;
    out.empty_lanes = 0xFu;
    out.reserved[0] = out.reserved[1] = 0u;
}

// Four lanes at once with setBatchTriangle's very operations (cross and lengthSq in the scalar
// order), so the planes and flags are bit for bit those it would write; a lane is finite when
// x - x == 0 for all nine coordinates (NaN for an infinity or a NaN).
void finishBatch(std::uint32_t count, TriangleBatch4& inout) {
    FLAK_ASSERT(count <= 4u, "batch lane count above 4");
    const std::uint32_t used = count < 4u ? count : 4u;
    const float nan = std::numeric_limits<float>::quiet_NaN();
#if defined(FLAK_SIMD_SSE2)
    // The lanes past `used` become NaN in registers: no scalar store followed by a vector load.
    const __m128 in_use = _mm_castsi128_ps(
        _mm_cmplt_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32(static_cast<std::int32_t>(used))));
    const __m128 nans = _mm_andnot_ps(in_use, _mm_set1_ps(nan));
    __m128 v[3][3];
    __m128 finite = _mm_castsi128_ps(_mm_set1_epi32(-1));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            v[i][j] = _mm_or_ps(_mm_and_ps(in_use, _mm_load_ps(inout.v[i][j])), nans);
            _mm_store_ps(inout.v[i][j], v[i][j]);
            finite = _mm_and_ps(finite, _mm_cmpeq_ps(_mm_sub_ps(v[i][j], v[i][j]), _mm_setzero_ps()));
        }
    __m128 e1[3], e2[3];
    for (int j = 0; j < 3; ++j) {
        e1[j] = _mm_sub_ps(v[0][j], v[2][j]);
        e2[j] = _mm_sub_ps(v[1][j], v[2][j]);
    }
    const __m128 nx = _mm_sub_ps(_mm_mul_ps(e1[1], e2[2]), _mm_mul_ps(e1[2], e2[1]));
    const __m128 ny = _mm_sub_ps(_mm_mul_ps(e1[2], e2[0]), _mm_mul_ps(e1[0], e2[2]));
    const __m128 nz = _mm_sub_ps(_mm_mul_ps(e1[0], e2[1]), _mm_mul_ps(e1[1], e2[0]));
    _mm_store_ps(inout.n[0], nx);
    _mm_store_ps(inout.n[1], ny);
    _mm_store_ps(inout.n[2], nz);
    const auto length_sq = [](__m128 x, __m128 y, __m128 z) {
        return _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
    };
    const __m128 bound = _mm_mul_ps(
        _mm_set1_ps(kMinSinSq), _mm_mul_ps(length_sq(e1[0], e1[1], e1[2]), length_sq(e2[0], e2[1], e2[2])));
    const unsigned well = static_cast<unsigned>(_mm_movemask_ps(_mm_cmpgt_ps(length_sq(nx, ny, nz), bound)));
    const unsigned fin = static_cast<unsigned>(_mm_movemask_ps(finite));
    inout.empty_lanes = ~fin & 0xFu;
    inout.scalar_lanes = fin & ~well & 0xFu;
#else
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
#endif
    inout.reserved[0] = inout.reserved[1] = 0u;
}

namespace {

void laneVertex(const TriangleBatch4& batch, int vertex, int lane, Vec3& out) {
    set(batch.v[vertex][0][lane], batch.v[vertex][1][lane], batch.v[vertex][2][lane], out);
}

// Every lane through the scalar path (triangle 1 ill-conditioned): out of line, like classifySlow.
FLAK_TRI_TRI_COLD unsigned triTriOverlap4Slow(const Vec3& p1, const Vec3& q1, const Vec3& r1,
                                              const TriangleBatch4& batch) {
    unsigned mask = 0u;
    for (int lane = 0; lane < 4; ++lane) {
        if ((batch.empty_lanes >> lane) & 1u) continue;
        Vec3 p2, q2, r2;
        laneVertex(batch, 0, lane, p2);
        laneVertex(batch, 1, lane, q2);
        laneVertex(batch, 2, lane, r2);
        if (classify(p1, q1, r1, p2, q2, r2) != Overlap::Disjoint) mask |= 1u << lane;
    }
    return mask;
}

} // namespace

#if defined(FLAK_SIMD_SSE2)
namespace {

// Index of the lowest set bit of a non-zero four-lane mask.
#if defined(__GNUC__)
int lowestBit(unsigned mask) { return __builtin_ctz(mask); }
#else
int lowestBit(unsigned mask) {
    static constexpr signed char kLowest[16] = {0, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0};
    return kLowest[mask & 0xFu];
}
#endif

// Triangle 1 with its plane, splatted for the lanes: prepared once per call (twice used by the
// eight-lane form).
struct Tri1Lanes {
    const Vec3* p1;
    const Vec3* q1;
    const Vec3* r1;
    __m128 n1x, n1y, n1z;
    __m128 v1[3][3];         // p1, q1, r1 splatted: v1[vertex][axis]
    alignas(16) float v[12]; // p1, q1, r1 as (x, y, z, 0), 4 floats apart (kCanonSlots' offsets)
};

__m128 dot3(__m128 ax, __m128 ay, __m128 az, __m128 bx, __m128 by, __m128 bz) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz));
}

__m128 sameSide(__m128 a, __m128 b, __m128 c) {
    const __m128 zero = _mm_setzero_ps();
    const __m128 pos =
        _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(a, zero), _mm_cmpgt_ps(b, zero)), _mm_cmpgt_ps(c, zero));
    const __m128 neg =
        _mm_and_ps(_mm_and_ps(_mm_cmplt_ps(a, zero), _mm_cmplt_ps(b, zero)), _mm_cmplt_ps(c, zero));
    return _mm_or_ps(pos, neg);
}

// Lanes decided by the whole scalar test: those with an ill-conditioned plane, and survivors with a
// NaN plane side (huge input; the sign table does not take NaN). Every other survivor of the call
// is finished here too, so that the common path below never holds values across a call.
FLAK_TRI_TRI_COLD unsigned finishLanesSlow(const Tri1Lanes& t1, const TriangleBatch4& batch,
                                           unsigned survivors, unsigned scalar_lanes, __m128 dp1, __m128 dq1,
                                           __m128 dr1, __m128 dp2, __m128 dq2, __m128 dr2) {
    alignas(16) float d[6][4];
    _mm_store_ps(d[0], dp1);
    _mm_store_ps(d[1], dq1);
    _mm_store_ps(d[2], dr1);
    _mm_store_ps(d[3], dp2);
    _mm_store_ps(d[4], dq2);
    _mm_store_ps(d[5], dr2);
    Vec3 n1;
    plane1Normal(*t1.p1, *t1.q1, *t1.r1, n1);
    unsigned mask = 0u;
    for (unsigned todo = survivors | scalar_lanes; todo != 0u; todo &= todo - 1u) {
        const int lane = lowestBit(todo);
        Vec3 p2, q2, r2;
        laneVertex(batch, 0, lane, p2);
        laneVertex(batch, 1, lane, q2);
        laneVertex(batch, 2, lane, r2);
        const Overlap result =
            (survivors >> lane) & 1u
                ? classifyWellConditioned(*t1.p1, *t1.q1, *t1.r1, p2, q2, r2, n1, d[0][lane], d[1][lane],
                                          d[2][lane], d[3][lane], d[4][lane], d[5][lane])
                : classifySlow(*t1.p1, *t1.q1, *t1.r1, p2, q2, r2);
        mask |= static_cast<unsigned>(result != Overlap::Disjoint) << lane;
    }
    return mask;
}

// The survivors whose canonical form is coplanar: the 2D test. Rare; `mask` holds the answers of
// the other lanes.
FLAK_TRI_TRI_COLD unsigned finishCoplanarLanes(const Tri1Lanes& t1, const TriangleBatch4& batch,
                                               unsigned lanes, unsigned mask) {
    Vec3 n1;
    plane1Normal(*t1.p1, *t1.q1, *t1.r1, n1);
    for (unsigned todo = lanes; todo != 0u; todo &= todo - 1u) {
        const int lane = lowestBit(todo);
        Vec3 p2, q2, r2;
        laneVertex(batch, 0, lane, p2);
        laneVertex(batch, 1, lane, q2);
        laneVertex(batch, 2, lane, r2);
        mask |= static_cast<unsigned>(coplanarOverlap(*t1.p1, *t1.q1, *t1.r1, p2, q2, r2, n1)) << lane;
    }
    return mask;
}

// The lanes that survived both plane tests, one at a time, with no NaN among their plane sides:
// canonicalCrossing4 with triangle 2's canonical vertices gathered straight from the batch at the
// table's offsets. A leaf (the coplanar lanes are handed on at the end), so that it saves no
// registers; out of line so that overlapLanes, which mostly returns after its plane tests, does not
// pay for this loop's registers either.
FLAK_TRI_TRI_NOINLINE unsigned finishLanes(const Tri1Lanes& t1, const TriangleBatch4& batch,
                                           unsigned survivors, __m128i keys) {
    alignas(16) std::uint32_t key[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(key), keys);
    const float* t1v = t1.v;
    unsigned mask = 0u, coplanar = 0u;
    for (unsigned todo = survivors; todo != 0u; todo &= todo - 1u) {
        const int lane = lowestBit(todo);
        const CanonSlots& c = kCanonSlots.entry[key[lane]];
        // In v (36 contiguous floats) the lane's x, y, z of a vertex are 4 floats apart, its
        // vertices 12.
        const float* v2 = &batch.v[0][0][lane];
        const auto vertex2 = [v2](unsigned offset) {
            const float* v = v2 + offset;
            return _mm_movelh_ps(_mm_unpacklo_ps(_mm_load_ss(v), _mm_load_ss(v + 4)), _mm_load_ss(v + 8));
        };
        const unsigned r =
            crossingOf(_mm_load_ps(t1v + c.v1[0]), _mm_load_ps(t1v + c.v1[1]), _mm_load_ps(t1v + c.v1[2]),
                       vertex2(c.v2[0]), vertex2(c.v2[1]), vertex2(c.v2[2]));
        const unsigned flat = c.coplanar;
        mask |= (r & ~flat) << lane;
        coplanar |= flat << lane;
    }
    if (coplanar != 0u) return finishCoplanarLanes(t1, batch, coplanar, mask);
    return mask;
}

// The end of a batch's test once its plane tests left survivors or scalar lanes: the scalar path
// for them all when any lane needs it (ill-conditioned plane, NaN side), else finishLanes.
unsigned finishSurvivors(const Tri1Lanes& t1, const TriangleBatch4& batch, unsigned survivors,
                         unsigned scalar_lanes, unsigned nan_lanes, __m128 dp1, __m128 dq1, __m128 dr1,
                         __m128 dp2, __m128 dq2, __m128 dr2, __m128i key) {
    if ((scalar_lanes | nan_lanes) != 0u)
        return finishLanesSlow(t1, batch, survivors, scalar_lanes, dp1, dq1, dr1, dp2, dq2, dr2);
    return finishLanes(t1, batch, survivors, key);
}

// The two plane-side tests of Guigue-Devillers for four lanes at once, with the very operations
// (and order) of the scalar code: subtract, cross, dot as ((x*x + y*y) + z*z). Each SSE lane is
// the IEEE single-precision result of the scalar expression, so the values, and thus the answers,
// are bit for bit those of triTriOverlap. Triangle 1's plane goes first (its normal is shared):
// when it rejects every lane, the lanes' own planes are never touched. Lanes whose plane is
// ill-conditioned take the scalar path whole; empty lanes (cleared, or a non-finite vertex) none.
// overlapLanes8 below is the same for two batches in 256-bit vectors (AVX2).
unsigned overlapLanes(const Tri1Lanes& t1, const TriangleBatch4& batch, unsigned wanted) {
    const __m128 p2x = _mm_load_ps(batch.v[0][0]), p2y = _mm_load_ps(batch.v[0][1]),
                 p2z = _mm_load_ps(batch.v[0][2]);
    const __m128 q2x = _mm_load_ps(batch.v[1][0]), q2y = _mm_load_ps(batch.v[1][1]),
                 q2z = _mm_load_ps(batch.v[1][2]);
    const __m128 r2x = _mm_load_ps(batch.v[2][0]), r2y = _mm_load_ps(batch.v[2][1]),
                 r2z = _mm_load_ps(batch.v[2][2]);
    // Triangle 1's plane against the lanes' vertices: d = dot(v2 - r1, n1).
    const __m128 r1x = t1.v1[2][0], r1y = t1.v1[2][1], r1z = t1.v1[2][2];
    const __m128 dp2 =
        dot3(_mm_sub_ps(p2x, r1x), _mm_sub_ps(p2y, r1y), _mm_sub_ps(p2z, r1z), t1.n1x, t1.n1y, t1.n1z);
    const __m128 dq2 =
        dot3(_mm_sub_ps(q2x, r1x), _mm_sub_ps(q2y, r1y), _mm_sub_ps(q2z, r1z), t1.n1x, t1.n1y, t1.n1z);
    const __m128 dr2 =
        dot3(_mm_sub_ps(r2x, r1x), _mm_sub_ps(r2y, r1y), _mm_sub_ps(r2z, r1z), t1.n1x, t1.n1y, t1.n1z);
    const unsigned reject1 = static_cast<unsigned>(_mm_movemask_ps(sameSide(dp2, dq2, dr2)));
    // Empty lanes and lanes the caller left out are disjoint whatever the planes say.
    const unsigned live = ~batch.empty_lanes & wanted & 0xFu;
    if ((live & ~reject1) == 0u) return 0u;

    // The lanes' planes n2 = (p2 - r2) x (q2 - r2) and their conditioning were computed by
    // setBatchTriangle with classify()'s own operations; against triangle 1: d = dot(v1 - r2, n2).
    const __m128 n2x = _mm_load_ps(batch.n[0]), n2y = _mm_load_ps(batch.n[1]), n2z = _mm_load_ps(batch.n[2]);
    const auto side2 = [&](const __m128(&v)[3]) {
        return dot3(_mm_sub_ps(v[0], r2x), _mm_sub_ps(v[1], r2y), _mm_sub_ps(v[2], r2z), n2x, n2y, n2z);
    };
    const __m128 dp1 = side2(t1.v1[0]), dq1 = side2(t1.v1[1]), dr1 = side2(t1.v1[2]);
    const unsigned reject2 = static_cast<unsigned>(_mm_movemask_ps(sameSide(dp1, dq1, dr1)));
    // A lane rejected by triangle 1's (well-conditioned) plane is disjoint whatever its own plane;
    // an empty lane is disjoint whatever the planes say (its NaN sides reject nothing).
    const unsigned scalar_lanes = batch.scalar_lanes & ~reject1 & live;
    const unsigned survivors = ~(reject1 | reject2) & ~scalar_lanes & live;
    if ((survivors | scalar_lanes) == 0u) return 0u;
    // NaN in either side of a pair: both are NaN-checked by one unordered compare.
    const __m128 nan =
        _mm_or_ps(_mm_or_ps(_mm_cmpunord_ps(dp1, dp2), _mm_cmpunord_ps(dq1, dq2)), _mm_cmpunord_ps(dr1, dr2));
    const unsigned nan_lanes = static_cast<unsigned>(_mm_movemask_ps(nan)) & survivors;
    // Every lane's kCanonSlots key at once, summed from the compare masks.
    const __m128 zero = _mm_setzero_ps();
    const __m128 sides[6] = {dp2, dq2, dr2, dp1, dq1, dr1};
    const std::int32_t weight[6] = {kDigit2[0], kDigit2[1], kDigit2[2], kDigit1[0], kDigit1[1], kDigit1[2]};
    __m128i pos = _mm_setzero_si128(), neg = _mm_setzero_si128();
    for (int i = 0; i < 6; ++i) {
        const __m128i w = _mm_set1_epi32(weight[i]);
        pos = _mm_add_epi32(pos, _mm_and_si128(_mm_castps_si128(_mm_cmpgt_ps(sides[i], zero)), w));
        neg = _mm_add_epi32(neg, _mm_and_si128(_mm_castps_si128(_mm_cmplt_ps(sides[i], zero)), w));
    }
    const __m128i key = _mm_add_epi32(pos, _mm_add_epi32(neg, neg));
    return finishSurvivors(t1, batch, survivors, scalar_lanes, nan_lanes, dp1, dq1, dr1, dp2, dq2, dr2, key);
}

#if defined(FLAK_TRI_TRI_AVX2)
// dot3 and sameSide on eight lanes.
__m256 dot3x8(__m256 ax, __m256 ay, __m256 az, __m256 bx, __m256 by, __m256 bz) FLAK_AVX2;
__m256 dot3x8(__m256 ax, __m256 ay, __m256 az, __m256 bx, __m256 by, __m256 bz) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ax, bx), _mm256_mul_ps(ay, by)), _mm256_mul_ps(az, bz));
}

__m256 sameSide8(__m256 a, __m256 b, __m256 c) FLAK_AVX2;
__m256 sameSide8(__m256 a, __m256 b, __m256 c) {
    const __m256 zero = _mm256_setzero_ps();
    const __m256 pos =
        _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(a, zero, _CMP_GT_OQ), _mm256_cmp_ps(b, zero, _CMP_GT_OQ)),
                      _mm256_cmp_ps(c, zero, _CMP_GT_OQ));
    const __m256 neg =
        _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(a, zero, _CMP_LT_OQ), _mm256_cmp_ps(b, zero, _CMP_LT_OQ)),
                      _mm256_cmp_ps(c, zero, _CMP_LT_OQ));
    return _mm256_or_ps(pos, neg);
}

// overlapLanes for two batches at once, lanes 0..3 from `lo` and 4..7 from `hi`, in 256-bit
// vectors: every lane computes the same IEEE single operations in the same order (no fused
// multiply-add: AVX2 alone does not enable FMA, and the build has -ffp-contract=off), so the
// plane sides, keys and answers are bit for bit overlapLanes'. Bit j of `wanted`: lane j.
FLAK_TRI_TRI_NOINLINE unsigned overlapLanes8(const Tri1Lanes& t1, const TriangleBatch4& lo,
                                             const TriangleBatch4& hi, unsigned wanted) FLAK_AVX2;
FLAK_TRI_TRI_NOINLINE unsigned overlapLanes8(const Tri1Lanes& t1, const TriangleBatch4& lo,
                                             const TriangleBatch4& hi, unsigned wanted) {
    __m256 v2[3][3];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) v2[i][k] = join(_mm_load_ps(lo.v[i][k]), _mm_load_ps(hi.v[i][k]));
    // Triangle 1's plane against the lanes' vertices: d = dot(v2 - r1, n1).
    const __m256 r1x = join(t1.v1[2][0], t1.v1[2][0]), r1y = join(t1.v1[2][1], t1.v1[2][1]),
                 r1z = join(t1.v1[2][2], t1.v1[2][2]);
    const __m256 n1x = join(t1.n1x, t1.n1x), n1y = join(t1.n1y, t1.n1y), n1z = join(t1.n1z, t1.n1z);
    __m256 d2[3];
    for (int i = 0; i < 3; ++i)
        d2[i] = dot3x8(_mm256_sub_ps(v2[i][0], r1x), _mm256_sub_ps(v2[i][1], r1y),
                       _mm256_sub_ps(v2[i][2], r1z), n1x, n1y, n1z);
    const unsigned reject1 = static_cast<unsigned>(_mm256_movemask_ps(sameSide8(d2[0], d2[1], d2[2])));
    const unsigned live = ~(lo.empty_lanes | hi.empty_lanes << 4) & wanted & 0xFFu;
    if ((live & ~reject1) == 0u) return 0u;
    // The lanes' planes against triangle 1: d = dot(v1 - r2, n2).
    const __m256 n2x = join(_mm_load_ps(lo.n[0]), _mm_load_ps(hi.n[0]));
    const __m256 n2y = join(_mm_load_ps(lo.n[1]), _mm_load_ps(hi.n[1]));
    const __m256 n2z = join(_mm_load_ps(lo.n[2]), _mm_load_ps(hi.n[2]));
    __m256 d1[3];
    for (int i = 0; i < 3; ++i)
        d1[i] = dot3x8(_mm256_sub_ps(join(t1.v1[i][0], t1.v1[i][0]), v2[2][0]),
                       _mm256_sub_ps(join(t1.v1[i][1], t1.v1[i][1]), v2[2][1]),
                       _mm256_sub_ps(join(t1.v1[i][2], t1.v1[i][2]), v2[2][2]), n2x, n2y, n2z);
    const unsigned reject2 = static_cast<unsigned>(_mm256_movemask_ps(sameSide8(d1[0], d1[1], d1[2])));
    const unsigned scalar_lanes = (lo.scalar_lanes | hi.scalar_lanes << 4) & ~reject1 & live;
    const unsigned survivors = ~(reject1 | reject2) & ~scalar_lanes & live;
    if ((survivors | scalar_lanes) == 0u) return 0u;
    const __m256 nan = _mm256_or_ps(
        _mm256_or_ps(_mm256_cmp_ps(d1[0], d2[0], _CMP_UNORD_Q), _mm256_cmp_ps(d1[1], d2[1], _CMP_UNORD_Q)),
        _mm256_cmp_ps(d1[2], d2[2], _CMP_UNORD_Q));
    const unsigned nan_lanes = static_cast<unsigned>(_mm256_movemask_ps(nan)) & survivors;
    const __m256 zero = _mm256_setzero_ps();
    const __m256 sides[6] = {d2[0], d2[1], d2[2], d1[0], d1[1], d1[2]};
    const std::int32_t weight[6] = {kDigit2[0], kDigit2[1], kDigit2[2], kDigit1[0], kDigit1[1], kDigit1[2]};
    __m256i pos = _mm256_setzero_si256(), neg = _mm256_setzero_si256();
    for (int i = 0; i < 6; ++i) {
        const __m256i w = _mm256_set1_epi32(weight[i]);
        pos = _mm256_add_epi32(
            pos, _mm256_and_si256(_mm256_castps_si256(_mm256_cmp_ps(sides[i], zero, _CMP_GT_OQ)), w));
        neg = _mm256_add_epi32(
            neg, _mm256_and_si256(_mm256_castps_si256(_mm256_cmp_ps(sides[i], zero, _CMP_LT_OQ)), w));
    }
    const __m256i key = _mm256_add_epi32(pos, _mm256_add_epi32(neg, neg));
    unsigned mask = 0u;
    if (((survivors | scalar_lanes) & 0xFu) != 0u)
        mask = finishSurvivors(
            t1, lo, survivors & 0xFu, scalar_lanes & 0xFu, nan_lanes & 0xFu, _mm256_castps256_ps128(d1[0]),
            _mm256_castps256_ps128(d1[1]), _mm256_castps256_ps128(d1[2]), _mm256_castps256_ps128(d2[0]),
            _mm256_castps256_ps128(d2[1]), _mm256_castps256_ps128(d2[2]), _mm256_castsi256_si128(key));
    if (((survivors | scalar_lanes) >> 4) != 0u)
        mask |= finishSurvivors(t1, hi, survivors >> 4, scalar_lanes >> 4, nan_lanes >> 4,
                                _mm256_extractf128_ps(d1[0], 1), _mm256_extractf128_ps(d1[1], 1),
                                _mm256_extractf128_ps(d1[2], 1), _mm256_extractf128_ps(d2[0], 1),
                                _mm256_extractf128_ps(d2[1], 1), _mm256_extractf128_ps(d2[2], 1),
                                _mm256_extracti128_si256(key, 1))
                << 4;
    return mask;
}
#endif

// Lane `axis` of v in every lane.
template <int axis> __m128 splat(__m128 v) {
    return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), _MM_SHUFFLE(axis, axis, axis, axis)));
}

// Triangle 1's plane, as classify() computes it (cross4 and ((x + y) + z) are its operations);
// false when it is ill-conditioned.
bool prepareTri1(const Vec3& p1, const Vec3& q1, const Vec3& r1, Tri1Lanes& out) {
    const __m128 P = load3(p1), Q = load3(q1), R = load3(r1);
    const __m128 e1 = _mm_sub_ps(Q, P), e2 = _mm_sub_ps(R, P);
    const __m128 n = cross4(e1, e2);
    // wellConditioned(e1, e2, n): lengthSq(n) > kMinSinSq * (lengthSq(e1) * lengthSq(e2)).
    const __m128 len = hsum3x4(_mm_mul_ps(n, n), _mm_mul_ps(e1, e1), _mm_mul_ps(e2, e2), _mm_setzero_ps());
    const __m128 bound = _mm_mul_ss(_mm_set_ss(kMinSinSq), _mm_mul_ss(splat<1>(len), splat<2>(len)));
    if (!_mm_comigt_ss(len, bound)) return false;
    out.p1 = &p1;
    out.q1 = &q1;
    out.r1 = &r1;
    out.n1x = splat<0>(n);
    out.n1y = splat<1>(n);
    out.n1z = splat<2>(n);
    const __m128 v[3] = {P, Q, R};
    for (int i = 0; i < 3; ++i) {
        out.v1[i][0] = splat<0>(v[i]);
        out.v1[i][1] = splat<1>(v[i]);
        out.v1[i][2] = splat<2>(v[i]);
        _mm_store_ps(out.v + 4 * i, v[i]);
    }
    return true;
}

} // namespace

unsigned triTriOverlap4(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4& batch) {
    Tri1Lanes t1;
    if (!prepareTri1(p1, q1, r1, t1)) return triTriOverlap4Slow(p1, q1, r1, batch);
    return overlapLanes(t1, batch, 0xFu);
}

unsigned triTriOverlap8(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch8& batch) {
    Tri1Lanes t1;
    if (!prepareTri1(p1, q1, r1, t1))
        return triTriOverlap4Slow(p1, q1, r1, batch.half[0]) |
               (triTriOverlap4Slow(p1, q1, r1, batch.half[1]) << 4);
#if defined(FLAK_TRI_TRI_AVX2)
    if (haveAvx2()) return overlapLanes8(t1, batch.half[0], batch.half[1], 0xFFu);
#endif
    return overlapLanes(t1, batch.half[0], 0xFu) | (overlapLanes(t1, batch.half[1], 0xFu) << 4);
}

unsigned triTriOverlapLanes(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4* batches,
                            std::uint32_t lanes) {
    if (lanes == 0u) return 0u;
    Tri1Lanes t1;
    const bool fast = prepareTri1(p1, q1, r1, t1);
    unsigned mask = 0u;
    for (unsigned q = 0, rest = lanes; rest != 0u; ++q, rest >>= 4u) {
        const unsigned wanted = rest & 0xFu;
        if (wanted == 0u) continue;
#if defined(FLAK_TRI_TRI_AVX2)
        // Two neighbouring batches with lanes asked for in both: one 8-lane pass.
        if (fast && (rest & 0xF0u) != 0u && haveAvx2()) {
            mask |= overlapLanes8(t1, batches[q], batches[q + 1], rest & 0xFFu) << (4u * q);
            ++q;
            rest >>= 4u;
            continue;
        }
#endif
        const unsigned hits =
            fast ? overlapLanes(t1, batches[q], wanted) : triTriOverlap4Slow(p1, q1, r1, batches[q]) & wanted;
        mask |= hits << (4u * q);
    }
    return mask;
}

const char* triTriBackend() {
#if defined(FLAK_TRI_TRI_AVX2)
    if (haveAvx2()) return "avx2";
#endif
    return "sse2";
}
#else
const char* triTriBackend() { return "scalar"; }

// Scalar back-end: the plain per-lane test (identical by construction).
unsigned triTriOverlap4(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4& batch) {
    return triTriOverlap4Slow(p1, q1, r1, batch);
}

unsigned triTriOverlap8(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch8& batch) {
    return triTriOverlap4(p1, q1, r1, batch.half[0]) | (triTriOverlap4(p1, q1, r1, batch.half[1]) << 4);
}

unsigned triTriOverlapLanes(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4* batches,
                            std::uint32_t lanes) {
    unsigned mask = 0u;
    for (unsigned q = 0, rest = lanes; rest != 0u; ++q, rest >>= 4u) {
        const unsigned wanted = rest & 0xFu;
        if (wanted != 0u) mask |= (triTriOverlap4Slow(p1, q1, r1, batches[q]) & wanted) << (4u * q);
    }
    return mask;
}
#endif

} // namespace flak
