// flak — the tandem walk of two baked meshes in A's frame (mesh_mesh.h describes it): every pair of
// leaves whose grown boxes overlap, in walk order, each at most once. Shared by the triangle
// tests of mesh_mesh.cpp and the leaf-pair export of mesh_leaf_pairs.cpp, so both see exactly
// the same leaf pairs.
#pragma once

#include "bvh/query_walk.h"

#include <flak/bvh/mesh_mesh.h>
#include <flak/math/simd.h>

#include <cstdint>

namespace flak::detail {

/// A node of one mesh taken into the other's quantized grid, the way the walk does it for every
/// B leaf: decodeNode, transformAabb, inflate by the margin, quantizeBox (query_walk.h, aabb.h).
/// With SSE2 the chain runs on (x, y, z) lanes with the very operations of the scalar code in their
/// order (transformAabb's f4MulColumns included), so the QuantBox is the same; a grid with a flat
/// axis, or a box that turns NaN, takes the scalar chain.
struct NodeToGrid {
    NodeDecoder decoder;
    const Transform* transform = nullptr;
    const QuantGrid* grid = nullptr;
    float margin = 0.0f;
#if defined(FLAK_SIMD_SSE2)
    bool lanes = false; ///< the SSE2 chain applies (no flat axis in the grid)
    __m128 lo_origin, hi_origin, scale, c0, c1, c2, t, a0, a1, a2, grow, origin, inv_step;
#endif
};

inline void makeNodeToGrid(const MeshBlob& from, const Transform& t, const QuantGrid& grid, float margin,
                           NodeToGrid& out) {
    makeNodeDecoder(from, margin, out.decoder);
    out.transform = &t;
    out.grid = &grid;
    out.margin = margin;
#if defined(FLAK_SIMD_SSE2)
    const auto load = [](const Vec3& v) { return _mm_setr_ps(v.x, v.y, v.z, 0.0f); };
    const __m128 sign = _mm_set1_ps(-0.0f);
    out.lo_origin = load(out.decoder.lo_origin);
    out.hi_origin = load(out.decoder.hi_origin);
    out.scale = load(out.decoder.scale);
    out.c0 = load(t.rotation.c0);
    out.c1 = load(t.rotation.c1);
    out.c2 = load(t.rotation.c2);
    out.t = load(t.translation);
    out.a0 = _mm_andnot_ps(sign, out.c0);
    out.a1 = _mm_andnot_ps(sign, out.c1);
    out.a2 = _mm_andnot_ps(sign, out.c2);
    out.grow = _mm_set1_ps(margin);
    out.origin = _mm_setr_ps(grid.origin[0], grid.origin[1], grid.origin[2], 0.0f);
    out.inv_step = _mm_setr_ps(grid.inv_step[0], grid.inv_step[1], grid.inv_step[2], 1.0f);
    out.lanes = grid.inv_step[0] != 0.0f && grid.inv_step[1] != 0.0f && grid.inv_step[2] != 0.0f;
#endif
}

inline void nodeToGridScalar(const NodeToGrid& m, const BvhNode& n, QuantBox& out) {
    Aabb box, moved;
    decodeNode(m.decoder, n, box);
    transformAabb(*m.transform, box, moved);
    inflate(moved, m.margin, moved);
    quantizeBox(*m.grid, moved, out);
}

inline void nodeToGrid(const NodeToGrid& m, const BvhNode& n, QuantBox& out) {
#if defined(FLAK_SIMD_SSE2)
    if (!m.lanes) {
        nodeToGridScalar(m, n, out);
        return;
    }
    __m128 qlo, qhi;
    nodeBoundLanes(n, qlo, qhi);
    const __m128 lo = _mm_add_ps(m.lo_origin, _mm_mul_ps(qlo, m.scale));
    const __m128 hi = _mm_add_ps(m.hi_origin, _mm_mul_ps(qhi, m.scale));
    const __m128 half = _mm_set1_ps(0.5f);
    const __m128 c = _mm_mul_ps(_mm_add_ps(lo, hi), half);
    const __m128 e = _mm_mul_ps(_mm_sub_ps(hi, lo), half);
    const auto columns = [](__m128 k0, __m128 k1, __m128 k2, __m128 v) {
        const __m128 x = _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 0, 0, 0));
        const __m128 y = _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1));
        const __m128 z = _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 2, 2));
        return _mm_add_ps(_mm_add_ps(_mm_mul_ps(k0, x), _mm_mul_ps(k1, y)), _mm_mul_ps(k2, z));
    };
    const __m128 tc = _mm_add_ps(columns(m.c0, m.c1, m.c2, c), m.t);
    const __m128 te = columns(m.a0, m.a1, m.a2, e);
    const __m128 qmin = _mm_sub_ps(_mm_sub_ps(tc, te), m.grow);
    const __m128 qmax = _mm_add_ps(_mm_add_ps(tc, te), m.grow);
    if ((_mm_movemask_ps(_mm_cmple_ps(qmin, qmax)) & 7) != 7) { // empty or NaN: the scalar rules
        nodeToGridScalar(m, n, out);
        return;
    }
    quantizeLanes(qmin, qmax, m.origin, m.inv_step, out);
#else
    nodeToGridScalar(m, n, out);
#endif
}

/// The leaves of one A group in walk (array) order, their quantized boxes in lanes of four for the
/// test against a B leaf's box. The loader proves every node box contains its children's, so a
/// leaf overlaps a box only if all its ancestors do: the leaves this test accepts are exactly those
/// a walk of the group's node range would reach, in the same order.
struct GroupLeaves {
    static constexpr std::uint32_t kCapacity = 64; ///< more than the leaves of any group
    alignas(16) float lo[3][kCapacity];            ///< grid coordinates (exact in float)
    alignas(16) float hi[3][kCapacity];
    std::uint32_t node[kCapacity];
    std::uint32_t count = 0;
};
static_assert(kMeshMeshGroupNodes < GroupLeaves::kCapacity, "a group's leaves fit the table");

/// Files the leaves of nodes [first, end) of `a`; the lanes past the last leaf never overlap.
inline void gatherGroupLeaves(const MeshBlob& a, std::uint32_t first, std::uint32_t end, GroupLeaves& out) {
    std::uint32_t count = 0;
    for (std::uint32_t k = first; k < end; ++k) {
        const BvhNode& n = a.nodes[k];
        if (!isLeaf(n)) continue;
        for (int c = 0; c < 3; ++c) {
            out.lo[c][count] = static_cast<float>(n.lo[c]);
            out.hi[c][count] = static_cast<float>(n.hi[c]);
        }
        out.node[count++] = k;
    }
    out.count = count;
    for (std::uint32_t k = count; k % 4u != 0u; ++k)
        for (int c = 0; c < 3; ++c) {
            out.lo[c][k] = 1e30f;
            out.hi[c][k] = -1e30f;
        }
}

/// Bit k set when leaf k of `g` overlaps `q` (nodeOverlaps' closed test, on exact grid values).
inline std::uint64_t overlappingLeaves(const GroupLeaves& g, const QuantBox& q) {
    F4 q_lo[3], q_hi[3];
    for (int c = 0; c < 3; ++c) {
        f4Splat(static_cast<float>(q.lo[c]), q_lo[c]);
        f4Splat(static_cast<float>(q.hi[c]), q_hi[c]);
    }
    std::uint64_t hits = 0;
    for (std::uint32_t s = 0; s < g.count; s += 4u) {
        unsigned miss = 0u;
        for (int c = 0; c < 3; ++c) {
            F4 lo, hi;
            f4Load(&g.lo[c][s], lo);
            f4Load(&g.hi[c][s], hi);
            miss |= f4LessMask(hi, q_lo[c]) | f4LessMask(q_hi[c], lo);
        }
        hits |= static_cast<std::uint64_t>(~miss & 0xFu) << s;
    }
    return hits;
}

/// What a tandem walk of A against B (B taken into A's frame by b_to_a) sets up once: A's frame
/// into B's, the box growth, and B's grown root box in A's grid. The GPU's device walk takes the
/// same values from here.
struct TandemSetup {
    Transform a_to_b;
    float margin = 0.0f;
    QuantBox b_root_q{};
};

/// False (nothing to walk) for an empty mesh or a non-finite transform.
inline bool prepareTandemWalk(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a,
                              TandemSetup& out) {
    if (a.node_count == 0 || b.node_count == 0 || !isFinite(b_to_a)) return false;
    inverse(b_to_a, out.a_to_b);
    Aabb b_root;
    transformAabb(b_to_a, b.bounds, b_root);
    const float scale = maxOf(maxOf(maxAbs(b.bounds.min), maxAbs(b.bounds.max)),
                              maxOf(maxAbs(b_root.min), maxAbs(b_root.max)));
    out.margin = walkMargin(a, scale);
    inflate(b_root, out.margin, b_root);
    // Node tests run on the 16-bit boxes against quantized query boxes; the grown query boxes
    // carry the margin (the decoders grow the boxes that get transformed).
    QuantGrid grid_a;
    makeQuantGrid(a, grid_a);
    quantizeBox(grid_a, b_root, out.b_root_q);
    return true;
}

/// Calls group(node_index) for every subtree of `a` that walkLeafPairs takes as a group, in walk
/// order: the nodes of at most kMeshMeshGroupNodes nodes whose ancestors all have more. Which of
/// them a walk visits depends on the job; these are all it can visit.
template <class Group> void forEachWalkGroup(const MeshBlob& a, Group&& group) {
    std::uint32_t i = 0;
    while (i < a.node_count) {
        const std::uint32_t skip = skipOf(a.nodes[i]);
        if (skip > kMeshMeshGroupNodes) {
            ++i;
            continue;
        }
        group(i);
        i += skip;
    }
}

/// Calls visit(a_leaf, b_leaf, b_leaf_index, margin) for every (A leaf, B leaf) pair the walk of
/// mesh_mesh.h reaches; `margin` is the walk's box growth. visit returns true to stop the walk.
/// Nothing happens for empty meshes or a non-finite transform. No recursion, no stack: the A
/// group's leaves are filed once per group (GroupLeaves) and tested against each B leaf in lanes.
template <class Visit>
void walkLeafPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a, Visit& visit) {
    TandemSetup setup;
    if (!prepareTandemWalk(a, b, b_to_a, setup)) return;
    const Transform& a_to_b = setup.a_to_b;
    const float margin = setup.margin;
    const QuantBox& b_root_q = setup.b_root_q;
    NodeDecoder dec_a;
    makeNodeDecoder(a, margin, dec_a);
    QuantGrid grid_a, grid_b;
    makeQuantGrid(a, grid_a);
    makeQuantGrid(b, grid_b);
    NodeToGrid b_into_a;
    makeNodeToGrid(b, b_to_a, grid_a, margin, b_into_a);
    GroupLeaves leaves;

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
        bool gathered = false; // `leaves` holds this group's (filed at its first B leaf)
        std::uint32_t j = 0;
        while (j < b.node_count) {
            const BvhNode& nb = b.nodes[j];
            if (!nodeOverlaps(nb, group_q)) {
                j += skipOf(nb);
                continue;
            }
            ++j;
            if (!isLeaf(nb)) continue;
            if (!gathered) {
                gatherGroupLeaves(a, i, group_end, leaves);
                gathered = true;
            }
            QuantBox b_leaf_q;
            nodeToGrid(b_into_a, nb, b_leaf_q);
            std::uint64_t hits = overlappingLeaves(leaves, b_leaf_q);
            while (hits != 0u) {
                const std::uint32_t k = static_cast<std::uint32_t>(__builtin_ctzll(hits));
                hits &= hits - 1u;
                if (visit(a.nodes[leaves.node[k]], nb, j - 1, margin)) return;
            }
        }
        i = group_end;
    }
}

} // namespace flak::detail
