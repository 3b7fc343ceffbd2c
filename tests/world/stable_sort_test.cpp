// The step's stable sort (a natural merge sort through arena scratch) against std::stable_sort:
// random keys with many ties, runs already in order, reversed runs, and no scratch at all.
#include "world/stable_sort.h"

#include "flak_support/split_mix.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace flak::test {
namespace {

struct Item {
    std::uint32_t key;
    std::uint32_t order; // where it started: stability shows in it
};

TEST(StableSort, MatchesStdStableSortOnEveryShape) {
    std::vector<unsigned char> memory(1 << 16);
    Arena scratch;
    ASSERT_EQ(scratch.init(memory.data(), memory.size()), Status::Ok);
    Arena none;
    auto less = [](const Item& x, const Item& y) { return x.key < y.key; };
    SplitMix64 rng(0x50A7u);
    for (int round = 0; round < 400; ++round) {
        const std::uint32_t count = std::uint32_t(rng.u() * 700);
        const int shape = round % 5;
        std::vector<Item> items(count);
        for (std::uint32_t i = 0; i < count; ++i) {
            std::uint32_t key = std::uint32_t(rng.u() * 16); // many ties
            if (shape == 1) key = i / 3;                     // in order already
            if (shape == 2) key = (count - i) / 5;           // reversed runs of ties
            if (shape == 3) key = (i % 97) / 4;              // a few ascending runs
            items[i] = Item{key, i};
        }
        std::vector<Item> want = items;
        std::stable_sort(want.begin(), want.end(), less);
        std::vector<Item> got = items;
        stableSort(got.data(), count, shape == 4 ? none : scratch, less); // shape 4: no scratch
        for (std::uint32_t i = 0; i < count; ++i) {
            ASSERT_EQ(got[i].key, want[i].key) << "round " << round << " at " << i;
            ASSERT_EQ(got[i].order, want[i].order) << "round " << round << " at " << i;
        }
        EXPECT_EQ(scratch.used(), 0u); // the buffer is given back
    }
}

} // namespace
} // namespace flak::test
