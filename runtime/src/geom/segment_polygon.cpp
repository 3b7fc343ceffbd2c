#include <flak/geom/segment_polygon.h>

#include <cmath>

namespace flak {
namespace {

// Side and position of a vertex against the segment's line, relative to p0: side = cross(d, v - p0)
// (positive: left of the segment), along = dot(v - p0, d) (the parameter t times |d|^2).
struct VertexOnLine {
    float side;
    float along;
};

void classify(const Vec2& v, const Vec2& p0, const Vec2& d, VertexOnLine& out) {
    Vec2 r;
    sub(v, p0, r);
    out.side = cross(d, r);
    out.along = dot(r, d);
}

// The polygon's right-hand normal for edge (a, b), facing against d; for a segment sliding along the
// edge, outward by the polygon's signed area. Zero-length edges face the segment.
void edgeNormal(const Vec2* points, std::uint32_t count, std::uint32_t edge, bool sliding, const Vec2& d,
                Vec2& out) {
    Vec2 e, n;
    sub(points[edge + 1 == count ? 0 : edge + 1], points[edge], e);
    set(e.y, -e.x, n);
    if (!normalize(n, n)) {
        scale(d, -1.0f, n);
        normalize(n, out);
        return;
    }
    if (sliding) {
        float area2 = 0.0f;
        Vec2 prev;
        sub(points[count > 1 ? 1 : 0], points[0], prev);
        for (std::uint32_t i = 2; i < count; ++i) {
            Vec2 cur;
            sub(points[i], points[0], cur);
            area2 += cross(prev, cur);
            prev = cur;
        }
        if (area2 < 0.0f) scale(n, -1.0f, n);
    } else if (dot(n, d) > 0.0f) {
        scale(n, -1.0f, n);
    }
    out = n;
}

// Whether a point lies on an edge whose ends are r0 and r1 relative to it: the orientation exactly
// zero and the point between the ends.
bool onEdgeRelative(const Vec2& r0, const Vec2& r1) { return cross(r0, r1) == 0.0f && dot(r0, r1) <= 0.0f; }

// The same for the edge (v0, v1) and the point p.
bool onEdge(const Vec2& v0, const Vec2& v1, const Vec2& p) {
    Vec2 r0, r1;
    sub(v0, p, r0);
    sub(v1, p, r1);
    return onEdgeRelative(r0, r1);
}

// A zero-length segment: inside by the crossing number (point_in_polygon.cpp's rule), else on an
// edge when its orientation is exactly zero and it lies between the edge's ends.
bool pointHit(const Vec2& p, const Vec2* points, std::uint32_t count, std::uint32_t& out_edge) {
    bool inside = false;
    out_edge = kNoEdge;
    Vec2 first, a;
    sub(points[0], p, first);
    a = first;
    for (std::uint32_t i = 0; i < count; ++i) {
        Vec2 b = first;
        if (i + 1 < count) sub(points[i + 1], p, b);
        if ((a.y <= 0.0f) != (b.y <= 0.0f)) {
            const Vec2& lo = a.y <= 0.0f ? a : b;
            const Vec2& hi = a.y <= 0.0f ? b : a;
            if (cross(lo, hi) > 0.0f) inside = !inside;
        }
        if (out_edge == kNoEdge && onEdgeRelative(a, b)) out_edge = i;
        a = b;
    }
    if (count >= 3 && inside) out_edge = kNoEdge;
    return (count >= 3 && inside) || out_edge != kNoEdge;
}

} // namespace

// Everything along the segment's own line (a 1D crossing-number sweep; the vertex classification of
// Hormann & Agathos 2001 "The point in polygon problem for arbitrary polygons", with the segment's
// direction as the ray). Each vertex is classified once, by its side of the line and its position
// along it, and every edge uses its two endpoints' numbers:
//   - an edge crosses the line when its endpoints' sides differ (half-open: side > 0 against
//     side <= 0); the crossing lies at the interpolation of the endpoints' positions by their sides,
//     so it always falls within the edge's extent, even for nearly collinear edges;
//   - the start is inside when an odd number of crossings lie ahead of it (t > 0);
//   - a vertex exactly on the line touches it; an edge with both ends on it overlaps it.
// The first hit is 0 for a start inside, else the least crossing, touch or overlap in [0, 1].
// Because the start-inside test and the hits use the same per-vertex numbers, a segment can never
// slip through a vertex or an edge between two inconsistent float decisions.
bool segmentPolygon(const Vec2& p0, const Vec2& p1, const Vec2* points, std::uint32_t count,
                    SegmentPolygonHit& out_hit) {
    if (points == nullptr || count == 0) return false;
    if (!isFinite(p0) || !isFinite(p1)) return false;
    float probe = 0.0f;
    for (std::uint32_t i = 0; i < count; ++i)
        probe += (points[i].x - points[i].x) + (points[i].y - points[i].y);
    Vec2 d;
    sub(p1, p0, d);
    const float dd = dot(d, d);
    if (!(probe == 0.0f) || !std::isfinite(dd)) return false;

    if (dd == 0.0f) {
        std::uint32_t edge = kNoEdge;
        if (!pointHit(p0, points, count, edge)) return false;
        out_hit.t = 0.0f;
        out_hit.point = p0;
        set(0.0f, 0.0f, out_hit.normal);
        out_hit.edge = edge;
        return true;
    }

    bool inside = false;
    bool sliding = false;
    float best = dd; // best position along d (t * |d|^2); a hit needs <= dd
    std::uint32_t best_edge = kNoEdge;
    auto offer = [&](float along, std::uint32_t edge, bool parallel) {
        if (along < best || (best_edge == kNoEdge && along == best)) {
            best = along;
            best_edge = edge;
            sliding = parallel;
        }
    };
    VertexOnLine first, a;
    classify(points[0], p0, d, first);
    a = first;
    for (std::uint32_t i = 0; i < count; ++i) {
        VertexOnLine b = first;
        if (i + 1 < count) classify(points[i + 1], p0, d, b);
        if ((a.side > 0.0f) != (b.side > 0.0f)) {
            // An end on the line is the crossing itself; otherwise interpolated by the sides.
            const float along = a.side == 0.0f   ? a.along
                                : b.side == 0.0f ? b.along
                                                 : a.along + a.side / (a.side - b.side) * (b.along - a.along);
            if (along > 0.0f) inside = !inside;
            const Vec2& v0 = points[i];
            const Vec2& v1 = points[i + 1 < count ? i + 1 : 0];
            if (along >= 0.0f)
                offer(along, i, false);
            else if (onEdge(v0, v1, p0)) // the start on this edge, its crossing rounded behind it
                offer(0.0f, i, false);
            if (along > dd && onEdge(v0, v1, p1)) offer(dd, i, false); // the end on it, rounded past
        } else if (b.side == 0.0f && a.side != 0.0f && b.along >= 0.0f) {
            offer(b.along, i, false); // the edge ends on the line from its right: it touches there
        }
        if (a.side == 0.0f) {
            if (b.side == 0.0f) {
                const float lo = a.along < b.along ? a.along : b.along;
                const float hi = a.along < b.along ? b.along : a.along;
                if (hi >= 0.0f) offer(lo > 0.0f ? lo : 0.0f, i, true);
            } else if (a.along >= 0.0f) {
                offer(a.along, i, false);
            }
        }
        a = b;
    }
    if (count >= 3 && inside) {
        out_hit.t = 0.0f;
        out_hit.point = p0;
        Vec2 n;
        scale(d, -1.0f, n);
        normalize(n, out_hit.normal);
        out_hit.edge = kNoEdge;
        return true;
    }
    if (best_edge == kNoEdge) return false;
    float t = best / dd;
    if (t > 1.0f) t = 1.0f;
    out_hit.t = t;
    addScaled(p0, d, t, out_hit.point);
    edgeNormal(points, count, best_edge, sliding, d, out_hit.normal);
    out_hit.edge = best_edge;
    return true;
}

} // namespace flak
