// flak — the shooter sections of a blob: exact binary layouts of SphereCluster and Walls, with the
// byte budget beside every struct (see blob/blob.h for the blob around them, docs/blob_format.md).
//
// SphereCluster   Sphere[count]   16 B each: a ship's spheres in the mesh's own space (centre xyz,
//                                 radius), 1..kMaxClusterSpheres of them, finite, radius >= 0.
// Walls           uint32_t words: one WallsHeader, then its arrays back to back, every field a
//                                 4-byte word (so a byte swap is one swap per word):
//     WallsHeader                          40 B
//     WallRing[ring_count]                 16 B each: rings in polygon order, points contiguous
//     float[2][point_count]                 8 B each: ring points (x, y) in the play plane
//     WallNode[node_count]                 20 B each: 2D tree over edges, depth-first, skip links
//     WallEdge[point_count]                 8 B each: edges in leaf order (one edge per point)
//     WallInsideNode[inside_node_count]    24 B each: the inside test's tree over rings, then
//                                                     over each ring's edges (see below)
//
// The play plane is the world X-Y plane; walls are infinite vertical prisms (z is ignored). A
// polygon is one outer ring and zero or more hole rings. The solid is the even-odd interior of all
// rings together (point_in_polygon.h's crossing rule summed over every edge); the baker guarantees
// that this equals the union of the polygons (rings do not cross, holes lie in their outer ring,
// polygons do not overlap) and orients every ring with the solid on its left (outer rings
// counter-clockwise, holes clockwise), so an edge's right-hand normal points out of the solid.
// Edge i of a ring runs from its point i to point (i + 1) % point_count.
// Tree nodes use the BvhNode `info` encoding (blob_format.h: leaf bit, count - 1 in bits 26..30,
// first edge in leaf order) with at most kMaxWallLeafEdges edges per leaf; bounds are exact floats
// (min/max of the edges' endpoint coordinates), so node tests need no margin.
//
// The inside tree (pointInWalls) is a second depth-first tree with skip links, shaped for a
// crossing vote that stays local: its upper levels group whole rings (each ring's box), and below
// a ring's own node sit only that ring's edges, in ring order (leaves: a run of consecutive edges
// of one ring, named by their first point). Nodes that hold every edge of each ring they reach
// carry kWallWholeRings: a point far enough left of such a node's box can skip all of it, since a
// whole ring strictly right of the point is crossed an even number of times (wall_set.cpp).
// Its node count is at most 2 * point_count (every leaf holds an edge).
#pragma once

#include <flak/blob/blob.h>

#include <cstddef>
#include <cstdint>

namespace flak {

static_assert(sectionLayout(8).element_bytes == 16 && sectionLayout(8).halfwords == 0,
              "a SphereCluster element is four 4-byte words");
static_assert(sectionLayout(9).element_bytes == 4 && sectionLayout(9).halfwords == 0,
              "a Walls section is 4-byte words");

constexpr std::uint32_t kMaxClusterSpheres = 64; ///< most spheres in one cluster
constexpr std::uint32_t kMaxWallLeafEdges = 8;   ///< most edges in one wall tree leaf
constexpr std::uint32_t kWallHoleFlag = 1u;      ///< WallRing::flags bit: the ring is a hole
/// WallInsideNode::ring bit: the node's subtree holds every edge of each ring it holds edges of.
constexpr std::uint32_t kWallWholeRings = 0x80000000u;

/// Header of a Walls section (40 bytes).
struct WallsHeader {
    std::uint32_t polygon_count;     //  0: polygons (each an outer ring and its holes)
    std::uint32_t ring_count;        //  4: rings, >= polygon_count
    std::uint32_t point_count;       //  8: points = edges
    std::uint32_t node_count;        // 12: edge tree nodes (0 only when point_count is 0)
    float bounds_min[2];             // 16: exact box of every point
    float bounds_max[2];             // 24
    std::uint32_t inside_node_count; // 32: inside tree nodes (0 only when point_count is 0)
    std::uint32_t reserved;          // 36: zero
};
static_assert(sizeof(WallsHeader) == 40 && offsetof(WallsHeader, bounds_min) == 16 &&
                  offsetof(WallsHeader, inside_node_count) == 32,
              "WallsHeader is 40 bytes");

/// One ring (16 bytes): points [first_point, first_point + point_count), point_count >= 3.
struct WallRing {
    std::uint32_t first_point; //  0: index of its first point (rings are contiguous and in order)
    std::uint32_t point_count; //  4: points (and edges) of the ring
    std::uint32_t polygon;     //  8: polygon it belongs to (non-decreasing over rings)
    std::uint32_t flags;       // 12: kWallHoleFlag for holes; the first ring of a polygon is its outer ring
};
static_assert(sizeof(WallRing) == 16 && offsetof(WallRing, flags) == 12, "WallRing is 16 bytes");

/// One 2D tree node (20 bytes): exact float box and the BvhNode info word.
struct WallNode {
    float min[2];       //  0
    float max[2];       //  8
    std::uint32_t info; // 16: internal: skip (subtree size); leaf: kLeafBit | (count - 1) << 26 | first edge
};
static_assert(sizeof(WallNode) == 20 && offsetof(WallNode, info) == 16, "WallNode is 20 bytes");

/// One edge in leaf order (8 bytes): the ring and the edge's index in it.
struct WallEdge {
    std::uint32_t ring;  // 0
    std::uint32_t index; // 4: edge `index` of the ring, from its point index to point (index + 1) % count
};
static_assert(sizeof(WallEdge) == 8, "WallEdge is 8 bytes");

/// One inside tree node (24 bytes): exact float box, the BvhNode info word over points, and the
/// ring word.
struct WallInsideNode {
    float min[2];       //  0
    float max[2];       //  8
    std::uint32_t info; // 16: internal: skip (subtree size); leaf: kLeafBit | (count - 1) << 26 | first
                        //     point (the leaf's edges start at points first..first + count - 1)
    std::uint32_t ring; // 20: kWallWholeRings when set; leaves: | the ring of their edges; internal: | 0
};
static_assert(sizeof(WallInsideNode) == 24 && offsetof(WallInsideNode, info) == 16 &&
                  offsetof(WallInsideNode, ring) == 20,
              "WallInsideNode is 24 bytes");

/// Words (uint32) of a Walls section with these counts.
constexpr std::uint64_t wallSectionWords(std::uint64_t rings, std::uint64_t points, std::uint64_t nodes,
                                         std::uint64_t inside_nodes) {
    return (sizeof(WallsHeader) + rings * sizeof(WallRing) + points * 8u + nodes * sizeof(WallNode) +
            points * sizeof(WallEdge) + inside_nodes * sizeof(WallInsideNode)) /
           4u;
}

} // namespace flak
