// flak — convex shapes for GJK as support mappings: sphere, capsule, oriented box, point hull.
#pragma once

#include <flak/geom/capsule.h>
#include <flak/math/mat33.h>
#include <flak/math/obb.h>
#include <flak/math/sphere.h>
#include <flak/math/vec3.h>

#include <cstdint>

namespace flak {

/// Which shape a ConvexShape holds.
enum class ConvexKind : std::uint8_t { Sphere, Capsule, Box, Hull };

/// A convex shape as a core (a point, a segment, a box or the hull of points) grown by `radius`,
/// the form GJK works on (van den Bergen 2003, ch. 4): GJK runs on the cores and the radii are
/// added at the end, which is exact and converges in a finite number of steps. A tagged struct
/// with a switch, no virtual functions. Coordinates are in the shape's own frame; queries take an
/// optional Transform per shape. Plain data, copyable; hull points are borrowed, not copied.
struct ConvexShape {
    /// Sphere centre, capsule end p0, box centre; unused for hulls.
    Vec3 center;
    /// Capsule end p1, box half extents (each >= 0; zero flattens the box); unused otherwise.
    Vec3 extent;
    /// Box axes as columns (orthonormal, not checked); identity otherwise.
    Mat33 axes;
    /// Hull points (any order, duplicates and interior points allowed; coplanar, collinear and
    /// single-point hulls are valid). Borrowed: must stay alive and unchanged during a query.
    const Vec3* points = nullptr;
    /// Number of hull points (>= 1 for a valid hull).
    std::uint32_t count = 0;
    /// Sphere and capsule radius (>= 0); 0 for boxes and hulls.
    float radius = 0.0f;
    ConvexKind kind = ConvexKind::Sphere;
};

/// A sphere (`sphere.center`, `sphere.radius`).
void makeSphere(const Sphere& sphere, ConvexShape& out);
/// A capsule (segment p0-p1 grown by radius); p0 == p1 is a sphere, radius 0 a segment.
void makeCapsule(const Capsule& capsule, ConvexShape& out);
/// An oriented box (centre, half extents, rotation columns as axes).
void makeBox(const Obb& box, ConvexShape& out);
/// The convex hull of `count` points (borrowed). The hull is never built: GJK only needs the
/// support mapping, a linear scan (O(count) per support call).
void makeHull(const Vec3* points, std::uint32_t count, ConvexShape& out);

/// True when the shape can be queried: every number finite (all hull points scanned), radius and
/// half extents >= 0, a hull with a non-null array and count >= 1.
bool isValid(const ConvexShape& shape);

/// The core's support point in `direction` (shape frame): a point of the core maximising
/// dot(point, direction). Ties, and a zero direction, take the first candidate (p0; the +extent
/// corner per axis; the lowest hull index; a NaN direction likewise). Radius not included. A hull
/// with a null array or count 0 (invalid) answers `center` without reading the array.
void supportCore(const ConvexShape& shape, const Vec3& direction, Vec3& out);

/// The whole shape's support point: supportCore plus radius * direction / |direction| (the core's
/// support when the direction is zero).
void supportPoint(const ConvexShape& shape, const Vec3& direction, Vec3& out);

/// A point of the core used to start GJK (shape frame): sphere centre, capsule p0, box centre,
/// first hull point (`center` for a hull with a null array or count 0).
void corePoint(const ConvexShape& shape, Vec3& out);

} // namespace flak
