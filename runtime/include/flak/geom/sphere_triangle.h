// flak — sphere vs triangle with contact data.
#pragma once

#include <flak/geom/closest_point_triangle.h>
#include <flak/geom/contact.h>
#include <flak/math/sphere.h>

namespace flak {

/// True when the closed ball touches or overlaps the closed triangle (a, b, c), i.e. the squared
/// distance from the centre to the triangle is <= radius^2; then writes the contact with the
/// sphere as shape A and the triangle as B: point = closest point on the triangle, normal = unit
/// vector from that point towards the centre, depth = radius - distance.
/// When the closest point is inside the face the normal is the face normal (b - a) x (c - a),
/// normalised, on the centre's side, so a centre exactly on the face gets the face normal as
/// wound (or its opposite when rounding puts the centre a hair below the plane). A centre on an
/// edge or vertex (computed distance 0): the face normal as wound; for a zero-area triangle a unit
/// vector perpendicular to its longest edge (+x for a point triangle).
/// Tolerance (tolerance.h rule 3): local origin a; scale = the largest absolute coordinate of
/// b - a, c - a, centre - a, and the radius. Decisive distance: distance(centre, triangle) - radius.
/// Zero-area triangles behave as their segment or point; radius 0 is a point query. NaN/Inf in
/// any input, or a negative radius: false, out_contact untouched.
bool sphereTriangle(const Sphere& sphere, const Vec3& a, const Vec3& b, const Vec3& c, Contact& out_contact);

} // namespace flak
