#include <flak/geom/point_in_polygon.h>

namespace flak {

// Crossing number (Shimrat 1962, "Algorithm 112: Position of point relative to polygon"; the
// half-open formulation of Haines, "Point in Polygon Strategies", Graphics Gems IV, 1994).
//
// Everything is relative to the query point, so the rounding of each coordinate is relative to
// |vertex - point| (the scale of the tolerance band). An edge votes when it straddles the
// horizontal line through the point with the half-open rule (y <= py on one side, y > py on the
// other), and when the point lies strictly left of the edge taken bottom-to-top. Both tests are
// symmetric in the edge's endpoints and are computed from the same float operands whichever way
// the edge is listed, which is what makes shared edges partition their points exactly.
bool pointInPolygon(const Vec2& point, const Vec2* points, std::uint32_t count) {
    if (points == nullptr || count < 3) return false;
    if (!isFinite(point)) return false;
    bool inside = false;
    // (x - x) is NaN exactly when x is NaN or infinite; one probe collects every vertex.
    float probe = 0.0f;
    Vec2 a;
    sub(points[count - 1], point, a);
    for (std::uint32_t i = 0; i < count; ++i) {
        Vec2 b;
        sub(points[i], point, b);
        probe += (points[i].x - points[i].x) + (points[i].y - points[i].y);
        if (crossingVote(a, b)) inside = !inside;
        a = b;
    }
    return inside && probe == 0.0f;
}

} // namespace flak
