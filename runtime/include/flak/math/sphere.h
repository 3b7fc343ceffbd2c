// flak — sphere (bullets, cluster members, bounding spheres).
#pragma once

#include <flak/math/vec3.h>

namespace flak {

/// Centre and radius (16 bytes). A radius below zero is invalid; zero is a point.
struct Sphere {
    Vec3 center;
    float radius = 0.0f;
};
static_assert(sizeof(Sphere) == 16, "Sphere is four packed floats");

/// Closed-ball overlap (touching spheres overlap).
inline bool overlaps(const Sphere& a, const Sphere& b) {
    const float r = a.radius + b.radius;
    return distanceSq(a.center, b.center) <= r * r;
}

} // namespace flak
