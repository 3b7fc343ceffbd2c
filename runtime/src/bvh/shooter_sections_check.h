// Internal: validation of the shooter sections (shooter_sections.h) for loadMeshBlob.
#pragma once

#include <flak/bvh/mesh_blob.h>

namespace flak::detail {

/// Spheres finite, radius >= 0, count 1..kMaxClusterSpheres. `at`: the section's byte offset.
Status checkClusterSection(const Sphere* spheres, std::uint32_t count, std::uint64_t at, BlobError* err);

/// The Walls section's counts, rings, points, edge tree, edges and inside tree (see mesh_blob.h).
/// `at`: its offset.
Status checkWallsSection(const std::uint32_t* words, std::uint32_t word_count, std::uint64_t at,
                         BlobError* err);

} // namespace flak::detail
