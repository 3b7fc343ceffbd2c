// flak — generation-checked handles to pool slots.
#pragma once

#include <cstdint>

namespace flak {

/// Names a slot of a FixedPool<T>. Generation 0 never belongs to a live slot, so a
/// value-initialised Handle is the null handle. Typed by T so handles of different pools do not mix.
template <typename T> struct Handle {
    std::uint32_t index = 0;
    std::uint32_t generation = 0;

    bool isNull() const { return generation == 0; }
    friend bool operator==(const Handle& a, const Handle& b) {
        return a.index == b.index && a.generation == b.generation;
    }
    friend bool operator!=(const Handle& a, const Handle& b) { return !(a == b); }
};

} // namespace flak
