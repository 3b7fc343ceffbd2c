// flak — linear arena over caller memory, with LIFO markers (per-frame scratch, init carving).
#pragma once

#include <flak/align.h>
#include <flak/status.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// Position of an arena, taken by Arena::mark() and given back to Arena::rewind().
struct ArenaMarker {
    std::size_t offset = 0;
    std::uint32_t depth = 0;
};

/// Bump allocator over a block the caller owns. Never touches the heap; never frees individually.
/// Not thread-safe: give each thread its own arena.
/// At capacity: allocate() returns nullptr, counts the failure and leaves the arena unchanged.
class Arena {
public:
    /// Bytes of arena memory needed to later allocate `bytes` (with worst-case padding).
    static std::size_t requiredBytes(std::size_t bytes) { return alignUp(bytes, kMinAlignment); }

    /// Takes [memory, memory + bytes). `memory` must be non-null and kMinAlignment-aligned.
    /// On failure the arena stays empty (capacity 0) and the status says why.
    [[nodiscard]] Status init(void* memory, std::size_t bytes);

    /// Returns `bytes` bytes aligned to max(alignment, kMinAlignment), or nullptr when the arena
    /// is exhausted or `alignment` is not a power of two. Zero bytes gives a valid unique-ish
    /// pointer to the current top (no space consumed beyond alignment).
    void* allocate(std::size_t bytes, std::size_t alignment = kMinAlignment);

    /// Typed array allocation (uninitialised storage for `count` T). nullptr on exhaustion or
    /// on a byte-count overflow.
    template <typename T> T* allocateArray(std::size_t count) {
        if (count > SIZE_MAX / sizeof(T)) {
            ++m_failed;
            return nullptr;
        }
        return static_cast<T*>(allocate(count * sizeof(T), alignof(T)));
    }

    /// Records the current top. Markers nest: rewind the newest first (LIFO).
    ArenaMarker mark();

    /// Frees everything allocated since `marker`. Returns BadMarker (and changes nothing) unless
    /// `marker` is the newest outstanding marker of this arena.
    [[nodiscard]] Status rewind(const ArenaMarker& marker);

    /// Frees everything and forgets all markers. The high-water mark is kept.
    void reset();

    std::size_t used() const { return m_top; }                   ///< bytes in use now
    std::size_t capacity() const { return m_capacity; }          ///< bytes handed in
    std::size_t highWater() const { return m_high_water; }       ///< most bytes ever in use
    std::uint32_t failedAllocations() const { return m_failed; } ///< allocate() calls refused

private:
    unsigned char* m_base = nullptr;
    std::size_t m_capacity = 0;
    std::size_t m_top = 0;
    std::size_t m_high_water = 0;
    std::uint32_t m_depth = 0;
    std::uint32_t m_failed = 0;
};

} // namespace flak
