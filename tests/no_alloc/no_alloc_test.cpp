// Runs a runtime workload (pools, arenas, math) between armed allocation traps: zero allocations.
#include "flak_support/allocation_trap.h"

#include <flak/core.h>
#include <flak/math.h>

#include "flak_support/split_mix.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace flak {
namespace {

struct Body {
    Transform transform;
    Aabb bounds;
    int id;
};

alignas(64) unsigned char g_block[1 << 20];

float workload() {
    MemoryRequirements req;
    req.add(FixedPool<Body>::requiredBytes(1000), FixedPool<Body>::kAlignment);
    req.add(Arena::requiredBytes(64 * 1024));
    if (req.bytes > sizeof(g_block)) return -1.0f;

    Arena root;
    if (root.init(g_block, sizeof(g_block)) != Status::Ok) return -1.0f;
    FixedPool<Body> pool;
    if (pool.init(root.allocate(FixedPool<Body>::requiredBytes(1000), FixedPool<Body>::kAlignment),
                  FixedPool<Body>::requiredBytes(1000), 1000) != Status::Ok)
        return -1.0f;
    Arena scratch;
    if (scratch.init(root.allocate(64 * 1024), 64 * 1024) != Status::Ok) return -1.0f;

    test::SplitMix64 rng(0x0A110Cu);
    Handle<Body> handles[1000];
    float checksum = 0.0f;
    for (int frame = 0; frame < 200; ++frame) {
        const ArenaMarker frame_start = scratch.mark();
        for (int i = 0; i < 1000; ++i) {
            if (pool.get(handles[i]) == nullptr || rng.u() < 0.1) {
                (void)pool.destroy(handles[i]);
                if (pool.create(handles[i]) != Status::Ok) return -1.0f;
                Body* b = pool.get(handles[i]);
                Quat q;
                fromAxisAngle(Vec3{0.0f, 0.0f, 1.0f}, rng.rangef(0, 6.28), q);
                fromQuatTranslation(q, Vec3{rng.rangef(-10, 10), rng.rangef(-10, 10), 0.0f}, b->transform);
                b->id = i;
            }
        }
        Vec3* points = scratch.allocateArray<Vec3>(1000);
        for (int i = 0; i < 1000; ++i) {
            Body* b = pool.get(handles[i]);
            transformAabb(b->transform, Aabb{{-1, -1, -1}, {1, 1, 1}}, b->bounds);
            center(b->bounds, points[i]);
        }
        transformPoints(pool.get(handles[0])->transform, points, 1000, points);
        Aabb all;
        fromPoints(points, 1000, all);
        checksum += surfaceArea(all);
        if (scratch.rewind(frame_start) != Status::Ok) return -1.0f;
    }
    (void)pool.create(handles[0]); // full pool: a status, not an allocation
    pool.clear();
    return checksum;
}

TEST(NoAlloc, TrapCountsAllocationsWhenArmed) {
    // Direct calls: a new-expression may legally be elided by the optimiser, these may not.
    test::armAllocationTrap();
    void* p = ::operator new(16);
    ::operator delete(p);
    EXPECT_GE(test::disarmAllocationTrap(), 1u);
    if (test::mallocIsTrapped()) {
        test::armAllocationTrap();
        void* volatile m = std::malloc(16);
        std::free(m);
        EXPECT_EQ(test::disarmAllocationTrap(), 1u);
    }
}

TEST(NoAlloc, RuntimeWorkloadAllocatesNothing) {
    test::armAllocationTrap();
    const float checksum = workload();
    const std::size_t seen = test::disarmAllocationTrap();
    EXPECT_GT(checksum, 0.0f);
    EXPECT_EQ(seen, 0u) << "the runtime allocated during pools/arenas/math work";
    RecordProperty("malloc_trapped", test::mallocIsTrapped() ? 1 : 0);
}

} // namespace
} // namespace flak
