#include <flak/geom/circle_polygon.h>
#include <flak/shooter/wall_set.h>

#include "shooter/wall_walk.h"

#include <cmath>

namespace flak {

namespace {

// One step of the combined push (a single projected Gauss-Seidel pass over the contacts, in
// order): add only the part of this contact's push the push so far does not already give.
void project(Vec2& inout_push, const Vec2& normal, float depth) {
    const float need = depth - dot(inout_push, normal);
    if (need > 0.0f) addScaled(inout_push, normal, need, inout_push);
}

void fillIds(const WallSet& walls, std::uint32_t edge_id, std::uint32_t sphere, WallContact& c) {
    const WallEdge& e = walls.edges[edge_id];
    c.ring = e.ring;
    c.edge = e.index;
    c.polygon = walls.rings[e.ring].polygon;
    c.sphere = sphere;
    c.edge_id = edge_id;
}

// Orients a contact: outside the solid, the two-point circlePolygon's own push (normal and depth,
// computed from the closest point relative to the centre, so they stay exact in direction even a
// few ulps from the edge); inside, the same direction turned out of the solid through the closest
// point, depth r + d. A centre exactly on the edge takes the edge's outward normal, depth r.
void orient(const Vec2& center, float radius, bool inside, const Vec2& a, const Vec2& b,
            const CirclePolygonContact& k, WallContact& c) {
    c.point = k.closest;
    Vec2 rel;
    sub(c.point, center, rel);
    const float d = length(rel);
    if (d > 0.0f && k.depth < radius) {
        if (inside) {
            scale(k.normal, -1.0f, c.normal);
            c.depth = radius + d;
        } else {
            c.normal = k.normal;
            c.depth = k.depth;
        }
    } else {
        if (!detail::outwardNormal(a, b, c.normal)) set(1.0f, 0.0f, c.normal);
        c.depth = inside ? radius + d : radius;
    }
}

// Closest point of segment a-b to p (Ericson, RTCD 5.1.2), for the nearest-edge search only.
void closestOnSegment(const Vec2& p, const Vec2& a, const Vec2& b, Vec2& out) {
    Vec2 ab, ap;
    sub(b, a, ab);
    sub(p, a, ap);
    const float ee = dot(ab, ab);
    float t = ee > 0.0f ? dot(ap, ab) / ee : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    addScaled(a, ab, t, out);
}

// One circle: its contacts appended, its push folded into inout_push, counts updated.
void circleContacts(const WallSet& walls, const Vec2& center, float radius, std::uint32_t sphere,
                    OutBuffer<WallContact>& out, WallPush& inout_push) {
    if (!isFinite(center) || !std::isfinite(radius) || !(radius >= 0.0f) || walls.node_count == 0) return;
    const bool inside = pointInWalls(walls, center);
    const float m = detail::wallMargin(walls, detail::maxAbs(center) + radius);
    const Vec2 lo{center.x - radius - m, center.y - radius - m},
        hi{center.x + radius + m, center.y + radius + m};
    bool have_nearest = false;
    WallContact nearest;
    std::uint32_t begin = 0, end = 0;
    if (!detail::wallSpan(walls, lo, hi, begin, end)) begin = end = 0; // no edge near: walk nothing
    detail::walkWalls(
        walls, begin, end, [&](const WallNode& n) { return detail::nodeOverlaps(n, lo, hi); },
        [&](std::uint32_t e) {
            Vec2 ab[2];
            wallEdgePoints(walls, e, ab[0], ab[1]);
            CirclePolygonContact k;
            if (!circlePolygon(center, radius, ab, 2, k)) return true;
            WallContact c;
            orient(center, radius, inside, ab[0], ab[1], k, c);
            fillIds(walls, e, sphere, c);
            (void)out.append(c);
            ++inout_push.contact_count;
            if (!inside) {
                project(inout_push.push, c.normal, c.depth);
            } else if (!have_nearest || c.depth < nearest.depth) {
                nearest = c;
                have_nearest = true;
            }
            return true;
        });
    if (!inside) return;
    ++inout_push.inside;
    if (!have_nearest) {
        // Deep inside: the nearest edge anywhere, by a walk whose box shrinks to the best distance.
        float best_d2 = INFINITY;
        std::uint32_t best_edge = 0;
        Vec2 best_point;
        detail::walkWalls(
            walls,
            [&](const WallNode& n) {
                if (!(best_d2 < INFINITY)) return true;
                const float r = std::sqrt(best_d2) + m;
                return detail::nodeOverlaps(n, Vec2{center.x - r, center.y - r},
                                            Vec2{center.x + r, center.y + r});
            },
            [&](std::uint32_t e) {
                Vec2 a, b, q, rel;
                wallEdgePoints(walls, e, a, b);
                closestOnSegment(center, a, b, q);
                sub(q, center, rel);
                const float d2 = lengthSq(rel);
                if (d2 < best_d2) {
                    best_d2 = d2;
                    best_edge = e;
                    best_point = q;
                }
                return true;
            });
        if (!(best_d2 < INFINITY)) return;
        Vec2 a, b;
        wallEdgePoints(walls, best_edge, a, b);
        // Deep inside, the push leaves through the nearest boundary point: from the centre to it.
        nearest.point = best_point;
        Vec2 rel;
        sub(best_point, center, rel);
        const float d = length(rel);
        if (d > 0.0f) {
            scale(rel, 1.0f / d, nearest.normal);
        } else if (!detail::outwardNormal(a, b, nearest.normal)) {
            set(1.0f, 0.0f, nearest.normal);
        }
        nearest.depth = radius + d;
        fillIds(walls, best_edge, sphere, nearest);
        (void)out.append(nearest);
        ++inout_push.contact_count;
    }
    project(inout_push.push, nearest.normal, nearest.depth);
}

// The push of a circle or cluster at `at` (its centre, or its translation's x and y):
// `round(offset, contacts, push)` runs the projection pass with the shape moved by `offset`. The
// first round, where the shape is, gives the contacts and counts; each further round runs where
// the push so far leaves the shape and adds its own push, until a round would not move the shape
// (it adds nothing, or less than float can add to `at`) or kWallPushRounds have run. One pass
// clears the contacts it sees, but the moved shape can meet edges it did not touch before, and
// an inside circle's way out can send another one deeper.
template <typename Round>
void settledPush(const Vec2& at, Round&& round, OutBuffer<WallContact>& contacts, WallPush& out_push) {
    WallPush first;
    round(Vec2{0.0f, 0.0f}, contacts, first);
    Vec2 total = first.push;
    for (std::uint32_t r = 1; r < kWallPushRounds && (total.x != 0.0f || total.y != 0.0f); ++r) {
        OutBuffer<WallContact> none = OutBuffer<WallContact>::over(nullptr, 0);
        WallPush more;
        round(total, none, more);
        Vec2 next, was, now;
        add(total, more.push, next);
        add(at, total, was);
        add(at, next, now);
        if (now.x == was.x && now.y == was.y) break;
        total = next;
    }
    out_push = first;
    out_push.push = total;
}

// One round of clusterWalls (see settledPush) with the cluster moved by `offset` in the plane.
void clusterRound(const WallSet& walls, const SphereCluster& cluster, const Transform& cluster_to_world,
                  const Vec2& offset, OutBuffer<WallContact>& inout_contacts, WallPush& inout_push) {
    Transform moved = cluster_to_world;
    moved.translation.x += offset.x;
    moved.translation.y += offset.y;
    // Early out: when no edge comes near the cluster's bound (grown by the margin) and its
    // centre is outside the solid, no boundary lies in the bound's box, so every sphere is
    // outside and clear: no contacts. (One walk that stops at the first edge box.)
    Sphere bound;
    clusterWorldBound(cluster, moved, bound);
    const Vec2 bc{bound.center.x, bound.center.y};
    const float m = detail::wallMargin(walls, detail::maxAbs(bc) + bound.radius);
    const Vec2 lo{bc.x - bound.radius - m, bc.y - bound.radius - m},
        hi{bc.x + bound.radius + m, bc.y + bound.radius + m};
    bool near = false;
    std::uint32_t begin = 0, end = 0;
    if (!detail::wallSpan(walls, lo, hi, begin, end)) begin = end = 0; // no edge near: walk nothing
    detail::walkWalls(
        walls, begin, end, [&](const WallNode& n) { return detail::nodeOverlaps(n, lo, hi); },
        [&](std::uint32_t e) {
            Vec2 a, b;
            wallEdgePoints(walls, e, a, b);
            near = std::fmin(a.x, b.x) <= hi.x && lo.x <= std::fmax(a.x, b.x) &&
                   std::fmin(a.y, b.y) <= hi.y && lo.y <= std::fmax(a.y, b.y);
            return !near;
        });
    if (!near && isFinite(bc) && !pointInWalls(walls, bc)) return;
    for (std::uint32_t i = 0; i < cluster.count; ++i) {
        Sphere s;
        clusterWorldSphere(cluster, moved, i, s);
        circleContacts(walls, Vec2{s.center.x, s.center.y}, s.radius, i, inout_contacts, inout_push);
    }
}

} // namespace

Status circleWalls(const WallSet& walls, const Vec2& center, float radius,
                   OutBuffer<WallContact>& inout_contacts, WallPush& out_push) {
    const std::uint32_t dropped = inout_contacts.dropped;
    settledPush(
        center,
        [&](const Vec2& offset, OutBuffer<WallContact>& contacts, WallPush& push) {
            Vec2 moved;
            add(center, offset, moved);
            circleContacts(walls, moved, radius, 0, contacts, push);
        },
        inout_contacts, out_push);
    return inout_contacts.dropped == dropped ? Status::Ok : Status::BufferFull;
}

Status clusterWalls(const WallSet& walls, const SphereCluster& cluster, const Transform& cluster_to_world,
                    OutBuffer<WallContact>& inout_contacts, WallPush& out_push) {
    const std::uint32_t dropped = inout_contacts.dropped;
    out_push = WallPush{};
    if (cluster.spheres != nullptr && cluster.count <= kMaxClusterSpheres && isFinite(cluster_to_world) &&
        walls.node_count > 0) {
        settledPush(
            Vec2{cluster_to_world.translation.x, cluster_to_world.translation.y},
            [&](const Vec2& offset, OutBuffer<WallContact>& contacts, WallPush& push) {
                clusterRound(walls, cluster, cluster_to_world, offset, contacts, push);
            },
            inout_contacts, out_push);
    }
    return inout_contacts.dropped == dropped ? Status::Ok : Status::BufferFull;
}

} // namespace flak
