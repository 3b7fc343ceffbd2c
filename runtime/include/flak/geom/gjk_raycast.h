// flak — GJK ray cast: first time of impact of a convex shape moving along a translation.
#pragma once

#include <flak/geom/contact.h>
#include <flak/geom/convex_shape.h>
#include <flak/geom/gjk.h>
#include <flak/math/transform.h>

namespace flak {

/// Shape cast: A moves by `translation` (A + t * translation, t in [0, 1]) against the static B,
/// both in world coordinates. True when they touch at some t in [0, 1]; then out_hit holds the
/// first such t (a closed-set contact: touching counts), `normal` the unit contact normal from B
/// towards A (it faces against the motion), `point` the contact point on B's surface at that time,
/// and u = v = 0. Shapes already touching or overlapping at t = 0 hit at t = 0 with the core normal
/// when the cores are apart, else -translation normalised (zero for a zero translation); the point
/// is then a point of B near the overlap.
///
/// Method: van den Bergen 2004, "Ray casting against general convex objects with application to
/// continuous collision detection": GJK on the ray from the origin along the translation against
/// B - A, advancing t to each separating plane (conservative advancement: t never passes the time
/// of impact), with the radii kept as a margin: the cast stops when the ray point is within the
/// radius sum plus the convergence tolerance of the cores' difference. Bounded by
/// kMaxGjkIterations (at most 15 seen over the oracle suite); if the cap were ever reached, the
/// cast reports a hit at the t reached so far (a lower bound of the time of impact), never a
/// tunnelling miss. Once the ray point is within the radii plus the tolerance, t is final and the
/// remaining iterations only converge the closest points (for the normal). Same double-precision
/// simplex as gjk.h (its named precision exception). No allocation, thread-safe.
///
/// Decisive distance: the shapes' separation at the reported t (touching within the band) and
/// the depth they would reach before it (within the band); for a miss, the least separation along
/// the sweep. In distance terms, not in t: at grazing incidence t is ill-conditioned. Scale: as
/// gjkDistance, with |translation| included.
///
/// Invalid or non-finite input (shapes, translation): false, out_hit untouched. `out_info` may be
/// null (exit: Converged for a hit found by advancing, Overlap for a hit at the start or with the
/// ray point enclosed, Separated for a miss).
bool gjkShapeCast(const ConvexShape& a, const ConvexShape& b, const Vec3& translation, RayHit& out_hit,
                  GjkInfo* out_info = nullptr);

/// As above, with each shape placed by a rigid transform (A's transform is its pose at t = 0; the
/// translation is in world coordinates).
bool gjkShapeCast(const ConvexShape& a, const Transform& xa, const ConvexShape& b, const Transform& xb,
                  const Vec3& translation, RayHit& out_hit, GjkInfo* out_info = nullptr);

} // namespace flak
