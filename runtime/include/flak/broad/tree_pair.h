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

} // namespace flak
