// flak — the one small SIMD wrapper: four floats, SSE2 / NEON / scalar, selected at build time.
//
// Every operation is the IEEE single-precision operation applied lane by lane, so the three
// back-ends give bit-identical results (no reciprocal estimates, no fused multiply-add; the build
// uses -ffp-contract=off). min/max follow SSE's rule exactly — `a < b ? a : b` — NaNs included.
// f4LessMask(a, b) sets bit i when a[i] < b[i] (never for a NaN lane).
// Define FLAK_SIMD_NONE (CMake: -DFLAK_SIMD=none) to force the scalar back-end.
#pragma once

#include <cmath>

#if !defined(FLAK_SIMD_NONE) && (defined(__SSE2__) || defined(_M_X64))
#define FLAK_SIMD_SSE2 1
#include <emmintrin.h>
#elif !defined(FLAK_SIMD_NONE) && defined(__ARM_NEON)
#define FLAK_SIMD_NEON 1
#include <arm_neon.h>
#else
#define FLAK_SIMD_SCALAR 1
#endif

namespace flak {

/// Name of the back-end compiled in: "sse2", "neon" or "scalar".
constexpr const char* simdBackendName() {
#if defined(FLAK_SIMD_SSE2)
    return "sse2";
#elif defined(FLAK_SIMD_NEON)
    return "neon";
#else
    return "scalar";
#endif
}

#if defined(FLAK_SIMD_SSE2)
struct F4 {
    __m128 v;
};
inline void f4Load(const float* p, F4& out) { out.v = _mm_loadu_ps(p); }
inline void f4Set(float x, float y, float z, float w, F4& out) { out.v = _mm_set_ps(w, z, y, x); }
inline void f4Splat(float s, F4& out) { out.v = _mm_set1_ps(s); }
inline void f4Store(const F4& a, float* out) { _mm_storeu_ps(out, a.v); }
inline void f4Add(const F4& a, const F4& b, F4& out) { out.v = _mm_add_ps(a.v, b.v); }
inline void f4Sub(const F4& a, const F4& b, F4& out) { out.v = _mm_sub_ps(a.v, b.v); }
inline void f4Mul(const F4& a, const F4& b, F4& out) { out.v = _mm_mul_ps(a.v, b.v); }
inline void f4Div(const F4& a, const F4& b, F4& out) { out.v = _mm_div_ps(a.v, b.v); }
inline void f4Min(const F4& a, const F4& b, F4& out) { out.v = _mm_min_ps(a.v, b.v); }
inline void f4Max(const F4& a, const F4& b, F4& out) { out.v = _mm_max_ps(a.v, b.v); }
inline void f4Sqrt(const F4& a, F4& out) { out.v = _mm_sqrt_ps(a.v); }
inline unsigned f4LessMask(const F4& a, const F4& b) {
    return static_cast<unsigned>(_mm_movemask_ps(_mm_cmplt_ps(a.v, b.v)));
}
#elif defined(FLAK_SIMD_NEON)
struct F4 {
    float32x4_t v;
};
inline void f4Load(const float* p, F4& out) { out.v = vld1q_f32(p); }
inline void f4Set(float x, float y, float z, float w, F4& out) {
    const float t[4] = {x, y, z, w};
    out.v = vld1q_f32(t);
}
inline void f4Splat(float s, F4& out) { out.v = vdupq_n_f32(s); }
inline void f4Store(const F4& a, float* out) { vst1q_f32(out, a.v); }
inline void f4Add(const F4& a, const F4& b, F4& out) { out.v = vaddq_f32(a.v, b.v); }
inline void f4Sub(const F4& a, const F4& b, F4& out) { out.v = vsubq_f32(a.v, b.v); }
inline void f4Mul(const F4& a, const F4& b, F4& out) { out.v = vmulq_f32(a.v, b.v); }
inline void f4Div(const F4& a, const F4& b, F4& out) { out.v = vdivq_f32(a.v, b.v); }
// vminq/vmaxq propagate NaN; select instead so the result matches `a < b ? a : b`.
inline void f4Min(const F4& a, const F4& b, F4& out) { out.v = vbslq_f32(vcltq_f32(a.v, b.v), a.v, b.v); }
inline void f4Max(const F4& a, const F4& b, F4& out) { out.v = vbslq_f32(vcgtq_f32(a.v, b.v), a.v, b.v); }
inline void f4Sqrt(const F4& a, F4& out) { out.v = vsqrtq_f32(a.v); }
inline unsigned f4LessMask(const F4& a, const F4& b) {
    const uint32x4_t m = vcltq_f32(a.v, b.v);
    return (vgetq_lane_u32(m, 0) & 1u) | (vgetq_lane_u32(m, 1) & 2u) | (vgetq_lane_u32(m, 2) & 4u) |
           (vgetq_lane_u32(m, 3) & 8u);
}
#else
struct F4 {
    float v[4];
};
inline void f4Load(const float* p, F4& out) {
    for (int i = 0; i < 4; ++i) out.v[i] = p[i];
}
inline void f4Set(float x, float y, float z, float w, F4& out) {
    out.v[0] = x;
    out.v[1] = y;
    out.v[2] = z;
    out.v[3] = w;
}
inline void f4Splat(float s, F4& out) { f4Set(s, s, s, s, out); }
inline void f4Store(const F4& a, float* out) {
    for (int i = 0; i < 4; ++i) out[i] = a.v[i];
}
inline void f4Add(const F4& a, const F4& b, F4& out) {
    for (int i = 0; i < 4; ++i) out.v[i] = a.v[i] + b.v[i];
}
inline void f4Sub(const F4& a, const F4& b, F4& out) {
    for (int i = 0; i < 4; ++i) out.v[i] = a.v[i] - b.v[i];
}
inline void f4Mul(const F4& a, const F4& b, F4& out) {
    for (int i = 0; i < 4; ++i) out.v[i] = a.v[i] * b.v[i];
}
inline void f4Div(const F4& a, const F4& b, F4& out) {
    for (int i = 0; i < 4; ++i) out.v[i] = a.v[i] / b.v[i];
}
inline void f4Min(const F4& a, const F4& b, F4& out) {
    for (int i = 0; i < 4; ++i) out.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i];
}
inline void f4Max(const F4& a, const F4& b, F4& out) {
    for (int i = 0; i < 4; ++i) out.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i];
}
inline void f4Sqrt(const F4& a, F4& out) {
    for (int i = 0; i < 4; ++i) out.v[i] = std::sqrt(a.v[i]);
}
inline unsigned f4LessMask(const F4& a, const F4& b) {
    unsigned m = 0u;
    for (int i = 0; i < 4; ++i) m |= a.v[i] < b.v[i] ? 1u << i : 0u;
    return m;
}
#endif

} // namespace flak
