#include <flak/arena.h>
#include <flak/fixed_pool.h>
#include <flak/memory_requirements.h>

#include "flak_support/split_mix.h"

#include <gtest/gtest.h>

#include <vector>

namespace flak {
namespace {

// Whatever sequence of requests is summed, the same sequence fits in a block of that size, for
// every base offset a 16-aligned host block can have relative to larger alignments.
TEST(MemoryRequirements, SummedRequestsAlwaysFitTheirBlock) {
    test::SplitMix64 rng(0xA11C0C);
    for (int round = 0; round < 2000; ++round) {
        struct Req {
            std::size_t bytes, align;
        };
        std::vector<Req> reqs;
        const int n = 1 + static_cast<int>(rng.next() % 12);
        MemoryRequirements total;
        for (int i = 0; i < n; ++i) {
            Req r{static_cast<std::size_t>(rng.next() % 300), std::size_t{1} << (rng.next() % 9)};
            reqs.push_back(r);
            total.add(r.bytes, r.align);
        }
        const std::size_t shift = 16 * (rng.next() % 16); // base alignment varies above 16
        std::vector<unsigned char> storage(total.bytes + 512);
        unsigned char* aligned =
            reinterpret_cast<unsigned char*>(alignUp(reinterpret_cast<std::uintptr_t>(storage.data()), 256));
        Arena arena;
        ASSERT_EQ(arena.init(aligned + shift, total.bytes), Status::Ok);
        for (const Req& r : reqs) {
            void* p = arena.allocate(r.bytes, r.align);
            ASSERT_NE(p, nullptr) << "round " << round << " (seed 0xA11C0C)";
            EXPECT_TRUE(isAligned(p, effectiveAlignment(r.align)));
        }
    }
}

TEST(MemoryRequirements, PoolCarvedFromHostBlockBySizing) {
    struct Body {
        float x[7];
    };
    MemoryRequirements req;
    req.add(FixedPool<Body>::requiredBytes(100), FixedPool<Body>::kAlignment);
    req.add(Arena::requiredBytes(1000));
    std::vector<unsigned char> storage(req.bytes + 16);
    void* block = reinterpret_cast<void*>(alignUp(reinterpret_cast<std::uintptr_t>(storage.data()), 16));

    Arena root;
    ASSERT_EQ(root.init(block, req.bytes), Status::Ok);
    FixedPool<Body> pool;
    void* pool_memory = root.allocate(FixedPool<Body>::requiredBytes(100), FixedPool<Body>::kAlignment);
    ASSERT_EQ(pool.init(pool_memory, FixedPool<Body>::requiredBytes(100), 100), Status::Ok);
    Arena scratch;
    void* scratch_memory = root.allocate(Arena::requiredBytes(1000));
    ASSERT_EQ(scratch.init(scratch_memory, 1000), Status::Ok);
    EXPECT_EQ(root.failedAllocations(), 0u);
    EXPECT_LE(root.used(), req.bytes);
}

// A total that does not fit in size_t saturates at SIZE_MAX (overflowed) and stays there; it never
// wraps to a small size a host would then allocate. The largest totals that fit are exact.
TEST(MemoryRequirements, TotalSaturatesInsteadOfWrapping) {
    constexpr std::size_t kMax = ~std::size_t{0};
    MemoryRequirements fits;
    fits.add(kMax - kMinAlignment); // rounds up to kMax - kMinAlignment + 1, the largest multiple
    EXPECT_FALSE(fits.overflowed());
    EXPECT_EQ(fits.bytes, kMax - kMinAlignment + 1);
    fits.add(0);
    EXPECT_FALSE(fits.overflowed());
    fits.add(1); // one more aligned unit: over
    EXPECT_TRUE(fits.overflowed());
    fits.add(0);
    fits.add(64, 64);
    EXPECT_EQ(fits.bytes, kMax);
    const std::size_t cases[][2] = {
        {kMax, 16}, {kMax - 1, 16}, {kMax / 2 + 1, kMax / 2 + 1}, {kMax - 64, 64}};
    for (const auto& c : cases) {
        MemoryRequirements req;
        req.add(c[0]);
        req.add(c[1], 128); // with padding for a 128-byte alignment
        EXPECT_TRUE(req.overflowed()) << c[0] << " + " << c[1];
    }
    MemoryRequirements padded;
    padded.add(kMax - 256);
    padded.add(0, 128); // 112 bytes of worst-case padding still fit
    EXPECT_FALSE(padded.overflowed());
    EXPECT_EQ(padded.bytes, kMax - 255 + 112);
}

} // namespace
} // namespace flak
