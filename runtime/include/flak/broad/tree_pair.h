// flak — the output of the dynamic tree's pair searches.
#pragma once

#include <flak/broad/tree_proxy.h>

#include <cstdint>

namespace flak {

/// Two proxies whose tight boxes overlap (closed boxes: touching counts) and whose filters accept
/// each other. From a self search a.index < b.index; from a tree-vs-tree search a is in the first
/// tree and b in the second. 16 bytes.
struct TreePair {
    ProxyId a; ///< lower proxy index (self search) or the proxy of the first tree
    ProxyId b; ///< higher proxy index (self search) or the proxy of the second tree
};
static_assert(sizeof(TreePair) == 16, "a pair is two handles");

/// The caller's last word on a pair that the boxes and the category/mask filters accept: called
/// with the two proxies' user values (a's first, in TreePair's order); false leaves the pair out,
/// neither written nor counted, so pairs the caller would never test take no room in its buffer.
/// `accept` null keeps every pair. Called on the searching thread, in the search's order.
struct PairFilter {
    bool (*accept)(void* user, std::uint64_t value_a, std::uint64_t value_b) = nullptr;
    void* user = nullptr;
};

} // namespace flak
