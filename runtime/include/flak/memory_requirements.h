// flak — sizing before allocation: add up what an init sequence will carve from a host block.
#pragma once

#include <flak/align.h>

#include <cstddef>

namespace flak {

/// Accumulates the bytes a sequence of Arena::allocate calls needs, padding included, so a host
/// can size its memory block before handing it in. Adding the same (bytes, alignment) requests
/// in the same order as the later allocations guarantees they fit in a block of `bytes` that is
/// aligned to kMinAlignment. Requests with alignment above kMinAlignment reserve worst-case padding.
struct MemoryRequirements {
    std::size_t bytes = 0; ///< total so far

    /// Adds one request. `alignment` must be a power of two (0 means kMinAlignment).
    void add(std::size_t request_bytes, std::size_t alignment = kMinAlignment) {
        const std::size_t align = effectiveAlignment(alignment);
        bytes =
            alignUp(bytes, kMinAlignment) + (align - kMinAlignment) + alignUp(request_bytes, kMinAlignment);
    }
};

} // namespace flak
