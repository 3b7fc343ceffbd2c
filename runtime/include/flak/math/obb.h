// flak — oriented bounding box.
#pragma once

#include <flak/math/aabb.h>
#include <flak/math/mat33.h>
#include <flak/math/vec3.h>

namespace flak {

/// Centre, half extents along its local axes, and the axes as the columns of `rotation`
/// (orthonormal); 60 bytes. A point p is inside when |rotation^T (p - center)| <= halfExtents.
struct Obb {
    Vec3 center;
    Vec3 halfExtents;
    Mat33 rotation;
};
static_assert(sizeof(Obb) == 60, "Obb is three Vec3 and a Mat33");

/// The world-space AABB that bounds the box.
inline void boundingAabb(const Obb& box, Aabb& out) {
    Mat33 absr;
    abs(box.rotation, absr);
    Vec3 e;
    mul(absr, box.halfExtents, e);
    sub(box.center, e, out.min);
    add(box.center, e, out.max);
}

/// Closest point of the (solid) box to p.
inline void closestPoint(const Obb& box, const Vec3& p, Vec3& out) {
    Vec3 d, local;
    sub(p, box.center, d);
    mulTransposed(box.rotation, d, local);
    for (int i = 0; i < 3; ++i) {
        const float e = box.halfExtents[i];
        local[i] = local[i] < -e ? -e : (local[i] > e ? e : local[i]);
    }
    Vec3 w;
    mul(box.rotation, local, w);
    add(box.center, w, out);
}

} // namespace flak
