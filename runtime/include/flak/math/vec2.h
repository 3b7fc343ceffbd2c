// flak — 2D vector for the play plane (walls, 2D polygon kernels). Ref-passing.
#pragma once

#include <cmath>

namespace flak {

/// Two floats (8 bytes).
struct Vec2 {
    float x = 0.0f;
    float y = 0.0f;
};
static_assert(sizeof(Vec2) == 8, "Vec2 is two packed floats");

inline void set(float x, float y, Vec2& out) {
    out.x = x;
    out.y = y;
}
inline void add(const Vec2& a, const Vec2& b, Vec2& out) { set(a.x + b.x, a.y + b.y, out); }
inline void sub(const Vec2& a, const Vec2& b, Vec2& out) { set(a.x - b.x, a.y - b.y, out); }
inline void scale(const Vec2& a, float s, Vec2& out) { set(a.x * s, a.y * s, out); }
/// out = a + b * s
inline void addScaled(const Vec2& a, const Vec2& b, float s, Vec2& out) {
    set(a.x + b.x * s, a.y + b.y * s, out);
}
inline float dot(const Vec2& a, const Vec2& b) { return a.x * b.x + a.y * b.y; }
/// z of the 3D cross product: positive when b is counter-clockwise from a.
inline float cross(const Vec2& a, const Vec2& b) { return a.x * b.y - a.y * b.x; }
/// out = a rotated +90 degrees (counter-clockwise).
inline void perp(const Vec2& a, Vec2& out) { set(-a.y, a.x, out); }
inline float lengthSq(const Vec2& a) { return dot(a, a); }
inline float length(const Vec2& a) { return std::sqrt(lengthSq(a)); }
inline bool isFinite(const Vec2& a) { return std::isfinite(a.x) && std::isfinite(a.y); }
/// Unit vector along `a`; false (and out = 0) when its float length is zero or not finite (as
/// Vec3's normalize: also for |a| below about 3e-23 or above about 1.8e19).
inline bool normalize(const Vec2& a, Vec2& out) {
    const float len = length(a);
    if (!(len > 0.0f) || !std::isfinite(len)) {
        set(0.0f, 0.0f, out);
        return false;
    }
    scale(a, 1.0f / len, out);
    return true;
}

} // namespace flak
