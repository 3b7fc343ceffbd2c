// The dynamic tree between armed allocation traps: init, inserts up to capacity, moves, removes,
// every query, both pair searches and a rebuild allocate nothing (memory comes from the host).
#include "flak_support/allocation_trap.h"

#include <flak/arena.h>
#include <flak/broad/dynamic_tree.h>

#include "flak_support/split_mix.h"

#include <gtest/gtest.h>

namespace flak {
namespace {

constexpr std::uint32_t kCapacity = 512;
alignas(64) unsigned char g_tree_a[kCapacity * 112 + 64];
alignas(64) unsigned char g_tree_b[kCapacity * 112 + 64];
alignas(16) unsigned char g_scratch[kCapacity * 80 + 256];
TreePair g_pairs[4096];
ProxyId g_ids[kCapacity];

std::uint64_t workload() {
    DynamicTreeConfig config;
    config.proxy_capacity = kCapacity;
    config.margin = 0.2f;
    config.velocity_extension = 1.0f;
    if (DynamicTree::requiredBytes(config) > sizeof(g_tree_a)) return 0;
    if (DynamicTree::rebuildScratchBytes(kCapacity) > sizeof(g_scratch)) return 0;
    DynamicTree tree, level;
    if (tree.init(g_tree_a, sizeof(g_tree_a), config) != Status::Ok) return 0;
    if (level.init(g_tree_b, sizeof(g_tree_b), config) != Status::Ok) return 0;
    Arena scratch;
    if (scratch.init(g_scratch, sizeof(g_scratch)) != Status::Ok) return 0;
    test::SplitMix64 rng(0xA110C8u);
    const auto box = [&](float spread) {
        const float x = rng.rangef(0, spread), y = rng.rangef(0, spread);
        return Aabb{{x, y, 0}, {x + rng.rangef(0.5, 3), y + rng.rangef(0.5, 3), 1}};
    };
    std::uint64_t checksum = 0;
    for (std::uint32_t i = 0; i < kCapacity; ++i) {
        ProxyDesc d;
        d.box = box(100);
        if (tree.createProxy(d, g_ids[i]) != Status::Ok) return 0;
        d.box = box(100);
        ProxyId id;
        if (level.createProxy(d, id) != Status::Ok) return 0;
    }
    ProxyId extra;
    if (tree.createProxy(ProxyDesc{}, extra) != Status::PoolFull) return 0; // full: a status only
    if (level.rebuild(scratch) != Status::Ok) return 0;
    for (int frame = 0; frame < 100; ++frame) {
        for (std::uint32_t i = 0; i < kCapacity; ++i) {
            if (rng.u() < 0.3) {
                const Vec3 d{rng.rangef(-0.3, 0.3), rng.rangef(-0.3, 0.3), 0};
                ProxyDesc desc;
                if (tree.getProxy(g_ids[i], desc) != Status::Ok) return 0;
                add(desc.box.min, d, desc.box.min);
                add(desc.box.max, d, desc.box.max);
                if (tree.moveProxy(g_ids[i], desc.box, d) != Status::Ok) return 0;
            } else if (rng.u() < 0.02) {
                if (tree.destroyProxy(g_ids[i]) != Status::Ok) return 0;
                ProxyDesc d;
                d.box = box(100);
                if (tree.createProxy(d, g_ids[i]) != Status::Ok) return 0;
            }
        }
        OutBuffer<TreePair> self_pairs = OutBuffer<TreePair>::over(g_pairs, 4096);
        (void)tree.findPairs(self_pairs);
        checksum += self_pairs.count + self_pairs.dropped;
        OutBuffer<TreePair> level_pairs = OutBuffer<TreePair>::over(g_pairs, 16);
        (void)findTreePairs(level, tree, level_pairs); // overflows: counted, not grown
        checksum += level_pairs.count + level_pairs.dropped;
        checksum += tree.queryBox(
            Aabb{{10, 10, -1}, {30, 30, 1}}, ~0u, [](void*, const ProxyId&) { return true; }, nullptr);
        checksum += tree.querySphere(
            Sphere{{50, 50, 0}, 8}, ~0u, [](void*, const ProxyId&) { return true; }, nullptr);
        checksum += tree.querySegment(
            Vec3{0, 0, 0.5f}, Vec3{100, 90, 0.5f}, ~0u,
            [](void*, const ProxyId&, float t, float) { return t; }, nullptr);
    }
    if (tree.rebuild(scratch) != Status::Ok) return 0;
    TreeReport report;
    if (!tree.validate(report)) return 0;
    return checksum;
}

TEST(TreeNoAlloc, ChurnQueriesPairsAndRebuildAllocateNothing) {
    test::armAllocationTrap();
    const std::uint64_t checksum = workload();
    const std::size_t seen = test::disarmAllocationTrap();
    EXPECT_GT(checksum, 0u);
    EXPECT_EQ(seen, 0u) << "the dynamic tree allocated";
}

} // namespace
} // namespace flak
