#include <flak/arena.h>

#include "support/assert_recorder.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace flak {
namespace {

alignas(64) unsigned char g_block[4096];

TEST(Arena, RejectsNullAndMisalignedMemory) {
    Arena arena;
    EXPECT_EQ(arena.init(nullptr, 64), Status::NullMemory);
    EXPECT_EQ(arena.init(g_block + 4, 64), Status::Misaligned);
    EXPECT_EQ(arena.capacity(), 0u);
    EXPECT_EQ(arena.allocate(1), nullptr);
}

TEST(Arena, HonoursDefaultAndRequestedAlignment) {
    Arena arena;
    ASSERT_EQ(arena.init(g_block, sizeof(g_block)), Status::Ok);
    void* a = arena.allocate(3);
    void* b = arena.allocate(1);
    void* c = arena.allocate(8, 64);
    void* d = arena.allocate(1, 256);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_NE(c, nullptr);
    ASSERT_NE(d, nullptr);
    EXPECT_TRUE(isAligned(a, 16));
    EXPECT_TRUE(isAligned(b, 16));
    EXPECT_TRUE(isAligned(c, 64));
    EXPECT_TRUE(isAligned(d, 256));
    EXPECT_GE(static_cast<unsigned char*>(b) - static_cast<unsigned char*>(a), 16);
}

TEST(Arena, RejectsNonPowerOfTwoAlignmentWithAssertAndNull) {
    test::AssertRecorder recorder;
    Arena arena;
    ASSERT_EQ(arena.init(g_block, sizeof(g_block)), Status::Ok);
    EXPECT_EQ(arena.allocate(8, 24), nullptr);
    EXPECT_EQ(arena.failedAllocations(), 1u);
    EXPECT_EQ(arena.used(), 0u);
#if defined(FLAK_ENABLE_ASSERTS)
    EXPECT_EQ(recorder.count(), 1);
#endif
}

TEST(Arena, ExhaustionReturnsNullAndKeepsState) {
    Arena arena;
    ASSERT_EQ(arena.init(g_block, 256), Status::Ok);
    ASSERT_NE(arena.allocate(200), nullptr);
    const std::size_t used = arena.used();
    EXPECT_EQ(arena.allocate(100), nullptr);
    EXPECT_EQ(arena.used(), used);
    EXPECT_EQ(arena.failedAllocations(), 1u);
    EXPECT_NE(arena.allocate(48), nullptr); // what is left still serves
    EXPECT_EQ(arena.allocate(1), nullptr);
    EXPECT_EQ(arena.failedAllocations(), 2u);
}

TEST(Arena, HugeRequestsDoNotOverflow) {
    Arena arena;
    ASSERT_EQ(arena.init(g_block, 256), Status::Ok);
    EXPECT_EQ(arena.allocate(SIZE_MAX), nullptr);
    EXPECT_EQ(arena.allocate(SIZE_MAX - 8), nullptr);
    EXPECT_EQ(arena.allocateArray<std::uint64_t>(SIZE_MAX / 4), nullptr);
    EXPECT_EQ(arena.used(), 0u);
}

TEST(Arena, MarkersRewindInLifoOrder) {
    test::AssertRecorder recorder;
    Arena arena;
    ASSERT_EQ(arena.init(g_block, sizeof(g_block)), Status::Ok);
    arena.allocate(32);
    const ArenaMarker outer = arena.mark();
    arena.allocate(64);
    const ArenaMarker inner = arena.mark();
    void* p = arena.allocate(128);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(arena.rewind(outer), Status::BadMarker); // inner is still outstanding
    EXPECT_EQ(arena.rewind(inner), Status::Ok);
    EXPECT_EQ(arena.used(), 32u + 64u);
    EXPECT_EQ(arena.allocate(128), p);                 // same space reused
    EXPECT_EQ(arena.rewind(inner), Status::BadMarker); // already rewound
    EXPECT_EQ(arena.rewind(outer), Status::Ok);
    EXPECT_EQ(arena.used(), 32u);
    EXPECT_EQ(arena.rewind(ArenaMarker{}), Status::BadMarker);
#if defined(FLAK_ENABLE_ASSERTS)
    EXPECT_EQ(recorder.count(), 3);
#endif
}

TEST(Arena, HighWaterSurvivesRewindAndReset) {
    Arena arena;
    ASSERT_EQ(arena.init(g_block, sizeof(g_block)), Status::Ok);
    const ArenaMarker m = arena.mark();
    arena.allocate(1000);
    EXPECT_EQ(arena.rewind(m), Status::Ok);
    arena.allocate(100);
    arena.reset();
    EXPECT_EQ(arena.used(), 0u);
    EXPECT_EQ(arena.highWater(), 1008u);
}

TEST(Arena, TypedArraysAreAlignedForTheirType) {
    struct alignas(32) Wide {
        float v[8];
    };
    Arena arena;
    ASSERT_EQ(arena.init(g_block, sizeof(g_block)), Status::Ok);
    arena.allocate(1);
    Wide* w = arena.allocateArray<Wide>(3);
    ASSERT_NE(w, nullptr);
    EXPECT_TRUE(isAligned(w, 32));
}

} // namespace
} // namespace flak
