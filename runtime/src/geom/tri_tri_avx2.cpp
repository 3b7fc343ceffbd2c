// flak — triangle vs triangle, the AVX2 kernels: classify() with both planes' sides in one pass
// of 256-bit vectors, and the plane tests of two batches at once. Compiled for AVX2 function by
// function (target attribute; the library itself is built for SSE2) and called only where the CPU
// has it (tri_tri.cpp asks at run time). Same operations lane by lane as the SSE2 kernel: same
// answers. Built where FLAK_TRI_TRI_AVX2 is set (tri_tri_impl.h); the file is empty otherwise.
#include "geom/tri_tri_sse2.h"

#if defined(FLAK_TRI_TRI_AVX2)

#include <immintrin.h>

#include <cstdint>

namespace flak::detail {
namespace {

__m256 join(__m128 lo, __m128 hi) FLAK_AVX2;
__m256 join(__m128 lo, __m128 hi) { return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1); }

// cross4Wide's permute, on both halves.
__m256 rotate256(__m256 v) FLAK_AVX2;
__m256 rotate256(__m256 v) { return _mm256_permute_ps(v, _MM_SHUFFLE(0, 3, 1, 2)); }

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

} // namespace

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

} // namespace flak::detail

#endif
