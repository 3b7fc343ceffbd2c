// flak — the result of validating a dynamic tree: the first broken invariant, and its shape.
#pragma once

#include <cstdint>

namespace flak {

/// Filled by DynamicTree::validate(). `what` is null when every invariant holds, else a static
/// string naming the first one that failed, with `node` the slot where it did.
struct TreeReport {
    const char* what = nullptr;       ///< null = valid
    std::uint32_t node = 0;           ///< slot of the failure (meaningless when valid)
    std::uint32_t leaf_count = 0;     ///< leaves reached from the root
    std::uint32_t internal_count = 0; ///< internal nodes reached from the root
    std::uint32_t free_pairs = 0;     ///< node pairs on the free list
    std::uint32_t height = 0;         ///< edges on the longest root-to-leaf path (0: one leaf)
    double sah_cost = 0.0;            ///< sum of internal node areas / root area (tree quality)
};

} // namespace flak
