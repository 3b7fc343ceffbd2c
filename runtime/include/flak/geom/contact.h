// flak — result records shared by the narrow-phase kernels.
#pragma once

#include <flak/math/vec3.h>

namespace flak {

/// A contact between two shapes A and B (28 bytes). `normal` is unit length and points from B
/// towards A (push A along it by `depth` to separate); `point` lies on B's surface (for a
/// sphere-vs-triangle contact: the closest point on the triangle). depth >= 0; 0 means touching.
struct Contact {
    Vec3 point;
    Vec3 normal;
    float depth = 0.0f;
};

/// A ray or segment hit (36 bytes). `t` is the parameter along the query (point = origin + t * dir,
/// or p0 + t * (p1 - p0) for segments, t in [0, 1]); `u`, `v` the barycentrics of the hit on a
/// triangle (weights of vertices 1 and 2; vertex 0 has 1 - u - v), zero for other shapes;
/// `normal` the unit geometric normal of the surface hit, facing against the query direction.
struct RayHit {
    float t = 0.0f;
    float u = 0.0f;
    float v = 0.0f;
    Vec3 point;
    Vec3 normal;
};

} // namespace flak
