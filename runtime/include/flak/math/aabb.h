// flak — axis-aligned bounding box.
#pragma once

#include <flak/math/mat33.h>
#include <flak/math/transform.h>
#include <flak/math/vec3.h>

#include <cstddef>
#include <limits>

namespace flak {

/// [min, max] per axis (24 bytes). The empty box has min = +inf, max = -inf.
struct Aabb {
    Vec3 min;
    Vec3 max;
};
static_assert(sizeof(Aabb) == 24, "Aabb is two Vec3");

inline void setEmpty(Aabb& out) {
    const float inf = std::numeric_limits<float>::infinity();
    set(inf, inf, inf, out.min);
    set(-inf, -inf, -inf, out.max);
}
inline bool isEmpty(const Aabb& a) {
    return !(a.min.x <= a.max.x && a.min.y <= a.max.y && a.min.z <= a.max.z);
}
inline void expand(const Vec3& p, Aabb& inout) {
    min(inout.min, p, inout.min);
    max(inout.max, p, inout.max);
}
/// Smallest box holding both (out may alias either).
inline void merge(const Aabb& a, const Aabb& b, Aabb& out) {
    min(a.min, b.min, out.min);
    max(a.max, b.max, out.max);
}
/// Box of `count` points (empty when count is 0).
inline void fromPoints(const Vec3* points, std::size_t count, Aabb& out) {
    Aabb r;
    setEmpty(r);
    for (std::size_t i = 0; i < count; ++i) expand(points[i], r);
    out = r;
}
/// Closed-interval overlap test (touching boxes overlap; a NaN bound never overlaps). The six
/// comparisons are joined by `&`, not `&&`: one data-dependent branch for the caller instead of
/// six, which pays in the walks and scans that test many boxes.
inline bool overlaps(const Aabb& a, const Aabb& b) {
    return (a.min.x <= b.max.x) & (b.min.x <= a.max.x) & (a.min.y <= b.max.y) & (b.min.y <= a.max.y) &
           (a.min.z <= b.max.z) & (b.min.z <= a.max.z);
}
inline bool contains(const Aabb& outer, const Aabb& inner) {
    return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
           inner.max.x <= outer.max.x && inner.max.y <= outer.max.y && inner.max.z <= outer.max.z;
}
inline bool contains(const Aabb& box, const Vec3& p) {
    return box.min.x <= p.x && p.x <= box.max.x && box.min.y <= p.y && p.y <= box.max.y && box.min.z <= p.z &&
           p.z <= box.max.z;
}
inline void center(const Aabb& a, Vec3& out) {
    set((a.min.x + a.max.x) * 0.5f, (a.min.y + a.max.y) * 0.5f, (a.min.z + a.max.z) * 0.5f, out);
}
inline void halfExtents(const Aabb& a, Vec3& out) {
    set((a.max.x - a.min.x) * 0.5f, (a.max.y - a.min.y) * 0.5f, (a.max.z - a.min.z) * 0.5f, out);
}
inline float surfaceArea(const Aabb& a) {
    const float dx = a.max.x - a.min.x, dy = a.max.y - a.min.y, dz = a.max.z - a.min.z;
    return 2.0f * (dx * dy + dy * dz + dz * dx);
}
/// Grows the box by `margin` on every side.
inline void inflate(const Aabb& a, float margin, Aabb& out) {
    set(a.min.x - margin, a.min.y - margin, a.min.z - margin, out.min);
    set(a.max.x + margin, a.max.y + margin, a.max.z + margin, out.max);
}
/// Box of the transformed box (Arvo: centre transformed, extents through |R|). Not rounded
/// outward: callers needing strict conservativeness inflate by their tolerance.
inline void transformAabb(const Transform& t, const Aabb& a, Aabb& out) {
    Vec3 c, e, tc, te;
    center(a, c);
    halfExtents(a, e);
    transformPoint(t, c, tc);
    Mat33 absr;
    abs(t.rotation, absr);
    mul(absr, e, te);
    sub(tc, te, out.min);
    add(tc, te, out.max);
}

} // namespace flak
