// flak — sphere vs axis-aligned box: Arvo's exact test (with or without contact data) and the cheap
// conservative bounds test.
//
// Decisive distance (tolerance.h rule 3) of the exact tests: sd(centre, box) - radius, where sd is
// the signed Euclidean distance from the centre to the box (negative inside: minus the distance
// to the nearest face). Scale: the largest absolute coordinate or radius among the inputs, in the
// caller's frame (the kernels work in it). Valid range: coordinates and radii up to 1e18 in
// magnitude (their squares stay finite).
#pragma once

#include <flak/geom/contact.h>
#include <flak/math/aabb.h>
#include <flak/math/sphere.h>

namespace flak {

namespace detail {

inline float clampTo(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Arvo 1990, "A simple method for box-sphere intersection testing" (Graphics Gems): the closest
// box point is the per-axis clamp of p, and the squared distance is the sum of the squared clamp
// offsets. One routine for every caller so that the boolean and the contact tests decide alike;
// inline because mesh queries run it on every candidate triangle's box.
inline float closestPointAndDistanceSq(const Vec3& p, const Aabb& box, Vec3& out_closest, Vec3& out_offset) {
    set(clampTo(p.x, box.min.x, box.max.x), clampTo(p.y, box.min.y, box.max.y),
        clampTo(p.z, box.min.z, box.max.z), out_closest);
    sub(p, out_closest, out_offset);
    return lengthSq(out_offset);
}

} // namespace detail

/// Squared Euclidean distance (length^2) from point p to the closed box: 0 when p is inside or on
/// it (Arvo 1990, per-axis clamp). NaN in any input gives NaN or an unspecified value; callers
/// that need rule 6 use sphereAabbOverlap().
inline float distanceSq(const Vec3& p, const Aabb& box) {
    Vec3 closest, offset;
    return detail::closestPointAndDistanceSq(p, box, closest, offset);
}

/// True when the closed ball touches or overlaps the closed box (Arvo: squared distance from the
/// centre to the box <= radius^2). Rejects first with sphereAabbBoundsOverlap(), so a true answer
/// here always implies a true answer there. NaN/Inf anywhere, a negative radius, or an inverted
/// box (min > max on an axis): false.
bool sphereAabbOverlap(const Sphere& sphere, const Aabb& box);

/// Same decision as sphereAabbOverlap() (bit for bit); on a hit writes the contact with A = the
/// sphere, B = the box: normal (unit) from the box towards the sphere centre, point = the box
/// point closest to the centre (on the box's surface), depth = radius - distance >= 0. When the
/// centre is inside the box (or on its surface), the nearest face decides: point = the centre
/// projected onto it, normal = its outward normal, depth = radius + distance to that face (ties
/// go to the lower axis, min face before max face). On false, out_contact is untouched.
bool sphereAabb(const Sphere& sphere, const Aabb& box, Contact& out_contact);

/// Conservative test: the sphere's bounding box [c - r, c + r] vs the box (closed intervals).
/// May say true where sphereAabbOverlap() says false (near box edges and corners), never the
/// reverse, and never false where the real-arithmetic answer is a hit (float rounding of c +- r is
/// monotone). NaN/Inf anywhere, a negative radius or an inverted box: false.
bool sphereAabbBoundsOverlap(const Sphere& sphere, const Aabb& box);

} // namespace flak
