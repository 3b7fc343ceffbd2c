// flak — circle vs 2D polygon (concave allowed): contact, smallest push-out, closest point.
#pragma once

#include <flak/math/vec2.h>

#include <cstdint>

namespace flak {

/// Result of circlePolygon (28 bytes). World units.
struct CirclePolygonContact {
    /// The smallest translation of the circle after which it only touches the polygon's solid
    /// (to within the tolerance band); zero when the circle already just touches.
    Vec2 push;
    /// Unit direction of `push` (from the polygon towards the circle). When `push` is zero: the
    /// direction from the closest boundary point to the centre, or, for a zero radius centred on
    /// the boundary, the right-hand normal of the edge there (outward for counter-clockwise input).
    Vec2 normal;
    /// The point of the polygon's boundary closest to the centre. In a concave notch it need not
    /// lie along `push`: the push may have to leave by another side.
    Vec2 closest;
    /// Length of `push`, >= 0.
    float depth = 0.0f;
};
static_assert(sizeof(CirclePolygonContact) == 28, "three Vec2 and a float");

/// True when the closed disc (`center`, `radius`) touches or overlaps the polygon's solid, and then
/// writes `out_contact`. The polygon `points[0..count)` is closed implicitly; its solid is its
/// even-odd interior (point-in-polygon rule of point_in_polygon.h) plus its boundary edges, so
/// orientation does not matter (clockwise input gives the same result; only the zero-push normal
/// above uses the listed direction) and concave polygons are fine.
///
/// The push is the true minimum for concave polygons, not the nearest feature's normal: the kernel
/// takes the nearest-feature push when the pushed circle is clear of every other edge (O(n), the
/// usual case), and otherwise searches the boundary of the region the centre may occupy (edges
/// shifted outwards by the radius, arcs around the vertices, and the corners where they meet):
/// O(n) smooth candidates checked nearest first, then the corners of the pieces that come within
/// the best distance so far (O(m^2) for m such pieces), each candidate checked against the polygon
/// in O(n) only when it is nearer than the best. Measured: ~0.2 us for 8 vertices, ~1 us for 16,
/// ~4 us for 32-vertex spiky stars (a quarter of them take the search). Stack use is fixed (about
/// 6 KB); with more than 48 nearby pieces or 128 candidates the search takes the same answer by
/// rescanning instead. The outward side of each edge comes from the signed area: for a
/// self-intersecting polygon the push is still clear of the solid but may not be the shortest.
/// The acceptance check of a candidate allows a slack of a quarter of the tolerance band (named
/// exception to tolerance.h rule 2): candidates lie exactly on the boundary of the allowed region,
/// where a plain float comparison is a coin toss. The contact decision itself is plain float:
/// inside, or squared distance to an edge <= radius^2.
///
/// Decisive distance: distance from the centre to the solid minus the radius (contact decision);
/// for the push: the overlap left after it, and its excess over the true minimum. Scale: the
/// largest |vertex - center| coordinate, or the radius if larger.
///
/// Degenerate: a polygon of fewer than 3 points or zero area has no interior and acts as its edges
/// (a point, a segment, a thin wall); zero radius is a point. Non-finite input, a negative radius,
/// a null array or count 0: false, out_contact untouched.
bool circlePolygon(const Vec2& center, float radius, const Vec2* points, std::uint32_t count,
                   CirclePolygonContact& out_contact);

} // namespace flak
