// flak — writes found pairs into a caller buffer with a capacity (private to runtime/broad).
#pragma once

#include <flak/broad/tree_pair.h>
#include <flak/out_buffer.h>
#include <flak/status.h>

#include <cstdint>

namespace flak {

/// Writes pairs while there is room and counts every pair; never writes past `capacity`. The
/// count is 64-bit: two trees of 2^30 proxies, or one of 92,683 proxies all overlapping, find more
/// than 2^32 pairs, and a 32-bit count would wrap and write over the pairs already written.
struct PairSink {
    TreePair* pairs;
    std::uint32_t capacity;
    std::uint64_t found;

    /// A sink over the free part of `buffer` (none when its storage is null).
    static PairSink over(OutBuffer<TreePair>& buffer) {
        const bool room = buffer.items != nullptr && buffer.count < buffer.capacity;
        return PairSink{room ? buffer.items + buffer.count : nullptr,
                        room ? buffer.capacity - buffer.count : 0u, 0};
    }

    /// Pairs written (the first `written()` of those found).
    std::uint32_t written() const { return found < capacity ? static_cast<std::uint32_t>(found) : capacity; }

    /// Hands the result to `buffer`: the pairs written join its count, the rest its dropped
    /// (saturating, as every dropped count). Ok, or BufferFull when some were dropped.
    Status finish(OutBuffer<TreePair>& buffer) const {
        buffer.count += written();
        const std::uint64_t rest = found - written();
        buffer.drop(rest < 0xFFFFFFFFu ? static_cast<std::uint32_t>(rest) : 0xFFFFFFFFu);
        return rest == 0 ? Status::Ok : Status::BufferFull;
    }

    void add(const ProxyId& a, const ProxyId& b) {
        if (found < capacity) {
            pairs[found].a = a;
            pairs[found].b = b;
        }
        ++found;
    }
};

/// True when each proxy's category has a bit of the other's mask.
inline bool acceptsPair(const TreeProxy& a, const TreeProxy& b) {
    return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

/// True when the caller's filter keeps the pair (always when it has none).
inline bool callerAccepts(const PairFilter& filter, std::uint64_t value_a, std::uint64_t value_b) {
    return filter.accept == nullptr || filter.accept(filter.user, value_a, value_b);
}

/// True when this proxy's filter accepts every proxy whose filter accepts it: a full mask and a
/// non-empty category. A tree whose proxies all do so can skip the filter in pair searches.
inline bool acceptsAll(std::uint32_t category, std::uint32_t mask) {
    return category != 0 && mask == 0xFFFFFFFFu;
}

/// Fills in the generations of pairs written as bare indices (ProxyId{index, 0}). A second pass
/// over the buffer: the loads are independent, so they overlap instead of stalling the walk.
inline void fillGenerations(TreePair* pairs, std::uint32_t count, const TreeProxy* records_a,
                            const TreeProxy* records_b) {
    for (std::uint32_t i = 0; i < count; ++i) {
        pairs[i].a.generation = records_a[pairs[i].a.index].generation;
        pairs[i].b.generation = records_b[pairs[i].b.index].generation;
    }
}

} // namespace flak
