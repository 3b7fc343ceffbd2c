// flak — segment vs sphere: the first point where a segment enters a closed ball.
#pragma once

#include <flak/geom/contact.h>
#include <flak/math/sphere.h>

namespace flak {

/// True when the closed segment p0 -> p1 meets the closed ball; then writes the first contact:
/// t in [0, 1] (point = p0 + t (p1 - p0)), point, normal = unit vector from the centre to the point
/// (facing against the segment at an entry), u = v = 0. A segment starting inside or on the ball
/// hits at t = 0 with point p0 (normal from the centre towards p0; -direction, or +x for a
/// zero-length segment, when p0 is the centre). A ball of radius 0 (a point) takes -direction
/// (or +x) too: the hit point is the centre, and what lies between them is rounding. Method:
/// Ericson, RTCD 5.3.2 (ray vs sphere) on the quadratic in double, p0 taken relative to the
/// centre. A zero-length segment is a point test.
/// NaN/Inf or a negative radius: false, out_hit untouched.
bool segmentSphere(const Vec3& p0, const Vec3& p1, const Sphere& sphere, RayHit& out_hit);

} // namespace flak
