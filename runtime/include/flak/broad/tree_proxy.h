// flak — proxies of the dynamic tree: the caller's description, the handle, the stored record.
#pragma once

#include <flak/handle.h>
#include <flak/math/aabb.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// What a caller hands in for one proxy. Plain value.
struct ProxyDesc {
    Aabb box;                         ///< tight box, world units; finite with min <= max
    std::uint64_t user_value = 0;     ///< opaque to the tree (a body id, a pointer as integer)
    std::uint32_t category = 1;       ///< bits saying what this proxy is
    std::uint32_t mask = 0xFFFFFFFFu; ///< bits of the categories it pairs with
};

/// The hot part of what the tree keeps per proxy (16 bytes): what the pair searches and queries
/// read for every proxy they report. The fat box (24 bytes) and the user value (8 bytes) live in
/// separate arrays, read only by moves and getters, so the searches' working set stays small.
/// Callers read proxies through DynamicTree::getProxy(); the layout is public for tools and tests.
struct TreeProxy {
    std::uint32_t node = 0;           ///< bytes 0..3: slot of its leaf; kTreeFreeNode when free
    std::uint32_t generation = 0;     ///< bytes 4..7: ids must match it; 0 = retired slot
    std::uint32_t category = 1;       ///< bytes 8..11
    std::uint32_t mask = 0xFFFFFFFFu; ///< bytes 12..15; the next free record while free
};
// Byte budget: node 4 + generation 4 + category 4 + mask 4 = 16. Per proxy the tree holds
// 64 (two node slots) + 16 (this) + 24 (fat box) + 8 (user value) = 112 bytes.
static_assert(sizeof(TreeProxy) == 16, "a proxy record is 16 bytes");
static_assert(offsetof(TreeProxy, generation) == 4, "generation after the node");
static_assert(offsetof(TreeProxy, mask) == 12, "mask last");

/// Names a proxy of one DynamicTree; stale after destroyProxy() (detected, never dereferenced).
using ProxyId = Handle<TreeProxy>;

} // namespace flak
