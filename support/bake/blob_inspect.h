// Describing and deeply verifying blobs (the `inspect` and `verify` commands, and the tests).
#pragma once

#include <flak/bvh/mesh_blob.h>

#include <string>
#include <vector>

namespace flak::bake {

/// Facts about a loaded blob (its mesh, where it has one), as printed by `inspect` and `bake --json`.
struct BlobSummary {
    std::uint32_t triangles = 0, vertices = 0, nodes = 0, leaves = 0, depth = 0; ///< nodes: wide nodes
    std::uint64_t bytes = 0;
    double bytes_per_triangle = 0.0;
    double sah_cost = 0.0;
    double build_seconds = 0.0; ///< from the bake run; not stored in the blob
    std::uint32_t dropped_degenerate = 0, welded_vertices = 0, copied_vertices = 0, source_triangles = 0,
                  max_leaf = 0;
    bool big_endian = false;
    bool quantized_vertices = false; ///< vertices on the grid (--vertices quantized)
    Vec3 grid_step;                  ///< the mesh's grid step per axis (nodes, and quantized vertices)
    Aabb bounds; ///< the mesh's exact box as stored (mesh space, after --axes and --scale)
};

BlobSummary summarize(const Blob& blob, bool big_endian);
std::string toJson(const BlobSummary& s);
std::string toText(const BlobSummary& s);

/// What the loads do not prove, on a blob they accepted (loadAnyOrder: loadMeshBlob, loadWallSet and
/// loadSphereCluster already proved everything the queries rely on): every box tight (a leaf's the
/// tightest grid box around its triangles, a wide child's the union of its own children's: loose
/// boxes cost speed, not answers), the
/// build statistics describing the tree, and the walls valid as a level (rings simple and
/// disjoint, holes inside their outer ring: the baker's checks). Returns the problems found
/// (empty when there are none), at most `limit` of them.
std::vector<std::string> deepVerify(const Blob& blob, std::size_t limit = 20);

/// The mesh of an opened blob when it has one (loadMeshBlob). A blob without mesh sections (walls
/// or a cluster only) is Ok with `out` an empty mesh (no nodes, an empty box); any other status is
/// loadMeshBlob's, with `error` (if given) saying what and where.
Status loadOptionalMesh(const Blob& blob, MeshBlob& out, BlobError* error = nullptr);

/// Opens bytes in either byte order (a foreign blob is swapped in a private copy held by `storage`),
/// then makes the view of every section it carries (loadMeshBlob, loadSphereCluster, loadWallSet),
/// which validate them: the first status that is not Ok, with `error` saying what and where.
Status loadAnyOrder(const std::vector<unsigned char>& bytes, std::vector<unsigned char>& storage, Blob& out,
                    BlobError& error, bool& out_was_foreign);

} // namespace flak::bake
