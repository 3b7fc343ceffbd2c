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

/// The end of the run of items in order (no item less than the one before it) that starts at
/// `begin`.
template <typename T, typename Less>
std::uint32_t runEnd(const T* items, std::uint32_t begin, std::uint32_t count, Less& less) {
    std::uint32_t end = begin + 1;
    while (end < count && !less(items[end], items[end - 1])) ++end;
    return end;
}

/// Sorts items[0..count) by `less`, stable: a bottom-up natural merge sort (each pass merges the
/// runs already in order two by two, no recursion) through a buffer from `scratch` (given back
/// before returning). Input already in order costs one pass of comparisons and no copy; the
/// step's hits come mostly in order (each phase emits by item). Without room in `scratch` it
/// falls back to an insertion sort in place (same order, slower).
template <typename T, typename Less>
void stableSort(T* items, std::uint32_t count, Arena& scratch, Less less) {
    if (count < 2 || runEnd(items, 0, count, less) == count) return;
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
    for (;;) {
        std::uint32_t runs = 0;
        for (std::uint32_t lo = 0; lo < count; ++runs) {
            const std::uint32_t mid = runEnd(from, lo, count, less);
            const std::uint32_t hi = mid < count ? runEnd(from, mid, count, less) : count;
            std::uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) to[k++] = less(from[j], from[i]) ? from[j++] : from[i++];
            while (i < mid) to[k++] = from[i++];
            while (j < hi) to[k++] = from[j++];
            lo = hi;
        }
        T* swap = from;
        from = to;
        to = swap;
        if (runs == 1) break;
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
