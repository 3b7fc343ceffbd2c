// flak — private machinery shared by GJK (gjk.cpp) and the GJK ray cast (gjk_raycast.cpp): shapes
// placed in a query frame, and the simplex sub-algorithm.
//
// Precision: support points are computed in float from the float shape data, so each vertex of the
// Minkowski difference is a float point (a consistent, rounded polytope). The differences of support
// points, the simplex sub-algorithm and the search direction are kept in double: the direction v is
// the difference of the closest point and the origin, and in float its direction error is about
// eps * |vertices| / |v|, which, once the support mapping turns it into a lower bound, grows to
// eps * size^2 / |v|: far outside the band when the shapes are much larger than their distance.
// In double that term is 2^-29 times smaller, and the answer is GJK's exact answer for the rounded
// polytope. (This is the named precision exception of the GJK kernels; see gjk.h.)
#pragma once

#include <flak/geom/convex_shape.h>
#include <flak/math/transform.h>

#include "math/magnitude.h"

#include <cmath>

namespace flak::detail {

/// Convergence tolerance of the GJK loops, relative to the scale of the support points seen: the
/// loop stops when the gap between the upper bound |v| and the lower bound v.w/|v| of the distance
/// is at most this times the scale. A tenth of kToleranceRelative: well inside the band.
constexpr double kGjkTolerance = 1e-6;

/// Double-precision 3-vector for the simplex (private to the GJK kernels).
struct DVec3 {
    double x = 0.0, y = 0.0, z = 0.0;
    double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
};
inline DVec3 toDVec(const Vec3& v) { return {double(v.x), double(v.y), double(v.z)}; }
inline Vec3 toVec(const DVec3& v) { return {float(v.x), float(v.y), float(v.z)}; }
inline DVec3 dsub(const DVec3& a, const DVec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline DVec3 dadd(const DVec3& a, const DVec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline DVec3 dscale(const DVec3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline DVec3 daddScaled(const DVec3& a, const DVec3& b, double s) {
    return {a.x + b.x * s, a.y + b.y * s, a.z + b.z * s};
}
inline double ddot(const DVec3& a, const DVec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline DVec3 dcross(const DVec3& a, const DVec3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double dmaxAbs(const DVec3& v) { return maxOf(maxOf(std::fabs(v.x), std::fabs(v.y)), std::fabs(v.z)); }

/// A shape placed in a query frame whose origin is the query's origin (a point of shape A), so
/// that support points come out as small numbers when the shapes are near each other, wherever
/// they are in the world.
struct PlacedShape {
    const ConvexShape* shape = nullptr;
    Mat33 rotation;  // shape frame -> world orientation (identity when untransformed)
    Vec3 core_point; // corePoint(shape), shape frame
    Vec3 offset;     // world position of core_point minus the query origin
    bool rotated = false;
};

/// The query origin: A's transform translation when it has one, else A's core point.
void queryOrigin(const ConvexShape& a, const Transform* xa, Vec3& out);

/// Places `shape` (with optional transform `xf`, null for identity) in the frame at `origin`.
void placeShape(const ConvexShape& shape, const Transform* xf, const Vec3& origin, PlacedShape& out);

/// Both shapes of a query placed in one frame, at A's query origin (queryOrigin, also returned).
/// False when an offset from that origin overflows float (shapes about 3.4e38 apart): the
/// query then has no finite frame to run in.
bool placePair(const ConvexShape& a, const Transform* xa, const ConvexShape& b, const Transform* xb,
               Vec3& out_origin, PlacedShape& out_a, PlacedShape& out_b);

/// Core support point in world direction `direction`, relative to the query origin. Computed as
/// rotation * (local support - core point) + offset, so rounding follows the shape's own size.
void supportPlaced(const PlacedShape& placed, const Vec3& direction, Vec3& out);

/// One simplex vertex: w, the point whose hull is searched (a - b for the distance; the ray point
/// minus (b - a) for the ray cast), and the supporting points a and b.
struct SimplexVertex {
    DVec3 w;
    Vec3 a;
    Vec3 b;
};

/// 1 to 4 vertices and the barycentric weights of the closest point.
struct Simplex {
    SimplexVertex v[4];
    double weight[4] = {1.0, 0.0, 0.0, 0.0};
    int count = 0;
};

/// The closest point to the origin of the convex hull of the simplex's w (signed volumes,
/// Montanari, Petrinic & Barbieri 2017). Reduces the simplex to the vertices of the closest
/// feature and writes their weights (always in [0, 1], summing to 1). Returns false when the
/// origin is inside a non-degenerate tetrahedron (out_closest zero; the kept vertices and weights
/// then give the combination nearest the origin found: the barycentric coordinates, or the
/// nearest face of a thin tetrahedron).
bool solveSimplex(Simplex& simplex, DVec3& out_closest);

/// Weighted sums of the vertices' a and b (the witness points), relative to the query origin.
void witnessPoints(const Simplex& simplex, DVec3& out_a, DVec3& out_b);

} // namespace flak::detail
