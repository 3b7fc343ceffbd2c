// Oracle: sphereSphere (geom/sphere_sphere.h) against a double-precision distance, on a million
// random cases and adversarial families (touching, concentric, points, large, small, NaN/Inf).
#include <flak/geom/sphere_sphere.h>

#include "support/box_families.h"
#include "support/case_count.h"

#include <gtest/gtest.h>

namespace flak {
namespace {

using namespace test::box;
using namespace test;

constexpr std::uint64_t kSeed = 0x5A4B0100ull;

std::string describe(const Sphere& a, const Sphere& b) {
    return "a {" + hexv(a.center) + ", " + hexf(a.radius) + "} b {" + hexv(b.center) + ", " + hexf(b.radius) +
           "}";
}

void check(OracleTally& tally, std::uint64_t index, const Sphere& a, const Sphere& b) {
    const D3 ca = d3(a.center), cb = d3(b.center);
    const double ra = a.radius, rb = b.radius;
    const double dist = len(ca - cb);
    const double decisive = dist - (ra + rb);
    const double scale = maxAbs(a.center, a.radius, b.center, b.radius);
    const double tol = bandOf(scale);
    auto text = [&] { return describe(a, b); };
    Contact c;
    c.depth = -1.0f;
    const bool hit = sphereSphere(a, b, c);
    tally.decide(index, hit, decisive <= 0.0, decisive, scale, text);
    if (!hit) {
        tally.require(index, c.depth == -1.0f, "contact written on a miss", text);
        return;
    }
    const D3 n = d3(c.normal), p = d3(c.point);
    tally.require(index, std::fabs(len(n) - 1.0) <= 1e-5, "normal not unit", text);
    tally.require(index, c.depth >= 0.0f, "negative depth", text);
    tally.require(index, std::fabs(c.depth - std::fmax(0.0, -decisive)) <= tol, "depth off", text);
    tally.require(index, len(p - (cb + n * rb)) <= tol, "point not on b's surface along the normal", text);
    // a's centre lies at distance ra + rb - depth from b's along the normal.
    tally.require(index, len(cb + n * (ra + rb - double(c.depth)) - ca) <= 2.0 * tol,
                  "normal/depth inconsistent", text);
}

Sphere randomSphere(SplitMix64& rng, const Frame& f, const D3& around, double spread) {
    Sphere s;
    s.center = toF(around + randomInCube(rng, spread) * f.unit);
    s.radius = rng.u() < 0.05 ? 0.0f : float(rng.range(0.0, 1.0) * f.unit);
    return s;
}

TEST(SphereSphere, Random1M) {
    OracleTally tally("SphereSphere.Random1M", kSeed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(1000000); ++i) {
        SplitMix64 rng = caseRng(kSeed, i);
        const Frame f = randomFrame(rng);
        const Sphere a = randomSphere(rng, f, f.origin, 1.0);
        const Sphere b = randomSphere(rng, f, d3(a.center), 1.1);
        check(tally, i, a, b);
    }
}

TEST(SphereSphere, Adversarial400k) {
    const std::uint64_t seed = kSeed + 1;
    OracleTally tally("SphereSphere.Adversarial400k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(400000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        const Sphere a = randomSphere(rng, f, f.origin, 1.0);
        Sphere b = randomSphere(rng, f, f.origin, 1.0);
        const D3 dir = randomUnit(rng);
        const int kind = int(i % 5);
        const double touch = double(a.radius) + double(b.radius);
        if (kind == 0) { // touching (exact in double, then rounded)
            b.center = toF(d3(a.center) + dir * touch);
        } else if (kind == 1) { // touching, nudged by 1e-7 .. 1e-3 relative
            const double nudge = signedLogUniform(rng, -7.0, -3.0);
            b.center = toF(d3(a.center) + dir * (touch + nudge * f.unit));
        } else if (kind == 2) { // concentric
            b.center = a.center;
        } else if (kind == 3) { // points: coincident or apart
            b.radius = 0.0f;
            Sphere p = a;
            p.radius = 0.0f;
            if (rng.u() < 0.5) b.center = p.center;
            check(tally, i, p, b);
            continue;
        } else { // along an axis, exactly representable touching
            const int axis = int(rng.next() % 3);
            b.center = a.center;
            b.center[axis] = float(double(a.center[axis]) + touch);
        }
        check(tally, i, a, b);
    }
}

TEST(SphereSphere, LargeAndSmallCoordinates200k) {
    const std::uint64_t seed = kSeed + 2;
    OracleTally tally("SphereSphere.LargeSmall200k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(200000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        Frame f;
        f.unit = (i & 1) ? 1.0 : 1e-4;
        f.origin = (i & 1) ? D3{-1e6, 1e6, 1e6} : D3{};
        const Sphere a = randomSphere(rng, f, f.origin, 1.0);
        const Sphere b = randomSphere(rng, f, d3(a.center), 1.1);
        check(tally, i, a, b);
    }
}

TEST(SphereSphere, NonFiniteAndNegativeNeverHit100k) {
    const std::uint64_t seed = kSeed + 3;
    OracleTally tally("SphereSphere.NonFinite100k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        Sphere s[2] = {randomSphere(rng, f, f.origin, 1.0), randomSphere(rng, f, f.origin, 1.0)};
        float* slots[8] = {&s[0].center.x, &s[0].center.y, &s[0].center.z, &s[0].radius,
                           &s[1].center.x, &s[1].center.y, &s[1].center.z, &s[1].radius};
        const int k = int(rng.next() % 9);
        if (k < 8)
            *slots[k] = nonFinite(rng);
        else
            s[rng.next() % 2].radius = -1.0f;
        Contact c;
        c.depth = -1.0f;
        tally.countOnly();
        tally.require(i, !sphereSphere(s[0], s[1], c) && c.depth == -1.0f, "hit on invalid input",
                      [&] { return describe(s[0], s[1]); });
    }
}

TEST(SphereSphere, ConcentricNormalIsPlusX) {
    Contact c;
    ASSERT_TRUE(sphereSphere(Sphere{{1.0f, 2.0f, 3.0f}, 1.0f}, Sphere{{1.0f, 2.0f, 3.0f}, 2.0f}, c));
    EXPECT_EQ(c.normal.x, 1.0f);
    EXPECT_EQ(c.depth, 3.0f);
    EXPECT_EQ(c.point.x, 3.0f);
}

} // namespace
} // namespace flak
