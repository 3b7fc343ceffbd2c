// Bad input for the core room: arenas, fixed pools, handles, sizing and status names, and the
// math layer's failure answers (normalize, inverse, empty boxes). Null and
// misaligned memory, zero capacities, full pools, stale / null / out-of-range handles, impossible
// sizes and alignments: each answers its documented status or null, never crashes.
#include "bad_input.h"
#include "support/assert_recorder.h"

#include <flak/arena.h>
#include <flak/fixed_pool.h>
#include <flak/math.h>
#include <flak/memory_requirements.h>
#include <flak/status.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace flak::test {
namespace {

struct alignas(16) Block {
    unsigned char bytes[1024];
};

TEST(BadInputCore, ArenaInitAndAllocate) {
    Block block;
    Arena arena;
    EXPECT_EQ(arena.init(nullptr, 64), Status::NullMemory);
    EXPECT_EQ(arena.capacity(), 0u);
    EXPECT_EQ(arena.allocate(1), nullptr); // an arena that failed init hands out nothing
    EXPECT_EQ(arena.init(block.bytes + 1, 64), Status::Misaligned);
    EXPECT_EQ(arena.allocate(0), nullptr);
    // Zero capacity: valid, every non-empty request fails and is counted.
    ASSERT_EQ(arena.init(block.bytes, 0), Status::Ok);
    EXPECT_EQ(arena.allocate(1), nullptr);
    EXPECT_EQ(arena.failedAllocations(), 1u);
    ASSERT_EQ(arena.init(block.bytes, sizeof(block.bytes)), Status::Ok);
    EXPECT_EQ(arena.allocate(SIZE_MAX), nullptr);
    EXPECT_EQ(arena.allocate(sizeof(block.bytes) + 1), nullptr);
    EXPECT_EQ(arena.allocate(16, std::size_t{1} << 63), nullptr);  // alignment beyond any address
    EXPECT_EQ(arena.allocateArray<double>(SIZE_MAX / 4), nullptr); // byte count overflows
    {
        AssertRecorder recorder; // a non-power-of-two alignment is a programmer error: null
        EXPECT_EQ(arena.allocate(16, 24), nullptr);
    }
    EXPECT_EQ(arena.used(), 0u); // none of the refusals moved the top
    EXPECT_EQ(arena.failedAllocations(), 5u);
    EXPECT_NE(arena.allocate(0), nullptr); // zero bytes: a valid pointer to the top
}

TEST(BadInputCore, ArenaMarkers) {
    AssertRecorder recorder; // a bad marker is also reported through FLAK_ASSERT (Debug, sanitize)
    Block block;
    Arena arena;
    ASSERT_EQ(arena.init(block.bytes, sizeof(block.bytes)), Status::Ok);
    const ArenaMarker outer = arena.mark();
    ASSERT_NE(arena.allocate(100), nullptr);
    const ArenaMarker inner = arena.mark();
    ASSERT_NE(arena.allocate(100), nullptr);
    const std::size_t used = arena.used();
    EXPECT_EQ(arena.rewind(outer), Status::BadMarker); // out of LIFO order
    EXPECT_EQ(arena.used(), used);
    ArenaMarker forged;
    forged.offset = 1u << 30;
    forged.depth = 7;
    EXPECT_EQ(arena.rewind(forged), Status::BadMarker);
    EXPECT_EQ(arena.rewind(ArenaMarker{}), Status::BadMarker);
    EXPECT_EQ(arena.used(), used);
    EXPECT_EQ(arena.rewind(inner), Status::Ok);
    EXPECT_EQ(arena.rewind(inner), Status::BadMarker); // already given back
    EXPECT_EQ(arena.rewind(outer), Status::Ok);
    EXPECT_EQ(arena.used(), 0u);
    Arena empty; // never initialised
    EXPECT_EQ(empty.rewind(empty.mark()), Status::Ok);
}

TEST(BadInputCore, FixedPoolBadInit) {
    using Pool = FixedPool<std::uint64_t>;
    Block block;
    Pool pool;
    EXPECT_EQ(pool.init(nullptr, 1024, 4), Status::NullMemory);
    EXPECT_EQ(pool.capacity(), 0u);
    EXPECT_EQ(pool.init(block.bytes + 8, 1000, 4), Status::Misaligned);
    EXPECT_EQ(pool.init(block.bytes, Pool::requiredBytes(4) - 1, 4), Status::TooSmall);
    EXPECT_EQ(pool.init(block.bytes, SIZE_MAX, 0xFFFFFFFDu), Status::InvalidArgument);
    EXPECT_EQ(pool.init(block.bytes, SIZE_MAX, 0xFFFFFFFFu), Status::InvalidArgument);
    EXPECT_EQ(pool.capacity(), 0u);
    Handle<std::uint64_t> h;
    EXPECT_EQ(pool.create(h, 1u), Status::PoolFull); // a failed init is a pool of capacity 0
    EXPECT_TRUE(h.isNull());
}

TEST(BadInputCore, FixedPoolFullStaleNull) {
    using Pool = FixedPool<std::uint64_t>;
    Block block;
    Pool pool;
    // Capacity 0: every create is PoolFull.
    ASSERT_EQ(pool.init(block.bytes, sizeof(block.bytes), 0), Status::Ok);
    Handle<std::uint64_t> h{3, 3};
    EXPECT_EQ(pool.create(h, 1u), Status::PoolFull);
    EXPECT_TRUE(h.isNull());
    EXPECT_EQ(pool.check(Handle<std::uint64_t>{0, 1}), Status::StaleHandle);
    ASSERT_EQ(pool.init(block.bytes, sizeof(block.bytes), 2), Status::Ok);
    Handle<std::uint64_t> a, b, c;
    ASSERT_EQ(pool.create(a, 1u), Status::Ok);
    ASSERT_EQ(pool.create(b, 2u), Status::Ok);
    EXPECT_EQ(pool.create(c, 3u), Status::PoolFull);
    EXPECT_TRUE(c.isNull());
    EXPECT_EQ(pool.size(), 2u);
    EXPECT_EQ(*pool.get(a), 1u); // unchanged by the refused create
    EXPECT_EQ(*pool.get(b), 2u);
    // Null, stale, out-of-range and forged handles: detected, never dereferenced.
    EXPECT_EQ(pool.destroy(Handle<std::uint64_t>{}), Status::NullHandle);
    EXPECT_EQ(pool.get(Handle<std::uint64_t>{}), nullptr);
    EXPECT_EQ(pool.destroy(Handle<std::uint64_t>{0xFFFFFFFFu, 1}), Status::StaleHandle);
    EXPECT_EQ(pool.get(Handle<std::uint64_t>{0xFFFFFFFFu, 1}), nullptr);
    EXPECT_EQ(pool.destroy(Handle<std::uint64_t>{a.index, a.generation + 1}), Status::StaleHandle);
    ASSERT_EQ(pool.destroy(a), Status::Ok);
    EXPECT_EQ(pool.destroy(a), Status::StaleHandle);
    EXPECT_EQ(pool.get(a), nullptr);
    EXPECT_TRUE(pool.handleAt(a.index).isNull());
    EXPECT_TRUE(pool.handleAt(0xFFFFFFFFu).isNull());
    EXPECT_EQ(pool.size(), 1u);
    EXPECT_EQ(pool.highWater(), 2u);
    ASSERT_EQ(pool.create(c, 3u), Status::Ok);
    EXPECT_EQ(c.index, a.index);
    EXPECT_EQ(pool.get(a), nullptr); // the old handle stays stale after the slot is reused
    EXPECT_EQ(pool.highWater(), 2u);
}

TEST(BadInputCore, MemoryRequirementsAndStatusNames) {
    MemoryRequirements req;
    req.add(0);
    EXPECT_EQ(req.bytes, 0u);
    req.add(1, 0); // alignment 0 means kMinAlignment
    EXPECT_EQ(req.bytes, kMinAlignment);
    // Every status, and values outside the enum, have a non-null name.
    for (int s = 0; s <= 255; ++s) {
        const char* name = statusName(static_cast<Status>(s));
        ASSERT_NE(name, nullptr) << s;
        EXPECT_GT(std::string(name).size(), 0u) << s;
    }
    EXPECT_EQ(std::string(statusName(Status::Count)), "Unknown");
    EXPECT_EQ(std::string(statusName(static_cast<Status>(200))), "Unknown");
}

// The math layer's documented failure answers (math.h's headers): normalize and inverse refuse
// what they cannot do in float and say so.
TEST(BadInputMath, NormalizeAndInverse) {
    Vec3 out3;
    Vec2 out2;
    Quat outq;
    for (float v : {0.0f, kNaN, kInf, -kInf, 1e20f, 1e-30f, FLT_MAX}) {
        SCOPED_TRACE(v);
        set(5, 5, 5, out3);
        EXPECT_FALSE(normalize(vec3(v, 0, 0), out3));
        EXPECT_EQ(lengthSq(out3), 0.0f);
        set(5, 5, out2);
        EXPECT_FALSE(normalize(Vec2{0, v}, out2));
        EXPECT_EQ(lengthSq(out2), 0.0f);
        Quat q;
        set(v, 0, 0, 0, q);
        set(1, 2, 3, 4, outq);
        EXPECT_FALSE(normalize(q, outq));
        EXPECT_EQ(outq.w, 1.0f); // identity
        EXPECT_EQ(outq.x, 0.0f);
        Mat33 m, inv;
        set(7, 7, 7, inv.c0);
        const Mat33 before = inv;
        m.c1.y = v; // singular (0), non-finite, or a determinant that is not finite
        m.c2.z = v;
        m.c0.x = v;
        if (!(v != 0.0f) || !std::isfinite(v * v * v)) {
            EXPECT_FALSE(inverse(m, inv));
            EXPECT_EQ(std::memcmp(&inv, &before, sizeof(Mat33)), 0); // untouched
        }
    }
    // Just inside both limits, vectors still normalise.
    EXPECT_TRUE(normalize(vec3(1e19f, 0, 0), out3));
    EXPECT_EQ(out3.x, 1.0f);
    EXPECT_TRUE(normalize(vec3(0, 1e-20f, 0), out3));
    EXPECT_NEAR(out3.y, 1.0f, 1e-4f); // the squared length is denormal: fewer bits
    // Boxes: the empty box is empty, and a box of zero points is the empty box.
    Aabb empty;
    fromPoints(nullptr, 0, empty);
    EXPECT_TRUE(isEmpty(empty));
    Aabb nan_box;
    set(kNaN, 0, 0, nan_box.min);
    set(1, 1, 1, nan_box.max);
    EXPECT_TRUE(isEmpty(nan_box)); // NaN compares false: treated as empty
}

} // namespace
} // namespace flak::test
