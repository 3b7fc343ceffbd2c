// flak — rigid transform (rotation + translation): compose, inverse, point and vector transforms.
#pragma once

#include <flak/math/mat33.h>
#include <flak/math/quat.h>
#include <flak/math/simd.h>
#include <flak/math/vec3.h>

#include <cstddef>

namespace flak {

/// x' = rotation * x + translation. Rotation must be orthonormal (48 bytes).
struct Transform {
    Mat33 rotation;
    Vec3 translation;
};
static_assert(sizeof(Transform) == 48, "Transform is a Mat33 and a Vec3");

inline void setIdentity(Transform& out) {
    setIdentity(out.rotation);
    set(0.0f, 0.0f, 0.0f, out.translation);
}
inline void fromQuatTranslation(const Quat& q, const Vec3& t, Transform& out) {
    toMat33(q, out.rotation);
    out.translation = t;
}
inline void transformPoint(const Transform& t, const Vec3& p, Vec3& out) {
    Vec3 r;
    mul(t.rotation, p, r);
    add(r, t.translation, out);
}
inline void transformVector(const Transform& t, const Vec3& v, Vec3& out) { mul(t.rotation, v, out); }
/// Point from the transform's target space back into its source space.
inline void inverseTransformPoint(const Transform& t, const Vec3& p, Vec3& out) {
    Vec3 d;
    sub(p, t.translation, d);
    mulTransposed(t.rotation, d, out);
}
inline void inverseTransformVector(const Transform& t, const Vec3& v, Vec3& out) {
    mulTransposed(t.rotation, v, out);
}
/// out = a o b (apply b, then a). out may alias a or b.
inline void compose(const Transform& a, const Transform& b, Transform& out) {
    Transform r;
    mul(a.rotation, b.rotation, r.rotation);
    transformPoint(a, b.translation, r.translation);
    out = r;
}
/// out = inverse(t). out may alias t.
inline void inverse(const Transform& t, Transform& out) {
    Transform r;
    transpose(t.rotation, r.rotation);
    Vec3 mt;
    mul(r.rotation, t.translation, mt);
    negate(mt, r.translation);
    out = r;
}
/// out = inverse(a) o b: maps b's space into a's (the relative frame for mesh-vs-mesh).
inline void relative(const Transform& a, const Transform& b, Transform& out) {
    Transform r;
    mulTransposed(a.rotation, b.rotation, r.rotation);
    inverseTransformPoint(a, b.translation, r.translation);
    out = r;
}

/// Transforms `count` points (SIMD where compiled in; same bits as transformPoint one by one).
/// `in` and `out` may be the same array.
inline void transformPoints(const Transform& t, const Vec3* in, std::size_t count, Vec3* out) {
#if defined(FLAK_SIMD_SCALAR)
    for (std::size_t i = 0; i < count; ++i) transformPoint(t, in[i], out[i]);
#else
    F4 c0, c1, c2, tr, r;
    detail::f4LoadVec3(t.rotation.c0, c0);
    detail::f4LoadVec3(t.rotation.c1, c1);
    detail::f4LoadVec3(t.rotation.c2, c2);
    detail::f4LoadVec3(t.translation, tr);
    for (std::size_t i = 0; i < count; ++i) {
        detail::f4MulColumns(c0, c1, c2, in[i].x, in[i].y, in[i].z, r);
        f4Add(r, tr, r);
        detail::f4StoreVec3(r, out[i]);
    }
#endif
}

inline bool isFinite(const Transform& t) { return isFinite(t.rotation) && isFinite(t.translation); }

/// How far from orthonormal isRigid lets a rotation be: each entry of R^T R - I within this.
/// Rotations made from unit quaternions, or composed a few times, stay within a few 1e-7.
constexpr float kRigidTolerance = 1e-4f;

/// True when the rotation's columns are unit length and orthogonal, each to kRigidTolerance (a
/// reflection passes: its transpose is its inverse too). False for NaN or infinity.
inline bool isRigid(const Transform& t) {
    const Vec3* c[3] = {&t.rotation.c0, &t.rotation.c1, &t.rotation.c2};
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) {
            const float d = dot(*c[i], *c[j]) - (i == j ? 1.0f : 0.0f);
            if (!(d <= kRigidTolerance && d >= -kRigidTolerance)) return false;
        }
    return true;
}

} // namespace flak
