// flak — private: the SSE2 side of the triangle-triangle test that tri_tri_sse2.cpp,
// tri_tri_avx2.cpp and the batched entry points (tri_tri.cpp) share: vertex loads, the plane
// tests' cross products and transposes, triangle 1 splatted for the lanes, and the declarations
// of the SSE2 and AVX2 lane kernels. Empty unless the build has SSE2.
#pragma once

#include "geom/tri_tri_impl.h"

#if defined(FLAK_SIMD_SSE2)

namespace flak::detail {

// The two plane-side tests of classify() with 4-wide vectors (x, y, z, 0) per vertex instead of
// scalar code: the hot path is bound by the number of float operations, and the sliver guard
// (three squared lengths) alone was a third of them. Every lane computes the scalar expression
// with the same IEEE single operations in the same order — cross as a.y*b.z - a.z*b.y (lanes
// rotated by shuffles), dot and lengthSq as ((x*x + y*y) + z*z) after a transpose — so the values
// are bit for bit those of the scalar formulation (tri_tri_scalar.cpp) and of the batched lanes.
// x and y in one 8-byte load, z in a 4-byte one: three instructions instead of five, and nothing
// read past the 12 bytes of the Vec3.
inline __m128 load3(const Vec3& v) {
    const __m128 xy = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&v.x)));
    return _mm_movelh_ps(xy, _mm_load_ss(&v.z));
}

// A one-source lane permute with pshufd, which writes a new register: no copy of `a` first.
template <int imm> inline __m128 permute(__m128 a) {
    return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(a), imm));
}
inline __m128 yzx(__m128 a) { return permute<_MM_SHUFFLE(3, 0, 2, 1)>(a); }
inline __m128 zxy(__m128 a) { return permute<_MM_SHUFFLE(3, 1, 0, 2)>(a); }

// (a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x, 0) for w = 0 inputs. Four permutes,
// all at the start: shorter in latency than cross4Wide's three, for the survivors' chains.
inline __m128 cross4(__m128 a, __m128 b) {
    return _mm_sub_ps(_mm_mul_ps(yzx(a), zxy(b)), _mm_mul_ps(zxy(a), yzx(b)));
}

// Lane i: (m_i.x + m_i.y) + m_i.z, for four vectors m0..m3.
inline __m128 hsum3x4(__m128 m0, __m128 m1, __m128 m2, __m128 m3) {
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
// y is read from lane 2 (lane 1 is a copy that no result reads); cross4Wide (tri_tri_sse2.cpp)
// and hsum3x4Wide are cross4 and hsum3x4 for this layout, with the same operations on x, y, z.
inline __m128 load3Wide(const Vec3& v) {
    const __m128 xy = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&v.x)));
    return _mm_loadh_pi(xy, reinterpret_cast<const __m64*>(&v.y));
}

// Lane i: (m_i.x + m_i.y) + m_i.z, for four vectors m0..m3 in the (x, *, y, z) layout.
inline __m128 hsum3x4Wide(__m128 m0, __m128 m1, __m128 m2, __m128 m3) {
    const __m128 t0 = _mm_unpacklo_ps(m0, m1); // m0x m1x . .
    const __m128 t1 = _mm_unpacklo_ps(m2, m3); // m2x m3x . .
    const __m128 t2 = _mm_unpackhi_ps(m0, m1); // m0y m1y m0z m1z
    const __m128 t3 = _mm_unpackhi_ps(m2, m3); // m2y m3y m2z m3z
    const __m128 x = _mm_movelh_ps(t0, t1);
    const __m128 y = _mm_movelh_ps(t2, t3);
    const __m128 z = _mm_movehl_ps(t3, t2);
    return _mm_add_ps(_mm_add_ps(x, y), z);
}

// wellConditioned(a2, b2, n2) && wellConditioned(a1, b1, n1) in one transpose, from lengthSq(n2)
// and lengthSq(n1) in lane 3 of d2 and d1: lane 0 checks plane 2 and lane 2 plane 1 (a product of
// two floats does not depend on their order).
inline bool bothWellConditioned(__m128 a2, __m128 b2, __m128 a1, __m128 b1, __m128 d1, __m128 d2) {
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
inline bool sameSide3(__m128 a, __m128 b) {
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

// The kCanonSlots (tri_tri_sse2.cpp) digit weights of a plane side d > 0 (d < 0 weighs twice as
// much): triangle 2's sides against plane 1 (d2 = dp2, dq2, dr2) and triangle 1's against plane 2
// (d1).
constexpr std::int32_t kDigit2[3] = {1, 3, 9};
constexpr std::int32_t kDigit1[3] = {27, 81, 243};

// Triangle 1 with its plane, splatted for the lanes: prepared once per call (twice used by the
// eight-lane form).
struct Tri1Lanes {
    const Vec3* p1;
    const Vec3* q1;
    const Vec3* r1;
    __m128 n1x, n1y, n1z;
    // planeSidesCertain's bound per unit for triangle 1's plane and its reach: computed on first
    // use (sideBounds), as most calls end in the plane tests.
    mutable __m128 unit1, reach1;
    mutable bool side_bounds = false;
    __m128 v1[3][3];         // p1, q1, r1 splatted: v1[vertex][axis]
    alignas(16) float v[12]; // p1, q1, r1 as (x, y, z, 0), 4 floats apart (kCanonSlots' offsets)
};

// Lane `axis` of v in every lane.
template <int axis> inline __m128 splat(__m128 v) {
    return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), _MM_SHUFFLE(axis, axis, axis, axis)));
}

// Triangle 1's plane, as classify() computes it (cross4 and ((x + y) + z) are its operations);
// false when it is ill-conditioned.
inline bool prepareTri1(const Vec3& p1, const Vec3& q1, const Vec3& r1, Tri1Lanes& out) {
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
    out.side_bounds = false;
    const __m128 v[3] = {P, Q, R};
    for (int i = 0; i < 3; ++i) {
        out.v1[i][0] = splat<0>(v[i]);
        out.v1[i][1] = splat<1>(v[i]);
        out.v1[i][2] = splat<2>(v[i]);
        _mm_store_ps(out.v + 4 * i, v[i]);
    }
    return true;
}

/// classify() after both plane tests passed, from its plane sides d1, d2 (lengthSq(n) in lane 3).
FLAK_TRI_TRI_NOINLINE Overlap classifySurvivor(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                               const Vec3& q2, const Vec3& r2, __m128 d1, __m128 d2);

/// The lane masks below carry two answers (kCrossingShift, tri_tri_impl.h).

/// The lanes the whole scalar test decides (ill-conditioned planes, NaN plane sides), with the
/// call's other survivors.
FLAK_TRI_TRI_COLD unsigned finishLanesSlow(const Tri1Lanes& t1, const TriangleBatch4& batch,
                                           unsigned survivors, unsigned scalar_lanes, __m128 dp1, __m128 dq1,
                                           __m128 dr1, __m128 dp2, __m128 dq2, __m128 dr2);

/// The survivors of both plane tests, one at a time, from their kCanonSlots keys; the whole call
/// goes to finishLanesSlow when a survivor has a plane side in doubt (doubtfulLanes).
FLAK_TRI_TRI_NOINLINE unsigned finishLanes(const Tri1Lanes& t1, const TriangleBatch4& batch,
                                           unsigned survivors, __m128i keys, __m128 dp1, __m128 dq1,
                                           __m128 dr1, __m128 dp2, __m128 dq2, __m128 dr2);

// nearlyParallel (tri_tri_impl.h) of triangle 1's plane and each lane's, with its operations in
// its order: bit j set for lane j.
inline unsigned nearlyParallelLanes(const Tri1Lanes& t1, const TriangleBatch4& batch) {
    const __m128 n2x = _mm_load_ps(batch.n[0]), n2y = _mm_load_ps(batch.n[1]), n2z = _mm_load_ps(batch.n[2]);
    const __m128 cx = _mm_sub_ps(_mm_mul_ps(t1.n1y, n2z), _mm_mul_ps(t1.n1z, n2y));
    const __m128 cy = _mm_sub_ps(_mm_mul_ps(t1.n1z, n2x), _mm_mul_ps(t1.n1x, n2z));
    const __m128 cz = _mm_sub_ps(_mm_mul_ps(t1.n1x, n2y), _mm_mul_ps(t1.n1y, n2x));
    const auto length_sq = [](__m128 x, __m128 y, __m128 z) {
        return _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
    };
    const __m128 bound = _mm_mul_ps(_mm_set1_ps(kParallelSinSq),
                                    _mm_mul_ps(length_sq(t1.n1x, t1.n1y, t1.n1z), length_sq(n2x, n2y, n2z)));
    return ~static_cast<unsigned>(_mm_movemask_ps(_mm_cmpgt_ps(length_sq(cx, cy, cz), bound))) & 0xFu;
}

// Triangle 1's unit1 and reach1, once.
inline void sideBounds(const Tri1Lanes& t1) {
    if (t1.side_bounds) return;
    Vec3 f1, f2, g;
    sub(*t1.q1, *t1.p1, f1);
    sub(*t1.r1, *t1.p1, f2);
    sub(*t1.q1, *t1.r1, g);
    t1.unit1 = _mm_set1_ps(planeSideUnit(norm1(f1), norm1(f2)));
    t1.reach1 = _mm_set1_ps(maxOf(norm1(f2), norm1(g)));
    t1.side_bounds = true;
}

// The lanes with a plane side in doubt: planeSidesCertain (tri_tri_impl.h) of each lane without a
// NaN side, with its operations in its order; bit j set for lane j.
inline unsigned doubtfulLanes(const Tri1Lanes& t1, const TriangleBatch4& batch, __m128 dp1, __m128 dq1,
                              __m128 dr1, __m128 dp2, __m128 dq2, __m128 dr2) {
    sideBounds(t1);
    const __m128 sign = _mm_set1_ps(-0.0f);
    const auto norm1 = [sign](__m128 x, __m128 y, __m128 z) {
        return _mm_add_ps(_mm_add_ps(_mm_andnot_ps(sign, x), _mm_andnot_ps(sign, y)), _mm_andnot_ps(sign, z));
    };
    const __m128 r2x = _mm_load_ps(batch.v[2][0]), r2y = _mm_load_ps(batch.v[2][1]),
                 r2z = _mm_load_ps(batch.v[2][2]);
    const __m128 e1 =
        norm1(_mm_sub_ps(_mm_load_ps(batch.v[0][0]), r2x), _mm_sub_ps(_mm_load_ps(batch.v[0][1]), r2y),
              _mm_sub_ps(_mm_load_ps(batch.v[0][2]), r2z));
    const __m128 e2 =
        norm1(_mm_sub_ps(_mm_load_ps(batch.v[1][0]), r2x), _mm_sub_ps(_mm_load_ps(batch.v[1][1]), r2y),
              _mm_sub_ps(_mm_load_ps(batch.v[1][2]), r2z));
    const __m128 unit2 =
        _mm_add_ps(_mm_mul_ps(_mm_mul_ps(e1, e2), _mm_set1_ps(kSideError)), _mm_set1_ps(kSideUnderflow));
    const __m128 reach2 = _mm_max_ps(e1, e2);
    const __m128 w =
        norm1(_mm_sub_ps(t1.v1[2][0], r2x), _mm_sub_ps(t1.v1[2][1], r2y), _mm_sub_ps(t1.v1[2][2], r2z));
    const __m128 floor = _mm_set1_ps(kSideFloor);
    const __m128 bound1 = _mm_add_ps(_mm_mul_ps(_mm_add_ps(t1.reach1, w), unit2), floor);
    const __m128 bound2 = _mm_add_ps(_mm_mul_ps(_mm_add_ps(reach2, w), t1.unit1), floor);
    // The smallest side of each plane against its bound (a NaN side may be dropped by minps: such
    // lanes take the scalar path anyway, see finishSurvivors).
    const auto least = [sign](__m128 a, __m128 b, __m128 c) {
        return _mm_min_ps(_mm_min_ps(_mm_andnot_ps(sign, a), _mm_andnot_ps(sign, b)), _mm_andnot_ps(sign, c));
    };
    const __m128 all =
        _mm_and_ps(_mm_cmpgt_ps(least(dp1, dq1, dr1), bound1), _mm_cmpgt_ps(least(dp2, dq2, dr2), bound2));
    return ~static_cast<unsigned>(_mm_movemask_ps(all)) & 0xFu;
}

// The end of a batch's test once its plane tests left survivors or scalar lanes: the scalar path
// for them all when any lane needs it (ill-conditioned plane, NaN side, nearly parallel planes),
// else finishLanes (which hands a plane side in doubt on to the scalar path too).
inline unsigned finishSurvivors(const Tri1Lanes& t1, const TriangleBatch4& batch, unsigned survivors,
                                unsigned scalar_lanes, unsigned nan_lanes, __m128 dp1, __m128 dq1, __m128 dr1,
                                __m128 dp2, __m128 dq2, __m128 dr2, __m128i key) {
    if ((scalar_lanes | nan_lanes | (survivors & nearlyParallelLanes(t1, batch))) != 0u)
        return finishLanesSlow(t1, batch, survivors, scalar_lanes, dp1, dq1, dr1, dp2, dq2, dr2);
    return finishLanes(t1, batch, survivors, key, dp1, dq1, dr1, dp2, dq2, dr2);
}

/// triTriOverlap4 for the lanes in `wanted` once triangle 1 is prepared (tri_tri_sse2.cpp).
unsigned overlapLanes(const Tri1Lanes& t1, const TriangleBatch4& batch, unsigned wanted);

/// overlapLanes for a triangle 1 that prepareTri1 refused (ill-conditioned or not finite): the
/// lanes' own planes reject in lanes, the other lanes take the scalar test (tri_tri_sse2.cpp).
unsigned overlapLanesIll(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4& batch,
                         unsigned wanted);

#if defined(FLAK_TRI_TRI_AVX2)
/// overlapLanes for two batches at once in 256-bit vectors (tri_tri_avx2.cpp): lanes 0..3 from
/// `lo`, 4..7 from `hi`. Only for CPUs with AVX2.
FLAK_TRI_TRI_NOINLINE unsigned overlapLanes8(const Tri1Lanes& t1, const TriangleBatch4& lo,
                                             const TriangleBatch4& hi, unsigned wanted) FLAK_AVX2;
#endif

} // namespace flak::detail

#endif
