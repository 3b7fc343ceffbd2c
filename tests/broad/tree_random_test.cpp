// Long seeded random sequences of insert, move and remove: after every step the tree's invariants
// hold and every query (box, sphere, segment, closest segment hit) and the pair set equal brute
// force. Scene families cover uniform, clustered, flat (2D), degenerate (points, identical boxes,
// touching grids), sorted insertion and huge coordinates. Seeds are printed on failure.
#include "broad/tree_harness.h"
#include "support/case_count.h"

#include <flak/arena.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace flak {
namespace {

using test::SplitMix64;
using test::broad::TreeHarness;

enum class Family { Uniform, Clustered, Flat, Points, Identical, Grid, Sorted, Huge };

const char* familyName(Family f) {
    switch (f) {
    case Family::Uniform: return "Uniform";
    case Family::Clustered: return "Clustered";
    case Family::Flat: return "Flat";
    case Family::Points: return "Points";
    case Family::Identical: return "Identical";
    case Family::Grid: return "Grid";
    case Family::Sorted: return "Sorted";
    case Family::Huge: return "Huge";
    }
    return "?";
}

struct SceneGen {
    Family family;
    SplitMix64 rng;
    int serial = 0;

    Aabb box() {
        ++serial;
        switch (family) {
        case Family::Uniform: return test::broad::randomBox(rng, 0, 100, 0.1f, 6.0f);
        case Family::Clustered: {
            const float c = float(rng.next() % 4) * 40.0f;
            Aabb b = test::broad::randomBox(rng, 0, 8, 0.05f, 2.0f);
            for (int a = 0; a < 3; ++a) b.min[a] += c, b.max[a] += c;
            return b;
        }
        case Family::Flat: return test::broad::randomBox(rng, 0, 100, 0.5f, 5.0f, true);
        case Family::Points: {
            const Vec3 p{float(rng.next() % 8), float(rng.next() % 8), 0.0f};
            return Aabb{p, p};
        }
        case Family::Identical: return Aabb{{1, 2, 3}, {4, 5, 6}};
        case Family::Grid: {
            // Unit cells sharing faces, edges and corners exactly: touching counts as overlap.
            const float x = float(rng.next() % 10), y = float(rng.next() % 10);
            return Aabb{{x, y, 0}, {x + 1, y + 1, 1}};
        }
        case Family::Sorted: {
            const float x = float(serial % 400) * 1.5f;
            return Aabb{{x, 0, 0}, {x + 2, 1, 1}};
        }
        case Family::Huge: return test::broad::randomBox(rng, -3e7f, 3e7f, 1e5f, 4e6f);
        }
        return Aabb{};
    }
    float span() const {
        switch (family) {
        case Family::Huge: return 3e7f;
        case Family::Sorted: return 600.0f;
        case Family::Points:
        case Family::Grid: return 10.0f;
        default: return 120.0f;
        }
    }
    Aabb queryBox() {
        const float s = span();
        return test::broad::randomBox(rng, -0.1f * s, s, 0.0f, 0.2f * s, family == Family::Flat);
    }
    Sphere querySphere() {
        const float s = span();
        return Sphere{{rng.rangef(-0.1 * s, s), rng.rangef(-0.1 * s, s), rng.rangef(-0.1 * s, s)},
                      rng.rangef(0, 0.15 * s)};
    }
    void querySegment(Vec3& p0, Vec3& p1) {
        const float s = span();
        p0 =
            Vec3{rng.rangef(-0.2 * s, 1.2 * s), rng.rangef(-0.2 * s, 1.2 * s), rng.rangef(-0.2 * s, 1.2 * s)};
        p1 =
            Vec3{rng.rangef(-0.2 * s, 1.2 * s), rng.rangef(-0.2 * s, 1.2 * s), rng.rangef(-0.2 * s, 1.2 * s)};
        if (rng.u() < 0.2) p1 = Vec3{p0.x, p0.y, p1.z}; // axis-parallel: zero direction components
    }
};

struct Case {
    Family family;
    std::uint64_t seed;
    int steps;
    std::uint32_t capacity;
};

class TreeRandomSequence : public ::testing::TestWithParam<Case> {};

std::uint32_t randomMask(SplitMix64& rng) { return rng.u() < 0.8 ? ~0u : std::uint32_t(1u + rng.next() % 7); }

TEST_P(TreeRandomSequence, InvariantsAndQueriesMatchBruteForceAfterEveryStep) {
    const Case c = GetParam();
    SCOPED_TRACE(std::string("family ") + familyName(c.family) + " seed " + std::to_string(c.seed));
    const float margin = c.family == Family::Huge ? 1e4f : 0.1f;
    TreeHarness h(c.capacity, margin, c.seed % 2 == 0 ? 0.0f : 2.0f);
    ASSERT_EQ(h.status, Status::Ok);
    SceneGen gen{c.family, SplitMix64(c.seed)};
    SplitMix64& rng = gen.rng;
    std::uint32_t max_height = 0;
    for (int step = 0; step < c.steps; ++step) {
        SCOPED_TRACE("step " + std::to_string(step));
        const double r = rng.u();
        const std::vector<ProxyId> ids = h.ids();
        if (r < 0.45 || ids.size() < 2) {
            ProxyDesc d;
            d.box = gen.box();
            d.user_value = std::uint64_t(step);
            d.category = 1u << (rng.next() % 3);
            d.mask = rng.u() < 0.7 ? ~0u : std::uint32_t(rng.next() % 8);
            ProxyId id;
            const Status s = h.create(d, id);
            if (h.live.size() < c.capacity || s != Status::PoolFull) {
                ASSERT_EQ(s, Status::Ok);
            }
        } else if (r < 0.65) {
            ASSERT_EQ(h.destroy(ids[rng.next() % ids.size()]), Status::Ok);
        } else {
            const ProxyId id = ids[rng.next() % ids.size()];
            Aabb box;
            Vec3 d{};
            if (rng.u() < 0.5) {
                box = gen.box(); // a jump
            } else {
                box = h.live[test::broad::keyOf(id)].desc.box; // a small step
                const float s = gen.span() * 0.002f;
                d = Vec3{rng.rangef(-s, s), rng.rangef(-s, s),
                         c.family == Family::Flat ? 0.0f : rng.rangef(-s, s)};
                add(box.min, d, box.min);
                add(box.max, d, box.max);
            }
            ASSERT_EQ(h.move(id, box, d), Status::Ok);
        }
        const TreeReport report = h.check("step");
        if (::testing::Test::HasFailure()) return;
        max_height = std::max(max_height, report.height);

        const std::uint32_t mask = randomMask(rng);
        const Aabb region = gen.queryBox();
        ASSERT_EQ(h.treeBox(region, mask), h.bruteBox(region, mask));
        const Sphere sphere = gen.querySphere();
        ASSERT_EQ(h.treeSphere(sphere, mask), h.bruteSphere(sphere, mask));
        Vec3 p0, p1;
        gen.querySegment(p0, p1);
        ASSERT_EQ(h.treeSegment(p0, p1, mask), h.bruteSegment(p0, p1, mask));
        ASSERT_EQ(h.treeClosest(p0, p1, mask), h.bruteClosest(p0, p1, mask));
        ASSERT_EQ(h.treePairs(), h.brutePairs());
    }
    // Quality: rotations keep the tree far from a chain (log2(300) is about 8); identical boxes
    // are spread by the insertion's tie bits.
    EXPECT_LE(max_height, 40u);
    std::printf("[ height   ] %s seed %llx: max height %u\n", familyName(c.family),
                (unsigned long long)c.seed, max_height);
    // A binned-SAH rebuild gives back a shallow tree with the same answers.
    std::vector<unsigned char> block(DynamicTree::rebuildScratchBytes(c.capacity) + 16);
    Arena scratch;
    ASSERT_EQ(scratch.init(block.data() + (16 - reinterpret_cast<std::uintptr_t>(block.data()) % 16) % 16,
                           block.size() - 16),
              Status::Ok);
    ASSERT_EQ(h.tree.rebuild(scratch), Status::Ok);
    const TreeReport rebuilt = h.check("rebuilt");
    const double log2n = std::log2(double(std::max<std::size_t>(h.live.size(), 2)));
    EXPECT_LE(double(rebuilt.height), 3.0 * log2n + 4.0);
    ASSERT_EQ(h.treePairs(), h.brutePairs());
}

std::vector<Case> cases() {
    std::vector<Case> out;
    const Family families[] = {Family::Uniform,   Family::Clustered, Family::Flat,   Family::Points,
                               Family::Identical, Family::Grid,      Family::Sorted, Family::Huge};
    std::uint64_t seed = 0x5EED7000u;
    for (Family f : families) {
        // identical boxes: n^2 pairs a step; fewer steps under FLAK_CASE_DIVISOR (emulators)
        const int steps = test::caseCount(f == Family::Identical ? 400 : 1500);
        for (int k = 0; k < 3; ++k) out.push_back(Case{f, seed++, steps, 300});
    }
    out.push_back(Case{Family::Uniform, 0x5EED7100u, 3000, 64}); // runs into capacity often
    out.push_back(Case{Family::Flat, 0x5EED7101u, 3000, 64});
    return out;
}

INSTANTIATE_TEST_SUITE_P(Families, TreeRandomSequence, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                             return std::string(familyName(param_info.param.family)) + "_" +
                                    std::to_string(param_info.index);
                         });

} // namespace
} // namespace flak
