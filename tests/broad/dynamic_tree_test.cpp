// Dynamic tree basics: sizing and init refusals, ids and stale ids, capacity, fat boxes and moves.
#include "broad/tree_harness.h"

#include "support/assert_recorder.h"

#include <flak/arena.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace flak {
namespace {

using test::broad::TreeHarness;

ProxyDesc boxDesc(float x, float y, float half, std::uint64_t user = 0) {
    ProxyDesc d;
    d.box.min = Vec3{x - half, y - half, 0.0f};
    d.box.max = Vec3{x + half, y + half, 0.0f};
    d.user_value = user;
    return d;
}

TEST(DynamicTree, NodeIsThirtyTwoBytes) {
    EXPECT_EQ(sizeof(TreeNode), 32u);
    EXPECT_EQ(sizeof(TreeProxy), 16u);
    DynamicTreeConfig config;
    config.proxy_capacity = 1000;
    // 2 node slots (64 bytes) + a 16-byte record + a 24-byte fat box + an 8-byte user value.
    EXPECT_EQ(DynamicTree::requiredBytes(config), 1000u * 112u);
}

TEST(DynamicTree, InitRefusals) {
    alignas(64) static unsigned char block[64 * 1024];
    DynamicTree tree;
    DynamicTreeConfig config;
    config.proxy_capacity = 100;
    const std::size_t need = DynamicTree::requiredBytes(config);
    EXPECT_EQ(tree.init(nullptr, need, config), Status::NullMemory);
    EXPECT_EQ(tree.init(block + 16, need, config), Status::Misaligned);
    EXPECT_EQ(tree.init(block, need - 1, config), Status::TooSmall);
    DynamicTreeConfig bad = config;
    bad.proxy_capacity = 0;
    EXPECT_EQ(tree.init(block, need, bad), Status::InvalidArgument);
    EXPECT_EQ(DynamicTree::requiredBytes(bad), 0u);
    bad = config;
    bad.margin = -1.0f;
    EXPECT_EQ(tree.init(block, need, bad), Status::InvalidArgument);
    bad = config;
    bad.velocity_extension = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(tree.init(block, need, bad), Status::InvalidArgument);
    EXPECT_EQ(tree.capacity(), 0u);
    ProxyId id;
    EXPECT_EQ(tree.createProxy(boxDesc(0, 0, 1), id), Status::PoolFull); // unusable until init works
    EXPECT_EQ(tree.init(block, need, config), Status::Ok);
    EXPECT_EQ(tree.capacity(), 100u);
    EXPECT_EQ(tree.createProxy(boxDesc(0, 0, 1), id), Status::Ok);
}

TEST(DynamicTree, IdsAreCheckedAndGoStale) {
    TreeHarness h(8);
    ASSERT_EQ(h.status, Status::Ok);
    ProxyId a, b;
    ASSERT_EQ(h.create(boxDesc(0, 0, 1, 42), a), Status::Ok);
    ASSERT_EQ(h.create(boxDesc(5, 0, 1, 43), b), Status::Ok);
    EXPECT_EQ(a.index, 0u); // fresh trees hand out 0, 1, 2, ...
    EXPECT_EQ(b.index, 1u);
    ProxyDesc out;
    ASSERT_EQ(h.tree.getProxy(a, out), Status::Ok);
    EXPECT_EQ(out.user_value, 42u);
    Aabb fat;
    ASSERT_EQ(h.tree.getFatBox(a, fat), Status::Ok);
    EXPECT_FLOAT_EQ(fat.min.x, -1.1f);
    EXPECT_FLOAT_EQ(fat.max.z, 0.1f);
    EXPECT_EQ(h.destroy(a), Status::Ok);
    EXPECT_EQ(h.tree.destroyProxy(a), Status::StaleHandle);
    EXPECT_EQ(h.tree.moveProxy(a, out.box, Vec3{}), Status::StaleHandle);
    EXPECT_EQ(h.tree.getProxy(a, out), Status::StaleHandle);
    EXPECT_EQ(h.tree.setProxyFilter(a, 1, 1), Status::StaleHandle);
    EXPECT_EQ(h.tree.destroyProxy(ProxyId{}), Status::NullHandle);
    EXPECT_EQ(h.tree.getFatBox(ProxyId{99, 1}, fat), Status::StaleHandle);
    ProxyId c;
    ASSERT_EQ(h.create(boxDesc(9, 0, 1), c), Status::Ok);
    EXPECT_EQ(c.index, a.index);           // slot reused ...
    EXPECT_NE(c.generation, a.generation); // ... with a new generation
    h.check("after reuse");
    h.tree.clear();
    h.live.clear();
    EXPECT_EQ(h.tree.proxyCount(), 0u);
    EXPECT_EQ(h.tree.getProxy(b, out), Status::StaleHandle);
    h.check("after clear");
}

// A tree initialised again (a level reset) hands out ids that no id from before matches, in the
// same block or another: an old id is stale, never an alias of a new proxy. Before, init() set
// every generation back to 1, so the first new proxy got the first old one's id, and moving or
// destroying through the old id moved or destroyed the new proxy.
TEST(DynamicTree, IdsFromBeforeAnInitGoStale) {
    alignas(64) static unsigned char blocks[2][16 * 1024];
    DynamicTree tree;
    DynamicTreeConfig config;
    config.proxy_capacity = 4;
    const std::size_t need = DynamicTree::requiredBytes(config);
    ASSERT_LE(need, sizeof blocks[0]);
    ASSERT_EQ(tree.init(blocks[0], need, config), Status::Ok);
    std::vector<ProxyId> old(4);
    for (std::uint32_t i = 0; i < 4; ++i)
        ASSERT_EQ(tree.createProxy(boxDesc(float(i), 0, 1, 100 + i), old[i]), Status::Ok);
    EXPECT_EQ(old[0].generation, 1u); // a fresh tree starts at 1 (ids repeat from run to run)
    ASSERT_EQ(tree.destroyProxy(old[3]), Status::Ok);
    ProxyId again;
    ASSERT_EQ(tree.createProxy(boxDesc(3, 0, 1, 103), again), Status::Ok); // generation 2 in slot 3
    old.push_back(again);
    for (unsigned char* block : {blocks[0], blocks[1], blocks[0]}) {
        ASSERT_EQ(tree.init(block, need, config), Status::Ok);
        std::vector<ProxyId> fresh(4);
        for (std::uint32_t i = 0; i < 4; ++i)
            ASSERT_EQ(tree.createProxy(boxDesc(float(i), 5, 1, 200 + i), fresh[i]), Status::Ok);
        ProxyDesc out;
        for (const ProxyId& id : old) {
            for (const ProxyId& now : fresh) EXPECT_NE(id, now);
            EXPECT_EQ(tree.getProxy(id, out), Status::StaleHandle);
            EXPECT_EQ(tree.moveProxy(id, boxDesc(0, 9, 1).box, Vec3{}), Status::StaleHandle);
            EXPECT_EQ(tree.destroyProxy(id), Status::StaleHandle);
        }
        EXPECT_EQ(tree.proxyCount(), 4u);
        for (const ProxyId& now : fresh) ASSERT_EQ(tree.getProxy(now, out), Status::Ok);
        old.insert(old.end(), fresh.begin(), fresh.end());
    }
    TreeReport report;
    EXPECT_TRUE(tree.validate(report));
}

// Near the top of the generation range an init starts again from 1, so every slot keeps room to
// be reused: going on from the highest generation handed out would retire every slot within a
// few reuses. Below it, generations go on as above. A slot's record is set by hand to stand in
// for 2^31 reuses (the block's layout is public: the node slots, then the records).
TEST(DynamicTree, InitNearTheTopOfTheGenerationsLeavesRoom) {
    alignas(64) static unsigned char block[16 * 1024];
    DynamicTreeConfig config;
    config.proxy_capacity = 4;
    const std::size_t need = DynamicTree::requiredBytes(config);
    ASSERT_LE(need, sizeof block);
    TreeProxy* records = reinterpret_cast<TreeProxy*>(block + 2 * sizeof(TreeNode) * config.proxy_capacity);
    for (const std::uint32_t churned : {0x7FFFFFF0u, 0xFFFFFFF0u}) {
        SCOPED_TRACE(churned);
        DynamicTree tree;
        ASSERT_EQ(tree.init(block, need, config), Status::Ok);
        records[0].generation = churned;
        ProxyId old;
        ASSERT_EQ(tree.createProxy(boxDesc(0, 0, 1), old), Status::Ok);
        ASSERT_EQ(old.generation, churned);
        ASSERT_EQ(tree.init(block, need, config), Status::Ok);
        ProxyId now;
        ASSERT_EQ(tree.createProxy(boxDesc(0, 0, 1), now), Status::Ok);
        EXPECT_EQ(now.generation, churned < 0x80000000u ? churned + 1u : 1u);
        EXPECT_NE(now, old);
        ASSERT_EQ(tree.destroyProxy(now), Status::Ok);
        for (int cycle = 0; cycle < 100; ++cycle) { // every slot goes on being reused
            ProxyId ids[4];
            for (ProxyId& id : ids) ASSERT_EQ(tree.createProxy(boxDesc(0, 0, 1), id), Status::Ok) << cycle;
            for (ProxyId& id : ids) ASSERT_EQ(tree.destroyProxy(id), Status::Ok);
        }
        EXPECT_EQ(tree.retiredProxies(), 0u);
    }
}

TEST(DynamicTree, RefusesBadBoxes) {
    TreeHarness h(4);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    ProxyId id;
    ProxyDesc d = boxDesc(0, 0, 1);
    d.box.min.x = nan;
    EXPECT_EQ(h.create(d, id), Status::InvalidArgument);
    EXPECT_TRUE(id.isNull());
    d = boxDesc(0, 0, 1);
    d.box.max.y = inf;
    EXPECT_EQ(h.create(d, id), Status::InvalidArgument);
    d = boxDesc(0, 0, 1);
    std::swap(d.box.min.x, d.box.max.x); // inverted
    EXPECT_EQ(h.create(d, id), Status::InvalidArgument);
    ASSERT_EQ(h.create(boxDesc(0, 0, 1), id), Status::Ok);
    Aabb bad = boxDesc(0, 0, 1).box;
    bad.min.z = nan;
    EXPECT_EQ(h.tree.moveProxy(id, bad, Vec3{}), Status::InvalidArgument);
    EXPECT_EQ(h.tree.moveProxy(id, boxDesc(0, 0, 1).box, Vec3{nan, 0, 0}), Status::InvalidArgument);
    EXPECT_EQ(h.tree.proxyCount(), 1u);
    h.check("after refusals");
}

// At capacity nothing grows and nothing in the tree is lost: every query still answers exactly.
TEST(DynamicTree, AtCapacityInsertFailsAndNothingIsLost) {
    const std::uint32_t capacity = 257;
    TreeHarness h(capacity);
    test::SplitMix64 rng(0xCA9AC17Eu);
    for (std::uint32_t i = 0; i < capacity; ++i) {
        ProxyDesc d;
        d.box = test::broad::randomBox(rng, 0, 100, 0.5f, 4.0f);
        ProxyId id;
        ASSERT_EQ(h.create(d, id), Status::Ok) << i;
    }
    const auto pairs_before = h.treePairs();
    for (int attempt = 0; attempt < 3; ++attempt) {
        ProxyId id{7, 7};
        EXPECT_EQ(h.create(boxDesc(1, 1, 1), id), Status::PoolFull);
        EXPECT_TRUE(id.isNull());
    }
    EXPECT_EQ(h.tree.proxyCount(), capacity);
    const TreeReport report = h.check("full tree");
    EXPECT_EQ(report.free_pairs, 0u);
    EXPECT_EQ(h.treePairs(), pairs_before);
    EXPECT_EQ(h.treePairs(), h.brutePairs());
    const Aabb all{{-10, -10, -10}, {110, 110, 110}};
    EXPECT_EQ(h.treeBox(all, ~0u).size(), capacity);
    // Moving out of fat boxes reuses the proxy's own nodes: never fails at capacity.
    for (const ProxyId& id : h.ids()) {
        ProxyDesc d;
        ASSERT_EQ(h.tree.getProxy(id, d), Status::Ok);
        Aabb moved = d.box;
        moved.min.x += 30.0f;
        moved.max.x += 30.0f;
        ASSERT_EQ(h.move(id, moved, Vec3{30, 0, 0}), Status::Ok);
    }
    h.check("full tree after moves");
    EXPECT_EQ(h.treePairs(), h.brutePairs());
}

TEST(DynamicTree, SmallMovesStayInTheFatBox) {
    TreeHarness h(16, 0.5f);
    ProxyId id;
    ASSERT_EQ(h.create(boxDesc(0, 0, 1), id), Status::Ok);
    ProxyId other;
    ASSERT_EQ(h.create(boxDesc(10, 0, 1), other), Status::Ok);
    const std::uint64_t reinserts = h.tree.reinsertCount();
    ASSERT_EQ(h.move(id, boxDesc(0.4f, 0, 1).box, Vec3{0.4f, 0, 0}), Status::Ok);
    EXPECT_EQ(h.tree.reinsertCount(), reinserts); // still inside [-1.5, 1.5]
    ProxyDesc d;
    ASSERT_EQ(h.tree.getProxy(id, d), Status::Ok);
    EXPECT_FLOAT_EQ(d.box.min.x, -0.6f); // the tight box is what queries see
    EXPECT_EQ(h.treeBox(Aabb{{-1.55f, -1, -1}, {-1.5f, 1, 1}}, ~0u).size(), 0u);
    ASSERT_EQ(h.move(id, boxDesc(0.6f, 0, 1).box, Vec3{0.2f, 0, 0}), Status::Ok);
    EXPECT_EQ(h.tree.reinsertCount(), reinserts + 1); // left the fat box
    Aabb fat;
    ASSERT_EQ(h.tree.getFatBox(id, fat), Status::Ok);
    EXPECT_FLOAT_EQ(fat.max.x, 2.1f);
    h.check("after moves");
}

TEST(DynamicTree, VelocityExtensionReachesAheadAndShrinksAfterStop) {
    TreeHarness h(4, 0.1f, 2.0f);
    ProxyId id;
    ASSERT_EQ(h.create(boxDesc(0, 0, 1), id), Status::Ok);
    ASSERT_EQ(h.move(id, boxDesc(5, 0, 1).box, Vec3{5, 0, 0}), Status::Ok);
    Aabb fat;
    ASSERT_EQ(h.tree.getFatBox(id, fat), Status::Ok);
    EXPECT_FLOAT_EQ(fat.max.x, 6.0f + 0.1f + 10.0f); // two displacements ahead
    EXPECT_FLOAT_EQ(fat.min.x, 4.0f - 0.1f);
    const std::uint64_t reinserts = h.tree.reinsertCount();
    // Stopped: the long fat box is more than four margins too big, so it is refitted.
    ASSERT_EQ(h.move(id, boxDesc(5, 0, 1).box, Vec3{0, 0, 0}), Status::Ok);
    EXPECT_EQ(h.tree.reinsertCount(), reinserts + 1);
    ASSERT_EQ(h.tree.getFatBox(id, fat), Status::Ok);
    EXPECT_FLOAT_EQ(fat.max.x, 6.1f);
    h.check("after extension");
}

TEST(DynamicTree, FiltersAndUserValues) {
    TreeHarness h(8);
    ProxyId a, b, c;
    ProxyDesc da = boxDesc(0, 0, 1, 1);
    da.category = 0x1;
    da.mask = 0x2; // pairs with category 2 only
    ProxyDesc db = boxDesc(0.5f, 0, 1, 2);
    db.category = 0x2;
    ProxyDesc dc = boxDesc(1.0f, 0, 1, 3);
    dc.category = 0x1;
    ASSERT_EQ(h.create(da, a), Status::Ok);
    ASSERT_EQ(h.create(db, b), Status::Ok);
    ASSERT_EQ(h.create(dc, c), Status::Ok);
    // a-b yes; a-c no (a's mask); b-c yes.
    const auto pairs = h.treePairs();
    EXPECT_EQ(pairs, h.brutePairs());
    EXPECT_EQ(pairs.size(), 2u);
    EXPECT_EQ(h.treeBox(Aabb{{-5, -5, -5}, {5, 5, 5}}, 0x2).size(), 1u);
    ASSERT_EQ(h.tree.setProxyFilter(c, 0x4, 0), Status::Ok);
    h.live[test::broad::keyOf(c)].desc.category = 0x4;
    h.live[test::broad::keyOf(c)].desc.mask = 0;
    EXPECT_EQ(h.treePairs(), h.brutePairs());
    EXPECT_EQ(h.treePairs().size(), 1u);
}

TEST(DynamicTree, PairBufferOverflowIsCountedNeverWrittenPast) {
    TreeHarness h(64);
    for (int i = 0; i < 10; ++i) { // ten identical boxes: 45 pairs
        ProxyId id;
        ASSERT_EQ(h.create(boxDesc(0, 0, 1), id), Status::Ok);
    }
    TreePair buffer[12];
    const TreePair sentinel{ProxyId{0xDEAD, 0xBEEF}, ProxyId{0xDEAD, 0xBEEF}};
    for (TreePair& p : buffer) p = sentinel;
    OutBuffer<TreePair> out = OutBuffer<TreePair>::over(buffer, 10);
    EXPECT_EQ(h.tree.findPairs(out), Status::BufferFull);
    EXPECT_EQ(out.count, 10u);
    EXPECT_EQ(out.dropped, 35u);
    EXPECT_EQ(buffer[10].a.index, 0xDEADu);
    EXPECT_EQ(buffer[11].b.generation, 0xBEEFu);
    OutBuffer<TreePair> none = OutBuffer<TreePair>::over(nullptr, 0);
    EXPECT_EQ(h.tree.findPairs(none), Status::BufferFull);
    EXPECT_EQ(none.count, 0u);
    EXPECT_EQ(none.dropped, 45u);
    OutBuffer<TreePair> null_items = OutBuffer<TreePair>::over(nullptr, 64); // holds nothing
    EXPECT_EQ(h.tree.findPairs(null_items), Status::BufferFull);
    EXPECT_EQ(null_items.count, 0u);
    EXPECT_EQ(null_items.dropped, 45u);
    TreePair big[64];
    OutBuffer<TreePair> all = OutBuffer<TreePair>::over(big, 64);
    EXPECT_EQ(h.tree.findPairs(all), Status::Ok);
    EXPECT_EQ(all.count, 45u);
    EXPECT_EQ(all.dropped, 0u);
    // The first ten of the full answer are exactly what the short buffer got.
    out.clear();
    EXPECT_EQ(h.tree.findPairs(out), Status::BufferFull);
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(buffer[i].a, big[i].a);
        EXPECT_EQ(buffer[i].b, big[i].b);
    }
}

TEST(DynamicTree, EmptyAndSingleProxyTrees) {
    TreeHarness h(2);
    TreePair p[1];
    OutBuffer<TreePair> out = OutBuffer<TreePair>::over(p, 1);
    EXPECT_EQ(h.tree.findPairs(out), Status::Ok);
    EXPECT_EQ(out.count + out.dropped, 0u);
    EXPECT_TRUE(h.treeBox(Aabb{{-1, -1, -1}, {1, 1, 1}}, ~0u).empty());
    EXPECT_TRUE(h.treeSegment(Vec3{-1, 0, 0}, Vec3{1, 0, 0}, ~0u).empty());
    h.check("empty");
    ProxyId a;
    ASSERT_EQ(h.create(boxDesc(0, 0, 1), a), Status::Ok);
    h.check("one");
    EXPECT_EQ(h.treeBox(Aabb{{-1, -1, -1}, {1, 1, 1}}, ~0u).size(), 1u);
    EXPECT_EQ(h.treeSegment(Vec3{-5, 0, 0}, Vec3{5, 0, 0}, ~0u).size(), 1u);
    EXPECT_EQ(h.treeSphere(Sphere{{0, 3, 0}, 2.0f}, ~0u).size(), 1u);
    EXPECT_EQ(h.treeSphere(Sphere{{0, 3, 0}, 1.9f}, ~0u).size(), 0u);
    EXPECT_EQ(h.tree.findPairs(out), Status::Ok);
    EXPECT_EQ(out.count + out.dropped, 0u);
    ASSERT_EQ(h.destroy(a), Status::Ok);
    const TreeReport r = h.check("empty again");
    EXPECT_EQ(r.free_pairs, 1u);
}

// Identical boxes tie on every insertion cost; the tie bits then send each one down a random path
// to a random leaf, like the keys of a trie, so the tree stays about 2 log2(n) deep (they always
// went down the internal child: a chain of n, and inserts that cost O(n) each).
TEST(DynamicTree, IdenticalBoxesStayShallow) {
    constexpr std::uint32_t n = 10000;
    TreeHarness h(n);
    ASSERT_EQ(h.status, Status::Ok);
    for (std::uint32_t i = 0; i < n; ++i) {
        ProxyId id;
        ASSERT_EQ(h.tree.createProxy(boxDesc(0, 0, 1), id), Status::Ok);
    }
    TreeReport report;
    ASSERT_TRUE(h.tree.validate(report)) << report.what;
    EXPECT_LE(double(report.height), 3.0 * std::log2(double(n)) + 10.0); // about 50
    std::printf("[ height   ] %u identical boxes: height %u\n", n, report.height);
}

TEST(DynamicTree, RebuildKeepsIdsAndAnswers) {
    TreeHarness h(600);
    test::SplitMix64 rng(0xB17D0001u);
    for (int i = 0; i < 500; ++i) {
        ProxyDesc d;
        d.box = test::broad::randomBox(rng, 0, 200, 0.2f, 3.0f, i % 2 == 0);
        d.user_value = std::uint64_t(i);
        ProxyId id;
        ASSERT_EQ(h.create(d, id), Status::Ok);
    }
    const TreeReport before = h.check("before rebuild");
    const auto pairs = h.brutePairs();
    EXPECT_EQ(h.treePairs(), pairs);

    std::vector<unsigned char> small(64);
    Arena tiny;
    ASSERT_EQ(tiny.init(small.data(), small.size()), Status::Ok);
    EXPECT_EQ(h.tree.rebuild(tiny), Status::OutOfMemory);
    h.check("after refused rebuild");
    EXPECT_EQ(h.treePairs(), pairs);

    const std::size_t scratch_bytes = DynamicTree::rebuildScratchBytes(h.tree.capacity());
    std::vector<unsigned char> block(scratch_bytes + 16);
    Arena scratch;
    ASSERT_EQ(scratch.init(block.data() + (16 - reinterpret_cast<std::uintptr_t>(block.data()) % 16) % 16,
                           scratch_bytes),
              Status::Ok);
    ASSERT_EQ(h.tree.rebuild(scratch), Status::Ok);
    EXPECT_EQ(scratch.used(), 0u);
    EXPECT_EQ(scratch.failedAllocations(), 0u);
    const TreeReport after = h.check("after rebuild");
    EXPECT_LE(after.sah_cost, before.sah_cost * 1.05) << "binned SAH should not be worse than insertion";
    // Insertion with rotations stays within reach of the full rebuild.
    EXPECT_LE(before.sah_cost, after.sah_cost * 1.6) << before.sah_cost << " vs " << after.sah_cost;
    EXPECT_GT(h.tree.rotationCount(), 0u);
    std::printf("[ quality  ] SAH cost after insertion %.2f, after rebuild %.2f; height %u -> %u\n",
                before.sah_cost, after.sah_cost, before.height, after.height);
    EXPECT_EQ(h.treePairs(), pairs);
    for (const auto& [key, e] : h.live) {
        ProxyDesc d;
        ASSERT_EQ(h.tree.getProxy(e.id, d), Status::Ok);
        EXPECT_EQ(d.user_value, e.desc.user_value);
    }
    // And the rebuilt tree keeps working under edits.
    for (const ProxyId& id : h.ids()) {
        if (id.index % 3 == 0) {
            ASSERT_EQ(h.destroy(id), Status::Ok);
        }
    }
    h.check("edits after rebuild");
    EXPECT_EQ(h.treePairs(), h.brutePairs());
}

TEST(DynamicTree, LongRandomRunRaisesNoInternalAssert) {
    // Nothing in the public API asserts on caller input (statuses instead); the recorder proves
    // a long random run raises no internal assertion either.
    test::AssertRecorder recorder;
    TreeHarness h(64);
    test::SplitMix64 rng(0xA55E47u);
    std::vector<ProxyId> ids;
    for (int step = 0; step < 2000; ++step) {
        const double r = rng.u();
        if (r < 0.4 || ids.empty()) {
            ProxyDesc d;
            d.box = test::broad::randomBox(rng, 0, 20, 0.1f, 2.0f);
            ProxyId id;
            if (h.create(d, id) == Status::Ok) ids.push_back(id);
        } else if (r < 0.6) {
            const std::size_t k = std::size_t(rng.next() % ids.size());
            EXPECT_EQ(h.destroy(ids[k]), Status::Ok);
            ids.erase(ids.begin() + std::ptrdiff_t(k));
        } else {
            const std::size_t k = std::size_t(rng.next() % ids.size());
            EXPECT_EQ(h.move(ids[k], test::broad::randomBox(rng, 0, 20, 0.1f, 2.0f), Vec3{}), Status::Ok);
        }
    }
    EXPECT_EQ(recorder.count(), 0) << recorder.lastMessage();
    h.check("after the run");
}

// The checker itself must catch broken trees, or "valid after every step" means nothing.
TEST(DynamicTree, ValidateCatchesCorruption) {
    TreeHarness h(32);
    test::SplitMix64 rng(0xBAD7EEu);
    for (int i = 0; i < 20; ++i) {
        ProxyDesc d;
        d.box = test::broad::randomBox(rng, 0, 50, 0.5f, 3.0f);
        ProxyId id;
        ASSERT_EQ(h.create(d, id), Status::Ok);
    }
    h.check("intact");
    TreeNode* nodes = const_cast<TreeNode*>(h.tree.nodes());
    const std::uint32_t child = nodes[0].child;
    TreeReport report;

    const std::uint32_t parent = nodes[child + 1].parent;
    nodes[child + 1].parent = child; // broken parent link
    EXPECT_FALSE(h.tree.validate(report));
    EXPECT_STREQ(report.what, "child's parent link does not point back");
    nodes[child + 1].parent = parent;

    const Aabb box = nodes[0].box;
    nodes[0].box.max.x -= 10.0f; // root no longer bounds its children
    EXPECT_FALSE(h.tree.validate(report));
    EXPECT_STREQ(report.what, "node box does not contain a child's (fat) box");
    nodes[0].box = box;

    // A leaf whose tight box leaves its fat box.
    std::uint32_t leaf = child;
    while (!isLeaf(nodes[leaf])) leaf = nodes[leaf].child;
    const Aabb tight = nodes[leaf].box;
    nodes[leaf].box.max.y += 1.0f;
    EXPECT_FALSE(h.tree.validate(report));
    EXPECT_STREQ(report.what, "fat box does not contain tight box");
    nodes[leaf].box = tight;

    EXPECT_TRUE(h.tree.validate(report)) << report.what;
}

} // namespace
} // namespace flak
