// Queries on adversarial inputs (NaN, touching, zero-length, huge), early stops, and the segment
// walk's clipping: the closest hit equals brute force and clipping prunes work.
#include "broad/tree_harness.h"

#include <limits>
#include <string>

namespace flak {
namespace {

using test::SplitMix64;
using test::broad::TreeHarness;

void fillUniform(TreeHarness& h, int count, std::uint64_t seed, bool flat = false) {
    SplitMix64 rng(seed);
    for (int i = 0; i < count; ++i) {
        ProxyDesc d;
        d.box = test::broad::randomBox(rng, 0, 100, 0.2f, 2.5f, flat);
        ProxyId id;
        ASSERT_EQ(h.create(d, id), Status::Ok);
    }
}

TEST(TreeQuery, NonFiniteQueriesVisitNothing) {
    TreeHarness h(200);
    fillUniform(h, 150, 0x0A0A0001u);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_TRUE(h.treeBox(Aabb{{nan, 0, 0}, {100, 100, 100}}, ~0u).empty());
    EXPECT_TRUE(h.treeBox(Aabb{{50, 50, 50}, {40, 60, 60}}, ~0u).empty());      // inverted
    EXPECT_TRUE(h.treeBox(Aabb{{101, -10, -10}, {-1, 110, 110}}, ~0u).empty()); // inverted, spans all
    EXPECT_TRUE(h.treeSphere(Sphere{{50, 50, 50}, nan}, ~0u).empty());
    EXPECT_TRUE(h.treeSphere(Sphere{{50, 50, 50}, -1.0f}, ~0u).empty());
    EXPECT_TRUE(h.treeSphere(Sphere{{inf, 50, 50}, 1.0f}, ~0u).empty());
    EXPECT_TRUE(h.treeSegment(Vec3{nan, 0, 0}, Vec3{100, 100, 100}, ~0u).empty());
    EXPECT_TRUE(h.treeSegment(Vec3{0, 0, 0}, Vec3{inf, 100, 100}, ~0u).empty());
    // Infinite but ordered regions are fine: everything.
    EXPECT_EQ(h.treeBox(Aabb{{-inf, -inf, -inf}, {inf, inf, inf}}, ~0u).size(), 150u);
    EXPECT_EQ(h.tree.queryBox(Aabb{{0, 0, 0}, {1, 1, 1}}, ~0u, nullptr, nullptr), 0u);
}

TEST(TreeQuery, TouchingCountsAsOverlap) {
    TreeHarness h(64);
    for (int x = 0; x < 5; ++x) {
        for (int y = 0; y < 5; ++y) {
            ProxyDesc d;
            d.box = Aabb{{float(x), float(y), 0}, {float(x + 1), float(y + 1), 1}};
            ProxyId id;
            ASSERT_EQ(h.create(d, id), Status::Ok);
        }
    }
    // A degenerate region on a grid line touches both columns.
    const Aabb line{{2, 0.5f, 0.5f}, {2, 0.5f, 0.5f}};
    EXPECT_EQ(h.treeBox(line, ~0u).size(), 2u);
    EXPECT_EQ(h.treeBox(line, ~0u), h.bruteBox(line, ~0u));
    // A grid corner touches four cells; a sphere touching a face from outside touches one.
    EXPECT_EQ(h.treeBox(Aabb{{2, 2, 1}, {2, 2, 1}}, ~0u).size(), 4u);
    EXPECT_EQ(h.treeSphere(Sphere{{0.5f, 0.5f, 2.0f}, 1.0f}, ~0u).size(), 1u);
    // A segment sliding exactly along a shared face touches the cells on both sides.
    const auto along = h.treeSegment(Vec3{-1, 2, 0.5f}, Vec3{6, 2, 0.5f}, ~0u);
    EXPECT_EQ(along, h.bruteSegment(Vec3{-1, 2, 0.5f}, Vec3{6, 2, 0.5f}, ~0u));
    EXPECT_EQ(along.size(), 10u);
    // Touching pairs: every grid neighbour, diagonal neighbours included.
    EXPECT_EQ(h.treePairs(), h.brutePairs());
    EXPECT_EQ(h.treePairs().size(), 4u * 5 * 2 + 4u * 4 * 2); // 40 edge + 32 corner neighbours
}

TEST(TreeQuery, ZeroLengthSegmentIsAPoint) {
    TreeHarness h(8);
    ProxyDesc d;
    d.box = Aabb{{0, 0, 0}, {1, 1, 1}};
    ProxyId id;
    ASSERT_EQ(h.create(d, id), Status::Ok);
    EXPECT_EQ(h.treeSegment(Vec3{0.5f, 0.5f, 0.5f}, Vec3{0.5f, 0.5f, 0.5f}, ~0u).size(), 1u);
    EXPECT_EQ(h.treeSegment(Vec3{1.5f, 0.5f, 0.5f}, Vec3{1.5f, 0.5f, 0.5f}, ~0u).size(), 0u);
    EXPECT_EQ(h.treeClosest(Vec3{-1, 0.5f, 0.5f}, Vec3{3, 0.5f, 0.5f}, ~0u), 0.25f);
}

TEST(TreeQuery, VisitorsCanStopEarly) {
    TreeHarness h(64);
    for (int i = 0; i < 20; ++i) { // a row of boxes along x
        ProxyDesc d;
        d.box = Aabb{{float(2 * i), 0, 0}, {float(2 * i + 1), 1, 1}};
        ProxyId id;
        ASSERT_EQ(h.create(d, id), Status::Ok);
    }
    int seen = 0;
    const std::uint32_t visits = h.tree.queryBox(
        Aabb{{-10, -10, -10}, {200, 200, 200}}, ~0u,
        [](void* user, const ProxyId&) { return ++*static_cast<int*>(user) < 7; }, &seen);
    EXPECT_EQ(seen, 7);
    EXPECT_EQ(visits, 7u);
    seen = 0;
    const std::uint32_t sphere_visits = h.tree.querySphere(
        Sphere{{20, 0, 0}, 500}, ~0u,
        [](void* user, const ProxyId&) { return ++*static_cast<int*>(user) < 3; }, &seen);
    EXPECT_EQ(sphere_visits, 3u);
    seen = 0;
    const std::uint32_t segment_visits = h.tree.querySegment(
        Vec3{-1, 0.5f, 0.5f}, Vec3{50, 0.5f, 0.5f}, ~0u,
        [](void* user, const ProxyId&, float, float t_max) {
            return ++*static_cast<int*>(user) < 2 ? t_max : -1.0f;
        },
        &seen);
    EXPECT_EQ(segment_visits, 2u);
    EXPECT_EQ(h.treeSegment(Vec3{-1, 0.5f, 0.5f}, Vec3{50, 0.5f, 0.5f}, ~0u).size(), 20u);
    // Nearer child first: along +x the first box met is visited first, and along -x the last.
    struct First {
        std::uint32_t index = 99;
        static float visit(void* user, const ProxyId& id, float, float) {
            static_cast<First*>(user)->index = id.index;
            return -1.0f;
        }
    };
    First forward, backward;
    h.tree.querySegment(Vec3{-1, 0.5f, 0.5f}, Vec3{50, 0.5f, 0.5f}, ~0u, &First::visit, &forward);
    h.tree.querySegment(Vec3{50, 0.5f, 0.5f}, Vec3{-1, 0.5f, 0.5f}, ~0u, &First::visit, &backward);
    EXPECT_EQ(forward.index, 0u);
    EXPECT_EQ(backward.index, 19u);
}

// Closest hit with clipping equals brute force, and clipping lets the walk skip most boxes.
TEST(TreeQuery, ClippedSegmentsFindTheClosestHitAndVisitLess) {
    TreeHarness h(3000);
    fillUniform(h, 2500, 0x0A0A0003u);
    SplitMix64 rng(0x0A0A0004u);
    std::uint64_t clipped_visits = 0, all_visits = 0;
    for (int q = 0; q < 500; ++q) {
        SCOPED_TRACE("query " + std::to_string(q));
        const Vec3 p0{rng.rangef(-20, 120), rng.rangef(-20, 120), rng.rangef(-20, 120)};
        const Vec3 p1{rng.rangef(-20, 120), rng.rangef(-20, 120), rng.rangef(-20, 120)};
        float best = 2.0f;
        clipped_visits += h.tree.querySegment(
            p0, p1, ~0u,
            [](void* user, const ProxyId&, float t_enter, float) {
                float& b = *static_cast<float*>(user);
                if (t_enter < b) b = t_enter;
                return t_enter;
            },
            &best);
        ASSERT_EQ(best, h.bruteClosest(p0, p1, ~0u));
        all_visits += h.treeSegment(p0, p1, ~0u).size();
    }
    EXPECT_LT(clipped_visits * 2, all_visits) << "clipping should prune most far boxes";
}

TEST(TreeQuery, HugeAndTinyBoxesTogether) {
    TreeHarness h(128);
    SplitMix64 rng(0x0A0A0005u);
    for (int i = 0; i < 100; ++i) {
        ProxyDesc d;
        const float s = i % 3 == 0 ? 1e6f : (i % 3 == 1 ? 1e-4f : 1.0f);
        d.box = test::broad::randomBox(rng, -s, s, 0.0f, s * 0.1f);
        ProxyId id;
        ASSERT_EQ(h.create(d, id), Status::Ok);
    }
    h.check("mixed scales");
    for (int q = 0; q < 200; ++q) {
        const float s = q % 2 == 0 ? 1e6f : 1.0f;
        const Aabb region = test::broad::randomBox(rng, -s, s, 0.0f, s * 0.3f);
        ASSERT_EQ(h.treeBox(region, ~0u), h.bruteBox(region, ~0u));
        const Sphere sphere{{rng.rangef(-s, s), rng.rangef(-s, s), rng.rangef(-s, s)},
                            rng.rangef(0, s * 0.3)};
        ASSERT_EQ(h.treeSphere(sphere, ~0u), h.bruteSphere(sphere, ~0u));
        const Vec3 p0{rng.rangef(-s, s), rng.rangef(-s, s), rng.rangef(-s, s)};
        const Vec3 p1{rng.rangef(-s, s), rng.rangef(-s, s), rng.rangef(-s, s)};
        ASSERT_EQ(h.treeSegment(p0, p1, ~0u), h.bruteSegment(p0, p1, ~0u));
    }
    EXPECT_EQ(h.treePairs(), h.brutePairs());
}

} // namespace
} // namespace flak
