// flak — the node of the dynamic AABB tree: 32 bytes, index-based, with a parent link.
//
// Children are allocated in pairs: the two children of an internal node sit in slots (2k, 2k+1),
// so one index names both and the pair shares one 64-byte cache line (the node array is 64-byte
// aligned). The root always lives in slot 0; slot 1 is never used. A node's sibling is slot ^ 1,
// and a node's parity says whether it is the first or the second child. The stackless walks use
// that parity as the "previous" half of the classic (current, previous) walk: finishing an even
// node moves to its sibling, finishing an odd one moves to the parent.
#pragma once

#include <flak/math/aabb.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// One slot of the dynamic tree's node pool (32 bytes; see the byte budget below).
/// - Internal node: `box` bounds the fat boxes of every proxy below it; `child` is the slot of the
///   first child (even, >= 2), the second child is `child + 1`.
/// - Leaf: `box` is the proxy's tight box (the fat box lives in the proxy record); `child` is
///   kTreeLeafBit | proxy index.
/// - Free slot: `parent` is kTreeFreeNode; in the even slot of a free pair, `child` links to the
///   next free pair (kTreeNullNode ends the list).
/// Plain data; the tree owns the array. Not meant to be edited by callers.
struct TreeNode {
    Aabb box;                 ///< bytes 0..23: see above (world units)
    std::uint32_t parent = 0; ///< bytes 24..27: parent slot, kTreeNullNode for the root
    std::uint32_t child = 0;  ///< bytes 28..31: first child slot, or kTreeLeafBit | proxy index
};
// Byte budget: Aabb 24 + parent 4 + child/proxy 4 = 32; two nodes (a child pair) per cache line.
static_assert(sizeof(TreeNode) == 32, "a tree node is 32 bytes");
static_assert(offsetof(TreeNode, box) == 0, "box first");
static_assert(offsetof(TreeNode, parent) == 24, "parent after the box");
static_assert(offsetof(TreeNode, child) == 28, "child last");

/// Parent of the root; also "no node" in general.
constexpr std::uint32_t kTreeNullNode = 0xFFFFFFFFu;
/// Parent value that marks a free slot.
constexpr std::uint32_t kTreeFreeNode = 0xFFFFFFFEu;
/// Set in TreeNode::child for a leaf; the low 31 bits are the proxy index.
constexpr std::uint32_t kTreeLeafBit = 0x80000000u;

/// True when the node is a leaf (its child field names a proxy).
inline bool isLeaf(const TreeNode& node) { return (node.child & kTreeLeafBit) != 0; }

} // namespace flak
