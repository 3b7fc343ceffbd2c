// Test support: the wall queries' brute-force oracles, each query run by its kernel on every
// edge or ring of a wall set alone (shooter/wall_set.h), and the loader's guarantee for walls as a
// check: a wall set that loads answers every query as these do. Used by the wall tests and the
// fuzz targets.
#pragma once

#include <flak/geom/circle_polygon.h>
#include <flak/geom/point_in_polygon.h>
#include <flak/geom/segment_polygon.h>
#include <flak/out_buffer.h>
#include <flak/shooter/swept_bullet.h>
#include <flak/shooter/wall_set.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace flak::test {

/// Every ring of the set as its own point list (as stored: oriented).
inline std::vector<std::vector<Vec2>> storedRings(const WallSet& w) {
    std::vector<std::vector<Vec2>> rings;
    for (std::uint32_t r = 0; r < w.ring_count; ++r)
        rings.emplace_back(w.points + w.rings[r].first_point,
                           w.points + w.rings[r].first_point + w.rings[r].point_count);
    return rings;
}

// ---- brute-force oracles (every edge / ring alone) ----------------------------------------------

/// XOR of pointInPolygon over the rings.
inline bool brutePointInWalls(const WallSet& w, const Vec2& p) {
    bool in = false;
    for (const auto& ring : storedRings(w)) in ^= pointInPolygon(p, ring.data(), std::uint32_t(ring.size()));
    return in;
}

/// circleWalls by circlePolygon on every edge alone, in edge id order, oriented as documented.
inline std::vector<WallContact> bruteCircleContacts(const WallSet& w, const Vec2& c, float r,
                                                    bool& out_inside) {
    std::vector<WallContact> out;
    out_inside = brutePointInWalls(w, c);
    for (std::uint32_t e = 0; e < w.point_count; ++e) {
        Vec2 ab[2];
        wallEdgePoints(w, e, ab[0], ab[1]);
        CirclePolygonContact k;
        if (!circlePolygon(c, r, ab, 2, k)) continue;
        WallContact wc;
        wc.point = k.closest;
        Vec2 rel;
        sub(wc.point, c, rel);
        const float d = length(rel);
        if (d > 0.0f && k.depth < r) {
            wc.normal = out_inside ? Vec2{-k.normal.x, -k.normal.y} : k.normal;
            wc.depth = out_inside ? r + d : k.depth;
        } else {
            const Vec2 ed{ab[1].x - ab[0].x, ab[1].y - ab[0].y};
            if (!normalize(Vec2{ed.y, -ed.x}, wc.normal)) wc.normal = Vec2{1.0f, 0.0f};
            wc.depth = out_inside ? r + d : r;
        }
        wc.ring = w.edges[e].ring;
        wc.edge = w.edges[e].index;
        wc.polygon = w.rings[wc.ring].polygon;
        wc.edge_id = e;
        out.push_back(wc);
    }
    return out;
}

/// One contact into a push by the projection rule (wall_set.h: push += n * max(0, depth - n.push)).
inline void bruteProject(Vec2& inout_push, const WallContact& k) {
    const float need = k.depth - dot(inout_push, k.normal);
    if (need > 0.0f) addScaled(inout_push, k.normal, need, inout_push);
}

/// One circle's part of a round of the push rule (circleWalls, clusterWalls), folded into
/// inout_push from its contacts: outside the solid, every contact in order; inside, the
/// shallowest only.
inline void bruteCirclePush(const WallContact* contacts, std::size_t count, bool inside, Vec2& inout_push) {
    const WallContact* shallowest = nullptr;
    for (std::size_t k = 0; k < count; ++k) {
        if (!inside)
            bruteProject(inout_push, contacts[k]);
        else if (shallowest == nullptr || contacts[k].depth < shallowest->depth)
            shallowest = &contacts[k];
    }
    if (shallowest != nullptr) bruteProject(inout_push, *shallowest);
}

/// bruteCirclePush from brute force's contacts. A centre inside with no edge within r takes the
/// kernel's nearest-edge contact, which brute force does not compute (the wall tests check its
/// distance apart).
inline void bruteRoundPush(const WallSet& w, const Vec2& c, float r, Vec2& inout_push) {
    bool inside = false;
    const std::vector<WallContact> brute = bruteCircleContacts(w, c, r, inside);
    if (!inside || !brute.empty()) {
        bruteCirclePush(brute.data(), brute.size(), inside, inout_push);
        return;
    }
    WallContact nearest;
    OutBuffer<WallContact> one = OutBuffer<WallContact>::over(&nearest, 1);
    WallPush ignored;
    (void)circleWalls(w, c, r, one, ignored);
    bruteCirclePush(&nearest, one.count, true, inout_push);
}

/// The rounds of the push rule for a shape at `at` (a circle's centre, a cluster's translation):
/// `round(offset)` is one round's push with the shape moved by offset; rounds run while the push
/// so far is not zero and the last round moved the shape, at most kWallPushRounds. out_settled:
/// whether a round left it where it was (it then at most touches, up to the push's rounding).
template <typename Round> Vec2 bruteSettledPush(const Vec2& at, Round&& round, bool* out_settled = nullptr) {
    Vec2 total = round(Vec2{0.0f, 0.0f});
    bool settled = total.x == 0.0f && total.y == 0.0f;
    for (std::uint32_t r = 1; r < kWallPushRounds && (total.x != 0.0f || total.y != 0.0f); ++r) {
        const Vec2 more = round(total);
        Vec2 next, was, now;
        add(total, more, next);
        add(at, total, was);
        add(at, next, now);
        if (now.x == was.x && now.y == was.y) {
            settled = true;
            break;
        }
        total = next;
    }
    if (out_settled != nullptr) *out_settled = settled;
    return total;
}

/// The first-hit queries' start inside the solid (the rings' XOR): t = 0 and no edge in `out`.
inline bool bruteStartsInside(const WallSet& w, const Vec2& p, WallRayHit& out) {
    if (!brutePointInWalls(w, p)) return false;
    out.t = 0.0f;
    out.edge = kNoEdge;
    return true;
}

/// Segment first hit by segmentPolygon on every edge alone (after the inside-start test).
inline bool bruteSegmentWalls(const WallSet& w, const Vec2& p0, const Vec2& p1, WallRayHit& out,
                              bool& out_inside) {
    out_inside = bruteStartsInside(w, p0, out);
    if (out_inside) return true;
    bool found = false;
    for (std::uint32_t e = 0; e < w.point_count; ++e) {
        Vec2 ab[2];
        wallEdgePoints(w, e, ab[0], ab[1]);
        SegmentPolygonHit h;
        if (!segmentPolygon(p0, p1, ab, 2, h)) continue;
        if (!found || h.t < out.t) {
            out.t = h.t;
            out.point = h.point;
            out.normal = h.normal;
            out.edge_id = e;
            out.edge = w.edges[e].index;
            out.ring = w.edges[e].ring;
            found = true;
        }
    }
    return found;
}

/// The ring a start inside the solid is reported in: the edge whose crossing of the +x ray from p
/// is nearest (pointInWalls' vote, the crossing's x relative to p as the runtime computes it),
/// ties to the lowest edge id, over every edge.
inline std::uint32_t bruteInsideRing(const WallSet& w, const Vec2& p) {
    float best_x = INFINITY;
    std::uint32_t best = 0;
    for (std::uint32_t e = 0; e < w.point_count; ++e) {
        Vec2 a, b;
        wallEdgePoints(w, e, a, b);
        sub(a, p, a);
        sub(b, p, b);
        if (!crossingVote(a, b)) continue;
        const float x = a.x + (0.0f - a.y) * (b.x - a.x) / (b.y - a.y);
        if (x < best_x) best_x = x, best = e;
    }
    return w.edges[best].ring;
}

/// Swept circle first hit by sweptCircleEdge on every edge alone (after the inside-start test).
inline bool bruteSweptWalls(const WallSet& w, const Vec2& c0, const Vec2& c1, float r, WallRayHit& out,
                            bool& out_inside) {
    out_inside = bruteStartsInside(w, c0, out);
    if (out_inside) return true;
    bool found = false;
    float best_gap = 0.0f;
    for (std::uint32_t e = 0; e < w.point_count; ++e) {
        Vec2 a, b;
        wallEdgePoints(w, e, a, b);
        WallRayHit h;
        if (!sweptCircleEdge(c0, c1, r, a, b, h)) continue;
        Vec2 rel;
        sub(h.point, c0, rel);
        const float gap = h.t == 0.0f ? lengthSq(rel) : 0.0f;
        if (!found || h.t < out.t || (h.t == 0.0f && out.t == 0.0f && gap < best_gap)) {
            out = h;
            out.edge_id = e;
            out.edge = w.edges[e].index;
            out.ring = w.edges[e].ring;
            best_gap = gap;
            found = true;
        }
    }
    return found;
}

/// Null when every wall query below agrees with its brute force over the set's own edges, else the
/// name of the first that does not (the comparisons of the wall query tests): pointInWalls at p0;
/// circleWalls' contact count for the circle (p0, r) (inside the solid with no edge in reach, the
/// nearest edge alone); segmentWallsFirstHit p0 -> p1 and sweptCircleWallsFirstHit of radius r:
/// hit or miss, t and edge, and the edge id when the start is outside.
inline const char* wallDisagreement(const WallSet& w, const Vec2& p0, const Vec2& p1, float r) {
    if (pointInWalls(w, p0) != brutePointInWalls(w, p0)) return "pointInWalls";
    WallContact items[64];
    OutBuffer<WallContact> buf = OutBuffer<WallContact>::over(items, 64);
    WallPush push;
    (void)circleWalls(w, p0, r, buf, push);
    bool inside = false;
    const std::size_t touched = bruteCircleContacts(w, p0, r, inside).size();
    if (push.contact_count != (touched == 0 && inside ? 1u : touched)) return "circleWalls";
    // A first hit as brute force's: hit or miss, t and edge, and the edge id when outside.
    WallRayHit got, want;
    const auto same = [&](bool g, bool b) {
        return g == b &&
               (!g || (got.t == want.t && got.edge == want.edge && (inside || got.edge_id == want.edge_id)));
    };
    if (!same(segmentWallsFirstHit(w, p0, p1, got), bruteSegmentWalls(w, p0, p1, want, inside)))
        return "segmentWallsFirstHit";
    if (!same(sweptCircleWallsFirstHit(w, p0, p1, r, got), bruteSweptWalls(w, p0, p1, r, want, inside)))
        return "sweptCircleWallsFirstHit";
    return nullptr;
}

} // namespace flak::test
