// flak — the baked mesh blob: exact binary layout, with the byte budget beside every struct.
//
// One relocatable buffer (offsets, never pointers), loaded in place. All multi-byte fields are in
// the byte order named by BlobHeader::endian_marker; a blob in the host's order is used as is.
//
//   offset 0     BlobHeader                      64 bytes
//   offset 64    SectionEntry[section_count]     16 bytes each (at most kMaxSections)
//   then         sections, each 16-byte aligned, in the order of the table, padding bytes zero
//
// Sections (SectionKind):
//   Nodes       BvhNode[node_count]        16 B each: depth-first order, skip links, quantized bounds
//   Vertices    float[3][vertex_count]     12 B each: exact float positions (copies included)
//   Triangles   uint16_t[triangle_count]    2 B each: three 5-bit vertex offsets in a 32-vertex window
//   BlockBases  uint32_t[ceil(tris / 8)]    4 B per 8 triangles: window start of each triangle block
//   Materials   uint16_t[triangle_count]    optional, per-triangle material id
//   SourceIds   uint32_t[triangle_count]    optional, original triangle index of each triangle
//   BuildStats  BuildStats                  optional, what the baker measured
//   SphereCluster Sphere[count]            optional, 16 B each: the ship's sphere cluster (shooter/blob_sections.h)
//   Walls       uint32_t[count]             optional: a 2D wall set with its tree (shooter/blob_sections.h)
// A blob with a SphereCluster or Walls section may leave out all four mesh sections (no mesh).
//
// Triangle encoding. Triangles are stored in leaf order (a leaf's triangles are contiguous; the
// index in that order is the triangle's id in every query result). Triangle t's vertices are
// BlockBases[t / 8] + ((code >> 0) & 31), + ((code >> 5) & 31), + ((code >> 10) & 31); bit 15 is
// zero. The baker orders (and, where a window cannot reach, copies) vertices so every block of 8
// consecutive triangles fits one 32-vertex window.
//
// Node bounds are quantized to 16 bits per axis over the mesh's bounding box (header fields
// bounds_min / quant_scale): min rounded down, max rounded up, so a decoded box always contains
// the exact one. Traversal (the escape-index walk): at node i, if the query overlaps node i's box,
// go to i + 1 (first child, or next node after a leaf); otherwise go to i + skip(i). A leaf's skip
// is 1. The walk ends at node_count. No stack, one forward loop.
#pragma once

#include <cstddef>
#include <cstdint>

namespace flak {

constexpr std::uint32_t kBlobVersion = 1;
constexpr std::uint32_t kBlobEndianMarker = 0x01020304u;
constexpr std::uint32_t kMaxSections = 12;
constexpr std::uint32_t kTriangleBlock = 8;           ///< triangles per BlockBases entry
constexpr std::uint32_t kVertexWindow = 32;           ///< vertices one block's 5-bit offsets reach
constexpr std::uint32_t kMaxLeafTriangles = 16;       ///< most triangles in one leaf
constexpr std::uint32_t kMaxBlobTriangles = 1u << 26; ///< 67,108,864: 26 bits of leaf info
/// The largest magnitude of any coordinate a blob holds (vertices, wall points, sphere centres and
/// radii, the quantization origin): 2^40, about 1.1e12, the range the kernels are exact for (their
/// cross and triple products of coordinate differences stay far inside float's range). The baker
/// refuses larger coordinates and the loader refuses blobs that hold them.
constexpr float kMaxBlobCoordinate = 1099511627776.0f;
constexpr char kBlobMagic[8] = {'F', 'L', 'A', 'K', 'B', 'V', 'H', '\0'};

enum class SectionKind : std::uint32_t {
    Nodes = 1,
    Vertices = 2,
    Triangles = 3,
    BlockBases = 4,
    Materials = 5,
    SourceIds = 6,
    BuildStats = 7,
    SphereCluster = 8, ///< Sphere[count]: a ship's sphere cluster (shooter/blob_sections.h)
    Walls = 9,         ///< uint32_t[count]: a 2D wall set (shooter/blob_sections.h)
};

/// Blob header (64 bytes). Fields after `magic` are in the blob's byte order.
struct BlobHeader {
    char magic[8];               //  0: kBlobMagic
    std::uint32_t version;       //  8: kBlobVersion
    std::uint32_t endian_marker; // 12: kBlobEndianMarker as written by the baker
    std::uint32_t layout_hash;   // 16: blobLayoutHash() of the writer
    std::uint32_t section_count; // 20: entries in the section table
    std::uint64_t total_bytes;   // 24: size of the whole blob
    std::uint64_t checksum;      // 32: blobChecksum() of the whole blob (this field read as 0)
    float bounds_min[3];         // 40: mesh AABB minimum (quantization origin)
    float quant_scale[3];        // 52: decoded = bounds_min + q * quant_scale
};
static_assert(sizeof(BlobHeader) == 64, "BlobHeader is 64 bytes");
static_assert(offsetof(BlobHeader, checksum) == 32 && offsetof(BlobHeader, quant_scale) == 52,
              "BlobHeader field offsets are part of the format");

/// One section table entry (16 bytes).
struct SectionEntry {
    std::uint32_t kind;   // SectionKind
    std::uint32_t count;  // elements in the section
    std::uint32_t offset; // from the blob start, multiple of 16
    std::uint32_t bytes;  // count * element size (BuildStats: sizeof(BuildStats))
};
static_assert(sizeof(SectionEntry) == 16, "SectionEntry is 16 bytes");

/// BVH node (16 bytes). Leaf when the top bit of `info` is set.
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
inline std::uint32_t leafFirst(const BvhNode& n) { return n.info & 0x03FFFFFFu; }
inline std::uint32_t leafCount(const BvhNode& n) { return ((n.info >> 26) & 0x1Fu) + 1u; }
inline std::uint32_t makeLeafInfo(std::uint32_t first, std::uint32_t count) {
    return kLeafBit | ((count - 1u) << 26) | first;
}

/// What the baker measured (64 bytes), optional.
struct BuildStats {
    std::uint32_t source_triangles;   //  0: triangles read from the input
    std::uint32_t dropped_degenerate; //  4: zero-area triangles dropped
    std::uint32_t source_vertices;    //  8: vertices read
    std::uint32_t welded_vertices;    // 12: vertices merged by welding
    std::uint32_t copied_vertices;    // 16: vertex copies made for the 32-vertex windows
    std::uint32_t depth;              // 20: deepest leaf (root = 1)
    std::uint32_t leaf_count;         // 24
    std::uint32_t max_leaf_triangles; // 28: the leaf-size option used
    float sah_cost;                   // 32: SAH cost of the tree (traversal 1, triangle 1)
    std::uint32_t node_count;         // 36: nodes (times are not stored: blobs are deterministic)
    std::uint32_t reserved[6];        // 40: zero
};
static_assert(sizeof(BuildStats) == 64, "BuildStats is 64 bytes");

/// Hash of every size and offset above: a reader built from another layout refuses the blob.
constexpr std::uint32_t blobLayoutHash() {
    const std::uint32_t facts[] = {kBlobVersion,
                                   sizeof(BlobHeader),
                                   offsetof(BlobHeader, checksum),
                                   offsetof(BlobHeader, bounds_min),
                                   sizeof(SectionEntry),
                                   sizeof(BvhNode),
                                   offsetof(BvhNode, info),
                                   sizeof(BuildStats),
                                   kTriangleBlock,
                                   kVertexWindow,
                                   kMaxLeafTriangles,
                                   26u /* leaf first bits */};
    std::uint32_t h = 2166136261u;
    for (std::uint32_t f : facts) {
        for (int i = 0; i < 4; ++i) h = (h ^ ((f >> (8 * i)) & 0xFFu)) * 16777619u;
    }
    return h;
}

/// Checksum of a whole blob [data, data + bytes) with the header's checksum field read as zero: a
/// 64-bit multiply-rotate hash over the bytes, read 8 at a time in little-endian order whatever the
/// host (so a foreign-endian blob checks on any machine). Every single-byte change outside the
/// checksum field changes the result (each step is a bijection of the state).
std::uint64_t blobChecksum(const void* data, std::size_t bytes);

} // namespace flak
