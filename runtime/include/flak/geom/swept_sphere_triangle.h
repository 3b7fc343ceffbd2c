// flak — swept sphere vs triangle: first time of impact (Ericson 5.5.7 style: face, then edges
// as cylinders, then vertices as spheres).
#pragma once

#include <flak/geom/contact.h>
#include <flak/math/vec3.h>

namespace flak {

/// First contact of a sphere of radius `radius` whose centre moves linearly from c0 (t = 0) to
/// c1 (t = 1) with the closed triangle (a, b, c). On contact writes out_hit: t in [0, 1]; point =
/// the contact point on the triangle with its barycentrics u (vertex b) and v (vertex c); normal
/// = unit vector from the contact point towards the centre at time t (it faces against the
/// motion at a first contact).
/// Initially overlapping (distance(c0, triangle) <= radius): t = 0, point = the closest point to
/// c0, normal = from it towards c0. Whenever the centre itself lies on the triangle at the contact
/// (radius 0, or c0 on the triangle) the normal is the face normal turned against the motion
/// (as wound when the motion is zero or parallel to the plane); a zero-area triangle uses the
/// stand-in of sphereTriangle, turned the same way.
/// Radius 0 is a segment test; zero-area triangles behave as their segment or point; c0 == c1 is
/// a static sphere test. Tolerance: local origin a; scale = the largest absolute coordinate of
/// b - a, c - a, c0 - a, c1 - a, and the radius. Decisive distance: for hit or miss, the closest
/// approach min over t in [0, 1] of distance(centre(t), triangle) - radius; for the time, the gap
/// distance(centre(t), triangle) - radius at the reported t (and no deeper overlap before it).
/// Any scale: far from unit scale the local frame is rescaled by a power of two (exact), so the
/// answers are those of the same shapes at unit scale (local offsets must stay finite). NaN/Inf
/// in any input or a negative radius:
/// false, out_hit untouched.
bool sweptSphereTriangle(const Vec3& c0, const Vec3& c1, float radius, const Vec3& a, const Vec3& b,
                         const Vec3& c, RayHit& out_hit);

} // namespace flak
