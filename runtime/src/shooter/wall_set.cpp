#include <flak/assert.h>
#include <flak/geom/point_in_polygon.h>
#include <flak/shooter/wall_set.h>

#include "shooter/wall_walk.h"

namespace flak {

Status loadWallSet(const MeshBlob& blob, WallSet& out_walls) {
    out_walls = WallSet{};
    if (blob.walls == nullptr) return Status::InvalidArgument;
    // loadMeshBlob validated the section (counts, rings, points, tree, edges).
    const WallsHeader& h = *reinterpret_cast<const WallsHeader*>(blob.walls);
    const unsigned char* p = reinterpret_cast<const unsigned char*>(blob.walls);
    std::size_t off = sizeof(WallsHeader);
    WallSet w;
    w.rings = reinterpret_cast<const WallRing*>(p + off);
    off += std::size_t{h.ring_count} * sizeof(WallRing);
    w.points = reinterpret_cast<const Vec2*>(p + off);
    off += std::size_t{h.point_count} * sizeof(Vec2);
    w.nodes = reinterpret_cast<const WallNode*>(p + off);
    off += std::size_t{h.node_count} * sizeof(WallNode);
    w.edges = reinterpret_cast<const WallEdge*>(p + off);
    w.polygon_count = h.polygon_count;
    w.ring_count = h.ring_count;
    w.point_count = h.point_count;
    w.node_count = h.node_count;
    set(h.bounds_min[0], h.bounds_min[1], w.bounds_min);
    set(h.bounds_max[0], h.bounds_max[1], w.bounds_max);
    out_walls = w;
    return Status::Ok;
}

void wallEdgePoints(const WallSet& walls, std::uint32_t edge_id, Vec2& out_a, Vec2& out_b) {
    FLAK_ASSERT(edge_id < walls.point_count, "wallEdgePoints: edge id out of range");
    const WallEdge& e = walls.edges[edge_id];
    const WallRing& r = walls.rings[e.ring];
    out_a = walls.points[r.first_point + e.index];
    out_b = walls.points[r.first_point + (e.index + 1 == r.point_count ? 0 : e.index + 1)];
}

// The crossing number (point_in_polygon.h's vote) summed over every edge the +x ray from the point
// can meet: an edge votes only when it straddles y = point.y and reaches x >= point.x (its vote is
// exactly false otherwise: the signs of the float differences are exact), so the node test
// max.x >= x, min.y <= y <= max.y is exact and needs no margin.
bool pointInWalls(const WallSet& walls, const Vec2& point) {
    if (!isFinite(point)) return false;
    bool inside = false;
    detail::walkWalls(
        walls,
        [&](const WallNode& n) { return n.max[0] >= point.x && n.min[1] <= point.y && n.max[1] >= point.y; },
        [&](std::uint32_t e) {
            Vec2 a, b;
            wallEdgePoints(walls, e, a, b);
            sub(a, point, a);
            sub(b, point, b);
            if (crossingVote(a, b)) inside = !inside;
            return true;
        });
    return inside;
}

} // namespace flak
