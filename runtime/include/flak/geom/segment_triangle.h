// flak — segment / ray vs triangle: a fast test (Moller-Trumbore 1997) and a watertight one
// (Woop, Benthin, Wald 2013) for closed meshes.
#pragma once

#include <flak/geom/contact.h>
#include <flak/math/vec3.h>

namespace flak {

/// Segment p0 -> p1 against the closed, two-sided triangle (a, b, c). Decision: Moller-Trumbore
/// 1997 line test in float (division-free, vertices rotated so that the implicit edge is the
/// longest), then the few candidates it lets through are settled in double (plane sides of p0 and
/// p1, crossing point inside the triangle): named exception to tolerance.h rule 2, needed because
/// MT's float t is inconsistent with its u, v on grazing segments and its det cancels on caps.
/// On a hit writes out_hit: t in [0, 1] along p0 + t (p1 - p0), u/v the barycentrics of
/// vertices b/c, point = p0 + t (p1 - p0), normal = the unit face normal facing against
/// p1 - p0; all exact to float precision. Not watertight: a segment through an edge shared by two
/// triangles can, rarely, miss both (use segmentTriangleWatertight for closed meshes).
/// Tolerance: local origin p0; scale = the largest absolute coordinate of a - p0, b - p0, c - p0,
/// p1 - p0. Decisive distance: on a miss, the distance between segment and triangle; on a hit,
/// the distance from the segment to the nearest triangle edge or from the triangle to the nearer
/// segment end (how far the geometry must move for the answer to change).
/// A segment parallel to the plane (in it or not), a zero-length segment and a zero-area triangle
/// never hit (their touching sets have measure zero and lie inside the band). NaN/Inf anywhere:
/// false, out_hit untouched.
bool segmentTriangle(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b, const Vec3& c,
                     RayHit& out_hit);

/// A ray prepared once for many watertight triangle tests (Woop, Benthin, Wald 2013): the axis
/// permutation and shear that map the ray onto +z through the origin (52 bytes). Build with
/// makeWatertightRay; fields are read-only for callers.
struct WatertightRay {
    Vec3 origin;          ///< the ray is origin + t dir
    Vec3 dir;             ///< not normalised; t is in units of |dir|
    float shear_x = 0.0f; ///< dir[kx] / dir[kz]
    float shear_y = 0.0f; ///< dir[ky] / dir[kz]
    float shear_z = 0.0f; ///< 1 / dir[kz]
    float t_max = -1.0f;  ///< hits are reported for t in [0, t_max]; -1 marks an invalid ray
    int kx = 0;           ///< the two other axes, ordered to keep the winding
    int ky = 1;
    int kz = 2; ///< the axis along which |dir| is largest
};
static_assert(sizeof(WatertightRay) == 52, "WatertightRay layout");

/// Prepares the ray origin + t dir, t in [0, t_max]. Returns false (and an invalid ray that hits
/// nothing) when dir is zero, t_max is negative, or any input is NaN/Inf.
bool makeWatertightRay(const Vec3& origin, const Vec3& dir, float t_max, WatertightRay& out_ray);

/// Watertight ray vs closed two-sided triangle (Woop, Benthin, Wald 2013): a ray through an edge
/// or vertex shared by triangles of a closed mesh hits at least one of them. The decision is the
/// paper's: 2D edge functions of the sheared vertices in float, the rare one that is exactly 0
/// recomputed in double (exact for float inputs). Accepted triangles then get t, the t-range test
/// and the hit data in double (the paper's t = T/det is wrong on needles and caps); where rounding
/// accepted a line that in double passes just outside, t is where it comes closest to the
/// triangle's boundary. These are the named exceptions to tolerance.h rule 2. Output as
/// segmentTriangle (t along origin + t dir). A triangle seen exactly edge-on does not hit (its
/// neighbours do). A zero-area triangle hits only where float rounding gives it area in the
/// sheared frame (kept so that meshes with degenerate triangles stay watertight); its normal is
/// then the stand-in of sphereTriangle, turned against dir. Tolerance: local origin = the ray
/// origin; scale = the largest absolute coordinate of the vertices minus the origin and of
/// dir * t_max. Decisive distance as for segmentTriangle. NaN/Inf vertices or an invalid ray:
/// false, out_hit untouched; so are vertices about 1.8e19 or more from the origin, whose sheared
/// edge functions overflow (no hit: the fast test and the mesh queries' boxes agree).
bool rayTriangleWatertight(const WatertightRay& ray, const Vec3& a, const Vec3& b, const Vec3& c,
                           RayHit& out_hit);

/// Up to four triangles side by side (structure of arrays), for watertightCandidates.
struct TriangleLanes {
    float v[3][3][4]; ///< [vertex a, b, c][axis][lane]
};

/// Writes triangle (a, b, c) into `lane` (0..3).
void setTriangleLane(int lane, const Vec3& a, const Vec3& b, const Vec3& c, TriangleLanes& inout);

/// The first decision of rayTriangleWatertight, on four triangles at once: returns `lanes` (a bit
/// per lane) without the lanes whose float edge functions U, V, W have strictly mixed signs.
/// rayTriangleWatertight rejects every such triangle: the lanes compute the same U, V, W with the
/// same float operations, and its double recomputation of an edge function that is exactly 0
/// keeps the sign of every non-zero one. So a cleared lane is never one it accepts; the lanes
/// left still need rayTriangleWatertight (NaN lanes are left too). Every lane of `tris` must be
/// written, those outside `lanes` included.
unsigned watertightCandidates(const WatertightRay& ray, const TriangleLanes& tris, unsigned lanes);

/// Segment p0 -> p1 (t in [0, 1]) against the triangle with the watertight test; prepares the ray
/// on each call (prepare it once with makeWatertightRay when testing many triangles).
bool segmentTriangleWatertight(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b, const Vec3& c,
                               RayHit& out_hit);

} // namespace flak
