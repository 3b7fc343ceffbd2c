// flak — the unit normal of a triangle, computed accurately enough for slivers.
#pragma once

#include <flak/math/vec3.h>

namespace flak {

/// Unit normal of triangle (a, b, c) along (b - a) x (c - a): counter-clockwise winding seen from
/// the side it points to. The cross product and its length are evaluated in double (a float cross
/// product of a sliver loses its direction to cancellation; in double the error stays below float
/// precision for any float input), then rounded to float. No overflow or underflow for finite
/// float input. Zero-area triangle (collinear or coincident vertices) or NaN/Inf input: returns
/// false and out_normal = (0, 0, 0).
bool computeTriangleNormal(const Vec3& a, const Vec3& b, const Vec3& c, Vec3& out_normal);

} // namespace flak
