// Runs a runtime workload (pools, arenas, math) between armed allocation traps: zero allocations.
#include "flak_support/allocation_trap.h"

#include <flak/core.h>
#include <flak/math.h>

#include "flak_support/split_mix.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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

#if defined(__GLIBC__)
// Each form of the malloc family counts once, and operator new once (not again in the malloc
// beneath it): a driver's aligned buffers are seen like its plain ones.
TEST(NoAlloc, TrapCountsEveryFormOnce) {
    if (!test::mallocIsTrapped()) GTEST_SKIP() << "the malloc family is not interposed in this build";
    struct Form {
        const char* name;
        void* (*make)();
    };
    const Form forms[] = {
        {"operator new", [] { return ::operator new(24); }},
        {"aligned operator new", [] { return ::operator new (24, std::align_val_t{64}); }},
        {"malloc", [] { return std::malloc(24); }},
        {"calloc", [] { return std::calloc(3, 8); }},
        {"realloc", [] { return std::realloc(nullptr, 24); }},
        {"reallocarray", [] { return reallocarray(nullptr, 3, 8); }},
        {"memalign", [] { return memalign(64, 24); }},
        {"aligned_alloc", [] { return aligned_alloc(64, 64); }},
        {"posix_memalign",
         [] {
             void* p = nullptr;
             return posix_memalign(&p, 64, 24) == 0 ? p : nullptr;
         }},
        {"valloc", [] { return valloc(24); }},
        {"pvalloc", [] { return pvalloc(24); }},
    };
    for (const Form& form : forms) {
        test::armAllocationTrap();
        void* volatile p = form.make();
        const std::size_t seen = test::disarmAllocationTrap();
        EXPECT_NE(p, nullptr) << form.name;
        EXPECT_EQ(seen, 1u) << form.name;
        if (form.make == forms[0].make) {
            ::operator delete(p);
        } else if (form.make == forms[1].make) {
            ::operator delete (p, std::align_val_t{64});
        } else {
            std::free(p);
        }
    }
    // Refusals hand out nothing and count nothing.
    test::armAllocationTrap();
    void* p = nullptr;
    EXPECT_EQ(posix_memalign(&p, 3, 24), EINVAL);
    volatile std::size_t huge = SIZE_MAX / 2; // volatile: the compiler would flag the product
    EXPECT_EQ(reallocarray(nullptr, huge, 4), nullptr);
    EXPECT_EQ(test::disarmAllocationTrap(), 0u);
}
#endif

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
