// Internal: the shape check every skip-linked tree of a blob passes (the mesh's nodes, the wall
// sets' edge and inside trees).
#pragma once

#include <cstdint>

namespace flak::detail {

/// The shape every skip-linked tree of a blob must have, checked at internal node `i` (of `count`;
/// `skip(k)` is node k's subtree size, 1 for a leaf): its left child at i + 1 and its right
/// child right after the left's subtree, the two subtrees ending exactly where i's does. With the
/// root spanning the array, every node then lies in exactly one subtree of each ancestor, so a
/// forward walk that skips a subtree skips exactly the nodes under a box. Fills the children.
template <typename Skip>
inline bool binaryChildren(std::uint32_t i, std::uint32_t count, Skip&& skip, std::uint32_t& out_left,
                           std::uint32_t& out_right) {
    const std::uint64_t end = std::uint64_t{i} + skip(i);
    out_left = i + 1u;
    if (end > count || out_left >= end) return false;
    const std::uint64_t right = std::uint64_t{out_left} + skip(out_left);
    if (right >= end) return false;
    out_right = static_cast<std::uint32_t>(right);
    return right + skip(out_right) == end;
}

} // namespace flak::detail
