// Pair searches: the self search against the O(n^2) pair set on larger scenes (the churn scene in
// miniature, with rebuilds), the defined order (same calls, same list), and the tree-vs-tree
// (static vs dynamic) search against brute force, with filters and overflow.
#include "broad/pair_sink.h"
#include "broad/tree_harness.h"

#include <flak/arena.h>

#include <map>

#include <string>

namespace flak {
namespace {

using test::SplitMix64;
using test::broad::keyOf;
using test::broad::TreeHarness;

// docs/bench_scenes.md (e) in miniature: 2,000 proxies, 20% moving per frame, every frame checked.
TEST(TreePairs, ChurnSceneMatchesBruteForceEveryFrame) {
    const std::uint32_t n = 2000;
    TreeHarness h(n, 0.1f);
    SplitMix64 rng(0x5EED0004u);
    std::vector<ProxyId> ids(n);
    std::vector<Aabb> boxes(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        const double cx = rng.range(0, 224), cy = rng.range(0, 224);
        const double hx = rng.range(0.5, 5), hy = rng.range(0.5, 5);
        ProxyDesc d;
        d.box = Aabb{{float(cx - hx), float(cy - hy), 0}, {float(cx + hx), float(cy + hy), 0}};
        boxes[i] = d.box;
        ASSERT_EQ(h.create(d, ids[i]), Status::Ok);
    }
    for (int frame = 0; frame < 40; ++frame) {
        for (std::uint32_t i = 0; i < n; ++i) {
            if (rng.u() < 0.2) {
                const float dx = float((2 * rng.u() - 1) * 0.1), dy = float((2 * rng.u() - 1) * 0.1);
                Aabb& b = boxes[i];
                b.min.x += dx, b.max.x += dx, b.min.y += dy, b.max.y += dy;
                ASSERT_EQ(h.move(ids[i], b, Vec3{dx, dy, 0}), Status::Ok);
            }
        }
        h.check("frame");
        ASSERT_EQ(h.treePairs(), h.brutePairs()) << "frame " << frame;
    }
}

// The same sequence of calls gives the same pair list, element by element (defined order).
TEST(TreePairs, OrderIsDeterministic) {
    std::vector<TreePair> lists[2];
    for (int run = 0; run < 2; ++run) {
        TreeHarness h(500);
        SplitMix64 rng(0x0D0E0001u);
        std::vector<ProxyId> ids;
        for (int i = 0; i < 400; ++i) {
            ProxyDesc d;
            d.box = test::broad::randomBox(rng, 0, 60, 0.5f, 3.0f, true);
            ProxyId id;
            ASSERT_EQ(h.create(d, id), Status::Ok);
            ids.push_back(id);
        }
        for (int i = 0; i < 300; ++i)
            ASSERT_EQ(h.move(ids[rng.next() % ids.size()],
                             test::broad::randomBox(rng, 0, 60, 0.5f, 3.0f, true), Vec3{}),
                      Status::Ok);
        h.treePairs(&lists[run]);
    }
    ASSERT_EQ(lists[0].size(), lists[1].size());
    ASSERT_GT(lists[0].size(), 100u);
    for (std::size_t i = 0; i < lists[0].size(); ++i) {
        EXPECT_EQ(lists[0][i].a, lists[1][i].a) << i;
        EXPECT_EQ(lists[0][i].b, lists[1][i].b) << i;
    }
}

struct TwoTrees {
    TreeHarness fixed{400};
    TreeHarness moving{300};

    std::set<std::pair<std::uint64_t, std::uint64_t>> brute() const {
        std::set<std::pair<std::uint64_t, std::uint64_t>> out;
        for (const auto& [ka, a] : fixed.live)
            for (const auto& [kb, b] : moving.live)
                if (overlaps(a.desc.box, b.desc.box) && (a.desc.category & b.desc.mask) != 0 &&
                    (b.desc.category & a.desc.mask) != 0)
                    out.insert({ka, kb});
        return out;
    }
    std::set<std::pair<std::uint64_t, std::uint64_t>> tree(const TreeHarness& first,
                                                           const TreeHarness& second, bool swapped) const {
        std::vector<TreePair> pairs(first.live.size() * second.live.size() + 1);
        OutBuffer<TreePair> found = OutBuffer<TreePair>::over(pairs.data(), std::uint32_t(pairs.size()));
        EXPECT_EQ(findTreePairs(first.tree, second.tree, found), Status::Ok);
        std::set<std::pair<std::uint64_t, std::uint64_t>> out;
        for (std::uint32_t i = 0; i < found.count; ++i) {
            const auto key = swapped ? std::make_pair(keyOf(pairs[i].b), keyOf(pairs[i].a))
                                     : std::make_pair(keyOf(pairs[i].a), keyOf(pairs[i].b));
            EXPECT_TRUE(out.insert(key).second) << "pair twice";
        }
        return out;
    }
};

TEST(TreePairs, TreeVsTreeMatchesBruteForce) {
    for (std::uint64_t seed = 0x77EE0001u; seed < 0x77EE0006u; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        TwoTrees t;
        SplitMix64 rng(seed);
        // Level geometry: a static tree built once and rebuilt by binned SAH.
        for (int i = 0; i < 350; ++i) {
            ProxyDesc d;
            d.box = test::broad::randomBox(rng, 0, 100, 0.2f, 8.0f, seed % 2 == 0);
            d.category = 1u << (rng.next() % 2);
            ProxyId id;
            ASSERT_EQ(t.fixed.create(d, id), Status::Ok);
        }
        std::vector<unsigned char> block(DynamicTree::rebuildScratchBytes(400) + 64);
        Arena scratch;
        ASSERT_EQ(scratch.init(block.data() + (16 - reinterpret_cast<std::uintptr_t>(block.data()) % 16) % 16,
                               block.size() - 16),
                  Status::Ok);
        ASSERT_EQ(t.fixed.tree.rebuild(scratch), Status::Ok);
        t.fixed.check("static");
        std::vector<ProxyId> ids;
        for (int i = 0; i < 250; ++i) {
            ProxyDesc d;
            d.box = test::broad::randomBox(rng, -10, 110, 0.2f, 3.0f, seed % 2 == 0);
            d.mask = rng.u() < 0.8 ? ~0u : 0x2u;
            ProxyId id;
            ASSERT_EQ(t.moving.create(d, id), Status::Ok);
            ids.push_back(id);
        }
        for (int frame = 0; frame < 20; ++frame) {
            for (const ProxyId& id : ids) {
                if (rng.u() < 0.3) continue;
                Aabb b = t.moving.live[keyOf(id)].desc.box;
                const Vec3 d{rng.rangef(-1, 1), rng.rangef(-1, 1), 0};
                add(b.min, d, b.min);
                add(b.max, d, b.max);
                ASSERT_EQ(t.moving.move(id, b, d), Status::Ok);
            }
            const auto expected = t.brute();
            ASSERT_EQ(t.tree(t.fixed, t.moving, false), expected) << "frame " << frame;
            ASSERT_EQ(t.tree(t.moving, t.fixed, true), expected) << "frame " << frame << " (swapped)";
        }
    }
}

TEST(TreePairs, TreeVsTreeRefusalsAndOverflow) {
    TwoTrees t;
    TreePair buffer[4];
    OutBuffer<TreePair> out = OutBuffer<TreePair>::over(buffer, 4);
    EXPECT_EQ(findTreePairs(t.fixed.tree, t.fixed.tree, out), Status::InvalidArgument);
    EXPECT_EQ(findTreePairs(t.fixed.tree, t.moving.tree, out), Status::Ok); // both empty
    EXPECT_EQ(out.count + out.dropped, 0u);
    ProxyId id;
    for (int i = 0; i < 3; ++i) {
        ProxyDesc d;
        d.box = Aabb{{0, 0, 0}, {1, 1, 1}};
        ASSERT_EQ(t.fixed.create(d, id), Status::Ok);
        ASSERT_EQ(t.moving.create(d, id), Status::Ok);
    }
    const TreePair sentinel{ProxyId{9, 9}, ProxyId{9, 9}};
    for (TreePair& p : buffer) p = sentinel;
    OutBuffer<TreePair> three = OutBuffer<TreePair>::over(buffer, 3);
    EXPECT_EQ(findTreePairs(t.fixed.tree, t.moving.tree, three), Status::BufferFull);
    EXPECT_EQ(three.count, 3u);
    EXPECT_EQ(three.dropped, 6u);
    EXPECT_EQ(buffer[3].a.index, 9u);
    // A second search appends after the first one's pairs: none fit, all nine are counted.
    EXPECT_EQ(findTreePairs(t.fixed.tree, t.moving.tree, three), Status::BufferFull);
    EXPECT_EQ(three.count, 3u);
    EXPECT_EQ(three.dropped, 15u);
    OutBuffer<TreePair> null_items = OutBuffer<TreePair>::over(nullptr, 100);
    EXPECT_EQ(findTreePairs(t.fixed.tree, t.moving.tree, null_items), Status::BufferFull);
    EXPECT_EQ(null_items.count, 0u);
    EXPECT_EQ(null_items.dropped, 9u);
}

// One side a single leaf (the root is a leaf): the walk goes down the other side alone.
TEST(TreePairs, TreeVsTreeWithALeafRoot) {
    TwoTrees t;
    SplitMix64 rng(0x1EAF0001u);
    ProxyDesc single;
    single.box = Aabb{{20, 20, -1}, {45, 45, 1}};
    ProxyId id;
    ASSERT_EQ(t.fixed.create(single, id), Status::Ok);
    for (int i = 0; i < 200; ++i) {
        ProxyDesc d;
        d.box = test::broad::randomBox(rng, 0, 100, 0.5f, 3.0f, true);
        ASSERT_EQ(t.moving.create(d, id), Status::Ok);
    }
    const auto expected = t.brute();
    ASSERT_GT(expected.size(), 5u);
    EXPECT_EQ(t.tree(t.fixed, t.moving, false), expected);
    EXPECT_EQ(t.tree(t.moving, t.fixed, true), expected);
}

// A PairFilter (tree_pair.h) sees each pair the boxes and the category/mask filters accept once,
// with a's user value first (the lower index in a self search, the first tree's in a tree-vs-tree
// search), and the pairs it refuses are neither written nor counted as dropped. Checked against
// brute force with an order-sensitive filter, on trees with and without proxy filters (the
// searches' two paths), and with a buffer too small for the pairs kept.
struct FilterProbe {
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen; // (value_a, value_b) of every call
    std::uint64_t calls = 0;
    static bool keep(std::uint64_t a, std::uint64_t b) { return (a * 3 + b * 5) % 7 < 4; }
    static bool accept(void* user, std::uint64_t a, std::uint64_t b) {
        FilterProbe& probe = *static_cast<FilterProbe*>(user);
        ++probe.calls;
        probe.seen.insert({a, b});
        return keep(a, b);
    }
};

TEST(TreePairs, PairFilterLeavesOutWhatItRefusesUncounted) {
    for (int proxy_filters = 0; proxy_filters < 2; ++proxy_filters) {
        SCOPED_TRACE(proxy_filters ? "proxies filter" : "no proxy filters");
        TwoTrees t;
        SplitMix64 rng(0xF117E400u + std::uint64_t(proxy_filters));
        std::map<std::uint64_t, std::uint64_t> value_of; // key -> user value
        const auto fill = [&](TreeHarness& h, int count, float lo, float hi) {
            for (int i = 0; i < count; ++i) {
                ProxyDesc d;
                d.box = test::broad::randomBox(rng, lo, hi, 0.5f, 4.0f, true);
                d.user_value = rng.next();
                if (proxy_filters != 0 && rng.u() < 0.3) d.mask = 0x2u;
                ProxyId id;
                ASSERT_EQ(h.create(d, id), Status::Ok);
                value_of[keyOf(id) ^ (&h == &t.fixed ? 0u : 1ull << 63)] = d.user_value;
            }
        };
        fill(t.fixed, 300, 0, 60);
        fill(t.moving, 250, -5, 65);
        const auto valueOf = [&](const TreeHarness& h, std::uint64_t key) {
            return value_of.at(key ^ (&h == &t.fixed ? 0u : 1ull << 63));
        };
        const auto check = [&](const TreeHarness* first, const TreeHarness& second) {
            const bool self = first == nullptr;
            // What the search must ask about, and what it must keep.
            std::set<std::pair<std::uint64_t, std::uint64_t>> asked, kept;
            const auto expected = self ? second.brutePairs() : t.brute();
            for (const auto& [ka, kb] : expected) {
                const std::uint64_t va = valueOf(self ? second : *first, ka), vb = valueOf(second, kb);
                asked.insert({va, vb});
                if (FilterProbe::keep(va, vb)) kept.insert({va, vb});
            }
            ASSERT_GT(kept.size(), 20u);
            ASSERT_GT(asked.size(), kept.size());
            FilterProbe probe;
            const PairFilter filter{&FilterProbe::accept, &probe};
            std::vector<TreePair> pairs(asked.size() + 1);
            OutBuffer<TreePair> found = OutBuffer<TreePair>::over(pairs.data(), std::uint32_t(pairs.size()));
            const Status status = self ? second.tree.findPairs(found, filter)
                                       : findTreePairs(first->tree, second.tree, found, filter);
            EXPECT_EQ(status, Status::Ok);
            EXPECT_EQ(found.dropped, 0u);
            EXPECT_EQ(probe.calls, asked.size());
            EXPECT_EQ(probe.seen, asked);
            std::set<std::pair<std::uint64_t, std::uint64_t>> got;
            for (std::uint32_t i = 0; i < found.count; ++i) {
                if (self) {
                    EXPECT_LT(pairs[i].a.index, pairs[i].b.index);
                }
                got.insert(
                    {valueOf(self ? second : *first, keyOf(pairs[i].a)), valueOf(second, keyOf(pairs[i].b))});
            }
            EXPECT_EQ(got.size(), found.count);
            EXPECT_EQ(got, kept);
            // Too small a buffer: the pairs kept are written or counted, the refused ones neither.
            OutBuffer<TreePair> small = OutBuffer<TreePair>::over(pairs.data(), 5);
            EXPECT_EQ(self ? second.tree.findPairs(small, filter)
                           : findTreePairs(first->tree, second.tree, small, filter),
                      Status::BufferFull);
            EXPECT_EQ(small.count, 5u);
            EXPECT_EQ(small.count + small.dropped, kept.size());
        };
        check(nullptr, t.fixed);
        check(nullptr, t.moving);
        check(&t.fixed, t.moving);
    }
}

// The pair count is 64-bit: a search that finds 2^32 pairs or more (one tree of 92,683 proxies
// all overlapping) neither wraps the count nor writes over the pairs kept, and the dropped count
// saturates. The sink is set to 2^32 - 1 pairs found, as after such a search.
TEST(TreePairs, SinkCountsPastTwoToThe32WithoutWrapping) {
    TreePair storage[4];
    OutBuffer<TreePair> buffer = OutBuffer<TreePair>::over(storage, 4);
    PairSink sink = PairSink::over(buffer);
    for (std::uint32_t i = 0; i < 4; ++i) sink.add(ProxyId{i, 0}, ProxyId{i + 10, 0});
    sink.found = 0xFFFFFFFFull;
    sink.add(ProxyId{7, 0}, ProxyId{8, 0}); // the 2^32nd: a 32-bit count would wrap to 0 here
    sink.add(ProxyId{5, 0}, ProxyId{6, 0}); // and this one would be written over pairs[0]
    EXPECT_EQ(sink.found, (1ull << 32) + 1u);
    EXPECT_EQ(sink.written(), 4u);
    for (std::uint32_t i = 0; i < 4; ++i) {
        EXPECT_EQ(storage[i].a.index, i);
        EXPECT_EQ(storage[i].b.index, i + 10);
    }
    EXPECT_EQ(sink.finish(buffer), Status::BufferFull);
    EXPECT_EQ(buffer.count, 4u);
    EXPECT_EQ(buffer.dropped, 0xFFFFFFFDu); // 2^32 + 1 - 4, which fits
    buffer.clear();
    sink.found = 1ull << 40; // far more than fit in the dropped count: it saturates
    EXPECT_EQ(sink.finish(buffer), Status::BufferFull);
    EXPECT_EQ(buffer.count, 4u);
    EXPECT_EQ(buffer.dropped, 0xFFFFFFFFu);
}

} // namespace
} // namespace flak
