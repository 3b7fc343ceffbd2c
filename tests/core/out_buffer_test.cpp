// OutBuffer: appends up to capacity, counts the rest, never writes past capacity or through null.
#include <flak/out_buffer.h>

#include <gtest/gtest.h>

#include <cstdint>

namespace flak {
namespace {

TEST(OutBuffer, AppendsUpToCapacityAndCountsTheRest) {
    int storage[4] = {-1, -1, -1, -1};
    OutBuffer<int> out = OutBuffer<int>::over(storage, 3);
    EXPECT_FALSE(out.full());
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(out.append(i));
    EXPECT_TRUE(out.full());
    EXPECT_FALSE(out.append(7));
    EXPECT_FALSE(out.append(8));
    EXPECT_EQ(out.count, 3u);
    EXPECT_EQ(out.dropped, 2u);
    EXPECT_EQ(storage[2], 2);
    EXPECT_EQ(storage[3], -1); // nothing past capacity
    out.clear();
    EXPECT_EQ(out.count, 0u);
    EXPECT_EQ(out.dropped, 0u);
    EXPECT_EQ(out.capacity, 3u);
    EXPECT_TRUE(out.append(5));
    EXPECT_EQ(storage[0], 5);
}

TEST(OutBuffer, NullItemsHoldNothingWhateverTheCapacity) {
    OutBuffer<int> out = OutBuffer<int>::over(nullptr, 100);
    EXPECT_TRUE(out.full());
    EXPECT_FALSE(out.append(1));
    EXPECT_EQ(out.count, 0u);
    EXPECT_EQ(out.dropped, 1u);
    OutBuffer<int> empty; // the default: no storage, capacity 0
    EXPECT_FALSE(empty.append(1));
    EXPECT_EQ(empty.dropped, 1u);
}

TEST(OutBuffer, DroppedSaturatesInsteadOfWrapping) {
    OutBuffer<int> out;
    out.drop(0xFFFFFFF0u);
    out.drop(12);
    EXPECT_EQ(out.dropped, 0xFFFFFFFCu);
    out.drop(0xFFFFFFFFu);
    EXPECT_EQ(out.dropped, 0xFFFFFFFFu);
    EXPECT_FALSE(out.append(1));
    EXPECT_EQ(out.dropped, 0xFFFFFFFFu);
}

TEST(OutBuffer, SaturatingAddStopsAtTheTop) {
    EXPECT_EQ(saturatingAdd(0u, 0u), 0u);
    EXPECT_EQ(saturatingAdd(3u, 4u), 7u);
    EXPECT_EQ(saturatingAdd(0xFFFFFFFEu, 1u), 0xFFFFFFFFu);
    EXPECT_EQ(saturatingAdd(0xFFFFFFFFu, 12u), 0xFFFFFFFFu); // wrapping would give 11
    EXPECT_EQ(saturatingAdd(12u, 0xFFFFFFFFu), 0xFFFFFFFFu);
    EXPECT_EQ(saturatingAdd(0x80000000u, 0x80000000u), 0xFFFFFFFFu);
}

} // namespace
} // namespace flak
