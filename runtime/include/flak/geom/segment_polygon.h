// flak — segment vs 2D polygon (concave allowed): the first hit along the segment.
#pragma once

#include <flak/math/vec2.h>

#include <cstdint>

namespace flak {

/// `edge` value of a hit that has no edge: the segment starts inside the solid.
constexpr std::uint32_t kNoEdge = 0xFFFFFFFFu;

/// First hit of a segment on a polygon (24 bytes). World units.
struct SegmentPolygonHit {
    /// Parameter of the hit: point = p0 + t * (p1 - p0), t in [0, 1].
    float t = 0.0f;
    Vec2 point;
    /// Unit normal of the edge hit, facing against the segment's direction (the polygon's outward
    /// normal for a segment coming from outside). For a segment sliding along an edge (collinear):
    /// the edge's outward normal by the polygon's signed area (right-hand normal when the area is
    /// zero). For a segment that starts inside, or an edge of zero length (a point): -(p1 - p0)
    /// normalised. Zero for a zero-length segment.
    Vec2 normal;
    /// Index i of the edge hit (from points[i] to points[(i + 1) % count]); kNoEdge when the
    /// segment starts inside. Ties (a hit exactly through a vertex) go to the lower index.
    std::uint32_t edge = kNoEdge;
};
static_assert(sizeof(SegmentPolygonHit) == 24, "a float, two Vec2 and an index");

/// True when the closed segment p0-p1 meets the polygon's solid (even-odd interior plus boundary,
/// as point_in_polygon.h; orientation does not matter except for the sliding normal above), and
/// then writes the first hit along it. O(n), one pass, no allocation.
///
/// Start inside: the start is classified by the crossing number taken along the segment's own
/// direction (point_in_polygon.h's half-open rule with the segment as the ray), from the same
/// per-vertex numbers as the edge hits, so the two never contradict each other; away from the
/// boundary (outside the band) it is pointInPolygon's answer. A start inside hits at t = 0 with
/// edge kNoEdge; a start exactly on the boundary hits at t = 0 either way. Touching is a hit: an
/// end exactly on an edge hits at t = 1, a segment through or grazing a vertex hits there, a
/// segment along an edge hits where they start to overlap. A zero-length segment is a point: it hits
/// when pointInPolygon holds or it lies exactly on an edge (edge index reported).
///
/// Decisive distance: the distance from the reported hit point to the solid (it must be ~0), and
/// the depth the segment reaches inside the solid before the reported hit (or anywhere, for a miss).
/// Scale: the largest |vertex - p0| or |p1 - p0| coordinate.
///
/// Degenerate: fewer than 3 points or zero area acts as its edges (a point, a segment); zero-length
/// edges act as points. Non-finite input (or p1 - p0 overflowing), a null array or count 0: false,
/// out_hit untouched.
bool segmentPolygon(const Vec2& p0, const Vec2& p1, const Vec2* points, std::uint32_t count,
                    SegmentPolygonHit& out_hit);

} // namespace flak
