// flak — the tandem walk of two baked meshes in A's frame (mesh_mesh.h describes it): every pair of
// leaves whose grown boxes overlap, in walk order, each at most once. Shared by the triangle
// tests of mesh_mesh.cpp and the leaf-pair export of mesh_leaf_pairs.cpp, so both see exactly
// the same leaf pairs.
#pragma once

#include "bvh/query_walk.h"

#include <flak/bvh/mesh_mesh.h>

#include <cstdint>

namespace flak::detail {

/// Calls visit(a_leaf, b_leaf, b_leaf_index, margin) for every (A leaf, B leaf) pair the walk of
/// mesh_mesh.h reaches; `margin` is the walk's box growth. visit returns true to stop the walk.
/// Nothing happens for empty meshes or a non-finite transform. No recursion, no stack.
template <class Visit>
void walkLeafPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a, Visit& visit) {
    if (a.node_count == 0 || b.node_count == 0 || !isFinite(b_to_a)) return;
    Transform a_to_b;
    inverse(b_to_a, a_to_b);
    Aabb b_root;
    transformAabb(b_to_a, b.bounds, b_root);
    const float scale = maxOf(maxOf(maxAbs(b.bounds.min), maxAbs(b.bounds.max)),
                              maxOf(maxAbs(b_root.min), maxAbs(b_root.max)));
    const float margin = walkMargin(a, scale);
    inflate(b_root, margin, b_root);
    NodeDecoder dec_a, dec_b;
    makeNodeDecoder(a, margin, dec_a);
    makeNodeDecoder(b, margin, dec_b);
    QuantGrid grid_a, grid_b;
    makeQuantGrid(a, grid_a);
    makeQuantGrid(b, grid_b);
    // Node tests run on the 16-bit boxes against quantized query boxes; the grown query boxes
    // carry the margin (the decoders above grow the boxes that get transformed).
    QuantBox b_root_q;
    quantizeBox(grid_a, b_root, b_root_q);

    std::uint32_t i = 0;
    while (i < a.node_count) {
        const BvhNode& group = a.nodes[i];
        if (!nodeOverlaps(group, b_root_q)) {
            i += skipOf(group);
            continue;
        }
        if (skipOf(group) > kMeshMeshGroupNodes) {
            ++i;
            continue;
        }
        const std::uint32_t group_end = i + skipOf(group);
        Aabb group_box, group_in_b;
        decodeNode(dec_a, group, group_box);
        transformAabb(a_to_b, group_box, group_in_b);
        inflate(group_in_b, margin, group_in_b);
        QuantBox group_q;
        quantizeBox(grid_b, group_in_b, group_q);
        std::uint32_t j = 0;
        while (j < b.node_count) {
            const BvhNode& nb = b.nodes[j];
            if (!nodeOverlaps(nb, group_q)) {
                j += skipOf(nb);
                continue;
            }
            ++j;
            if (!isLeaf(nb)) continue;
            Aabb b_leaf_in_a, b_box;
            decodeNode(dec_b, nb, b_box);
            transformAabb(b_to_a, b_box, b_leaf_in_a);
            inflate(b_leaf_in_a, margin, b_leaf_in_a);
            QuantBox b_leaf_q;
            quantizeBox(grid_a, b_leaf_in_a, b_leaf_q);
            std::uint32_t k = i;
            while (k < group_end) {
                const BvhNode& na = a.nodes[k];
                if (!nodeOverlaps(na, b_leaf_q)) {
                    k += skipOf(na);
                    continue;
                }
                ++k;
                if (!isLeaf(na)) continue;
                if (visit(na, nb, j - 1, margin)) return;
            }
        }
        i = group_end;
    }
}

} // namespace flak::detail
