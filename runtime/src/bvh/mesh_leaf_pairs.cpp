#include <flak/bvh/mesh_leaf_pairs.h>

#include <flak/bvh/mesh_mesh.h>

#include "bvh/query_walk.h"

namespace flak {

// The tandem walk of mesh_mesh.cpp (walkPairs: A groups of at most kMeshMeshGroupNodes nodes
// against B, B leaves against the group's nodes), stopping at the leaf pairs instead of testing
// their triangles: the same margins, the same quantized node tests, hence the same leaf pairs.
// The per-triangle box filter of walkPairs is only a filter (it never drops an intersecting
// pair), so it is left to the consumer's triangle test.
Status meshMeshLeafPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a,
                         LeafPairBuffer& inout_pairs) {
    if (a.node_count == 0 || b.node_count == 0 || !isFinite(b_to_a)) return Status::Ok;
    Transform a_to_b;
    inverse(b_to_a, a_to_b);
    Aabb b_root;
    transformAabb(b_to_a, b.bounds, b_root);
    const float scale =
        detail::maxOf(detail::maxOf(detail::maxAbs(b.bounds.min), detail::maxAbs(b.bounds.max)),
                      detail::maxOf(detail::maxAbs(b_root.min), detail::maxAbs(b_root.max)));
    const float margin = detail::walkMargin(a, scale);
    inflate(b_root, margin, b_root);
    detail::NodeDecoder dec_a, dec_b;
    detail::makeNodeDecoder(a, margin, dec_a);
    detail::makeNodeDecoder(b, margin, dec_b);
    detail::QuantGrid grid_a, grid_b;
    detail::makeQuantGrid(a, grid_a);
    detail::makeQuantGrid(b, grid_b);
    detail::QuantBox b_root_q;
    detail::quantizeBox(grid_a, b_root, b_root_q);

    bool full = false;
    std::uint32_t i = 0;
    while (i < a.node_count) {
        const BvhNode& group = a.nodes[i];
        if (!detail::nodeOverlaps(group, b_root_q)) {
            i += skipOf(group);
            continue;
        }
        if (skipOf(group) > kMeshMeshGroupNodes) {
            ++i;
            continue;
        }
        const std::uint32_t group_end = i + skipOf(group);
        Aabb group_box, group_in_b;
        detail::decodeNode(dec_a, group, group_box);
        transformAabb(a_to_b, group_box, group_in_b);
        inflate(group_in_b, margin, group_in_b);
        detail::QuantBox group_q;
        detail::quantizeBox(grid_b, group_in_b, group_q);
        std::uint32_t j = 0;
        while (j < b.node_count) {
            const BvhNode& nb = b.nodes[j];
            if (!detail::nodeOverlaps(nb, group_q)) {
                j += skipOf(nb);
                continue;
            }
            ++j;
            if (!isLeaf(nb)) continue;
            Aabb b_leaf_in_a, b_box;
            detail::decodeNode(dec_b, nb, b_box);
            transformAabb(b_to_a, b_box, b_leaf_in_a);
            inflate(b_leaf_in_a, margin, b_leaf_in_a);
            detail::QuantBox b_leaf_q;
            detail::quantizeBox(grid_a, b_leaf_in_a, b_leaf_q);
            std::uint32_t k = i;
            while (k < group_end) {
                const BvhNode& na = a.nodes[k];
                if (!detail::nodeOverlaps(na, b_leaf_q)) {
                    k += skipOf(na);
                    continue;
                }
                ++k;
                if (!isLeaf(na)) continue;
                if (inout_pairs.count < inout_pairs.capacity) {
                    MeshLeafPair& p = inout_pairs.items[inout_pairs.count++];
                    p.a_first = leafFirst(na);
                    p.a_count = leafCount(na);
                    p.b_first = leafFirst(nb);
                    p.b_count = leafCount(nb);
                } else {
                    ++inout_pairs.overflow;
                    full = true;
                }
            }
        }
        i = group_end;
    }
    return full ? Status::BufferFull : Status::Ok;
}

} // namespace flak
