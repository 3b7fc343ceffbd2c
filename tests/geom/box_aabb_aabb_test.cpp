// Oracle: overlaps(Aabb, Aabb) (math/aabb.h, closed intervals) against a double-precision signed
// L-inf gap, on a million random cases and adversarial families.
#include <flak/math/aabb.h>

#include "support/box_families.h"
#include "support/case_count.h"

#include <gtest/gtest.h>

namespace flak {
namespace {

using namespace test::box;
using namespace test;

constexpr std::uint64_t kSeed = 0x5A4B0200ull;

// Signed L-inf gap: > 0 apart, 0 touching, < 0 overlapping (by the thinnest overlap).
double gap(const Aabb& a, const Aabb& b) {
    double g = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < 3; ++i)
        g = std::fmax(g, std::fmax(double(a.min[i]) - double(b.max[i]), double(b.min[i]) - double(a.max[i])));
    return g;
}

Aabb randomBox(SplitMix64& rng, const Frame& f, const D3& around, double spread) {
    const D3 c = around + randomInCube(rng, spread) * f.unit;
    D3 h = randomIn(rng, 0.0, 1.0);
    if (rng.u() < 0.1) h[int(rng.next() % 3)] = 0.0;
    if (rng.u() < 0.02) h = D3{};
    return Aabb{toF(c - h * f.unit), toF(c + h * f.unit)};
}

void check(OracleTally& tally, std::uint64_t index, const Aabb& a, const Aabb& b) {
    const double g = gap(a, b);
    auto text = [&] { return "a " + hexBox(a) + " b " + hexBox(b); };
    const bool hit = overlaps(a, b);
    tally.decide(index, hit, g <= 0.0, g, maxAbs(a.min, a.max, b.min, b.max), text);
    // Float comparisons of float inputs are exact: no disagreement at all, not even in band.
    tally.require(index, hit == (g <= 0.0), "comparison not exact", text);
    tally.require(index, hit == overlaps(b, a), "not symmetric", text);
}

TEST(AabbAabb, Random1M) {
    OracleTally tally("AabbAabb.Random1M", kSeed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(1000000); ++i) {
        SplitMix64 rng = caseRng(kSeed, i);
        const Frame f = randomFrame(rng);
        const Aabb a = randomBox(rng, f, f.origin, 1.0);
        const Aabb b = randomBox(rng, f, f.origin, 1.2);
        check(tally, i, a, b);
    }
}

TEST(AabbAabb, Adversarial300k) {
    const std::uint64_t seed = kSeed + 1;
    OracleTally tally("AabbAabb.Adversarial300k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(300000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        const Aabb a = randomBox(rng, f, f.origin, 1.0);
        Aabb b = randomBox(rng, f, f.origin, 1.0);
        // Move b so that it shares a face, an edge or a corner with a (touching exactly), or
        // sits one ulp away, or is a point on a's surface.
        const int kind = int(i % 4);
        for (int axis = 0; axis < 3; ++axis) {
            const int side = int(rng.next() % 3) - 1;
            if (side == 0) continue;
            const float w = b.max[axis] - b.min[axis];
            if (side > 0) {
                b.min[axis] = a.max[axis];
                b.max[axis] = b.min[axis] + w;
            } else {
                b.max[axis] = a.min[axis];
                b.min[axis] = b.max[axis] - w;
            }
            if (b.min[axis] > b.max[axis]) b.max[axis] = b.min[axis];
            if (kind == 1) { // one ulp apart on this axis
                b.min[axis] = std::nextafter(b.min[axis], side > 0 ? INFINITY : -INFINITY);
                b.max[axis] = std::nextafter(b.max[axis], side > 0 ? INFINITY : -INFINITY);
            }
        }
        if (kind == 2) b.max = b.min; // a point
        check(tally, i, a, b);
    }
}

TEST(AabbAabb, NanNeverOverlapsEmptyNeverOverlaps) {
    const Aabb unit{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    Aabb empty;
    setEmpty(empty);
    EXPECT_FALSE(overlaps(unit, empty));
    EXPECT_FALSE(overlaps(empty, unit));
    EXPECT_FALSE(overlaps(empty, empty));
    for (int slot = 0; slot < 6; ++slot) {
        Aabb b = unit;
        (slot < 3 ? b.min : b.max)[slot % 3] = std::numeric_limits<float>::quiet_NaN();
        EXPECT_FALSE(overlaps(unit, b)) << slot;
        EXPECT_FALSE(overlaps(b, unit)) << slot;
    }
    // Infinite bounds are ordinary values to the math layer (an unbounded box overlaps what it
    // spans); tolerance.h rule 6 binds the geom kernels, not this comparison.
    const Aabb everything{{-INFINITY, -INFINITY, -INFINITY}, {INFINITY, INFINITY, INFINITY}};
    EXPECT_TRUE(overlaps(unit, everything));
}

TEST(AabbAabb, LargeAndSmall200k) {
    const std::uint64_t seed = kSeed + 2;
    OracleTally tally("AabbAabb.LargeSmall200k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(200000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        Frame f;
        f.unit = (i & 1) ? 1.0 : 1e-4;
        f.origin = (i & 1) ? D3{1e6, 1e6, -1e6} : D3{};
        check(tally, i, randomBox(rng, f, f.origin, 1.0), randomBox(rng, f, f.origin, 1.2));
    }
}

} // namespace
} // namespace flak
