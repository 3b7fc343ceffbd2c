// flak — the tandem walk of two baked meshes in A's frame (mesh_mesh.h describes it): every pair of
// leaves whose grown boxes overlap, in walk order, each at most once. Shared by the triangle
// tests of mesh_mesh.cpp and the leaf-pair export of mesh_leaf_pairs.cpp; the triangle tests also
// test B's nodes in A's frame (walkLeafPairs' kBothFrames), which leaves out leaf pairs that hold
// no intersecting triangles.
#pragma once

#include "bvh/query_walk.h"
#include "bvh/wide_walk.h"

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

/// The second test of a group's walk of B: the children of a B node that its box test lets in (B's
/// axes: the group's box taken into B's grid) taken into A's frame, as boxes around their own
/// boxes turned by b_to_a, against the group's box (A's axes). Children whose boxes grown by the
/// margin miss the group's grown box on one of A's axes hold no triangle within the margin of the
/// group's triangles: leaving them out drops leaf pairs whose triangles every later filter and
/// test would reject, and no pair those find. With SSE2 only (elsewhere every child is kept).
/// Kept small (176 bytes: the walks' stack bound of mesh_mesh.h counts it): B's decoder and b_to_a
/// are those the walk takes B's leaves into A's grid with (NodeToGrid); only the rotation is kept
/// in lanes, the other values are splatted where they are used.
struct ChildrenIntoA {
#if defined(FLAK_SIMD_SSE2)
    __m128 r[3][3]; ///< b_to_a's rotation: r[j][k] is row j, column k, in every lane
#endif
    const NodeToGrid* b_into_a = nullptr; ///< B's decoder (grown by the margin) and b_to_a
    Aabb group;                           ///< the group's box in A's frame, grown by the margin
};

inline void makeChildrenIntoA(const NodeToGrid& b_into_a, ChildrenIntoA& out) {
    out.b_into_a = &b_into_a;
#if defined(FLAK_SIMD_SSE2)
    const Mat33& rotation = b_into_a.transform->rotation;
    const Vec3* columns[3] = {&rotation.c0, &rotation.c1, &rotation.c2};
    for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) out.r[j][k] = _mm_set1_ps((*columns[k])[j]);
#endif
}

#if defined(FLAK_SIMD_SSE2)
/// Of the children `bits` of a B node decoded in u16 lanes (wideDecodeOverlaps), those whose boxes
/// taken into A's frame reach the group's box.
inline unsigned childrenInA(const ChildrenIntoA& m, const __m128i lo[3], const __m128i hi[3], unsigned bits) {
    const __m128 half = _mm_set1_ps(0.5f), sign = _mm_set1_ps(-0.0f);
    const NodeDecoder& dec = m.b_into_a->decoder;
    const Vec3& t = m.b_into_a->transform->translation;
    unsigned keep = 0u;
    for (int h = 0; h < 2; ++h) {
        if (((bits >> (4 * h)) & 0xFu) == 0u) continue;
        __m128 c[3], e[3];
        for (int k = 0; k < 3; ++k) {
            const __m128 scale = _mm_set1_ps(dec.scale[k]);
            const __m128 low = decodeLaneHalf(lo[k], h, _mm_set1_ps(dec.lo_origin[k]), scale);
            const __m128 high = decodeLaneHalf(hi[k], h, _mm_set1_ps(dec.hi_origin[k]), scale);
            c[k] = _mm_mul_ps(_mm_add_ps(low, high), half);
            e[k] = _mm_mul_ps(_mm_sub_ps(high, low), half);
        }
        __m128 in = _mm_castsi128_ps(_mm_set1_epi32(-1));
        for (int j = 0; j < 3; ++j) {
            const __m128 tc =
                _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(m.r[j][0], c[0]), _mm_mul_ps(m.r[j][1], c[1])),
                                      _mm_mul_ps(m.r[j][2], c[2])),
                           _mm_set1_ps(t[j]));
            const __m128 te = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_andnot_ps(sign, m.r[j][0]), e[0]),
                                                    _mm_mul_ps(_mm_andnot_ps(sign, m.r[j][1]), e[1])),
                                         _mm_mul_ps(_mm_andnot_ps(sign, m.r[j][2]), e[2]));
            in = _mm_and_ps(in, _mm_and_ps(_mm_cmple_ps(_mm_sub_ps(tc, te), _mm_set1_ps(m.group.max[j])),
                                           _mm_cmple_ps(_mm_set1_ps(m.group.min[j]), _mm_add_ps(tc, te))));
        }
        keep |= static_cast<unsigned>(_mm_movemask_ps(in)) << (4 * h);
    }
    return bits & keep;
}
#endif

/// The children of B node `n` a group's walk enters: those in the group's box in B's grid, then
/// (with SSE2) of those the ones whose boxes reach the group's in A's frame (ChildrenIntoA).
inline unsigned groupChildren(const WideNode& n, const WideBox& group_in_b, const ChildrenIntoA& into_a) {
#if defined(FLAK_SIMD_SSE2)
    if (group_in_b.outside) return 0u;
    __m128i lo[3], hi[3];
    const unsigned bits = wideDecodeOverlaps(n, group_in_b, lo, hi);
    return bits == 0u ? 0u : childrenInA(into_a, lo, hi, bits);
#else
    (void)into_a;
    return wideOverlaps(n, group_in_b);
#endif
}

/// The leaves of one A group in walk (id) order, their quantized boxes in lanes of four for the
/// test against a B leaf's box. The loader proves every node box contains its children's, so a
/// leaf overlaps a box only if all its ancestors do: the leaves this test accepts are exactly those
/// a walk of the group's nodes would reach, in the same order.
struct GroupLeaves {
    static constexpr std::uint32_t kCapacity = 64; ///< the most leaves of a group
    alignas(16) float lo[3][kCapacity];            ///< grid coordinates (exact in float)
    alignas(16) float hi[3][kCapacity];
    std::uint32_t ref[kCapacity]; ///< the leaf's info word
    std::uint32_t count = 0;
};

/// Files leaf `slot` of a wide node (its box in grid coordinates, exactly as wideChildNode's, and
/// its info word) after those filed so far.
inline void fileGroupLeaf(const WideNode& n, std::uint32_t slot, GroupLeaves& out) {
    std::int32_t lo[3], hi[3];
    wideChildGrid(n, slot, lo, hi);
    for (int c = 0; c < 3; ++c) {
        out.lo[c][out.count] = static_cast<float>(lo[c]);
        out.hi[c][out.count] = static_cast<float>(hi[c]);
    }
    out.ref[out.count++] = n.child[slot];
}

/// Makes the lanes past the last filed leaf overlap nothing.
inline void closeGroupLeaves(GroupLeaves& out) {
    for (std::uint32_t k = out.count; k % 4u != 0u; ++k)
        for (int c = 0; c < 3; ++c) {
            out.lo[c][k] = 1e30f;
            out.hi[c][k] = -1e30f;
        }
}

/// Leaf k of a group, as the binary node of its box (the box and info word filed).
inline BvhNode groupLeaf(const GroupLeaves& g, std::uint32_t k) {
    BvhNode n;
    for (int c = 0; c < 3; ++c) {
        n.lo[c] = static_cast<std::uint16_t>(g.lo[c][k]);
        n.hi[c] = static_cast<std::uint16_t>(g.hi[c][k]);
    }
    n.info = g.ref[k];
    return n;
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

/// False (nothing to walk) for an empty mesh, or a transform that is not finite or not rigid (the
/// walk inverts it by transposing the rotation).
inline bool prepareTandemWalk(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a,
                              TandemSetup& out) {
    if (a.wide_node_count == 0 || b.wide_node_count == 0 || !isFinite(b_to_a) || !isRigid(b_to_a))
        return false;
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

/// What the walk sets up besides TandemSetup: A's node decoder (boxes grown by the margin), both
/// grids, and the map of B's leaf boxes into A's grid. Not copied (the map points at grid_a).
struct TandemFrames {
    NodeDecoder dec_a;
    QuantGrid grid_a, grid_b;
    NodeToGrid b_into_a;
};

inline void makeTandemFrames(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a, float margin,
                             TandemFrames& out) {
    makeNodeDecoder(a, margin, out.dec_a);
    makeQuantGrid(a, out.grid_a);
    makeQuantGrid(b, out.grid_b);
    makeNodeToGrid(b, b_to_a, out.grid_a, margin, out.b_into_a);
}

/// A group's box (in A's grid) taken into B's frame and grown by the margin, on B's grid.
inline void groupIntoB(const TandemFrames& f, const TandemSetup& setup, const Aabb& group, QuantBox& out) {
    Aabb in_b;
    transformAabb(setup.a_to_b, group, in_b);
    inflate(in_b, setup.margin, in_b);
    quantizeBox(f.grid_b, in_b, out);
}

/// groupIntoB for the group's box in A's grid (decoded with the frames' A decoder, grown).
inline void groupIntoB(const TandemFrames& f, const TandemSetup& setup, const BvhNode& group, QuantBox& out) {
    Aabb box;
    decodeNode(f.dec_a, group, box);
    groupIntoB(f, setup, box, out);
}

/// How many triangles the leaves under wide node `node` hold (they are consecutive: from its
/// first leaf's first triangle to its last leaf's end).
inline std::uint32_t wideTriangleSpan(const MeshBlob& m, std::uint32_t node) {
    std::uint32_t first = node, last = node;
    while ((first & kLeafBit) == 0) first = m.wide_nodes[first].child[0];
    while ((last & kLeafBit) == 0) {
        const WideNode& n = m.wide_nodes[last];
        last = n.child[31 - __builtin_clz(wideSlots(n))];
    }
    return leafInfoFirst(last) + leafInfoCount(last) - leafInfoFirst(first);
}

/// Largest span of triangles under an A wide node walked as one group against B, if its leaves
/// fit the group table: the groups' count sets how often B's tree is walked, their size how many
/// leaves each B leaf is tested against. 512 has the fewest instructions of 128 to 4,096 on
/// Wuson and the spider (docs/performance.md).
constexpr std::uint32_t kWideGroupTriangles = 512;

/// Calls visit(a_leaf, b_leaf, b_leaf_key, margin) for every (A leaf, B leaf) pair the walk of
/// mesh_mesh.h reaches; `margin` is the walk's box growth, and b_leaf_key (the B leaf's first
/// triangle) is the same number for every visit of the same B leaf in one walk. visit returns true
/// to stop the walk. Nothing happens for empty meshes or a non-finite transform.
/// A's tree is walked with B's root box down to the nodes whose leaves hold at most
/// kWideGroupTriangles triangles (or to a leaf above them); each such group's box (the union of
/// its children's) goes into B's frame and walks B's tree, and at every B leaf it enters the B
/// leaf's box comes into A's grid and is tested against the group's leaves in lanes. The leaves are
/// filed at the group's first B leaf; a group with more leaves than the table holds (leaves of
/// fewer than eight triangles on average) is found out then, before any of its pairs, and its
/// children are walked instead. Groups are walked against B in A's id order, B's leaves in B's id
/// order, and the group's leaves in id order.
/// kBothFrames: a group's walk of B also takes the children it enters into A's frame, against the
/// group's box there (ChildrenIntoA), so that both meshes' axes separate boxes. The pairs it
/// leaves out hold no triangles within the margin of each other. The triangle tests of
/// mesh_mesh.cpp walk so, meeting a subset of the leaf pairs that holds the same triangle pairs;
/// the leaf-pair export, which the device walk reproduces, walks without it.
template <bool kBothFrames, class Visit>
void walkLeafPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a, Visit& visit) {
    TandemSetup setup;
    if (!prepareTandemWalk(a, b, b_to_a, setup)) return;
    WideBox b_root;
    makeWideBox(setup.b_root_q, b_root);
    if (b_root.outside) return;
    TandemFrames frames;
    makeTandemFrames(a, b, b_to_a, setup.margin, frames);
    ChildrenIntoA into_a;
    if constexpr (kBothFrames) makeChildrenIntoA(frames.b_into_a, into_a);
    GroupLeaves leaves;

    // One group, `box` its box in A's grid (info unused) and `gather` filing its leaves (false
    // when they do not fit): Stop when visit stopped the walk, TooBig when gather returned false.
    enum class GroupEnd { Walked, Stop, TooBig };
    const auto group = [&](const BvhNode& box, auto&& gather) {
        decodeNode(frames.dec_a, box, into_a.group); // the group's box in A's frame, grown
        QuantBox group_q;
        groupIntoB(frames, setup, into_a.group, group_q);
        WideBox group_wide;
        makeWideBox(group_q, group_wide);
        if (group_wide.outside) return GroupEnd::Walked;
        bool gathered = false; // `leaves` holds this group's (filed at its first B leaf)
        bool too_big = false;
        const bool stopped = walkWideLeafSlots(
            b, 0,
            [&](const WideNode& n) {
                if constexpr (kBothFrames) return groupChildren(n, group_wide, into_a);
                return wideOverlaps(n, group_wide);
            },
            [&](const WideNode& parent, std::uint32_t slot) {
                if (!gathered) {
                    too_big = !gather();
                    if (too_big) return true;
                    gathered = true;
                }
                const BvhNode nb = wideChildNode(parent, slot);
                QuantBox b_leaf_q;
                nodeToGrid(frames.b_into_a, nb, b_leaf_q);
                for (std::uint64_t hits = overlappingLeaves(leaves, b_leaf_q); hits != 0u;
                     hits &= hits - 1u) {
                    const std::uint32_t k = static_cast<std::uint32_t>(__builtin_ctzll(hits));
                    if (visit(groupLeaf(leaves, k), nb, leafFirst(nb), setup.margin)) return true;
                }
                return false;
            });
        return too_big ? GroupEnd::TooBig : (stopped ? GroupEnd::Stop : GroupEnd::Walked);
    };

    // A's walk on frames as walkWideLeafSlots keeps them; a group's gather walks the group's
    // subtree on the frames above A's.
    WideFrame stack[kMaxTreeDepth];
    std::uint32_t kept = 0;
    std::uint32_t node = 0;
    for (;;) {
        const WideNode& n = a.wide_nodes[node];
        bool walk_children = true; // not a group, or a group too big for the table
        // A group when its box (the union of its children's) overlaps B's root box, as it does
        // whenever a child's does: the one test the device walk makes on its copy of the tree
        // (gpu/device_tree.h), so that both find the same leaf pairs.
        const bool small = wideTriangleSpan(a, node) <= kWideGroupTriangles;
        const BvhNode box = small ? wideUnionNode(n) : BvhNode{};
        if (small && nodeOverlaps(box, setup.b_root_q)) {
            const std::uint32_t root = node;
            const auto gather = [&] {
                leaves.count = 0;
                const bool full = walkWideLeafSlots(
                    a, root, stack, kept, [](const WideNode& g) { return wideSlots(g); },
                    [&](const WideNode& parent, std::uint32_t slot) {
                        if (leaves.count == GroupLeaves::kCapacity) return true;
                        fileGroupLeaf(parent, slot, leaves);
                        return false;
                    });
                closeGroupLeaves(leaves);
                return !full;
            };
            const GroupEnd end = group(box, gather);
            if (end == GroupEnd::Stop) return;
            walk_children = end == GroupEnd::TooBig;
        }
        unsigned rest = walk_children ? wideOverlaps(n, b_root) : 0u;
        std::uint32_t at = node; // the node whose children are taken
        for (;;) {
            std::uint32_t slot;
            if (!nextWideSlot(stack, 0, kept, at, rest, slot)) return;
            const WideNode& parent = a.wide_nodes[at];
            const std::uint32_t ref = parent.child[slot];
            if ((ref & kLeafBit) == 0) {
                keepWideFrame(stack, kept, at, rest);
                node = ref;
                break;
            }
            const auto gather = [&] { // a leaf above every group
                leaves.count = 0;
                fileGroupLeaf(parent, slot, leaves);
                closeGroupLeaves(leaves);
                return true;
            };
            if (group(wideChildNode(parent, slot), gather) == GroupEnd::Stop) return;
        }
    }
}

} // namespace flak::detail
