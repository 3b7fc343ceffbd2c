// flak — the mesh in a blob, viewed in place: load (validate its sections), decode.
#pragma once

#include <flak/blob/blob.h>
#include <flak/bvh/blob_format.h>
#include <flak/math/aabb.h>
#include <flak/math/vec3.h>
#include <flak/status.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// A blob's validated mesh, read in place: every pointer points into the caller's bytes, which
/// must outlive the view and stay unchanged. Cheap to copy (pointers and counts). Thread-safe to
/// read.
struct MeshBlob {
    const WideNode* wide_nodes = nullptr;              ///< the tree, root first (none without triangles)
    const float* vertices = nullptr;                   ///< xyz per vertex; null in a quantized mesh
    const std::uint16_t* quantized_vertices = nullptr; ///< grid xyz per vertex; null in an exact mesh
    const std::uint8_t* triangles = nullptr;           ///< three vertex offsets per triangle
    const std::uint32_t* block_bases = nullptr;
    const MaterialRun* material_runs = nullptr; ///< null when the blob has no materials (all 0)
    const std::uint32_t* source_ids = nullptr;  ///< null when the blob has none
    const BuildStats* stats = nullptr;          ///< null when the blob has none
    std::uint32_t wide_node_count = 0;
    std::uint32_t vertex_count = 0;
    std::uint32_t triangle_count = 0;
    std::uint32_t material_run_count = 0;
    std::uint32_t depth =
        0; ///< the tree's depth in wide nodes (root = 1; 0 without triangles), <= kMaxTreeDepth
    Vec3 quant_origin;
    Vec3 quant_scale;
    Aabb bounds; ///< the exact AABB of the mesh's (decoded) vertices
};

/// Validates the mesh sections of an opened blob in one linear pass and, on success, fills
/// out_blob with views into them. Checks every section's count against the others, the grid and
/// the mesh layout hash (MeshInfo), and the structure (well-formed wide nodes in depth-first
/// order, leaves covering the triangles in order exactly once, vertex references in range, finite
/// vertices and bounds), and proves what the walks rely on: every coordinate within
/// kMaxBlobCoordinate, a sane quantization grid, a tree at most kMaxTreeDepth deep (the depth
/// MeshInfo records) whose every box contains its children's and whose every leaf box contains
/// its triangles. So any mesh that loads answers every mesh query as brute force over the
/// triangles it holds would (docs/blob_format.md). Never reads outside the blob, never allocates.
/// A blob with none of the mesh sections (walls or a sphere cluster only) is InvalidArgument; one
/// with some but not all, BlobCorrupt; a mesh that holds the binary tree of an earlier format (the
/// retired Nodes section), BlobLayoutMismatch.
/// Returns the status (out_error, if given, says what and where); out_blob is left empty on error.
[[nodiscard]] Status loadMeshBlob(const Blob& blob, MeshBlob& out_blob, BlobError* out_error = nullptr);

/// openBlob then loadMeshBlob: the mesh of the blob in [data, data + size), with the statuses of
/// both. (A blob that also carries shooter sections is better opened once with openBlob and each
/// view made from the Blob.)
[[nodiscard]] Status loadMeshBlob(const void* data, std::size_t size, MeshBlob& out_blob,
                                  BlobError* out_error = nullptr);

/// A point of the mesh grid: origin + q * scale per axis, in float. Node bounds and quantized
/// vertices both decode this way (and the baker with it), so a vertex and a bound with the same q
/// decode to the same float.
inline void decodeGridPoint(const Vec3& origin, const Vec3& scale, const std::uint16_t q[3], Vec3& out) {
    set(origin.x + static_cast<float>(q[0]) * scale.x, origin.y + static_cast<float>(q[1]) * scale.y,
        origin.z + static_cast<float>(q[2]) * scale.z, out);
}

/// The children of a wide node in use: the slots before the first zero reference.
inline std::uint32_t wideCount(const WideNode& n) {
    std::uint32_t count = 0;
    while (count < kWideChildren && n.child[count] != 0) ++count;
    return count;
}

/// Child `slot` of a wide node as the binary node of the same box, its info the child reference
/// (for a leaf, the leaf's info word: leafFirst and leafCount read it).
inline BvhNode wideChildNode(const WideNode& n, std::uint32_t slot) {
    std::int32_t lo[3], hi[3];
    wideChildGrid(n, slot, lo, hi);
    BvhNode out;
    for (int k = 0; k < 3; ++k) {
        out.lo[k] = static_cast<std::uint16_t>(lo[k]);
        out.hi[k] = static_cast<std::uint16_t>(hi[k]);
    }
    out.info = n.child[slot];
    return out;
}

/// Decoded (conservative) box of a node (wideChildNode gives a wide node's child as one).
inline void nodeBounds(const MeshBlob& blob, const BvhNode& node, Aabb& out) {
    decodeGridPoint(blob.quant_origin, blob.quant_scale, node.lo, out.min);
    decodeGridPoint(blob.quant_origin, blob.quant_scale, node.hi, out.max);
}

/// Vertex indices of triangle `tri` (leaf order). tri < triangle_count.
inline void triangleIndices(const MeshBlob& blob, std::uint32_t tri, std::uint32_t out_index[3]) {
    const std::uint32_t base = blob.block_bases[tri / kTriangleBlock];
    const std::uint8_t* offsets = blob.triangles + 3u * tri;
    out_index[0] = base + offsets[0];
    out_index[1] = base + offsets[1];
    out_index[2] = base + offsets[2];
}

/// Position of vertex `index` (< vertex_count): the stored floats of an exact mesh, or a quantized
/// mesh's grid point decoded as nodeBounds decodes a bound (origin + q * scale per axis).
inline void vertexPosition(const MeshBlob& blob, std::uint32_t index, Vec3& out) {
    if (blob.quantized_vertices == nullptr) {
        const float* v = blob.vertices + 3u * index;
        set(v[0], v[1], v[2], out);
        return;
    }
    decodeGridPoint(blob.quant_origin, blob.quant_scale, blob.quantized_vertices + 3u * index, out);
}

/// The material id of triangle `tri` (< triangle_count): its run's, found by binary search over
/// the runs; 0 when the blob has no materials.
inline std::uint16_t triangleMaterial(const MeshBlob& blob, std::uint32_t tri) {
    if (blob.material_runs == nullptr) return 0;
    std::uint32_t lo = 0, hi = blob.material_run_count; // the run is the last with first <= tri
    while (hi - lo > 1) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (blob.material_runs[mid].first <= tri)
            lo = mid;
        else
            hi = mid;
    }
    return blob.material_runs[lo].material;
}

/// Vertex positions of triangle `tri` (leaf order), its corners in the blob's order: the source's,
/// in the same cyclic order (docs/blob_format.md, Corner order). tri < triangle_count.
inline void triangleVertices(const MeshBlob& blob, std::uint32_t tri, Vec3& out_a, Vec3& out_b, Vec3& out_c) {
    std::uint32_t idx[3];
    triangleIndices(blob, tri, idx);
    vertexPosition(blob, idx[0], out_a);
    vertexPosition(blob, idx[1], out_b);
    vertexPosition(blob, idx[2], out_c);
}

} // namespace flak
