// Binned SAH BVH builder (Wald 2007, "On fast Construction of SAH-based Bounding Volume
// Hierarchies"): object splits only, each triangle goes to the side its centroid (the centre of its
// bounding box) falls on, so no triangle is duplicated. Deterministic: same input, same tree.
#pragma once

#include <flak/math/aabb.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace flak::bake {

struct BuildOptions {
    std::uint32_t max_leaf = 8;  ///< most triangles in a leaf (1..16)
    std::uint32_t bins = 16;     ///< SAH bins per axis (4..64)
    float traversal_cost = 4.0f; ///< SAH cost of visiting a node, relative to one triangle test
    /// The deepest tree to build (root = 1), clamped to [28, kMaxTreeDepth]: from level
    /// max_depth - 27 down, ranges are halved instead of split by SAH, so at most 2^26 triangles
    /// end in leaves within max_depth levels whatever the input.
    std::uint32_t max_depth = 64;
    /// The binning and the SAH sweep may take AVX2 where the build and the CPU have it (FLAK_AVX2).
    /// The tree is the same bit for bit either way; false keeps the baseline forms, for tests.
    bool allow_avx2 = true;
    std::function<void(std::uint32_t done, std::uint32_t total)> progress; ///< optional
};

/// The tree of the smallest blobs, the default with quantized vertices: leaves of up to 16
/// triangles and a node visit costed as 8 triangle tests make fewer, fuller nodes
/// (docs/performance.md, Memory per triangle, gives what they cost the queries).
inline BuildOptions compactBuildOptions() {
    BuildOptions o;
    o.max_leaf = 16;
    o.traversal_cost = 8.0f;
    return o;
}

/// Whether `n` is a leaf size a bake takes (`--leaf-size`): a whole number of 1..16.
inline bool validLeafSize(double n) {
    return n >= 1.0 && n <= 16.0 && n == static_cast<double>(static_cast<int>(n));
}

/// Whether `c` is a node cost a bake takes (`--node-cost`): above 0 (as a float) and at most 1,000.
inline bool validNodeCost(double c) { return c > 0.0 && c <= 1000.0 && static_cast<float>(c) > 0.0f; }

/// A bake's build options: its vertex mode's defaults (compactBuildOptions() with quantized
/// vertices), then the leaf size and node cost its caller gave (0: not given).
inline BuildOptions bakeBuildOptions(bool quantized_vertices, std::uint32_t max_leaf, float traversal_cost) {
    BuildOptions o = quantized_vertices ? compactBuildOptions() : BuildOptions{};
    if (max_leaf != 0) o.max_leaf = max_leaf;
    if (traversal_cost != 0.0f) o.traversal_cost = traversal_cost;
    return o;
}

/// One node of the built tree in depth-first order.
struct BuiltNode {
    Aabb bounds;
    std::uint32_t skip = 1;  ///< nodes in the subtree, itself included
    std::uint32_t first = 0; ///< leaf: first position in BuiltTree::order
    std::uint32_t count = 0; ///< leaf: triangles; 0 for internal nodes
};

struct BuiltTree {
    std::vector<BuiltNode> nodes;     ///< depth-first, children after their parent
    std::vector<std::uint32_t> order; ///< triangle ids in leaf order
    std::uint32_t depth = 0;          ///< deepest leaf, root = 1
    std::uint32_t leaf_count = 0;
    double sah_cost = 0.0; ///< sum over nodes of area/root area * cost
    double build_seconds = 0.0;
};

/// Builds the tree over triangles given by positions and indices (3 per triangle).
BuiltTree buildBvh(const std::vector<Vec3>& positions, const std::vector<std::uint32_t>& indices,
                   const BuildOptions& options);

} // namespace flak::bake
