#include "shooter/blob_sections_check.h"

#include "blob/blob_read.h"
#include "bvh/skip_tree.h"

#include <cmath>

namespace flak::detail {

Status checkClusterSection(const Sphere* spheres, std::uint32_t count, std::uint64_t at, BlobError* err) {
    if (count == 0 || count > kMaxClusterSpheres)
        return fail(err, Status::BlobCorrupt, "sphere cluster count out of range", at);
    for (std::uint32_t i = 0; i < count; ++i) {
        const Sphere& s = spheres[i];
        if (!isFinite(s.center) || !std::isfinite(s.radius) || !(s.radius >= 0.0f))
            return fail(err, Status::BlobCorrupt, "cluster sphere is NaN, infinite or of negative radius",
                        at + 16u * std::uint64_t{i});
        if (!inBlobRange(s.center.x) || !inBlobRange(s.center.y) || !inBlobRange(s.center.z) ||
            !inBlobRange(s.radius))
            return fail(err, Status::BlobCorrupt, "cluster sphere beyond the format's coordinate range",
                        at + 16u * std::uint64_t{i});
    }
    return Status::Ok;
}

namespace {

// Point k of the walls (x, y).
struct WallPoints {
    const float* xy;
    bool inside(std::uint32_t k, const float* min, const float* max) const {
        const float x = xy[2u * k], y = xy[2u * k + 1u];
        return x >= min[0] && x <= max[0] && y >= min[1] && y <= max[1];
    }
    // Grows the box (lo, hi) by the point; the first point starts it.
    void expand(std::uint32_t k, bool first, float* lo, float* hi) const {
        for (int a = 0; a < 2; ++a) {
            const float v = xy[2u * k + unsigned(a)];
            lo[a] = first || v < lo[a] ? v : lo[a];
            hi[a] = first || v > hi[a] ? v : hi[a];
        }
    }
};

// A node's 2D box (min, max) finite and not inverted.
bool saneBox(const float* min, const float* max) {
    for (int a = 0; a < 2; ++a)
        if (!std::isfinite(min[a]) || !std::isfinite(max[a]) || !(min[a] <= max[a])) return false;
    return true;
}

// Whether box `outer` (min, max) contains box `inner`.
bool containsBox(const float* outer_min, const float* outer_max, const float* inner_min,
                 const float* inner_max) {
    return inner_min[0] >= outer_min[0] && inner_min[1] >= outer_min[1] && inner_max[0] <= outer_max[0] &&
           inner_max[1] <= outer_max[1];
}

// A wall tree's shape and boxes (run after its ranges and links are checked): binary, each box
// containing its children's and each leaf's box both ends of each of its edges.
// edgeEnds(leaf, k, a, b) gives the points of the leaf's k-th edge (k from 0 to its count - 1).
template <typename Node, typename EdgeEnds>
bool treeBounds(const Node* nodes, std::uint32_t count, const WallPoints& pts, EdgeEnds&& edgeEnds,
                std::uint32_t& out_bad) {
    const auto skip = [nodes](std::uint32_t k) {
        return (nodes[k].info & kLeafBit) != 0 ? 1u : nodes[k].info;
    };
    for (std::uint32_t i = 0; i < count; ++i) {
        const Node& n = nodes[i];
        out_bad = i;
        if ((n.info & kLeafBit) == 0) {
            std::uint32_t l = 0, r = 0;
            if (!binaryChildren(i, count, skip, l, r) ||
                !containsBox(n.min, n.max, nodes[l].min, nodes[l].max) ||
                !containsBox(n.min, n.max, nodes[r].min, nodes[r].max))
                return false;
            continue;
        }
        for (std::uint32_t k = 0; k <= ((n.info >> 26) & 0x1Fu); ++k) {
            std::uint32_t a = 0, b = 0;
            edgeEnds(n, k, a, b);
            if (!pts.inside(a, n.min, n.max) || !pts.inside(b, n.min, n.max)) return false;
        }
    }
    return true;
}

// Reads a leaf's ring (bits 0..30 of its ring word) and edge run; false when the ring is out of
// range or the run leaves it.
bool insideLeafRun(const WallRing* rings, std::uint32_t ring_count, const WallInsideNode& n,
                   std::uint32_t& out_ring, std::uint32_t& out_first, std::uint32_t& out_end) {
    out_ring = n.ring & ~kWallWholeRings;
    out_first = n.info & 0x03FFFFFFu;
    out_end = out_first + ((n.info >> 26) & 0x1Fu) + 1u;
    if (out_ring >= ring_count) return false;
    const WallRing& r = rings[out_ring];
    return out_first >= r.first_point && out_end <= r.first_point + r.point_count;
}

// The inside tree (shooter/blob_sections.h), one forward pass: the node checks of the edge tree, and
// leaves whose edge runs lie in their ring; each ring's leaves come one after another in leaf order
// and cover the ring's edges in order, and the runs cover point_count edges. A leaf's whole-rings
// bit is set exactly when it holds its whole ring; an internal node may set it only when its first
// leaf (the next leaf in the array) starts a ring and its last node (the subtree's end - 1) is a
// leaf ending one: with runs contiguous, its subtree then holds whole rings only.
Status checkWallInsideTree(const WallRing* rings, const WallsHeader& h, const WallInsideNode* nodes,
                           std::uint64_t nodes_at, BlobError* err) {
    std::uint32_t run_ring = 0, run_next = 0, run_end = 0, covered = 0;
    bool next_leaf_starts_ring = false;
    for (std::uint32_t i = 0; i < h.inside_node_count; ++i) {
        const WallInsideNode& n = nodes[i];
        const std::uint64_t na = nodes_at + std::uint64_t{i} * sizeof(WallInsideNode);
        if (!saneBox(n.min, n.max)) return fail(err, Status::BlobCorrupt, "wall inside node bounds", na);
        const bool whole = (n.ring & kWallWholeRings) != 0;
        if ((n.info & kLeafBit) != 0) {
            if (((n.info >> 26) & 0x1Fu) >= kMaxWallLeafEdges)
                return fail(err, Status::BlobCorrupt, "wall inside leaf holds too many edges", na + 16);
            std::uint32_t ring = 0, first = 0, end = 0;
            if (!insideLeafRun(rings, h.ring_count, n, ring, first, end))
                return fail(err, Status::BlobCorrupt, "wall inside leaf edges outside their ring", na + 16);
            const WallRing& r = rings[ring];
            if (first == r.first_point) {
                if (run_next != run_end)
                    return fail(err, Status::BlobCorrupt, "wall inside leaves leave a ring unfinished", na);
                run_ring = ring;
                run_end = r.first_point + r.point_count;
            } else if (ring != run_ring || first != run_next || next_leaf_starts_ring) {
                return fail(err, Status::BlobCorrupt, "wall inside leaves not in ring order", na + 16);
            }
            run_next = end;
            covered += end - first;
            next_leaf_starts_ring = false;
            if (whole != (end - first == r.point_count))
                return fail(err, Status::BlobCorrupt, "wall inside leaf whole-ring flag", na + 20);
        } else {
            if (n.info < 2 || std::uint64_t{i} + n.info > h.inside_node_count)
                return fail(err, Status::BlobCorrupt, "wall inside skip link out of range", na + 16);
            if ((n.ring & ~kWallWholeRings) != 0)
                return fail(err, Status::BlobCorrupt, "wall inside internal node names a ring", na + 20);
            if (whole) {
                const WallInsideNode& last = nodes[i + n.info - 1u];
                std::uint32_t ring = 0, first = 0, end = 0;
                if ((last.info & kLeafBit) == 0 ||
                    !insideLeafRun(rings, h.ring_count, last, ring, first, end) ||
                    end != rings[ring].first_point + rings[ring].point_count)
                    return fail(err, Status::BlobCorrupt,
                                "wall inside node flagged whole does not end a ring", na + 20);
                next_leaf_starts_ring = true;
            }
        }
    }
    if (run_next != run_end || covered != h.point_count)
        return fail(err, Status::BlobCorrupt, "wall inside leaves do not cover the edges", nodes_at);
    if (h.inside_node_count > 0 &&
        ((nodes[0].info & kLeafBit) == 0 ? nodes[0].info != h.inside_node_count : h.inside_node_count != 1))
        return fail(err, Status::BlobCorrupt, "wall inside root does not span the node array", nodes_at + 16);
    return Status::Ok;
}

} // namespace

// One forward pass per array, the node checks mirroring the mesh tree's (mesh_blob_load.cpp).
Status checkWallsSection(const std::uint32_t* words, std::uint32_t word_count, std::uint64_t at,
                         BlobError* err) {
    if (std::uint64_t{word_count} * 4u < sizeof(WallsHeader))
        return fail(err, Status::BlobCorrupt, "walls section shorter than its header", at);
    const WallsHeader& h = *reinterpret_cast<const WallsHeader*>(words);
    if (h.ring_count < h.polygon_count || (h.polygon_count == 0) != (h.ring_count == 0) ||
        (h.point_count == 0) != (h.node_count == 0) || (h.ring_count == 0) != (h.point_count == 0) ||
        (h.point_count == 0) != (h.inside_node_count == 0))
        return fail(err, Status::BlobCorrupt, "walls counts inconsistent", at);
    if (h.point_count > kMaxBlobTriangles || h.node_count > 2u * h.point_count ||
        h.inside_node_count > 2u * h.point_count)
        return fail(err, Status::BlobCorrupt, "walls counts out of range", at);
    if (h.reserved != 0) return fail(err, Status::BlobCorrupt, "walls reserved word not zero", at + 36);
    if (wallSectionWords(h.ring_count, h.point_count, h.node_count, h.inside_node_count) != word_count)
        return fail(err, Status::BlobCorrupt, "walls section size does not match its counts", at);
    for (int i = 0; i < 2; ++i)
        if (!std::isfinite(h.bounds_min[i]) || !std::isfinite(h.bounds_max[i]) ||
            (h.point_count > 0 && !(h.bounds_min[i] <= h.bounds_max[i])))
            return fail(err, Status::BlobCorrupt, "walls bounds", at + 16);

    const unsigned char* p = reinterpret_cast<const unsigned char*>(words);
    std::uint64_t off = sizeof(WallsHeader);
    const WallRing* rings = reinterpret_cast<const WallRing*>(p + off);
    const std::uint64_t rings_at = at + off;
    off += std::uint64_t{h.ring_count} * sizeof(WallRing);
    const float* points = reinterpret_cast<const float*>(p + off);
    const std::uint64_t points_at = at + off;
    off += std::uint64_t{h.point_count} * 8u;
    const WallNode* nodes = reinterpret_cast<const WallNode*>(p + off);
    const std::uint64_t nodes_at = at + off;
    off += std::uint64_t{h.node_count} * sizeof(WallNode);
    const WallEdge* edges = reinterpret_cast<const WallEdge*>(p + off);
    const std::uint64_t edges_at = at + off;
    off += std::uint64_t{h.point_count} * sizeof(WallEdge);
    const WallInsideNode* inside = reinterpret_cast<const WallInsideNode*>(p + off);
    const std::uint64_t inside_at = at + off;

    std::uint32_t next_point = 0, polygon = 0;
    for (std::uint32_t r = 0; r < h.ring_count; ++r) {
        const WallRing& ring = rings[r];
        const std::uint64_t ra = rings_at + 16u * std::uint64_t{r};
        if (ring.first_point != next_point)
            return fail(err, Status::BlobCorrupt, "wall rings not contiguous", ra);
        if (ring.point_count < 3 || std::uint64_t{next_point} + ring.point_count > h.point_count)
            return fail(err, Status::BlobCorrupt, "wall ring point count", ra + 4);
        next_point += ring.point_count;
        const bool first_of_polygon = r == 0 || ring.polygon != rings[r - 1].polygon;
        if (r > 0 && first_of_polygon && ring.polygon != polygon + 1)
            return fail(err, Status::BlobCorrupt, "wall ring polygons not in order", ra + 8);
        if (r == 0 && ring.polygon != 0)
            return fail(err, Status::BlobCorrupt, "wall ring polygons not in order", ra + 8);
        polygon = ring.polygon;
        if (ring.flags > kWallHoleFlag || ((ring.flags & kWallHoleFlag) != 0) == first_of_polygon)
            return fail(err, Status::BlobCorrupt, "wall ring flags (first ring outer, others holes)",
                        ra + 12);
    }
    if (next_point != h.point_count)
        return fail(err, Status::BlobCorrupt, "wall rings do not cover the points", rings_at);
    if (h.ring_count > 0 && polygon + 1 != h.polygon_count)
        return fail(err, Status::BlobCorrupt, "wall polygon count", at);

    for (std::uint32_t i = 0; i < 2 * h.point_count; ++i) {
        if (!std::isfinite(points[i]))
            return fail(err, Status::BlobCorrupt, "wall point is NaN or infinite", points_at + 4u * i);
        if (!inBlobRange(points[i]))
            return fail(err, Status::BlobCorrupt, "wall point beyond the format's coordinate range",
                        points_at + 4u * i);
    }
    // The header's bounds are the exact box of the points, as the baker writes them: the queries
    // take their margins from these bounds, so a looser box would only stretch them.
    const WallPoints pts{points};
    float lo[2] = {0.0f, 0.0f}, hi[2] = {0.0f, 0.0f};
    for (std::uint32_t k = 0; k < h.point_count; ++k) pts.expand(k, k == 0, lo, hi);
    for (int i = 0; i < 2; ++i)
        if (h.point_count > 0 && (lo[i] != h.bounds_min[i] || hi[i] != h.bounds_max[i]))
            return fail(err, Status::BlobCorrupt, "walls bounds are not the exact box of the points",
                        at + 16);

    std::uint32_t next_edge = 0;
    for (std::uint32_t i = 0; i < h.node_count; ++i) {
        const WallNode& n = nodes[i];
        const std::uint64_t na = nodes_at + std::uint64_t{i} * sizeof(WallNode);
        if (!saneBox(n.min, n.max)) return fail(err, Status::BlobCorrupt, "wall node bounds", na);
        if ((n.info & kLeafBit) != 0) {
            if (((n.info >> 26) & 0x1Fu) >= kMaxWallLeafEdges)
                return fail(err, Status::BlobCorrupt, "wall leaf holds too many edges", na + 16);
            if ((n.info & 0x03FFFFFFu) != next_edge)
                return fail(err, Status::BlobCorrupt, "wall leaf edges not contiguous in leaf order",
                            na + 16);
            next_edge += ((n.info >> 26) & 0x1Fu) + 1u;
            if (next_edge > h.point_count)
                return fail(err, Status::BlobCorrupt, "wall leaf edges past the end", na + 16);
        } else if (n.info < 2 || std::uint64_t{i} + n.info > h.node_count) {
            return fail(err, Status::BlobCorrupt, "wall skip link out of range", na + 16);
        }
    }
    if (next_edge != h.point_count)
        return fail(err, Status::BlobCorrupt, "wall edges not covered by leaves", nodes_at);
    if (h.node_count > 0 &&
        ((nodes[0].info & kLeafBit) == 0 ? nodes[0].info != h.node_count : h.node_count != 1))
        return fail(err, Status::BlobCorrupt, "wall root does not span the node array", nodes_at + 16);

    for (std::uint32_t e = 0; e < h.point_count; ++e)
        if (edges[e].ring >= h.ring_count || edges[e].index >= rings[edges[e].ring].point_count)
            return fail(err, Status::BlobCorrupt, "wall edge references a ring or point out of range",
                        edges_at + 8u * e);
    // The next point of a ring after point `a` (the last wraps to the first).
    const auto next = [](const WallRing& ring, std::uint32_t a) {
        return a + 1u == ring.first_point + ring.point_count ? ring.first_point : a + 1u;
    };
    std::uint32_t bad = 0;
    const auto edge_ends = [&](const WallNode& n, std::uint32_t k, std::uint32_t& a, std::uint32_t& b) {
        const WallEdge& e = edges[(n.info & 0x03FFFFFFu) + k];
        a = rings[e.ring].first_point + e.index;
        b = next(rings[e.ring], a);
    };
    if (!treeBounds(nodes, h.node_count, pts, edge_ends, bad))
        return fail(err, Status::BlobCorrupt, "wall node box or shape does not bound its subtree",
                    nodes_at + std::uint64_t{bad} * sizeof(WallNode));
    const Status inside_status = checkWallInsideTree(rings, h, inside, inside_at, err);
    if (inside_status != Status::Ok) return inside_status;
    const auto run_ends = [&](const WallInsideNode& n, std::uint32_t k, std::uint32_t& a, std::uint32_t& b) {
        a = (n.info & 0x03FFFFFFu) + k;
        b = next(rings[n.ring & ~kWallWholeRings], a);
    };
    if (!treeBounds(inside, h.inside_node_count, pts, run_ends, bad))
        return fail(err, Status::BlobCorrupt, "wall inside node box or shape does not bound its subtree",
                    inside_at + std::uint64_t{bad} * sizeof(WallInsideNode));
    return Status::Ok;
}

} // namespace flak::detail
