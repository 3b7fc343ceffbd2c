// flak — the candidate leaf pairs of the mesh-mesh walk, for a back end that tests the triangles
// itself (the GPU collider expands them to triangle pairs on the device).
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/math/transform.h>
#include <flak/out_buffer.h>
#include <flak/status.h>

#include <cstdint>

namespace flak {

/// A pair of leaves whose grown boxes overlap (16 bytes): triangles a_first .. a_first + a_count
/// - 1 of mesh A against b_first .. b_first + b_count - 1 of mesh B (leaf order ids).
struct MeshLeafPair {
    std::uint32_t a_first = 0; ///< first triangle of the A leaf
    std::uint32_t a_count = 0; ///< triangles in the A leaf (1 .. kMaxLeafTriangles)
    std::uint32_t b_first = 0; ///< first triangle of the B leaf
    std::uint32_t b_count = 0; ///< triangles in the B leaf (1 .. kMaxLeafTriangles)
};
static_assert(sizeof(MeshLeafPair) == 16, "MeshLeafPair layout");

/// Every leaf pair of meshMeshPairs' tandem walk (mesh_mesh.h, same grown boxes) without its
/// second test of B's nodes in A's frame, in walk order, each at most once: the pairs that walk
/// tests triangle by triangle and those it leaves out for holding no intersecting pair. Every
/// intersecting triangle pair triTriOverlap(A triangle, B triangle mapped by b_to_a with
/// transformPoint) lies in exactly one of them, so testing all triangle pairs of all leaf pairs
/// gives exactly the pairs of meshMeshPairs. Returns Ok, or BufferFull when some did not fit
/// (counted in dropped). Empty meshes, or a transform that is not finite or not rigid (isRigid):
/// nothing, Ok. Thread-safe on shared blobs; no allocation.
[[nodiscard]] Status meshMeshLeafPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a,
                                       OutBuffer<MeshLeafPair>& inout_pairs);

} // namespace flak
