// flak — the intersection segments of four crossing triangle pairs at once (triTriIntersection4):
// crossingSegment of tri_tri_intersection.cpp on 256-bit vectors of doubles, one pair per lane.
// Every lane performs the scalar code's IEEE operations in its order (no fused multiply-add), so
// each result is the scalar one bit for bit; the scalar code's branches become blends. Compiled
// for AVX2 function by function (target attribute) and called only where the CPU has it.
#include "geom/tri_tri_impl.h"

#if defined(FLAK_TRI_TRI_AVX2)

#include <immintrin.h>

#include <limits>

namespace flak::detail {
namespace {

#define FLAK_AVX2_INLINE inline __attribute__((always_inline, target("avx2")))

struct D4x3 {
    __m256d x, y, z;
};

FLAK_AVX2_INLINE D4x3 sub(const D4x3& a, const D4x3& b) {
    return {_mm256_sub_pd(a.x, b.x), _mm256_sub_pd(a.y, b.y), _mm256_sub_pd(a.z, b.z)};
}
// ddot's ((x x + y y) + z z).
FLAK_AVX2_INLINE __m256d dot(const D4x3& a, const D4x3& b) {
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(a.x, b.x), _mm256_mul_pd(a.y, b.y)),
                         _mm256_mul_pd(a.z, b.z));
}
FLAK_AVX2_INLINE D4x3 cross(const D4x3& a, const D4x3& b) {
    return {_mm256_sub_pd(_mm256_mul_pd(a.y, b.z), _mm256_mul_pd(a.z, b.y)),
            _mm256_sub_pd(_mm256_mul_pd(a.z, b.x), _mm256_mul_pd(a.x, b.z)),
            _mm256_sub_pd(_mm256_mul_pd(a.x, b.y), _mm256_mul_pd(a.y, b.x))};
}
// Lane by lane: `yes` where m is set, else `no`.
FLAK_AVX2_INLINE __m256d pick(__m256d m, __m256d yes, __m256d no) { return _mm256_blendv_pd(no, yes, m); }
FLAK_AVX2_INLINE D4x3 pick(__m256d m, const D4x3& yes, const D4x3& no) {
    return {pick(m, yes.x, no.x), pick(m, yes.y, no.y), pick(m, yes.z, no.z)};
}
FLAK_AVX2_INLINE __m256d absolute(__m256d v) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), v); }

// One end of a chord: a candidate point and its position along the line; a candidate that does
// not exist has +inf (for the low end) or -inf (for the high end), so it never wins.
struct End {
    D4x3 p;
    __m256d s;
};

// chord's `if (s < slo)` (`if (s > shi)`) between two candidates taken in order: the second only
// when strictly beyond the first.
FLAK_AVX2_INLINE End lower(const End& a, const End& b) {
    const __m256d m = _mm256_cmp_pd(b.s, a.s, _CMP_LT_OQ);
    return {pick(m, b.p, a.p), pick(m, b.s, a.s)};
}
FLAK_AVX2_INLINE End higher(const End& a, const End& b) {
    const __m256d m = _mm256_cmp_pd(b.s, a.s, _CMP_GT_OQ);
    return {pick(m, b.p, a.p), pick(m, b.s, a.s)};
}

struct Chord {
    D4x3 lo, hi;
    __m256d slo, shi;
};

// chord() of tri_tri_intersection.cpp, one triangle per lane. chord takes its six candidates
// (vertex i on the plane, then the crossing on edge i, for i = 0, 1, 2) in turn and keeps the
// first lowest and highest. Here all six are built at once and reduced pairwise in that order, the
// left one winning a tie: the same candidate wins. A crossing that does not exist is computed with
// 1 in place of its denominator and dropped.
FLAK_AVX2_INLINE void chord(const D4x3* t, const __m256d* d, const D4x3& dir, Chord& out) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    const __m256d inf = _mm256_set1_pd(std::numeric_limits<double>::infinity());
    const __m256d minus_inf = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
    End lo[6], hi[6];
    __m256d any = zero;
    for (int i = 0; i < 3; ++i) {
        const int j = i == 2 ? 0 : i + 1;
        const __m256d on_plane = _mm256_cmp_pd(d[i], zero, _CMP_EQ_OQ);
        const __m256d crosses = _mm256_or_pd(
            _mm256_and_pd(_mm256_cmp_pd(d[i], zero, _CMP_LT_OQ), _mm256_cmp_pd(d[j], zero, _CMP_GT_OQ)),
            _mm256_and_pd(_mm256_cmp_pd(d[i], zero, _CMP_GT_OQ), _mm256_cmp_pd(d[j], zero, _CMP_LT_OQ)));
        const __m256d f = _mm256_div_pd(d[i], pick(crosses, _mm256_sub_pd(d[i], d[j]), one));
        const D4x3 e = sub(t[j], t[i]); // dlerp: a + (b - a) f
        const D4x3 c = {_mm256_add_pd(t[i].x, _mm256_mul_pd(e.x, f)),
                        _mm256_add_pd(t[i].y, _mm256_mul_pd(e.y, f)),
                        _mm256_add_pd(t[i].z, _mm256_mul_pd(e.z, f))};
        const __m256d sv = dot(t[i], dir), sc = dot(c, dir);
        lo[2 * i] = {t[i], pick(on_plane, sv, inf)};
        hi[2 * i] = {t[i], pick(on_plane, sv, minus_inf)};
        lo[2 * i + 1] = {c, pick(crosses, sc, inf)};
        hi[2 * i + 1] = {c, pick(crosses, sc, minus_inf)};
        any = _mm256_or_pd(any, _mm256_or_pd(on_plane, crosses));
    }
    const End l = lower(lower(lower(lo[0], lo[1]), lower(lo[2], lo[3])), lower(lo[4], lo[5]));
    const End h = higher(higher(higher(hi[0], hi[1]), higher(hi[2], hi[3])), higher(hi[4], hi[5]));
    // No candidate: the vertex nearest the plane, the first of equals.
    __m256d best_d = absolute(d[0]);
    D4x3 best = t[0];
    for (int i = 1; i < 3; ++i) {
        const __m256d nearer = _mm256_cmp_pd(absolute(d[i]), best_d, _CMP_LT_OQ);
        best_d = pick(nearer, absolute(d[i]), best_d);
        best = pick(nearer, t[i], best);
    }
    const __m256d s = dot(best, dir);
    out.lo = pick(any, l.p, best);
    out.hi = pick(any, h.p, best);
    out.slo = pick(any, l.s, s);
    out.shi = pick(any, h.s, s);
}

// Vertex i's axis c of the four lanes named, as doubles.
FLAK_AVX2_INLINE __m256d load(const TriTriPairs4& pairs, int i, int c, const int* lane) {
    const float* v = pairs.v[i][c];
    return _mm256_cvtps_pd(_mm_set_ps(v[lane[3]], v[lane[2]], v[lane[1]], v[lane[0]]));
}

} // namespace

unsigned crossingSegments4(const TriTriPairs4& pairs, const int lane[4], Vec3* out_start, Vec3* out_end) {
    // toLocal: relative to the first triangle's first vertex.
    __m256d o[3];
    for (int c = 0; c < 3; ++c) o[c] = load(pairs, 0, c, lane);
    D4x3 t[6];
    for (int i = 0; i < 6; ++i)
        t[i] = {_mm256_sub_pd(load(pairs, i, 0, lane), o[0]), _mm256_sub_pd(load(pairs, i, 1, lane), o[1]),
                _mm256_sub_pd(load(pairs, i, 2, lane), o[2])};
    const D4x3* t1 = t;
    const D4x3* t2 = t + 3;
    const D4x3 n1 = cross(sub(t1[1], t1[0]), sub(t1[2], t1[0]));
    const D4x3 n2 = cross(sub(t2[1], t2[0]), sub(t2[2], t2[0]));
    const D4x3 dir = cross(n1, n2);
    const __m256d crossing = _mm256_cmp_pd(dot(dir, dir), _mm256_setzero_pd(), _CMP_GT_OQ);
    __m256d d1[3], d2[3];
    for (int i = 0; i < 3; ++i) {
        d1[i] = dot(sub(t1[i], t2[0]), n2);
        d2[i] = dot(sub(t2[i], t1[0]), n1);
    }
    Chord c1, c2;
    chord(t1, d1, dir, c1);
    chord(t2, d2, dir, c2);
    const __m256d first_lo = _mm256_cmp_pd(c1.slo, c2.slo, _CMP_GE_OQ);
    const __m256d first_hi = _mm256_cmp_pd(c1.shi, c2.shi, _CMP_LE_OQ);
    const D4x3 lo = pick(first_lo, c1.lo, c2.lo), hi = pick(first_hi, c1.hi, c2.hi);
    const __m256d ordered =
        _mm256_cmp_pd(pick(first_lo, c1.slo, c2.slo), pick(first_hi, c1.shi, c2.shi), _CMP_LE_OQ);
    // Ends that cross over (a touch that double sees as a hair of gap) meet in the middle.
    const __m256d half = _mm256_set1_pd(0.5);
    const D4x3 mid = {_mm256_mul_pd(_mm256_add_pd(lo.x, hi.x), half),
                      _mm256_mul_pd(_mm256_add_pd(lo.y, hi.y), half),
                      _mm256_mul_pd(_mm256_add_pd(lo.z, hi.z), half)};
    const D4x3 start = pick(ordered, lo, mid), end = pick(ordered, hi, mid);
    // toWorld: back to float after adding the origin.
    alignas(16) float out[6][4];
    const __m256d* axes[6] = {&start.x, &start.y, &start.z, &end.x, &end.y, &end.z};
    for (int k = 0; k < 6; ++k) _mm_store_ps(out[k], _mm256_cvtpd_ps(_mm256_add_pd(*axes[k], o[k % 3])));
    for (int k = 0; k < 4; ++k) {
        set(out[0][k], out[1][k], out[2][k], out_start[lane[k]]);
        set(out[3][k], out[4][k], out[5][k], out_end[lane[k]]);
    }
    return static_cast<unsigned>(~_mm256_movemask_pd(crossing)) & 0xFu;
}

} // namespace flak::detail

#endif
