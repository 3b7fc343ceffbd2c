// flak — convex polygon vs convex polygon by the separating axis test, with the minimum
// translation vector.
#pragma once

#include <flak/math/vec2.h>

#include <cstdint>

namespace flak {

/// Minimum translation vector of two overlapping polygons (12 bytes): moving A by axis * depth
/// leaves A and B touching.
struct PolygonMtv {
    /// Unit axis pointing from B towards A.
    Vec2 axis;
    /// Penetration depth along `axis`, >= 0 (0: touching). World units.
    float depth = 0.0f;
};
static_assert(sizeof(PolygonMtv) == 12, "a Vec2 and a float");

/// True when the closed convex polygons A (`a[0..a_count)`) and B (`b[0..b_count)`) touch or
/// overlap, and then writes the minimum translation vector. Method: separating axis test over the
/// edge normals of both polygons (the complete axis set of two convex polygons), plus the
/// perpendicular of the best axis so that degenerate pairs (points, parallel segments) are complete
/// too. Either orientation works. Cost O((na + nb)^2), no allocation.
///
/// The polygons must be convex (not checked): concave input gives the test over its edge normals,
/// which may report overlap for separated shapes, but never crashes.
///
/// Decisive distance: the separation between A and B (positive) or their penetration depth
/// (negative), i.e. the signed distance of the origin from the boundary of A - B; the depth is
/// compared with the reference within the band. Scale: the largest |vertex - a[0]| coordinate.
///
/// Degenerate: polygons of fewer than 3 points or zero area act as their point or segment; zero-
/// length edges are skipped; two single points overlap only when equal (axis -x, depth 0: where
/// pushing A along +axis and along -axis is equally deep, the push along -axis is taken).
/// Non-finite input, a null array or a count of 0: false, out_mtv untouched.
bool polygonSat(const Vec2* a, std::uint32_t a_count, const Vec2* b, std::uint32_t b_count,
                PolygonMtv& out_mtv);

} // namespace flak
