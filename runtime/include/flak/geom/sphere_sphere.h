// flak — sphere vs sphere with contact data.
#pragma once

#include <flak/geom/contact.h>
#include <flak/math/sphere.h>

namespace flak {

/// True when the closed balls a and b touch or overlap; then writes the contact: normal from b
/// towards a, point on b's surface, depth = ra + rb - distance. Concentric spheres get the normal
/// +x. Decisive distance (tolerance band): distance - (ra + rb). NaN/Inf or a negative radius:
/// false, out_contact untouched.
bool sphereSphere(const Sphere& a, const Sphere& b, Contact& out_contact);

} // namespace flak
