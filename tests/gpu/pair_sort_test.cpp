// The collector's radix sort of pair lists against std::sort: random lists with small and full
// 32-bit fields (every pass taken or skipped), duplicates, and the empty and one-pair lists.
#include "gpu/pair_sort.h"

#include "support/oracle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

namespace flak::test {
namespace {

bool lessPair(const GpuPair& x, const GpuPair& y) {
    return std::tie(x.job, x.a, x.b) < std::tie(y.job, y.a, y.b);
}
bool samePair(const GpuPair& x, const GpuPair& y) { return x.job == y.job && x.a == y.a && x.b == y.b; }

TEST(PairSort, EqualsStdSort) {
    SplitMix64 rng(0x5027ull);
    const std::uint32_t masks[] = {0x0u, 0x7u, 0x7FFu, 0x800u, 0xFFFFu, 0x3FFFFFFu, 0xFFFFFFFFu};
    for (std::uint32_t n : {0u, 1u, 2u, 17u, 1000u, 44000u})
        for (std::uint32_t job_mask : masks)
            for (std::uint32_t tri_mask : {0x7FFu, 0x3FFFFFFu, 0xFFFFFFFFu}) {
                std::vector<GpuPair> items(n), scratch(n);
                for (GpuPair& p : items)
                    p = GpuPair{static_cast<std::uint32_t>(rng.next()) & job_mask,
                                static_cast<std::uint32_t>(rng.next()) & tri_mask,
                                static_cast<std::uint32_t>(rng.next()) & (tri_mask >> (rng.next() % 4))};
                if (n > 4) items[n - 1] = items[n / 2]; // a duplicate
                std::vector<GpuPair> expect = items;
                std::sort(expect.begin(), expect.end(), lessPair);
                detail::sortPairs(items.data(), n, scratch.data());
                ASSERT_TRUE(std::equal(items.begin(), items.end(), expect.begin(), samePair))
                    << n << " pairs, job mask " << job_mask << ", triangle mask " << tri_mask;
            }
}

} // namespace
} // namespace flak::test
