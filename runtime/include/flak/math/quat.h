// flak — unit quaternions for orientations. Ref-passing; out may alias inputs.
#pragma once

#include <flak/math/mat33.h>
#include <flak/math/vec3.h>

#include <cmath>

namespace flak {

/// x, y, z (vector part), w (scalar part); 16 bytes. Identity is (0, 0, 0, 1).
struct Quat {
    float x = 0.0f;
    float y = 0.0f;
    float z = 0.0f;
    float w = 1.0f;
};
static_assert(sizeof(Quat) == 16, "Quat is four packed floats");

inline void set(float x, float y, float z, float w, Quat& out) {
    out.x = x;
    out.y = y;
    out.z = z;
    out.w = w;
}
inline float dot(const Quat& a, const Quat& b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
inline float lengthSq(const Quat& q) { return dot(q, q); }

/// Hamilton product: rotating by out equals rotating by b, then by a.
inline void mul(const Quat& a, const Quat& b, Quat& out) {
    set(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, out);
}
inline void conjugate(const Quat& q, Quat& out) { set(-q.x, -q.y, -q.z, q.w, out); }

/// Unit quaternion along q; false (and out = identity) when its float length is zero or not
/// finite (also for a finite q whose squared length underflows or overflows, as normalize(Vec3)).
inline bool normalize(const Quat& q, Quat& out) {
    const float len = std::sqrt(lengthSq(q));
    if (!(len > 0.0f) || !std::isfinite(len)) {
        out = Quat{};
        return false;
    }
    const float inv = 1.0f / len;
    set(q.x * inv, q.y * inv, q.z * inv, q.w * inv, out);
    return true;
}

/// Rotation by `angle` radians about unit `axis`.
inline void fromAxisAngle(const Vec3& axis, float angle, Quat& out) {
    const float s = std::sin(angle * 0.5f);
    set(axis.x * s, axis.y * s, axis.z * s, std::cos(angle * 0.5f), out);
}

/// out = q * v * conj(q) for unit q, as v + 2w(u x v) + 2 u x (u x v).
inline void rotate(const Quat& q, const Vec3& v, Vec3& out) {
    const Vec3 u{q.x, q.y, q.z};
    Vec3 t, ut;
    cross(u, v, t);
    scale(t, 2.0f, t);
    cross(u, t, ut);
    Vec3 r;
    addScaled(v, t, q.w, r);
    add(r, ut, out);
}

/// Rotation matrix of unit q.
inline void toMat33(const Quat& q, Mat33& out) {
    const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    set(1.0f - 2.0f * (yy + zz), 2.0f * (xy + wz), 2.0f * (xz - wy), out.c0);
    set(2.0f * (xy - wz), 1.0f - 2.0f * (xx + zz), 2.0f * (yz + wx), out.c1);
    set(2.0f * (xz + wy), 2.0f * (yz - wx), 1.0f - 2.0f * (xx + yy), out.c2);
}

/// Normalised linear interpolation along the shorter arc.
inline void nlerp(const Quat& a, const Quat& b, float t, Quat& out) {
    const float sign = dot(a, b) < 0.0f ? -1.0f : 1.0f;
    Quat r;
    set(a.x + (b.x * sign - a.x) * t, a.y + (b.y * sign - a.y) * t, a.z + (b.z * sign - a.z) * t,
        a.w + (b.w * sign - a.w) * t, r);
    normalize(r, out);
}

inline bool isFinite(const Quat& q) {
    return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

} // namespace flak
