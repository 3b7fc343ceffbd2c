// flak — the stackless walk of a dynamic-tree subtree over parent links (private to runtime/broad).
//
// The (current, previous) walk of the Xbox 360 field report, with "previous" read off the slot
// parity (tree_node.h): children come in pairs (2k, 2k+1), so when a node is finished its parity
// says whether the walk came from a first child (go on to the sibling) or from a second child
// (go up, the parent is finished too). Memory use is three integers whatever the depth.
#pragma once

#include <flak/broad/tree_node.h>
#include <flak/math/aabb.h>

#include <cfloat>
#include <cstdint>

namespace flak {

/// The surface area the tree's costs compare: surfaceArea, or FLT_MAX where that is not finite
/// (a box whose extent or area goes past float's range: inf, or inf * 0 = NaN). Costs stay
/// ordered and finite, so inf - inf never makes a NaN that would turn every comparison false.
inline float treeArea(const Aabb& box) {
    const float area = surfaceArea(box);
    return area <= FLT_MAX ? area : FLT_MAX;
}

/// True for a box the tree accepts: finite, min <= max on every axis.
inline bool isValidTreeBox(const Aabb& box) {
    return isFinite(box.min) && isFinite(box.max) && box.min.x <= box.max.x && box.min.y <= box.max.y &&
           box.min.z <= box.max.z;
}

/// Visits every leaf below `top` (inclusive) whose box passes `enter(box)`; internal nodes
/// failing `enter` are skipped with their subtree. `top` itself is taken as passed (callers test
/// it, usually as a side effect of a test they made anyway). `leaf(slot, node)` returns false to
/// stop; the walk then returns false.
///
/// Walk order (the "defined order" of every query built on it): at each internal node reached,
/// its passing leaf children are visited first (first child before second), then the walk goes
/// down into its passing internal children, first before second.
///
/// Children are tested from their parent, where the pair shares one cache line, and leaves are
/// visited from there too: the walk only ever steps onto internal nodes, so each step costs one
/// hard-to-predict branch (go down or not) instead of one per child and per leaf. Finishing a
/// first child, it re-tests the sibling (same cache line) rather than remembering the result.
template <typename Enter, typename Leaf>
inline bool walkBelow(const TreeNode* nodes, std::uint32_t top, Enter&& enter, Leaf&& leaf) {
    if (isLeaf(nodes[top])) return leaf(top, nodes[top]);
    std::uint32_t current = top;
    for (;;) {
        const std::uint32_t child = nodes[current].child;
        const TreeNode& first = nodes[child];
        const TreeNode& second = nodes[child + 1];
        const bool enter_first = enter(first.box);
        const bool enter_second = enter(second.box);
        const bool leaf_first = isLeaf(first);
        const bool leaf_second = isLeaf(second);
        if ((enter_first & leaf_first) && !leaf(child, first)) return false;
        if ((enter_second & leaf_second) && !leaf(child + 1, second)) return false;
        const bool down_first = enter_first & !leaf_first;
        const bool down_second = enter_second & !leaf_second;
        if (down_first | down_second) {
            current = down_first ? child : child + 1;
            continue;
        }
        // Finished `current`: a first child hands over to its sibling if that is internal and
        // passes; otherwise (or from a second child) climb, the parent being finished too.
        for (;;) {
            if (current == top) return true;
            if ((current & 1u) == 0) {
                const TreeNode& sibling = nodes[current + 1];
                if ((static_cast<unsigned>(!isLeaf(sibling)) & static_cast<unsigned>(enter(sibling.box))) !=
                    0u) {
                    ++current;
                    break;
                }
            }
            current = nodes[current].parent;
        }
    }
}

/// walkBelow() after testing `top` itself.
template <typename Enter, typename Leaf>
inline bool walkSubtree(const TreeNode* nodes, std::uint32_t top, Enter&& enter, Leaf&& leaf) {
    if (!enter(nodes[top].box)) return true;
    return walkBelow(nodes, top, enter, leaf);
}

} // namespace flak
