// flak — 3D vector, the workhorse of every kernel. Ref-passing: inputs const&, results out_.
//
// Vec3 stays three packed floats (12 bytes) because it is stored by the million in baked data;
// single-vector arithmetic is scalar (SSE would spend more on packing than it saves). Batched and
// 4-wide work goes through F4 (simd.h). Every function tolerates `out` aliasing an input.
#pragma once

#include <cmath>

namespace flak {

/// Three floats (12 bytes).
struct Vec3 {
    float x = 0.0f;
    float y = 0.0f;
    float z = 0.0f;

    float operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
    float& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
};
static_assert(sizeof(Vec3) == 12, "Vec3 is three packed floats");

inline void set(float x, float y, float z, Vec3& out) {
    out.x = x;
    out.y = y;
    out.z = z;
}
inline void add(const Vec3& a, const Vec3& b, Vec3& out) { set(a.x + b.x, a.y + b.y, a.z + b.z, out); }
inline void sub(const Vec3& a, const Vec3& b, Vec3& out) { set(a.x - b.x, a.y - b.y, a.z - b.z, out); }
/// Component-wise product.
inline void mul(const Vec3& a, const Vec3& b, Vec3& out) { set(a.x * b.x, a.y * b.y, a.z * b.z, out); }
inline void scale(const Vec3& a, float s, Vec3& out) { set(a.x * s, a.y * s, a.z * s, out); }
/// out = a + b * s
inline void addScaled(const Vec3& a, const Vec3& b, float s, Vec3& out) {
    set(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s, out);
}
inline void negate(const Vec3& a, Vec3& out) { set(-a.x, -a.y, -a.z, out); }
inline float dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline void cross(const Vec3& a, const Vec3& b, Vec3& out) {
    set(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, out);
}
inline float lengthSq(const Vec3& a) { return dot(a, a); }
inline float length(const Vec3& a) { return std::sqrt(lengthSq(a)); }
inline float distanceSq(const Vec3& a, const Vec3& b) {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return dx * dx + dy * dy + dz * dz;
}
/// Component-wise minimum, `a < b ? a : b` per lane (matches F4 and SSE).
inline void min(const Vec3& a, const Vec3& b, Vec3& out) {
    set(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z, out);
}
/// Component-wise maximum, `a > b ? a : b` per lane.
inline void max(const Vec3& a, const Vec3& b, Vec3& out) {
    set(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z, out);
}
inline void abs(const Vec3& a, Vec3& out) { set(std::fabs(a.x), std::fabs(a.y), std::fabs(a.z), out); }
/// out = a + (b - a) * t
inline void lerp(const Vec3& a, const Vec3& b, float t, Vec3& out) {
    set(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, out);
}
inline bool isFinite(const Vec3& a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }
inline bool equal(const Vec3& a, const Vec3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
/// Unit vector along `a`; false (and out = 0) when its float length is zero or not finite: a zero
/// or non-finite `a`, and also a finite one whose squared length underflows to zero (|a| below
/// about 3e-23) or overflows to infinity (|a| above about 1.8e19).
inline bool normalize(const Vec3& a, Vec3& out) {
    const float len = length(a);
    if (!(len > 0.0f) || !std::isfinite(len)) {
        set(0.0f, 0.0f, 0.0f, out);
        return false;
    }
    scale(a, 1.0f / len, out);
    return true;
}
/// Index (0, 1, 2) of the component with the largest absolute value.
inline int largestAxis(const Vec3& a) {
    const float ax = std::fabs(a.x), ay = std::fabs(a.y), az = std::fabs(a.z);
    return ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
}

} // namespace flak
