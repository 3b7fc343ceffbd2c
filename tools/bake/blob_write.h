// Serialising a built tree into a blob (either byte order), and the vertex windows it needs.
#pragma once

#include "bvh_build.h"
#include "source_mesh.h"

#include <cstdint>
#include <vector>

namespace flak::bake {

struct WriteOptions {
    bool big_endian = false;  ///< write for a big-endian target
    bool source_ids = false;  ///< add the SourceIds section (original triangle index, 4 B/triangle)
    std::uint32_t max_leaf = 8; ///< recorded in BuildStats
};

/// Writes the blob for `mesh` (prepared) and `tree` (built over it) into `out` (replaced).
BakeError writeBlob(const SourceMesh& mesh, const BuiltTree& tree, const WriteOptions& options,
                    std::vector<unsigned char>& out);

} // namespace flak::bake
