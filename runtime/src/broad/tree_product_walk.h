// flak — the stackless simultaneous walk of two trees (or of one tree with itself) that finds every
// pair of overlapping leaves (private to runtime/broad).
//
// Method: the tree-vs-tree descent of Bullet's btDbvt::collideTT (descend both nodes of a pair
// together; a leaf stays while the other side goes on down; a tree against itself splits into its
// children's self pairs and their cross pair), walked without its stack. The pairs of nodes form
// a "product tree" whose nodes are (x, y) states; the walk moves over it with parent links like
// the single-tree walk (tree_walk.h), which needs two facts to find a state's parent and next
// sibling without remembering anything:
//  - node pairs sit in slots (2k, 2k+1), so parity says which child a node is;
//  - both sides go down together until one is a leaf, so `lag` = depth(x) - depth(y) (counted
//    from where they went down together) says which side was descended last: both when it is 0,
//    only x when it is positive (y is a leaf waiting), only y when negative.
// State: two slots and one integer, whatever the depth.
#pragma once

#include <flak/broad/tree_node.h>

#include "broad/tree_walk.h"

#include <cstdint>

namespace flak {

/// Visits every pair (x in tree A, y in tree B) of leaves whose boxes overlap, calling
/// `emit(leaf_x, leaf_y)`. With kSelf, A and B are the same tree and each unordered pair of
/// distinct leaves comes once. Order: depth first over the product tree, children of a self pair
/// (p, p) as (c, c), (c, c + 1), (c + 1, c + 1); of a cross pair (x, y) as (x0, y0), (x0, y1),
/// (x1, y0), (x1, y1) (or the two children of the side still going down). Both trees must be
/// non-empty (slot 0 in use).
template <bool kSelf, typename Emit>
inline void walkLeafPairs(const TreeNode* nodes_a, const TreeNode* nodes_b, Emit&& emit) {
    std::uint32_t x = 0, y = 0;
    std::int32_t lag = 0;

    // Steps (x, y) to its next sibling state; climbs while there is none. False once the root
    // state is finished.
    const auto advance = [&]() -> bool {
        for (;;) {
            if (x == 0 && y == 0) return false;
            if (kSelf && x == y) { // (c, c) -> (c, c + 1); (c + 1, c + 1) -> up to (p, p)
                if ((x & 1u) == 0) {
                    y = x + 1;
                    return true;
                }
                x = y = nodes_a[x].parent;
                continue;
            }
            if (lag == 0) {
                if (kSelf && (x & 1u) == 0 && y == x + 1) { // (c, c + 1) -> (c + 1, c + 1)
                    x = y;
                    return true;
                }
                if ((y & 1u) == 0) {
                    ++y;
                    return true;
                }
                if ((x & 1u) == 0) {
                    ++x;
                    --y;
                    return true;
                }
                x = nodes_a[x].parent;
                y = nodes_b[y].parent;
                continue;
            }
            if (lag > 0) {
                if ((x & 1u) == 0) {
                    ++x;
                    return true;
                }
                x = nodes_a[x].parent;
                --lag;
                continue;
            }
            if ((y & 1u) == 0) {
                ++y;
                return true;
            }
            y = nodes_b[y].parent;
            ++lag;
        }
    };
    // A self state is worth entering when it has children; a cross state when the boxes meet.
    const auto passes = [&]() -> bool {
        if (kSelf && x == y) return !isLeaf(nodes_a[x]);
        return overlaps(nodes_a[x].box, nodes_b[y].box);
    };

    if (!passes()) return;
    for (;;) {
        // Enter (x, y), which passed: go to its first child state, or emit a leaf pair.
        bool moved = true;
        if (kSelf && x == y) {
            x = y = nodes_a[x].child;
        } else {
            const TreeNode& node_x = nodes_a[x];
            const TreeNode& node_y = nodes_b[y];
            const bool leaf_x = isLeaf(node_x);
            const bool leaf_y = isLeaf(node_y);
            if (leaf_x & leaf_y) {
                emit(node_x, node_y);
                moved = advance();
            } else if (!leaf_x & !leaf_y) {
                x = node_x.child;
                y = node_y.child;
            } else if (!leaf_x) {
                x = node_x.child;
                ++lag;
            } else {
                y = node_y.child;
                --lag;
            }
        }
        if (!moved) return;
        while (!passes()) {
            if (!advance()) return;
        }
    }
}

} // namespace flak
