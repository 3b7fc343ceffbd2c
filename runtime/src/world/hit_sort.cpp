// flak — bottom-up merge sort of hits (stable, iterative: runs of 1, 2, 4, ... merged in turn).
#include "hit_sort.h"

namespace flak {

std::size_t sortHitsScratchBytes(std::uint32_t count) { return Arena::requiredBytes(sizeof(Hit) * count); }

namespace {

void insertionSort(Hit* hits, std::uint32_t count) {
    for (std::uint32_t i = 1; i < count; ++i) {
        const Hit item = hits[i];
        std::uint32_t j = i;
        while (j > 0 && hitLess(item, hits[j - 1])) {
            hits[j] = hits[j - 1];
            --j;
        }
        hits[j] = item;
    }
}

} // namespace

void sortHits(Hit* hits, std::uint32_t count, Arena& scratch) {
    if (count < 2) return;
    const ArenaMarker marker = scratch.mark();
    Hit* buffer = scratch.allocateArray<Hit>(count);
    if (buffer == nullptr) {
        insertionSort(hits, count);
        (void)scratch.rewind(marker);
        return;
    }
    Hit* from = hits;
    Hit* to = buffer;
    for (std::uint32_t width = 1; width < count; width *= 2) {
        for (std::uint32_t lo = 0; lo < count; lo += 2 * width) {
            const std::uint32_t mid = lo + width < count ? lo + width : count;
            const std::uint32_t hi = lo + 2 * width < count ? lo + 2 * width : count;
            std::uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) to[k++] = hitLess(from[j], from[i]) ? from[j++] : from[i++];
            while (i < mid) to[k++] = from[i++];
            while (j < hi) to[k++] = from[j++];
        }
        Hit* swap = from;
        from = to;
        to = swap;
    }
    if (from != hits) {
        for (std::uint32_t i = 0; i < count; ++i) hits[i] = from[i];
    }
    (void)scratch.rewind(marker);
}

} // namespace flak
