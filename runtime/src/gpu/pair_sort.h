// flak — a batch's pair list in (job, a, b) order: a least-significant-digit radix sort, 11 bits a
// pass, through a scratch array as long as the list. A pass whose digit and every digit above it in
// its field are zero in all pairs is skipped, so small batches of small meshes take few passes
// (the worst scene's 44,000 pairs a frame: five passes).
#pragma once

#include <flak/gpu/gpu_collider.h>

#include <cstdint>
#include <cstring>

namespace flak::detail {

inline std::uint32_t pairField(const GpuPair& p, int field) {
    return field == 0 ? p.b : (field == 1 ? p.a : p.job);
}

/// Sorts items[0, n) by (job, a, b), ascending; `scratch` holds n pairs (its contents are lost).
inline void sortPairs(GpuPair* items, std::uint32_t n, GpuPair* scratch) {
    constexpr unsigned kBits = 11;
    constexpr std::uint32_t kBuckets = 1u << kBits;
    std::uint32_t used[3] = {0, 0, 0}; // the bits set in any pair's b, a and job
    for (std::uint32_t i = 0; i < n; ++i) {
        used[0] |= items[i].b;
        used[1] |= items[i].a;
        used[2] |= items[i].job;
    }
    GpuPair* from = items;
    GpuPair* to = scratch;
    std::uint32_t start[kBuckets];
    for (int field = 0; field < 3; ++field) // least significant first
        for (unsigned shift = 0; shift < 32 && (used[field] >> shift) != 0u; shift += kBits) {
            std::memset(start, 0, sizeof start);
            for (std::uint32_t i = 0; i < n; ++i)
                ++start[(pairField(from[i], field) >> shift) & (kBuckets - 1)];
            std::uint32_t at = 0;
            for (std::uint32_t d = 0; d < kBuckets; ++d) {
                const std::uint32_t c = start[d];
                start[d] = at;
                at += c;
            }
            for (std::uint32_t i = 0; i < n; ++i)
                to[start[(pairField(from[i], field) >> shift) & (kBuckets - 1)]++] = from[i];
            GpuPair* t = from;
            from = to;
            to = t;
        }
    if (from != items && n > 0) std::memcpy(items, from, sizeof(GpuPair) * n);
}

} // namespace flak::detail
