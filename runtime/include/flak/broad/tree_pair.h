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

/// How a pair search went: `found` pairs in all, the first `written` of them in the caller's
/// buffer (written = min(found, capacity)); found - written were dropped for want of room.
struct PairCount {
    std::uint32_t written = 0; ///< pairs written to the caller's buffer
    std::uint32_t found = 0;   ///< pairs found, written or not

    /// Pairs found but not written (the buffer was full).
    std::uint32_t dropped() const { return found - written; }
};

} // namespace flak
