// flak — triangle vs axis-aligned box: boolean overlap by the separating-axis test over 13 axes.
//
// Method: Akenine-Moeller 2001, "Fast 3D triangle-box overlap testing": the three box normals, the
// triangle normal, and the nine cross products of the box axes with the triangle edges. The box
// normals are tested on the raw coordinates (no rounding at all); the nine edge axes in float
// relative to the box centre (their axes are formed without rounding, so no cancellation).
//
// Documented exception to tolerance.h rule 2: the triangle normal is formed and tested in double.
// In float its direction carries an error of about 1e-7 / sin(alpha) for a sliver whose edges
// meet at angle alpha, which tilts the plane test far outside the band for nearly degenerate
// triangles. A normal shorter than 1e-9 |e0| |e1| (sin(alpha) < 1e-9) is skipped, so a zero-area
// triangle behaves as its segment or point (rule 5), tested by the other twelve axes.
//
// Decisive distance (rule 3): apart, the L-inf gap, i.e. the distance by which every face of the
// box must move outwards for the triangle to touch it; overlapping, minus the penetration depth
// (the shortest translation of the triangle that separates them). Scale: the largest absolute
// coordinate among the vertices and the box.
// Valid range: coordinates up to 1e18.
#pragma once

#include <flak/math/aabb.h>
#include <flak/math/vec3.h>

namespace flak {

/// True when the closed triangle (v0, v1, v2) touches or overlaps the closed box. Degenerate
/// triangles (segments, points) are valid; so are boxes with zero extents. NaN/Inf anywhere or an
/// inverted box (min > max on an axis): false.
bool triangleAabbOverlap(const Vec3& v0, const Vec3& v1, const Vec3& v2, const Aabb& box);

} // namespace flak
