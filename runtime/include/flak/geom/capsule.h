// flak — capsule: a segment swept by a ball.
#pragma once

#include <flak/math/vec3.h>

namespace flak {

/// The points within `radius` of the segment p0 -> p1 (28 bytes). p0 == p1 is a sphere; a radius
/// of zero is the segment itself; a negative radius is invalid (kernels answer "no contact").
struct Capsule {
    Vec3 p0;
    Vec3 p1;
    float radius = 0.0f;
};
static_assert(sizeof(Capsule) == 28, "Capsule is two Vec3 and a float");

} // namespace flak
