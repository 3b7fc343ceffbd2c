// flak — 3x3 matrix (rotations, inertia-free orientation work). Column-major, ref-passing.
#pragma once

#include <flak/math/simd.h>
#include <flak/math/vec3.h>

namespace flak {

/// Three column vectors (36 bytes): m * v = c0 * v.x + c1 * v.y + c2 * v.z.
struct Mat33 {
    Vec3 c0{1.0f, 0.0f, 0.0f};
    Vec3 c1{0.0f, 1.0f, 0.0f};
    Vec3 c2{0.0f, 0.0f, 1.0f};
};
static_assert(sizeof(Mat33) == 36, "Mat33 is nine packed floats");

inline void setIdentity(Mat33& out) {
    set(1.0f, 0.0f, 0.0f, out.c0);
    set(0.0f, 1.0f, 0.0f, out.c1);
    set(0.0f, 0.0f, 1.0f, out.c2);
}

namespace detail {
inline void f4LoadVec3(const Vec3& v, F4& out) { f4Set(v.x, v.y, v.z, 0.0f, out); }
inline void f4StoreVec3(const F4& a, Vec3& out) {
    alignas(16) float t[4];
    f4Store(a, t);
    set(t[0], t[1], t[2], out);
}
/// Lane i: ((c0[i] * x + c1[i] * y) + c2[i] * z), the scalar order exactly.
inline void f4MulColumns(const F4& c0, const F4& c1, const F4& c2, float x, float y, float z, F4& out) {
    F4 s, a, b;
    f4Splat(x, s);
    f4Mul(c0, s, a);
    f4Splat(y, s);
    f4Mul(c1, s, b);
    f4Add(a, b, a);
    f4Splat(z, s);
    f4Mul(c2, s, b);
    f4Add(a, b, out);
}
} // namespace detail

/// out = m * v
inline void mul(const Mat33& m, const Vec3& v, Vec3& out) {
#if defined(FLAK_SIMD_SCALAR)
    set(m.c0.x * v.x + m.c1.x * v.y + m.c2.x * v.z, m.c0.y * v.x + m.c1.y * v.y + m.c2.y * v.z,
        m.c0.z * v.x + m.c1.z * v.y + m.c2.z * v.z, out);
#else
    F4 c0, c1, c2, r;
    detail::f4LoadVec3(m.c0, c0);
    detail::f4LoadVec3(m.c1, c1);
    detail::f4LoadVec3(m.c2, c2);
    detail::f4MulColumns(c0, c1, c2, v.x, v.y, v.z, r);
    detail::f4StoreVec3(r, out);
#endif
}

/// out = transpose(m) * v (inverse rotation for orthonormal m).
inline void mulTransposed(const Mat33& m, const Vec3& v, Vec3& out) {
    set(dot(m.c0, v), dot(m.c1, v), dot(m.c2, v), out);
}

/// out = a * b (out may alias a or b).
inline void mul(const Mat33& a, const Mat33& b, Mat33& out) {
    Mat33 r;
    mul(a, b.c0, r.c0);
    mul(a, b.c1, r.c1);
    mul(a, b.c2, r.c2);
    out = r;
}

/// out = transpose(a) * b (out may alias a or b).
inline void mulTransposed(const Mat33& a, const Mat33& b, Mat33& out) {
    Mat33 r;
    mulTransposed(a, b.c0, r.c0);
    mulTransposed(a, b.c1, r.c1);
    mulTransposed(a, b.c2, r.c2);
    out = r;
}

inline void transpose(const Mat33& m, Mat33& out) {
    Mat33 r;
    set(m.c0.x, m.c1.x, m.c2.x, r.c0);
    set(m.c0.y, m.c1.y, m.c2.y, r.c1);
    set(m.c0.z, m.c1.z, m.c2.z, r.c2);
    out = r;
}

/// Element-wise absolute value (for transforming box extents, Arvo's method).
inline void abs(const Mat33& m, Mat33& out) {
    abs(m.c0, out.c0);
    abs(m.c1, out.c1);
    abs(m.c2, out.c2);
}

inline float determinant(const Mat33& m) {
    Vec3 c;
    cross(m.c1, m.c2, c);
    return dot(m.c0, c);
}

/// General inverse by cofactors; false (out untouched) when |det| is zero or not finite.
inline bool inverse(const Mat33& m, Mat33& out) {
    Vec3 r0, r1, r2;
    cross(m.c1, m.c2, r0);
    cross(m.c2, m.c0, r1);
    cross(m.c0, m.c1, r2);
    const float det = dot(m.c0, r0);
    if (!(det != 0.0f) || !std::isfinite(det)) return false;
    const float inv = 1.0f / det;
    Mat33 rows; // rows of the inverse are r0, r1, r2 scaled
    scale(r0, inv, r0);
    scale(r1, inv, r1);
    scale(r2, inv, r2);
    set(r0.x, r1.x, r2.x, rows.c0);
    set(r0.y, r1.y, r2.y, rows.c1);
    set(r0.z, r1.z, r2.z, rows.c2);
    out = rows;
    return true;
}

inline bool isFinite(const Mat33& m) { return isFinite(m.c0) && isFinite(m.c1) && isFinite(m.c2); }

} // namespace flak
