// flak — a stable sort without allocating or recursing, for the step's hits and mesh pairs.
#pragma once

#include <flak/arena.h>
#include <flak/world/hit.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// Bytes of arena scratch stableSort needs for `count` items of T.
template <typename T> std::size_t stableSortScratchBytes(std::uint32_t count) {
    return Arena::requiredBytes(sizeof(T) * count);
}

/// Sorts items[0..count) by `less`, stable: a bottom-up merge sort (runs of 1, 2, 4, ... merged
/// in turn, no recursion) through a buffer from `scratch` (given back before returning).
/// Without room in `scratch` it falls back to an insertion sort in place (same order, slower).
template <typename T, typename Less>
void stableSort(T* items, std::uint32_t count, Arena& scratch, Less less) {
    if (count < 2) return;
    const ArenaMarker marker = scratch.mark();
    T* buffer = scratch.allocateArray<T>(count);
    if (buffer == nullptr) {
        for (std::uint32_t i = 1; i < count; ++i) {
            const T item = items[i];
            std::uint32_t j = i;
            while (j > 0 && less(item, items[j - 1])) {
                items[j] = items[j - 1];
                --j;
            }
            items[j] = item;
        }
        (void)scratch.rewind(marker);
        return;
    }
    T* from = items;
    T* to = buffer;
    for (std::uint32_t width = 1; width < count; width *= 2) {
        for (std::uint32_t lo = 0; lo < count; lo += 2 * width) {
            const std::uint32_t mid = lo + width < count ? lo + width : count;
            const std::uint32_t hi = lo + 2 * width < count ? lo + 2 * width : count;
            std::uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) to[k++] = less(from[j], from[i]) ? from[j++] : from[i++];
            while (i < mid) to[k++] = from[i++];
            while (j < hi) to[k++] = from[j++];
        }
        T* swap = from;
        from = to;
        to = swap;
    }
    if (from != items) {
        for (std::uint32_t i = 0; i < count; ++i) items[i] = from[i];
    }
    (void)scratch.rewind(marker);
}

/// The step's hits sorted by hitLess (hit.h).
inline void sortHits(Hit* hits, std::uint32_t count, Arena& scratch) {
    stableSort(hits, count, scratch, [](const Hit& x, const Hit& y) { return hitLess(x, y); });
}

} // namespace flak
