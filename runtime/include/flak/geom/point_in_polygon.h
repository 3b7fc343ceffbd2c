// flak — 2D point in polygon (concave allowed): crossing number with a half-open rule.
#pragma once

#include <flak/math/vec2.h>

#include <cstdint>

namespace flak {

/// True when `point` lies inside the polygon `points[0..count)` (closed implicitly: the last point
/// connects back to the first). Coordinates in world units; no allocation, thread-safe.
///
/// Rule: even-odd (crossing number). Concave polygons are fine; a self-intersecting polygon is
/// classified even-odd. The answer does not depend on the orientation: clockwise input gives
/// exactly the same answers as its counter-clockwise reverse.
///
/// Boundary (half-open rule): each edge's vote depends only on its two float endpoints as an
/// unordered pair and on the point, so a point on an edge shared by two adjacent polygons (same
/// endpoints, either direction) is inside exactly one of them, and a point on a vertex shared by a
/// fan of polygons covering its neighbourhood is inside exactly one of the fan. Where the float
/// orientation of the point against an edge is exactly zero (axis-aligned edges, vertices,
/// collinear float points), the point is classified as if moved by (eps, eps^2), eps -> 0+: for a
/// counter-clockwise square, the left and bottom sides are inside and the right and top sides
/// outside. Elsewhere a boundary point falls in the tolerance band.
///
/// Decisive distance (tolerance.h rule 3): the distance from `point` to the polygon's boundary;
/// scale: the largest |vertex - point| coordinate.
///
/// Degenerate: count < 3 or a null array gives false; a zero-area polygon (collinear points)
/// contains no point outside the tolerance band. Non-finite: NaN or infinity in the point or in
/// any vertex gives false.
bool pointInPolygon(const Vec2& point, const Vec2* points, std::uint32_t count);

/// One edge's vote in pointInPolygon's crossing number: `a` and `b` are the edge's endpoints minus
/// the query point (a - point, b - point, as float subtractions). True when the edge straddles the
/// horizontal line through the point (half-open: y <= 0 against y > 0) and the point lies strictly
/// left of the edge taken bottom-to-top. Symmetric in a and b. The parity of the votes over a
/// ring's edges is pointInPolygon (finite input); wall sets sum them over many rings.
inline bool crossingVote(const Vec2& a, const Vec2& b) {
    if ((a.y <= 0.0f) == (b.y <= 0.0f)) return false;
    const Vec2& lo = a.y <= 0.0f ? a : b;
    const Vec2& hi = a.y <= 0.0f ? b : a;
    return cross(lo, hi) > 0.0f;
}

} // namespace flak
