#include <flak/assert.h>
#include <flak/geom/point_in_polygon.h>
#include <flak/shooter/wall_set.h>

#include "shooter/blob_sections_check.h"
#include "shooter/wall_walk.h"

#include <cfloat>

namespace flak {

Status loadWallSet(const Blob& blob, WallSet& out_walls, BlobError* out_error) {
    out_walls = WallSet{};
    if (out_error != nullptr) *out_error = BlobError{};
    const BlobSection section = blobSection(blob, SectionKind::Walls);
    if (section.data == nullptr) return Status::InvalidArgument;
    const Status checked = detail::checkWallsSection(static_cast<const std::uint32_t*>(section.data),
                                                     section.count, section.offset, out_error);
    if (checked != Status::Ok) return checked;
    const WallsHeader& h = *static_cast<const WallsHeader*>(section.data);
    const unsigned char* p = static_cast<const unsigned char*>(section.data);
    std::size_t off = sizeof(WallsHeader);
    WallSet w;
    w.rings = reinterpret_cast<const WallRing*>(p + off);
    off += std::size_t{h.ring_count} * sizeof(WallRing);
    w.points = reinterpret_cast<const Vec2*>(p + off);
    off += std::size_t{h.point_count} * sizeof(Vec2);
    w.nodes = reinterpret_cast<const WallNode*>(p + off);
    off += std::size_t{h.node_count} * sizeof(WallNode);
    w.edges = reinterpret_cast<const WallEdge*>(p + off);
    off += std::size_t{h.point_count} * sizeof(WallEdge);
    w.inside_nodes = reinterpret_cast<const WallInsideNode*>(p + off);
    w.polygon_count = h.polygon_count;
    w.ring_count = h.ring_count;
    w.point_count = h.point_count;
    w.node_count = h.node_count;
    w.inside_node_count = h.inside_node_count;
    set(h.bounds_min[0], h.bounds_min[1], w.bounds_min);
    set(h.bounds_max[0], h.bounds_max[1], w.bounds_max);
    out_walls = w;
    return Status::Ok;
}

void wallEdgePoints(const WallSet& walls, std::uint32_t edge_id, Vec2& out_a, Vec2& out_b) {
    FLAK_ASSERT(edge_id < walls.point_count, "wallEdgePoints: edge id out of range");
    if (edge_id >= walls.point_count) { // the assert handler returned (or asserts are off)
        out_a = Vec2{};
        out_b = Vec2{};
        return;
    }
    const WallEdge& e = walls.edges[edge_id];
    const WallRing& r = walls.rings[e.ring];
    out_a = walls.points[r.first_point + e.index];
    out_b = walls.points[r.first_point + (e.index + 1 == r.point_count ? 0 : e.index + 1)];
}

// The crossing number (point_in_polygon.h's vote) summed over every edge the +x ray from the point
// can meet, walked over the inside tree so that only rings near the point are visited.
//
// Ray test (every node): an edge votes only when it straddles y = point.y and reaches
// x >= point.x (its vote is exactly false otherwise: the signs of the float differences are
// exact), so max.x >= x, min.y <= y <= max.y is exact and needs no margin.
//
// Ring test (nodes holding whole rings, kWallWholeRings): a ring whose box starts at
// dx = fl(min.x - x) > kRingSkipGap right of the point adds an even number of votes, so it can be
// skipped. Each of its edges a -> b has both relative x >= dx > 1 (float subtraction is monotone),
// so an edge that straddles the line votes: cross(lo, hi) = lo.x * hi.y - lo.y * hi.x with
// lo.x > 1, hi.y > 0 (at least the smallest subnormal, or the smallest normal when subnormals
// flush to zero) gives a first product that rounds to a positive float, and a second product
// <= 0, so the difference is > 0 (or +Inf; never NaN, since max.x - x is finite: every relative
// coordinate is). And a closed ring straddles any horizontal line an even number of times, since
// each point's side (relative y <= 0) is computed once for both of its edges. So the ring's
// crossing parity is even, as the brute-force XOR of pointInPolygon over the rings finds it.
namespace {

constexpr float kRingSkipGap = 1.0f;

} // namespace

bool pointInWalls(const WallSet& walls, const Vec2& point) {
    if (!isFinite(point)) return false;
    if (walls.grid != nullptr) {
        const std::uint32_t side = detail::wallGridSide(*walls.grid, point);
        if (side != kWallFreeUnknown) return side == kWallFreeInside;
    }
    bool inside = false;
    const WallInsideNode* nodes = walls.inside_nodes;
    std::uint32_t i = 0;
    while (i < walls.inside_node_count) {
        const WallInsideNode& n = nodes[i];
        const bool leaf = (n.info & kLeafBit) != 0;
        bool enter = n.max[0] >= point.x && n.min[1] <= point.y && n.max[1] >= point.y;
        if (enter && (n.ring & kWallWholeRings) != 0)
            enter = !(n.min[0] - point.x > kRingSkipGap && n.max[0] - point.x <= FLT_MAX);
        if (!enter) {
            i += leaf ? 1u : n.info;
            continue;
        }
        if (leaf) {
            const WallRing& r = walls.rings[n.ring & ~kWallWholeRings];
            const std::uint32_t first = n.info & 0x03FFFFFFu, count = ((n.info >> 26) & 0x1Fu) + 1u;
            const std::uint32_t last = r.first_point + r.point_count - 1u;
            for (std::uint32_t e = first; e < first + count; ++e) {
                Vec2 a, b;
                sub(walls.points[e], point, a);
                sub(walls.points[e == last ? r.first_point : e + 1u], point, b);
                if (crossingVote(a, b)) inside = !inside;
            }
        }
        ++i;
    }
    return inside;
}

} // namespace flak
