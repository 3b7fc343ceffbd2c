// flak — alignment helpers shared by the arena, pools and sizing code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace flak {

/// Every block handed out by flak is aligned to at least this many bytes.
constexpr std::size_t kMinAlignment = 16;

/// True when `value` is a non-zero power of two.
constexpr bool isPowerOfTwo(std::size_t value) { return value != 0 && (value & (value - 1)) == 0; }

/// Rounds `value` up to a multiple of `alignment` (a power of two).
constexpr std::size_t alignUp(std::size_t value, std::size_t alignment) {
    return (value + alignment - 1) & ~(alignment - 1);
}

/// True when `pointer` is a multiple of `alignment` (a power of two).
inline bool isAligned(const void* pointer, std::size_t alignment) {
    return (reinterpret_cast<std::uintptr_t>(pointer) & (alignment - 1)) == 0;
}

/// Alignment flak uses for a request: at least kMinAlignment, more on request.
constexpr std::size_t effectiveAlignment(std::size_t requested) {
    return requested > kMinAlignment ? requested : kMinAlignment;
}

} // namespace flak
