// flak — the mesh sections of a blob: exact binary layouts, with the byte budget beside every
// struct (the container around them: blob/blob.h; docs/blob_format.md).
//
// Mesh sections (SectionKind):
//   MeshInfo    MeshInfo                   32 B: the quantization grid, the mesh layout hash, the depth
//   WideNodes   WideNode[wide_node_count]  96 B each: the tree, up to 8 children a node, depth-first
//   Vertices    float[3][vertex_count]     12 B each: exact float positions (copies included), or
//   QuantizedVertices uint16_t[3][vertex_count] 6 B each: positions on the MeshInfo grid (--vertices quantized)
//   Triangles   uint8_t[3][triangle_count]  3 B each: three 8-bit vertex offsets in a 256-vertex window
//   BlockBases  uint32_t[ceil(tris / 16)]   4 B per 16 triangles: window start of each triangle block
//   Materials   MaterialRun[run_count]      optional, 8 B each: the material of each run of triangles
//   SourceIds   uint32_t[triangle_count]    optional, original triangle index of each triangle
//   BuildStats  BuildStats                  optional, what the baker measured
// The five required sections (one of the two vertex sections) come together: a blob without a
// mesh (walls or a sphere cluster only) has none of them. A quantized vertex decodes as a node
// bound does: origin + q * scale per axis, in float. (Section kind 1, Nodes, held the binary tree
// of earlier builds; a mesh that carries it is refused with BlobLayoutMismatch: bake it again.)
//
// Triangle encoding. Triangles are stored in leaf order (a leaf's triangles are contiguous; the
// index in that order is the triangle's id in every query result). Triangle t's vertices are
// BlockBases[t / 16] + Triangles[3t], + Triangles[3t + 1], + Triangles[3t + 2]. The baker orders
// (and, where a window cannot reach, copies) vertices so every block of 16 consecutive triangles
// fits one 256-vertex window.
//
// Boxes live in the mesh grid: 16 bits per axis over the mesh's bounding box (MeshInfo fields
// origin / scale), min rounded down and max rounded up. A wide node stores each child's box as
// the 8-bit steps of its own frame within that grid that hold it (WideNode), so a decoded box
// always contains the exact one. The walks keep a bounded stack of pending children (at most
// kWideStack entries, on the call stack); the loader refuses a tree deeper than kMaxTreeDepth, so
// no walk can overflow it.
#pragma once

#include <flak/blob/blob.h>

#include <cstddef>
#include <cstdint>

namespace flak {

constexpr std::uint32_t kTriangleBlock = 16;          ///< triangles per BlockBases entry
constexpr std::uint32_t kVertexWindow = 256;          ///< vertices one block's 8-bit offsets reach
constexpr std::uint32_t kMaxLeafTriangles = 16;       ///< most triangles in one leaf
constexpr std::uint32_t kMaxBlobTriangles = 1u << 26; ///< 67,108,864: 26 bits of leaf info
/// The deepest tree a blob may hold, in wide nodes from the root to a leaf's parent (root = 1): the
/// walks' stacks are sized from it (kWideStack, or one entry a level). The baker writes no deeper
/// tree and the loader refuses one.
constexpr std::uint32_t kMaxTreeDepth = 64;

/// The MeshInfo section (32 bytes, count 1).
struct MeshInfo {
    float origin[3];           //  0: quantization origin (the mesh's bounding-box minimum)
    float scale[3];            // 12: grid step per axis: decoded = origin + q * scale
    std::uint32_t layout_hash; // 24: meshLayoutHash() of the writer
    std::uint32_t
        depth; // 28: the tree's depth in wide nodes (root = 1; 0 without triangles), <= kMaxTreeDepth
};
static_assert(sizeof(MeshInfo) == 32 && offsetof(MeshInfo, layout_hash) == 24, "MeshInfo is 32 bytes");

/// A binary node (16 bytes): a box in the mesh grid and an info word. Not a blob section: the form
/// in which the walks test one child of a wide node (wideChildNode), the baker builds its tree
/// before collapsing it into wide nodes, and the GPU back end stages a mesh's tree on the device.
/// Leaf when the top bit of `info` is set.
///   internal: info = skip (nodes in the subtree, itself included), < 2^31
///   leaf:     info = 0x80000000 | (triangle_count - 1) << 26 | first_triangle
struct BvhNode {
    std::uint16_t lo[3]; // 0: quantized min, rounded down
    std::uint16_t hi[3]; // 6: quantized max, rounded up
    std::uint32_t info;  // 12
};
static_assert(sizeof(BvhNode) == 16 && offsetof(BvhNode, info) == 12, "BvhNode is 16 bytes");

constexpr std::uint32_t kLeafBit = 0x80000000u;
inline bool isLeaf(const BvhNode& n) { return (n.info & kLeafBit) != 0; }
inline std::uint32_t skipOf(const BvhNode& n) { return isLeaf(n) ? 1u : n.info; }
/// A leaf's first triangle and triangle count from its info word (a WideNode's child reference, a
/// BvhNode's info).
inline std::uint32_t leafInfoFirst(std::uint32_t info) { return info & 0x03FFFFFFu; }
inline std::uint32_t leafInfoCount(std::uint32_t info) { return ((info >> 26) & 0x1Fu) + 1u; }
inline std::uint32_t leafFirst(const BvhNode& n) { return leafInfoFirst(n.info); }
inline std::uint32_t leafCount(const BvhNode& n) { return leafInfoCount(n.info); }
inline std::uint32_t makeLeafInfo(std::uint32_t first, std::uint32_t count) {
    return kLeafBit | ((count - 1u) << 26) | first;
}

/// One run of triangles with one material (8 bytes), in the optional Materials section. Runs are
/// in increasing `first` order, the first at triangle 0; a run covers triangles first .. the next
/// run's first - 1 (the last run, to the last triangle). The baker starts a run only where the
/// material changes.
struct MaterialRun {
    std::uint16_t material; // 0: the material id of every triangle in the run
    std::uint16_t reserved; // 2: zero
    std::uint32_t first;    // 4: the run's first triangle (leaf order)
};
static_assert(sizeof(MaterialRun) == 8 && offsetof(MaterialRun, first) == 4, "MaterialRun is 8 bytes");
static_assert(sectionLayout(5).element_bytes == sizeof(MaterialRun) && sectionLayout(5).halfwords == 2 &&
                  sectionLayout(5).words == 1,
              "the container swaps a material run as two u16 and one u32");
/// The most children a wide node has.
constexpr std::uint32_t kWideChildren = 8;
/// The most pending entries a walk of the wide tree keeps on its stack: a walk that descends into
/// one child of a node and keeps the others keeps at most kWideChildren - 1 per level above it,
/// then pushes at most kWideChildren, so a tree of kMaxTreeDepth levels never needs more.
constexpr std::uint32_t kWideStack = (kWideChildren - 1u) * kMaxTreeDepth + 1u;

/// The largest step of a wide node's frame, in grid cells: 256 steps of 256 cells span the whole
/// grid (65,536 cells). The loader refuses a larger step, or one that is not a power of two.
constexpr std::uint32_t kWideMaxStep = 256;

/// Wide BVH node (96 bytes): up to eight children, each child's box in 8-bit steps of the node's
/// frame. The frame is a minimum corner in the mesh grid (`base`) and a power-of-two step per axis
/// (`step` cells); child c's box on axis k covers its steps lo..hi whole:
///   lo = base[k] + lo[k][c] * step[k]
///   hi = min(65535, base[k] + hi[k][c] * step[k] + step[k] - 1)
/// in the mesh grid's 16-bit coordinates (MeshInfo origin / scale). The baker takes the steps
/// that hold the child's tight grid box, and takes as a node's frame the decoded box its parent
/// gives it (the root: the tight box of the mesh) with the smallest step that spans it in 256
/// steps. Decoded boxes therefore nest: a child's box lies within its node's box in the parent.
/// Children are in depth-first order: a walk that takes them in slot order meets the triangles in
/// id order.
///   child[c]:  internal: index of the child's WideNode (after this node's)
///              leaf:     kLeafBit | (triangle_count - 1) << 26 | first_triangle
///              unused:   0 (never a child: the root is node 0), after every used slot, with
///                        lo 255 and hi 0 on every axis
struct WideNode {
    std::uint16_t base[3];              //  0: the frame's minimum corner in the mesh grid
    std::uint16_t step[3];              //  6: the frame's step per axis in grid cells, 1..kWideMaxStep
    std::uint32_t child[kWideChildren]; // 12: child references
    std::uint8_t lo[3][kWideChildren];  // 44: child box's first step per axis
    std::uint8_t hi[3][kWideChildren];  // 68: child box's last step per axis
    std::uint8_t padding[4];            // 92: zero
};
static_assert(sizeof(WideNode) == 96 && offsetof(WideNode, child) == 12 && offsetof(WideNode, lo) == 44 &&
                  offsetof(WideNode, hi) == 68 && offsetof(WideNode, padding) == 92,
              "WideNode is 96 bytes");
static_assert(sectionLayout(12).element_bytes == sizeof(WideNode) && sectionLayout(12).halfwords == 6 &&
                  sectionLayout(12).words == 8,
              "the container swaps a wide node as six u16 and eight u32, its bytes left alone");

/// The grid cells that steps `first` .. `last` of a wide node's frame cover on axis k, the maximum
/// saturated at 65,535 (see WideNode): the one scalar decode of a child box.
inline void wideStepsToGrid(const WideNode& n, int k, std::int32_t first, std::int32_t last,
                            std::int32_t& out_lo, std::int32_t& out_hi) {
    const std::int32_t base = n.base[k], step = n.step[k];
    const std::int32_t hi = base + last * step + step - 1;
    out_lo = base + first * step;
    out_hi = hi < 65535 ? hi : 65535;
}

/// Child `slot`'s box of a wide node in the mesh grid's coordinates.
inline void wideChildGrid(const WideNode& n, std::uint32_t slot, std::int32_t out_lo[3],
                          std::int32_t out_hi[3]) {
    for (int k = 0; k < 3; ++k) wideStepsToGrid(n, k, n.lo[k][slot], n.hi[k][slot], out_lo[k], out_hi[k]);
}

/// What the baker measured (64 bytes), optional.
struct BuildStats {
    std::uint32_t source_triangles;   //  0: triangles read from the input
    std::uint32_t dropped_degenerate; //  4: zero-area triangles dropped
    std::uint32_t source_vertices;    //  8: vertices read
    std::uint32_t welded_vertices;    // 12: vertices merged by welding
    std::uint32_t copied_vertices;    // 16: vertex copies made for the 256-vertex windows
    std::uint32_t depth;              // 20: the tree's depth (MeshInfo::depth)
    std::uint32_t leaf_count;         // 24: leaves of the tree
    std::uint32_t max_leaf_triangles; // 28: the leaf-size option used
    float sah_cost;                   // 32: SAH cost of the binary build (its node cost, triangle 1)
    std::uint32_t node_count;         // 36: wide nodes (times are not stored: blobs are deterministic)
    std::uint32_t reserved[6];        // 40: zero
};
static_assert(sizeof(BuildStats) == 64 && sectionLayout(7).element_bytes == 64, "BuildStats is 64 bytes");
static_assert(sectionLayout(10).element_bytes == sizeof(MeshInfo), "MeshInfo is one section element");
static_assert(sectionLayout(11).element_bytes == 6 && sectionLayout(11).halfwords == 3,
              "a quantized vertex is three u16");
static_assert(sectionLayout(3).element_bytes == 3 && sectionLayout(3).halfwords == 0 &&
                  sectionLayout(3).words == 0,
              "a triangle is three single-byte offsets, never swapped");

/// Hash of the mesh encoding's sizes, offsets and constants, stored in MeshInfo: a reader built
/// from another encoding refuses the mesh.
constexpr std::uint32_t meshLayoutHash() {
    const std::uint32_t facts[] = {sizeof(MeshInfo),
                                   offsetof(MeshInfo, layout_hash),
                                   sizeof(BuildStats),
                                   kTriangleBlock,
                                   kVertexWindow,
                                   kMaxLeafTriangles,
                                   kMaxTreeDepth,
                                   26u /* leaf first bits */,
                                   sizeof(MaterialRun),
                                   sizeof(WideNode),
                                   offsetof(WideNode, child),
                                   offsetof(WideNode, lo),
                                   offsetof(WideNode, padding),
                                   kWideChildren,
                                   kWideMaxStep,
                                   3u /* child boxes in their node's frame */};
    std::uint32_t h = 2166136261u;
    for (std::uint32_t f : facts) {
        for (int i = 0; i < 4; ++i) h = (h ^ ((f >> (8 * i)) & 0xFFu)) * 16777619u;
    }
    return h;
}

} // namespace flak
