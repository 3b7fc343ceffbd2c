// flak — the one caller-owned, capacity-bounded output buffer every query and the world write to.
#pragma once

#include <cstdint>

namespace flak {

/// a + b, or 0xFFFFFFFF when the sum does not fit: every count of dropped or skipped records in the
/// library saturates this way instead of wrapping.
inline std::uint32_t saturatingAdd(std::uint32_t a, std::uint32_t b) {
    return b > 0xFFFFFFFFu - a ? 0xFFFFFFFFu : a + b;
}

/// Caller-owned output for records of type T. The caller points `items` at storage for
/// `capacity` records and sets `count` (usually 0); writers append from `count` on. When the
/// buffer is full, a writer stores nothing more and adds each record it could not store to
/// `dropped`, so `count + dropped` is what was found since the caller last reset both. Nothing is
/// ever written past `capacity`, and a null `items` holds nothing whatever `capacity` says (every
/// record is then dropped). `dropped` saturates at 0xFFFFFFFF instead of wrapping. The buffer
/// does not own `items`. Not thread-safe: one writer at a time.
template <typename T> struct OutBuffer {
    T* items = nullptr;         ///< caller's storage for `capacity` records (not owned)
    std::uint32_t capacity = 0; ///< records `items` can hold
    std::uint32_t count = 0;    ///< records written so far (writers append from here)
    std::uint32_t dropped = 0;  ///< records found but not written because the buffer was full

    /// A buffer over `storage[0 .. capacity)`, empty.
    static OutBuffer over(T* storage, std::uint32_t capacity) {
        OutBuffer b;
        b.items = storage;
        b.capacity = capacity;
        return b;
    }

    /// True when no more record can be written.
    bool full() const { return items == nullptr || count >= capacity; }

    /// Writes `value` at `count` and returns true, or, when full, counts it in `dropped` and
    /// returns false.
    bool append(const T& value) {
        if (full()) {
            drop(1);
            return false;
        }
        items[count++] = value;
        return true;
    }

    /// Counts `n` records that were found but not written (saturating).
    void drop(std::uint32_t n) { dropped = saturatingAdd(dropped, n); }

    /// Empties the buffer: count and dropped back to 0 (storage and capacity kept).
    void clear() {
        count = 0;
        dropped = 0;
    }
};

} // namespace flak
