// flak — 4D vector (homogeneous points, packed work), backed by F4.
#pragma once

#include <flak/math/simd.h>

namespace flak {

/// Four floats, 16-byte aligned (16 bytes).
struct alignas(16) Vec4 {
    float x = 0.0f;
    float y = 0.0f;
    float z = 0.0f;
    float w = 0.0f;
};
static_assert(sizeof(Vec4) == 16 && alignof(Vec4) == 16, "Vec4 is one SIMD register");

inline void set(float x, float y, float z, float w, Vec4& out) {
    out.x = x;
    out.y = y;
    out.z = z;
    out.w = w;
}

namespace detail {
template <void (*Op)(const F4&, const F4&, F4&)>
inline void vec4Binary(const Vec4& a, const Vec4& b, Vec4& out) {
    F4 fa, fb, r;
    f4Load(&a.x, fa);
    f4Load(&b.x, fb);
    Op(fa, fb, r);
    f4Store(r, &out.x);
}
} // namespace detail

inline void add(const Vec4& a, const Vec4& b, Vec4& out) { detail::vec4Binary<f4Add>(a, b, out); }
inline void sub(const Vec4& a, const Vec4& b, Vec4& out) { detail::vec4Binary<f4Sub>(a, b, out); }
inline void mul(const Vec4& a, const Vec4& b, Vec4& out) { detail::vec4Binary<f4Mul>(a, b, out); }
inline void min(const Vec4& a, const Vec4& b, Vec4& out) { detail::vec4Binary<f4Min>(a, b, out); }
inline void max(const Vec4& a, const Vec4& b, Vec4& out) { detail::vec4Binary<f4Max>(a, b, out); }
inline void scale(const Vec4& a, float s, Vec4& out) {
    F4 fa, fs, r;
    f4Load(&a.x, fa);
    f4Splat(s, fs);
    f4Mul(fa, fs, r);
    f4Store(r, &out.x);
}
/// ((x*x + y*y) + z*z) + w*w, the same order in every back-end.
inline float dot(const Vec4& a, const Vec4& b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

} // namespace flak
