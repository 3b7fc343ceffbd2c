// Internal: validation of the shooter sections (shooter/blob_sections.h), run by loadSphereCluster
// and loadWallSet before they make a view.
#pragma once

#include <flak/blob/blob.h>
#include <flak/bvh/blob_format.h>
#include <flak/math/sphere.h>
#include <flak/shooter/blob_sections.h>

namespace flak::detail {

/// Spheres finite, radius >= 0, count 1..kMaxClusterSpheres. `at`: the section's byte offset.
Status checkClusterSection(const Sphere* spheres, std::uint32_t count, std::uint64_t at, BlobError* err);

/// The Walls section's counts, rings, points, edge tree, edges and inside tree (see wall_set.h).
/// `at`: its offset.
Status checkWallsSection(const std::uint32_t* words, std::uint32_t word_count, std::uint64_t at,
                         BlobError* err);

} // namespace flak::detail
