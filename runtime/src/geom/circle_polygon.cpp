#include <flak/geom/circle_polygon.h>

#include <flak/geom/tolerance.h>

#include <cmath>
#include <limits>

namespace flak {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// The polygon seen from the circle's centre: every coordinate is relative to it (the kernel's
// local origin), so rounding is relative to |vertex - center|.
struct LocalPolygon {
    const Vec2* points;
    std::uint32_t count;
    Vec2 center;
    void vertex(std::uint32_t i, Vec2& out) const { sub(points[i], center, out); }
};

// Squared distance from q to the segment [a, b] and the closest point on it (Ericson, RTCD 5.1.2).
float segmentDistanceSq(const Vec2& q, const Vec2& a, const Vec2& b, Vec2& out_closest) {
    Vec2 e, aq;
    sub(b, a, e);
    sub(q, a, aq);
    const float num = dot(aq, e);
    const float den = dot(e, e);
    if (num <= 0.0f) {
        out_closest = a;
    } else if (num >= den) {
        out_closest = b;
    } else {
        addScaled(a, e, num / den, out_closest);
    }
    Vec2 d;
    sub(q, out_closest, d);
    return dot(d, d);
}

// One vote of the crossing number for the edge (a, b) against the point q (point_in_polygon.cpp's
// half-open rule, here on coordinates relative to q).
bool crossesRight(const Vec2& a, const Vec2& b) {
    if ((a.y <= 0.0f) == (b.y <= 0.0f)) return false;
    const Vec2& lo = a.y <= 0.0f ? a : b;
    const Vec2& hi = a.y <= 0.0f ? b : a;
    return cross(lo, hi) > 0.0f;
}

// One piece of the boundary of the region where the centre may go (points at distance >= r from
// the solid): for k < 2n, edge k/2 shifted by r along its right (k even) or left normal; for
// k >= 2n, the circle of radius r around vertex k - 2n.
struct Piece {
    bool is_line = false;
    Vec2 p;      // line: start of the shifted edge; circle: centre
    Vec2 q;      // line: end of the shifted edge
    Vec2 dir;    // line: unit direction
    Vec2 normal; // line: unit shift direction
    float length = 0.0f;
    Vec2 prev; // circle: the neighbouring vertices, relative to the centre
    Vec2 next;
    std::uint32_t edge = 0; // the edge (line) or the edge starting at the vertex (circle)
    float dist_sq = 0.0f;   // squared distance from the centre (set for the corner search)
};

// Whether x (on the piece's supporting line or circle) lies on the piece itself, up to `slack`:
// for a shifted edge, its foot falls within the edge; for a vertex circle, neither neighbouring
// edge has a nearer point than the vertex. Intersections off the pieces are never corners of the
// region's boundary (the pieces' own intersections are), so they need no check against the polygon.
bool onPiece(const Piece& piece, const Vec2& x, float slack) {
    Vec2 d;
    sub(x, piece.p, d);
    if (piece.is_line) {
        const float along = dot(d, piece.dir);
        return along >= -slack && along <= piece.length + slack;
    }
    Vec2 e;
    sub(piece.prev, piece.p, e);
    if (dot(d, e) > slack * length(e)) return false;
    sub(piece.next, piece.p, e);
    return !(dot(d, e) > slack * length(e));
}

// False for a zero-length edge (it has no line piece; its vertex circle covers it) and for the
// inner side of an edge when `sides` says the polygon's orientation is known (+1: counter-clockwise,
// -1: clockwise, 0: unknown, both sides kept).
bool makePiece(const LocalPolygon& poly, float r, int sides, std::uint32_t k, Piece& out) {
    const std::uint32_t n = poly.count;
    if (k >= 2 * n) {
        const std::uint32_t v = k - 2 * n;
        out.is_line = false;
        out.edge = v;
        poly.vertex(v, out.p);
        poly.vertex(v == 0 ? n - 1 : v - 1, out.prev);
        poly.vertex(v + 1 == n ? 0 : v + 1, out.next);
        return true;
    }
    const std::uint32_t i = k / 2;
    out.edge = i;
    Vec2 a, b, e;
    poly.vertex(i, a);
    poly.vertex(i + 1 == n ? 0 : i + 1, b);
    sub(b, a, e);
    const float len = length(e);
    if (!(len > 0.0f)) return false;
    out.is_line = true;
    out.length = len;
    scale(e, 1.0f / len, out.dir);
    const float side = (k & 1u) ? -1.0f : 1.0f;
    if (sides != 0 && side != float(sides)) return false;
    set(out.dir.y * side, -out.dir.x * side, out.normal);
    addScaled(a, out.normal, r, out.p);
    addScaled(b, out.normal, r, out.q);
    return true;
}

// Squared distance from the centre (the origin) to a piece.
float pieceDistanceSq(const Piece& piece, float r) {
    if (piece.is_line) {
        Vec2 cl;
        return segmentDistanceSq(Vec2{}, piece.p, piece.q, cl);
    }
    const float d = length(piece.p) - r;
    return d * d;
}

struct Candidate {
    float dist_sq = kInf;
    Vec2 x;
    Vec2 normal;
};

// True when q (relative to the centre) is at signed distance >= threshold from the solid. Stops at
// the first edge nearer than a positive threshold (most rejected candidates go that way); the scan
// starts a little before edge `hint` (the edge the candidate came from), whose neighbours are the
// likeliest to reject it. The parity of the crossings does not depend on the starting edge.
bool isClear(const LocalPolygon& poly, const Vec2& q, float threshold, std::uint32_t hint) {
    const float thr_sq = threshold > 0.0f ? threshold * threshold : 0.0f;
    const std::uint32_t n = poly.count;
    const std::uint32_t start = (hint % n + n - (n > 2 ? 2 : 0)) % n;
    float best = kInf;
    bool inside = false;
    Vec2 a;
    poly.vertex(start, a);
    for (std::uint32_t step = 1; step <= n; ++step) {
        const std::uint32_t i = start + step < n ? start + step : start + step - n;
        Vec2 b, cl, aq, bq;
        poly.vertex(i, b);
        const float d2 = segmentDistanceSq(q, a, b, cl);
        if (d2 < thr_sq) return false;
        if (d2 < best) best = d2;
        sub(a, q, aq);
        sub(b, q, bq);
        if (crossesRight(aq, bq)) inside = !inside;
        a = b;
    }
    const float d = std::sqrt(best);
    return ((inside && poly.count >= 3) ? -d : d) >= threshold;
}

class PushSearch {
public:
    PushSearch(const LocalPolygon& poly, float r, float tol, float lower_bound)
        : m_poly(poly), m_r(r), m_tol(tol) {
        const float lb = lower_bound - 2.0f * tol;
        m_lb_sq = lb > 0.0f ? lb * lb : 0.0f;
    }

    // Keeps x (relative to the centre) when it is nearer than the best so far and clear of the
    // solid by r, up to the slack. Points nearer than the lower bound of every push (the
    // nearest-feature distance, less the slack) cannot be clear and are skipped unchecked.
    void consider(const Vec2& x, const Vec2& normal, std::uint32_t hint) {
        const float d2 = lengthSq(x);
        if (!(d2 < m_best.dist_sq) || d2 < m_lb_sq) return;
        if (!isClear(m_poly, x, m_r - m_tol, hint)) return;
        m_best.dist_sq = d2;
        m_best.x = x;
        m_best.normal = normal;
    }
    void seed(const Vec2& x, const Vec2& normal) {
        const float d2 = lengthSq(x);
        if (d2 < m_best.dist_sq) m_best = Candidate{d2, x, normal};
    }
    const Candidate& best() const { return m_best; }

    void intersect(const Piece& u, const Piece& v) {
        if (u.is_line && v.is_line) {
            const float den = cross(u.dir, v.dir);
            if (den == 0.0f) return;
            Vec2 d, x;
            sub(v.p, u.p, d);
            addScaled(u.p, u.dir, cross(d, v.dir) / den, x);
            if (onPiece(u, x, m_tol) && onPiece(v, x, m_tol)) consider(x, u.normal, u.edge);
        } else if (u.is_line || v.is_line) {
            const Piece& line = u.is_line ? u : v;
            const Piece& circle = u.is_line ? v : u;
            Vec2 w;
            sub(line.p, circle.p, w);
            const float b = dot(w, line.dir);
            const float c = dot(w, w) - m_r * m_r;
            const float disc = b * b - c;
            if (!(disc >= 0.0f)) return;
            const float root = std::sqrt(disc);
            Vec2 x;
            addScaled(line.p, line.dir, -b - root, x);
            if (onPiece(line, x, m_tol) && onPiece(circle, x, m_tol)) consider(x, line.normal, line.edge);
            addScaled(line.p, line.dir, -b + root, x);
            if (onPiece(line, x, m_tol) && onPiece(circle, x, m_tol)) consider(x, line.normal, line.edge);
        } else {
            Vec2 d;
            sub(v.p, u.p, d);
            const float dd = dot(d, d);
            const float h2 = m_r * m_r - 0.25f * dd;
            if (!(dd > 0.0f) || !(h2 >= 0.0f)) return;
            Vec2 mid, side, x, nrm;
            addScaled(u.p, d, 0.5f, mid);
            perp(d, side);
            scale(side, std::sqrt(h2 / dd), side);
            add(mid, side, x);
            sub(x, u.p, nrm);
            normalize(nrm, nrm);
            if (onPiece(u, x, m_tol) && onPiece(v, x, m_tol)) consider(x, nrm, u.edge);
            sub(mid, side, x);
            sub(x, u.p, nrm);
            normalize(nrm, nrm);
            if (onPiece(u, x, m_tol) && onPiece(v, x, m_tol)) consider(x, nrm, u.edge);
        }
    }

private:
    const LocalPolygon& m_poly;
    float m_r;
    float m_tol;
    float m_lb_sq = 0.0f;
    Candidate m_best;
};

// The nearest point of the region {x : distance(x, solid) >= r} to the centre, when the
// nearest-feature push does not reach it. The nearest point of a closed region lies either at the
// foot of a perpendicular onto a smooth piece of its boundary or at a corner where two pieces
// meet; the pieces are the edges shifted by r (both sides: orientation is not trusted) and the
// circles of radius r around the vertices. Every candidate is kept only if it is really clear
// of the solid, so supporting lines and full circles may stand in for the pieces.
//
// For a simple polygon the inner side of an edge never holds a clear point (the foot of r inside it
// is in the solid or within r of another edge), so when the signed area gives the orientation only
// the outer sides are searched; a zero-area polygon (a wall of segments) keeps both. For a
// self-intersecting polygon the orientation does not tell the inside from the outside: the push is
// still clear of the solid (every candidate is checked) but may not be the shortest.
void searchPush(const LocalPolygon& poly, float r, float tol, float area2, float lower_bound,
                const Vec2& box_lo, const Vec2& box_hi, Vec2& out_push, Vec2& out_normal) {
    const int sides = area2 > 0.0f ? 1 : (area2 < 0.0f ? -1 : 0);
    PushSearch search(poly, r, tol, lower_bound);
    // The exits of the bounding box grown by r are clear by construction: the starting bound.
    search.seed(Vec2{box_lo.x - r, 0.0f}, Vec2{-1.0f, 0.0f});
    search.seed(Vec2{box_hi.x + r, 0.0f}, Vec2{1.0f, 0.0f});
    search.seed(Vec2{0.0f, box_lo.y - r}, Vec2{0.0f, -1.0f});
    search.seed(Vec2{0.0f, box_hi.y + r}, Vec2{0.0f, 1.0f});

    // Smooth points: the foot of the perpendicular on each shifted edge and the nearest point of each
    // vertex circle, plus the shifted edges' ends. Up to kMaxFeet of them are checked nearest first,
    // so the first clear one ends this phase; beyond that they are checked in order (same answer,
    // more checks).
    constexpr std::uint32_t kMaxFeet = 128;
    struct Foot {
        float dist_sq;
        Vec2 x;
        Vec2 normal;
        std::uint32_t edge;
    };
    Foot feet[kMaxFeet];
    std::uint32_t foot_count = 0;
    bool feet_overflow = false;
    auto addFoot = [&](const Vec2& x, const Vec2& normal, std::uint32_t edge) {
        if (feet_overflow) {
            search.consider(x, normal, edge);
            return;
        }
        if (foot_count == kMaxFeet) {
            feet_overflow = true;
            for (std::uint32_t k = 0; k < foot_count; ++k)
                search.consider(feet[k].x, feet[k].normal, feet[k].edge);
            search.consider(x, normal, edge);
            return;
        }
        const Foot f{lengthSq(x), x, normal, edge};
        std::uint32_t at = foot_count++;
        while (at > 0 && feet[at - 1].dist_sq > f.dist_sq) {
            feet[at] = feet[at - 1];
            --at;
        }
        feet[at] = f;
    };
    const std::uint32_t pieces = 3 * poly.count;
    for (std::uint32_t k = 0; k < pieces; ++k) {
        Piece piece;
        if (!makePiece(poly, r, sides, k, piece)) continue;
        if (piece.is_line) {
            // The shifted edge's ends too: where it meets its vertex circles tangentially (the
            // answer when the centre sits on a vertex, where the circle's own foot is undefined).
            addFoot(piece.p, piece.normal, piece.edge);
            addFoot(piece.q, piece.normal, piece.edge);
            const float along = -dot(piece.p, piece.dir);
            if (along > 0.0f && along < piece.length) {
                Vec2 x;
                addScaled(piece.p, piece.dir, along, x);
                addFoot(x, piece.normal, piece.edge);
            }
        } else {
            const float len = length(piece.p);
            if (len > 0.0f) {
                Vec2 x, nrm;
                scale(piece.p, -1.0f / len, nrm);
                addScaled(piece.p, nrm, r, x);
                addFoot(x, nrm, piece.edge);
            }
        }
    }
    if (!feet_overflow) {
        for (std::uint32_t k = 0; k < foot_count; ++k) {
            const float before = search.best().dist_sq;
            search.consider(feet[k].x, feet[k].normal, feet[k].edge);
            if (search.best().dist_sq < before) break; // the nearest clear foot
        }
    }
    // Corners: only pieces that come within the best distance so far can meet at a nearer point.
    // They are usually few; up to kMaxNearPieces are kept on the stack, beyond that every pair is
    // scanned again (same answer, slower).
    constexpr std::uint32_t kMaxNearPieces = 48;
    Piece near[kMaxNearPieces];
    std::uint32_t near_count = 0;
    bool overflow = false;
    for (std::uint32_t k = 0; k < pieces && !overflow; ++k) {
        Piece u;
        if (!makePiece(poly, r, sides, k, u) || pieceDistanceSq(u, r) > search.best().dist_sq) continue;
        if (near_count == kMaxNearPieces) {
            overflow = true;
        } else {
            // Insertion by distance: corners of the nearest pieces come first, so the best shrinks
            // early and prunes the rest.
            u.dist_sq = pieceDistanceSq(u, r);
            std::uint32_t at = near_count++;
            while (at > 0 && near[at - 1].dist_sq > u.dist_sq) {
                near[at] = near[at - 1];
                --at;
            }
            near[at] = u;
        }
    }
    if (!overflow) {
        for (std::uint32_t k = 0; k < near_count && near[k].dist_sq <= search.best().dist_sq; ++k) {
            for (std::uint32_t j = 0; j < k && near[k].dist_sq <= search.best().dist_sq; ++j) {
                search.intersect(near[j], near[k]);
            }
        }
    } else {
        for (std::uint32_t k = 0; k < pieces && search.best().dist_sq > 0.0f; ++k) {
            Piece u;
            if (!makePiece(poly, r, sides, k, u) || pieceDistanceSq(u, r) > search.best().dist_sq) continue;
            for (std::uint32_t j = k + 1; j < pieces; ++j) {
                Piece v;
                if (!makePiece(poly, r, sides, j, v) || pieceDistanceSq(v, r) > search.best().dist_sq)
                    continue;
                search.intersect(u, v);
            }
        }
    }
    const Candidate& best = search.best();
    out_push = best.x;
    const float len = std::sqrt(best.dist_sq);
    if (len > 0.0f) {
        scale(best.x, 1.0f / len, out_normal);
    } else {
        out_normal = best.normal;
    }
}

} // namespace

// Circle vs polygon by the closest point on the boundary (Ericson, RTCD 5.1.2 per edge) plus the
// crossing number for the inside test; the push-out is the nearest point of the offset region
// (the complement of the solid grown by r), found as described above searchPush.
bool circlePolygon(const Vec2& center, float radius, const Vec2* points, std::uint32_t count,
                   CirclePolygonContact& out_contact) {
    if (points == nullptr || count == 0) return false;
    if (!isFinite(center) || !std::isfinite(radius) || !(radius >= 0.0f)) return false;
    const LocalPolygon poly{points, count, center};
    const float r = radius;

    float probe = 0.0f;
    float best_d2 = kInf;
    float scale_max = r;
    bool inside = false;
    Vec2 closest;
    std::uint32_t closest_edge = 0;
    Vec2 box_lo{kInf, kInf}, box_hi{-kInf, -kInf};
    float area2 = 0.0f; // twice the signed area (about the centre)
    Vec2 a;
    poly.vertex(count - 1, a);
    for (std::uint32_t i = 0; i < count; ++i) {
        Vec2 b, cl;
        poly.vertex(i, b);
        probe += (points[i].x - points[i].x) + (points[i].y - points[i].y);
        const float d2 = segmentDistanceSq(Vec2{}, a, b, cl);
        if (d2 < best_d2) {
            best_d2 = d2;
            closest = cl;
            closest_edge = i == 0 ? count - 1 : i - 1;
        }
        if (crossesRight(a, b)) inside = !inside;
        area2 += cross(a, b);
        scale_max = std::fmax(scale_max, std::fmax(std::fabs(b.x), std::fabs(b.y)));
        box_lo.x = std::fmin(box_lo.x, b.x);
        box_lo.y = std::fmin(box_lo.y, b.y);
        box_hi.x = std::fmax(box_hi.x, b.x);
        box_hi.y = std::fmax(box_hi.y, b.y);
        a = b;
    }
    if (!(probe == 0.0f)) return false;
    if (count < 3) inside = false;
    if (!inside && !(best_d2 <= r * r)) return false;

    const float tol = 0.25f * kToleranceRelative * scale_max;
    const float s = std::sqrt(best_d2);
    Vec2 push, normal;
    bool found = false;
    if (s > 0.0f) {
        // Nearest-feature push: the lower bound of every push (r - s outside, s + r inside); it is
        // the answer whenever the circle put there is clear of the rest of the polygon.
        Vec2 n;
        scale(closest, inside ? 1.0f / s : -1.0f / s, n);
        float depth = inside ? s + r : r - s;
        if (depth < 0.0f) depth = 0.0f; // sqrt(r*r) may round one ulp above r
        Vec2 x;
        scale(n, depth, x);
        if (depth == 0.0f || isClear(poly, x, r - tol, closest_edge)) {
            push = x;
            normal = n;
            found = true;
        }
    } else if (r == 0.0f) {
        // A point on the boundary only touches.
        Vec2 e, pa, pb;
        poly.vertex(closest_edge, pa);
        poly.vertex(closest_edge + 1 == count ? 0 : closest_edge + 1, pb);
        sub(pb, pa, e);
        set(e.y, -e.x, e);
        if (!normalize(e, normal)) set(1.0f, 0.0f, normal);
        found = true;
    }
    if (!found) searchPush(poly, r, tol, area2, inside ? s + r : r - s, box_lo, box_hi, push, normal);

    out_contact.push = push;
    out_contact.normal = normal;
    add(closest, center, out_contact.closest);
    out_contact.depth = length(push);
    return true;
}

} // namespace flak
