// flak — sizing before allocation: add up what an init sequence will carve from a host block.
#pragma once

#include <flak/align.h>

#include <cstddef>

namespace flak {

/// Accumulates the bytes a sequence of Arena::allocate calls needs, padding included, so a host
/// can size its memory block before handing it in. Adding the same (bytes, alignment) requests
/// in the same order as the later allocations guarantees they fit in a block of `bytes` that is
/// aligned to kMinAlignment. Requests with alignment above kMinAlignment reserve worst-case padding.
/// The total saturates: once it does not fit in size_t it stays at SIZE_MAX (overflowed()), which
/// no real total equals (they are multiples of kMinAlignment), instead of wrapping to a small size.
struct MemoryRequirements {
    std::size_t bytes = 0; ///< total so far (SIZE_MAX once it overflowed)

    /// Adds one request. `alignment` must be a power of two (0 means kMinAlignment).
    void add(std::size_t request_bytes, std::size_t alignment = kMinAlignment) {
        constexpr std::size_t kMax = ~std::size_t{0};
        const std::size_t pad = effectiveAlignment(alignment) - kMinAlignment;
        if (bytes > kMax - (kMinAlignment - 1) || request_bytes > kMax - (kMinAlignment - 1)) {
            bytes = kMax;
            return;
        }
        const std::size_t base = alignUp(bytes, kMinAlignment),
                          request = alignUp(request_bytes, kMinAlignment);
        bytes = request <= kMax - base && pad <= kMax - base - request ? base + pad + request : kMax;
    }

    /// True when the total did not fit in size_t.
    bool overflowed() const { return bytes == ~std::size_t{0}; }
};

} // namespace flak
