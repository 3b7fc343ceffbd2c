#include <flak/fixed_pool.h>

#include "flak_support/split_mix.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace flak {
namespace {

struct Tracked {
    static int live;
    int value;
    explicit Tracked(int v) : value(v) { ++live; }
    ~Tracked() { --live; }
};
int Tracked::live = 0;

template <typename Pool> struct PoolFixture {
    std::vector<unsigned char> storage;
    Pool pool;
    explicit PoolFixture(std::uint32_t capacity) : storage(Pool::requiredBytes(capacity) + 64) {
        void* aligned = reinterpret_cast<void*>(
            alignUp(reinterpret_cast<std::uintptr_t>(storage.data()), Pool::kAlignment));
        EXPECT_EQ(pool.init(aligned, Pool::requiredBytes(capacity), capacity), Status::Ok);
    }
};

TEST(FixedPool, InitRejectsBadMemory) {
    FixedPool<int> pool;
    alignas(16) unsigned char small[64];
    EXPECT_EQ(pool.init(nullptr, 1024, 4), Status::NullMemory);
    EXPECT_EQ(pool.init(small + 1, 63, 1), Status::Misaligned);
    EXPECT_EQ(pool.init(small, 16, 4), Status::TooSmall);
    EXPECT_EQ(pool.init(small, sizeof(small), 0xFFFFFFFDu), Status::InvalidArgument);
    EXPECT_EQ(pool.capacity(), 0u);
    Handle<int> h;
    EXPECT_EQ(pool.create(h, 1), Status::PoolFull);
    EXPECT_TRUE(h.isNull());
}

TEST(FixedPool, FillsToCapacityThenReportsPoolFull) {
    PoolFixture<FixedPool<Tracked>> f(64);
    std::vector<Handle<Tracked>> handles;
    for (int i = 0; i < 64; ++i) {
        Handle<Tracked> h;
        ASSERT_EQ(f.pool.create(h, i), Status::Ok);
        EXPECT_EQ(h.index, static_cast<std::uint32_t>(i)); // fresh pools hand out slots in order
        handles.push_back(h);
    }
    Handle<Tracked> extra{7, 7};
    EXPECT_EQ(f.pool.create(extra, 99), Status::PoolFull);
    EXPECT_TRUE(extra.isNull());
    EXPECT_EQ(f.pool.size(), 64u);
    EXPECT_EQ(f.pool.highWater(), 64u);
    for (int i = 0; i < 64; ++i)
        EXPECT_EQ(f.pool.get(handles[static_cast<std::size_t>(i)])->value, i); // nothing lost
    EXPECT_EQ(Tracked::live, 64);
    f.pool.clear();
    EXPECT_EQ(Tracked::live, 0);
}

TEST(FixedPool, StaleAndNullHandlesAreDetectedAfterFreeAndReuse) {
    PoolFixture<FixedPool<Tracked>> f(4);
    Handle<Tracked> a, b;
    ASSERT_EQ(f.pool.create(a, 1), Status::Ok);
    ASSERT_EQ(f.pool.destroy(a), Status::Ok);
    EXPECT_EQ(f.pool.get(a), nullptr);
    EXPECT_EQ(f.pool.destroy(a), Status::StaleHandle); // double free detected
    ASSERT_EQ(f.pool.create(b, 2), Status::Ok);
    EXPECT_EQ(b.index, a.index); // slot reused...
    EXPECT_NE(b.generation, a.generation);
    EXPECT_EQ(f.pool.get(a), nullptr); // ...but the old handle stays stale
    EXPECT_EQ(f.pool.check(a), Status::StaleHandle);
    EXPECT_EQ(f.pool.get(b)->value, 2);
    EXPECT_EQ(f.pool.check(Handle<Tracked>{}), Status::NullHandle);
    EXPECT_EQ(f.pool.destroy(Handle<Tracked>{}), Status::NullHandle);
    EXPECT_EQ(f.pool.check(Handle<Tracked>{1000, 1}), Status::StaleHandle); // out of range
    EXPECT_EQ(f.pool.check(Handle<Tracked>{3, 1}), Status::StaleHandle);    // never allocated
}

TEST(FixedPool, GenerationWrapRetiresTheSlotInsteadOfAliasing) {
    PoolFixture<FixedPool<int, std::uint8_t>> f(2);
    std::vector<Handle<int>> history;
    Handle<int> h;
    // Slot 0 cycles through generations 1..255; the 255th free must retire it.
    for (int i = 0; i < 255; ++i) {
        ASSERT_EQ(f.pool.create(h, i), Status::Ok);
        ASSERT_EQ(h.index, 0u) << i;
        history.push_back(h);
        ASSERT_EQ(f.pool.destroy(h), Status::Ok);
    }
    EXPECT_EQ(f.pool.retiredSlots(), 1u);
    for (const Handle<int>& old : history) ASSERT_EQ(f.pool.get(old), nullptr);
    ASSERT_EQ(f.pool.create(h, 7), Status::Ok);
    EXPECT_EQ(h.index, 1u); // the retired slot is never handed out again
    for (const Handle<int>& old : history) EXPECT_EQ(f.pool.get(old), nullptr);
    Handle<int> none;
    EXPECT_EQ(f.pool.create(none, 8), Status::PoolFull);
}

TEST(FixedPool, HandleAtIteratesLiveSlotsInOrder) {
    PoolFixture<FixedPool<int>> f(8);
    Handle<int> h[8];
    for (int i = 0; i < 8; ++i) ASSERT_EQ(f.pool.create(h[i], i * 10), Status::Ok);
    ASSERT_EQ(f.pool.destroy(h[2]), Status::Ok);
    ASSERT_EQ(f.pool.destroy(h[5]), Status::Ok);
    std::vector<int> seen;
    for (std::uint32_t i = 0; i < f.pool.capacity(); ++i) {
        const Handle<int> live = f.pool.handleAt(i);
        if (!live.isNull()) seen.push_back(*f.pool.get(live));
    }
    EXPECT_EQ(seen, (std::vector<int>{0, 10, 30, 40, 60, 70}));
}

TEST(FixedPool, AlignmentOfOverAlignedTypesIsHonoured) {
    struct alignas(64) Cacheline {
        float v[16];
    };
    PoolFixture<FixedPool<Cacheline>> f(5);
    for (int i = 0; i < 5; ++i) {
        Handle<Cacheline> h;
        ASSERT_EQ(f.pool.create(h), Status::Ok);
        EXPECT_TRUE(isAligned(f.pool.get(h), 64));
    }
}

// Random create/destroy sequence checked against a plain model: live set, values, stale handles.
TEST(FixedPool, RandomSequenceMatchesModel) {
    const std::uint64_t seed = 0xF1A4u;
    test::SplitMix64 rng(seed);
    PoolFixture<FixedPool<std::uint64_t>> f(100);
    std::vector<std::pair<Handle<std::uint64_t>, std::uint64_t>> live;
    std::vector<Handle<std::uint64_t>> dead;
    std::uint32_t high = 0;
    for (int step = 0; step < 200000; ++step) {
        if (rng.u() < 0.55) {
            Handle<std::uint64_t> h;
            const std::uint64_t v = rng.next();
            const Status s = f.pool.create(h, v);
            if (live.size() == 100) {
                ASSERT_EQ(s, Status::PoolFull) << "seed " << seed << " step " << step;
            } else {
                ASSERT_EQ(s, Status::Ok) << "seed " << seed << " step " << step;
                live.push_back({h, v});
            }
        } else if (!live.empty()) {
            const std::size_t k = rng.next() % live.size();
            ASSERT_EQ(f.pool.destroy(live[k].first), Status::Ok);
            dead.push_back(live[k].first);
            live[k] = live.back();
            live.pop_back();
        }
        high = std::max<std::uint32_t>(high, static_cast<std::uint32_t>(live.size()));
        if (step % 997 == 0) {
            for (auto& [h, v] : live) ASSERT_EQ(*f.pool.get(h), v) << "seed " << seed;
            for (auto& h : dead) ASSERT_EQ(f.pool.get(h), nullptr) << "seed " << seed;
        }
    }
    EXPECT_EQ(f.pool.size(), live.size());
    EXPECT_EQ(f.pool.highWater(), high);
}

} // namespace
} // namespace flak
