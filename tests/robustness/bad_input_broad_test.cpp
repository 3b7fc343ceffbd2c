// Bad input for the broad phase (flak/broad): init with bad memory and configs, proxies with NaN,
// inverted and huge boxes, a full tree, null and stale ids, NaN queries and visitors that answer
// NaN, capacity-0 pair buffers, a rebuild without scratch and over boxes near FLT_MAX. Every walk
// moves by parent links and slot parity, never by a float test alone, so none can loop on NaN;
// the tree is validated after every mutation.
#include "bad_input.h"
#include "flak_support/host_block.h"

#include <flak/arena.h>
#include <flak/broad/dynamic_tree.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace flak::test {
namespace {

class TreeHost {
public:
    explicit TreeHost(const DynamicTreeConfig& config) {
        bytes = DynamicTree::requiredBytes(config);
        block.reset(bytes, DynamicTree::kAlignment);
        memory = block.data();
        status = tree.init(memory, bytes, config);
    }
    DynamicTree tree;
    flak::support::HostBlock block;
    unsigned char* memory = nullptr;
    std::size_t bytes = 0;
    Status status = Status::InvalidArgument;
};

Aabb box(float x0, float y0, float z0, float x1, float y1, float z1) {
    Aabb b;
    set(x0, y0, z0, b.min);
    set(x1, y1, z1, b.max);
    return b;
}

void expectValid(const DynamicTree& tree) {
    TreeReport report;
    EXPECT_TRUE(tree.validate(report)) << (report.what ? report.what : "") << " at " << report.node;
}

bool countVisit(void* user, const ProxyId&) {
    ++*static_cast<int*>(user);
    return true;
}
float nanClip(void* user, const ProxyId&, float, float) {
    ++*static_cast<int*>(user);
    return kNaN;
}
float infClip(void* user, const ProxyId&, float, float) {
    ++*static_cast<int*>(user);
    return kInf;
}
float keepGoing(void* user, const ProxyId&, float, float t_max) {
    ++*static_cast<int*>(user);
    return t_max;
}

TEST(BadInputBroad, InitAndSizing) {
    DynamicTreeConfig config;
    config.proxy_capacity = 0;
    EXPECT_EQ(DynamicTree::requiredBytes(config), 0u);
    config.proxy_capacity = DynamicTree::kMaxProxies + 1;
    EXPECT_EQ(DynamicTree::requiredBytes(config), 0u);
    config.proxy_capacity = 0xFFFFFFFFu;
    EXPECT_EQ(DynamicTree::requiredBytes(config), 0u);
    config.proxy_capacity = 4;
    TreeHost host(config);
    ASSERT_EQ(host.status, Status::Ok);
    DynamicTree& tree = host.tree;
    EXPECT_EQ(tree.init(nullptr, host.bytes, config), Status::NullMemory);
    EXPECT_EQ(tree.capacity(), 0u); // unusable after a failed init
    EXPECT_EQ(tree.init(host.memory + 16, host.bytes, config), Status::Misaligned);
    EXPECT_EQ(tree.init(host.memory, host.bytes - 1, config), Status::TooSmall);
    for (float bad : {kNaN, kInf, -1.0f}) {
        DynamicTreeConfig c = config;
        c.margin = bad;
        EXPECT_EQ(tree.init(host.memory, host.bytes, c), Status::InvalidArgument) << bad;
        c = config;
        c.velocity_extension = bad;
        EXPECT_EQ(tree.init(host.memory, host.bytes, c), Status::InvalidArgument) << bad;
    }
    DynamicTreeConfig zero = config;
    zero.proxy_capacity = 0;
    EXPECT_EQ(tree.init(host.memory, host.bytes, zero), Status::InvalidArgument);
    // The failed tree answers every call without touching memory.
    ProxyId id;
    ProxyDesc desc;
    desc.box = box(0, 0, 0, 1, 1, 1);
    EXPECT_EQ(tree.createProxy(desc, id), Status::PoolFull);
    EXPECT_TRUE(id.isNull());
    int visits = 0;
    EXPECT_EQ(tree.queryBox(desc.box, ~0u, countVisit, &visits), 0u);
    OutBuffer<TreePair> none;
    EXPECT_EQ(tree.findPairs(none), Status::Ok);
    TreeReport report;
    EXPECT_FALSE(tree.validate(report)); // documented: a tree without a successful init
    EXPECT_STREQ(report.what, "tree not initialised");
    // clear() does nothing and rebuild() refuses (clear wrote through a null node array).
    tree.clear();
    EXPECT_EQ(tree.capacity(), 0u);
    std::vector<unsigned char> scratch_block(256);
    Arena scratch;
    ASSERT_EQ(scratch.init(scratch_block.data() +
                               (16 - reinterpret_cast<std::uintptr_t>(scratch_block.data()) % 16) % 16,
                           128),
              Status::Ok);
    EXPECT_EQ(tree.rebuild(scratch), Status::InvalidArgument);
    DynamicTree never_initialised;
    never_initialised.clear();
    EXPECT_EQ(never_initialised.capacity(), 0u);
}

// Boxes near the ends of the float range: a fat box that would grow past them is held at
// FLT_MAX, and areas past float's range count as FLT_MAX, so every query still finds what it
// should and insertion keeps choosing by cost among ordinary boxes.
TEST(BadInputBroad, BoxesNearTheEndsOfTheFloatRange) {
    DynamicTreeConfig config;
    config.proxy_capacity = 8;
    config.velocity_extension = 1.0f;
    TreeHost host(config);
    ASSERT_EQ(host.status, Status::Ok);
    DynamicTree& tree = host.tree;
    ProxyDesc desc;
    ProxyId near_id, far_id;
    desc.box = box(0, 0, 0, 1, 1, 1);
    ASSERT_EQ(tree.createProxy(desc, near_id), Status::Ok);
    desc.box = box(10, 0, 0, 11, 1, 1);
    ASSERT_EQ(tree.createProxy(desc, far_id), Status::Ok);
    const Sphere around_near{{0.5f, 0.5f, 0.5f}, 1.0f};
    int visits = 0;
    EXPECT_EQ(tree.querySphere(around_near, ~0u, countVisit, &visits), 1u);
    // A finite jump to x = 2e38: the velocity reach takes the fat box past FLT_MAX.
    ASSERT_EQ(tree.moveProxy(far_id, box(2e38f, 0, 0, 2e38f, 1, 1), Vec3{2e38f, 0, 0}), Status::Ok);
    Aabb fat;
    ASSERT_EQ(tree.getFatBox(far_id, fat), Status::Ok);
    EXPECT_EQ(fat.max.x, FLT_MAX);
    expectValid(tree);
    EXPECT_EQ(tree.querySphere(around_near, ~0u, countVisit, &visits), 1u); // it answered 0
    EXPECT_EQ(tree.queryBox(box(0, 0, 0, 1, 1, 1), ~0u, countVisit, &visits), 1u);

    // A margin that is finite but takes a box past FLT_MAX.
    DynamicTreeConfig wide = config;
    wide.margin = 1e38f;
    TreeHost wide_host(wide);
    ASSERT_EQ(wide_host.status, Status::Ok);
    desc.box = box(0, 0, 0, 1, 1, 1);
    ASSERT_EQ(wide_host.tree.createProxy(desc, near_id), Status::Ok);
    desc.box = box(3e38f, 0, 0, 3e38f, 1, 1);
    ASSERT_EQ(wide_host.tree.createProxy(desc, far_id), Status::Ok);
    expectValid(wide_host.tree);
    EXPECT_EQ(wide_host.tree.querySphere(around_near, ~0u, countVisit, &visits), 1u);

    // One box wider than float's areas (about 1.3e19), then many ordinary ones: the insertion
    // cost still chooses among them, and rotations still run (a NaN cost made every insert go
    // next to the root, a chain, with no rotation).
    DynamicTreeConfig many;
    many.proxy_capacity = 4001;
    TreeHost many_host(many);
    ASSERT_EQ(many_host.status, Status::Ok);
    desc.box = box(-1e20f, -1e20f, -1e20f, 1e20f, 1e20f, 1e20f);
    ASSERT_EQ(many_host.tree.createProxy(desc, near_id), Status::Ok);
    std::uint32_t state = 12345u;
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(state >> 8) / 16777216.0f * 100.0f;
    };
    for (int i = 0; i < 4000; ++i) {
        const float x = next(), y = next(), z = next();
        desc.box = box(x, y, z, x + 1, y + 1, z + 1);
        ASSERT_EQ(many_host.tree.createProxy(desc, far_id), Status::Ok);
    }
    TreeReport report;
    ASSERT_TRUE(many_host.tree.validate(report)) << report.what;
    EXPECT_LE(report.height, 40u);
    EXPECT_GT(many_host.tree.rotationCount(), 0u);
    EXPECT_TRUE(std::isfinite(report.sah_cost));
}

TEST(BadInputBroad, ProxiesWithBadBoxesAndIds) {
    DynamicTreeConfig config;
    config.proxy_capacity = 3;
    config.velocity_extension = 1.0f;
    TreeHost host(config);
    ASSERT_EQ(host.status, Status::Ok);
    DynamicTree& tree = host.tree;
    ProxyDesc desc;
    ProxyId id;
    for (float v : nonFiniteValues())
        for (int k = 0; k < 3; ++k) {
            desc.box = box(0, 0, 0, 1, 1, 1);
            desc.box.min[k] = v;
            EXPECT_EQ(tree.createProxy(desc, id), Status::InvalidArgument);
            EXPECT_TRUE(id.isNull());
        }
    desc.box = box(0, 2, 0, 1, 1, 1); // inverted on y
    EXPECT_EQ(tree.createProxy(desc, id), Status::InvalidArgument);
    EXPECT_EQ(tree.proxyCount(), 0u);
    // Fill it: three proxies, the fourth is PoolFull and changes nothing.
    ProxyId ids[3];
    desc.box = box(-FLT_MAX, -FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX); // the largest finite box
    ASSERT_EQ(tree.createProxy(desc, ids[0]), Status::Ok);
    desc.box = box(0, 0, 0, 0, 0, 0); // a point box
    ASSERT_EQ(tree.createProxy(desc, ids[1]), Status::Ok);
    desc.box = box(1e30f, 1e30f, 1e30f, 2e30f, 2e30f, 2e30f);
    ASSERT_EQ(tree.createProxy(desc, ids[2]), Status::Ok);
    expectValid(tree);
    EXPECT_EQ(tree.createProxy(desc, id), Status::PoolFull);
    EXPECT_TRUE(id.isNull());
    EXPECT_EQ(tree.proxyCount(), 3u);
    // Moves with bad boxes or displacements: InvalidArgument, nothing changes.
    Aabb fat_before;
    ASSERT_EQ(tree.getFatBox(ids[1], fat_before), Status::Ok);
    for (float v : nonFiniteValues()) {
        Aabb bad = box(0, 0, 0, 1, 1, 1);
        bad.max.z = v;
        EXPECT_EQ(tree.moveProxy(ids[1], bad, vec3(0, 0, 0)), Status::InvalidArgument);
        EXPECT_EQ(tree.moveProxy(ids[1], box(0, 0, 0, 1, 1, 1), vec3(v, 0, 0)), Status::InvalidArgument);
    }
    Aabb fat_after;
    ASSERT_EQ(tree.getFatBox(ids[1], fat_after), Status::Ok);
    EXPECT_EQ(std::memcmp(&fat_before, &fat_after, sizeof(Aabb)), 0);
    // Huge moves: the velocity extension may make a fat box infinite; the tree stays valid.
    EXPECT_EQ(tree.moveProxy(ids[1], box(FLT_MAX, 0, 0, FLT_MAX, 1, 1), vec3(FLT_MAX, -FLT_MAX, 0)),
              Status::Ok);
    expectValid(tree);
    EXPECT_EQ(tree.moveProxy(ids[2], box(-1e30f, 0, 0, 1e30f, 0, 0), vec3(-1e30f, 0, 0)), Status::Ok);
    expectValid(tree);
    // Null and stale ids: NullHandle / StaleHandle on every call, nothing changes.
    ASSERT_EQ(tree.destroyProxy(ids[0]), Status::Ok);
    const ProxyId stale = ids[0];
    ProxyDesc out;
    Aabb fat;
    for (const ProxyId& bad : {ProxyId{}, stale, ProxyId{0xFFFFFFFFu, 1}, ProxyId{2, 0xFFFFFFFFu}}) {
        const Status want = bad.isNull() ? Status::NullHandle : Status::StaleHandle;
        EXPECT_EQ(tree.destroyProxy(bad), want);
        EXPECT_EQ(tree.moveProxy(bad, box(0, 0, 0, 1, 1, 1), vec3(0, 0, 0)), want);
        EXPECT_EQ(tree.setProxyFilter(bad, 1, 1), want);
        EXPECT_EQ(tree.getProxy(bad, out), want);
        EXPECT_EQ(tree.getFatBox(bad, fat), want);
    }
    EXPECT_EQ(tree.proxyCount(), 2u);
    expectValid(tree);
    tree.clear();
    EXPECT_EQ(tree.getProxy(ids[1], out), Status::StaleHandle);
    expectValid(tree);
}

TEST(BadInputBroad, QueriesWithBadInput) {
    DynamicTreeConfig config;
    config.proxy_capacity = 16;
    TreeHost host(config);
    ASSERT_EQ(host.status, Status::Ok);
    DynamicTree& tree = host.tree;
    for (int i = 0; i < 16; ++i) {
        ProxyDesc desc;
        const float x = static_cast<float>(i) * 2.0f;
        desc.box = box(x, 0, 0, x + 1, 1, 1);
        ProxyId id;
        ASSERT_EQ(tree.createProxy(desc, id), Status::Ok);
    }
    int visits = 0;
    const Aabb all = box(-1, -1, -1, 100, 2, 2);
    ASSERT_EQ(tree.queryBox(all, ~0u, countVisit, &visits), 16u);
    for (float v : nonFiniteValues()) {
        SCOPED_TRACE(v);
        Aabb bad = all;
        bad.min.x = v;
        visits = 0;
        if (std::isnan(v)) {
            EXPECT_EQ(tree.queryBox(bad, ~0u, countVisit, &visits), 0u);
        } else {
            (void)tree.queryBox(bad, ~0u, countVisit, &visits); // an infinite box is a box
            visits = 0;
        }
        Sphere s;
        set(5, 0.5f, 0.5f, s.center);
        s.radius = v;
        EXPECT_EQ(tree.querySphere(s, ~0u, countVisit, &visits), 0u);
        s.radius = 100;
        s.center.y = v;
        EXPECT_EQ(tree.querySphere(s, ~0u, countVisit, &visits), 0u);
        EXPECT_EQ(tree.querySegment(vec3(v, 0.5f, 0.5f), vec3(40, 0.5f, 0.5f), ~0u, keepGoing, &visits), 0u);
        EXPECT_EQ(tree.querySegment(vec3(-1, 0.5f, 0.5f), vec3(40, v, 0.5f), ~0u, keepGoing, &visits), 0u);
        EXPECT_EQ(visits, 0);
    }
    Sphere neg;
    neg.radius = -1;
    EXPECT_EQ(tree.querySphere(neg, ~0u, countVisit, &visits), 0u);
    EXPECT_EQ(tree.queryBox(box(5, 0, 0, 4, 1, 1), ~0u, countVisit, &visits), 0u); // inverted
    // A segment visitor that answers NaN or +Inf instead of a clip: the query still ends (each
    // proxy is visited at most once) and never visits more than every proxy.
    visits = 0;
    EXPECT_LE(tree.querySegment(vec3(-1, 0.5f, 0.5f), vec3(40, 0.5f, 0.5f), ~0u, nanClip, &visits), 16u);
    EXPECT_LE(visits, 16);
    visits = 0;
    EXPECT_LE(tree.querySegment(vec3(-1, 0.5f, 0.5f), vec3(40, 0.5f, 0.5f), ~0u, infClip, &visits), 16u);
    EXPECT_LE(visits, 16);
    // Zero-length segment: a point query.
    visits = 0;
    EXPECT_EQ(tree.querySegment(vec3(0.5f, 0.5f, 0.5f), vec3(0.5f, 0.5f, 0.5f), ~0u, keepGoing, &visits), 1u);
    // Huge queries: every proxy once.
    visits = 0;
    EXPECT_EQ(
        tree.queryBox(box(-FLT_MAX, -FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX), ~0u, countVisit, &visits),
        16u);
    Sphere big;
    big.radius = FLT_MAX;
    EXPECT_LE(tree.querySphere(big, ~0u, countVisit, &visits), 16u);
    EXPECT_LE(tree.querySegment(vec3(-1e30f, 0.5f, 0.5f), vec3(1e30f, 0.5f, 0.5f), ~0u, keepGoing, &visits),
              16u);
    (void)tree.querySegment(vec3(-FLT_MAX, 0.5f, 0.5f), vec3(FLT_MAX, 0.5f, 0.5f), ~0u, keepGoing, &visits);
}

TEST(BadInputBroad, PairSearchesAndRebuild) {
    DynamicTreeConfig config;
    config.proxy_capacity = 8;
    TreeHost host(config), other(config);
    ASSERT_EQ(host.status, Status::Ok);
    DynamicTree& tree = host.tree;
    // Overlapping proxies, some near FLT_MAX (their centroid sums overflow to infinity).
    const Aabb boxes[6] = {box(0, 0, 0, 2, 2, 2),
                           box(1, 1, 1, 3, 3, 3),
                           box(2e38f, 0, 0, 3e38f, 1, 1),
                           box(2.5e38f, 0, 0, FLT_MAX, 1, 1),
                           box(-FLT_MAX, 0, 0, -3e38f, 1, 1),
                           box(-1, -1, -1, 1, 1, 1)};
    for (const Aabb& b : boxes) {
        ProxyDesc desc;
        desc.box = b;
        ProxyId id;
        ASSERT_EQ(tree.createProxy(desc, id), Status::Ok);
        ASSERT_EQ(other.tree.createProxy(desc, id), Status::Ok);
    }
    OutBuffer<TreePair> none;
    EXPECT_EQ(tree.findPairs(none), Status::BufferFull); // capacity 0, null buffer
    EXPECT_EQ(none.count, 0u);
    EXPECT_GT(none.dropped, 0u);
    const std::uint32_t self_pairs = none.dropped;
    TreePair one[1];
    OutBuffer<TreePair> one_pair = OutBuffer<TreePair>::over(one, 1);
    EXPECT_EQ(tree.findPairs(one_pair), Status::BufferFull);
    EXPECT_EQ(one_pair.count, 1u);
    OutBuffer<TreePair> other_pairs;
    EXPECT_EQ(findTreePairs(tree, tree, other_pairs), Status::InvalidArgument);
    EXPECT_EQ(findTreePairs(tree, other.tree, other_pairs), Status::BufferFull);
    EXPECT_EQ(other_pairs.count, 0u);
    // Rebuild: without scratch, OutOfMemory and unchanged; with scratch, valid over the huge boxes.
    std::vector<unsigned char> scratch_bytes(DynamicTree::rebuildScratchBytes(tree.capacity()) + 64);
    void* aligned =
        scratch_bytes.data() + ((16 - reinterpret_cast<std::uintptr_t>(scratch_bytes.data()) % 16) % 16);
    Arena small;
    ASSERT_EQ(small.init(aligned, 16), Status::Ok);
    EXPECT_EQ(tree.rebuild(small), Status::OutOfMemory);
    expectValid(tree);
    Arena scratch;
    ASSERT_EQ(scratch.init(aligned, DynamicTree::rebuildScratchBytes(tree.capacity())), Status::Ok);
    EXPECT_EQ(tree.rebuild(scratch), Status::Ok);
    expectValid(tree);
    OutBuffer<TreePair> after;
    EXPECT_EQ(tree.findPairs(after), Status::BufferFull);
    EXPECT_EQ(after.dropped, self_pairs); // a rebuild changes the tree's shape, not its pairs
    Arena never;                          // an arena that was never initialised: OutOfMemory
    EXPECT_EQ(tree.rebuild(never), Status::OutOfMemory);
}

} // namespace
} // namespace flak::test
