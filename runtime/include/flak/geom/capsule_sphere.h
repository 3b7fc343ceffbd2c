// flak — capsule vs sphere with contact data.
//
// Decisive distance (tolerance.h rule 3): distance(sphere centre, capsule segment) - (capsule
// radius + sphere radius). Scale: the largest absolute coordinate or radius among the inputs, in
// the caller's frame. Valid range: coordinates and radii up to 1e18 in magnitude.
#pragma once

#include <flak/geom/capsule.h>
#include <flak/geom/contact.h>
#include <flak/math/sphere.h>

namespace flak {

/// True when the closed capsule and the closed ball touch or overlap; then writes the contact with
/// A = the capsule, B = the sphere: normal (unit) from the sphere centre towards the closest point
/// of the capsule's segment, point = on the sphere's surface along it, depth = capsule radius +
/// sphere radius - distance >= 0. When the centre lies on the segment the normal is a unit vector
/// perpendicular to the segment (+x for a zero-length segment). NaN/Inf anywhere or a negative
/// radius: false, out_contact untouched.
bool capsuleSphere(const Capsule& capsule, const Sphere& sphere, Contact& out_contact);

} // namespace flak
