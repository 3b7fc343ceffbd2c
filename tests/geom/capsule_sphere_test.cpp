// Oracle: capsuleSphere against a double-precision segment distance, on a million random cases and
// adversarial families (touching, centre on the axis, zero length, zero radii, beyond the ends,
// large, small, NaN/Inf).
#include <flak/geom/capsule_sphere.h>

#include "support/box_families.h"
#include "support/case_count.h"

#include <gtest/gtest.h>

namespace flak {
namespace {

using namespace test::box;
using namespace test;

constexpr std::uint64_t kSeed = 0x5A4B0300ull;

std::string describe(const Capsule& cap, const Sphere& s) {
    return "capsule {" + hexv(cap.p0) + ", " + hexv(cap.p1) + ", " + hexf(cap.radius) + "} sphere {" +
           hexv(s.center) + ", " + hexf(s.radius) + "}";
}

D3 closestOnSegment(const D3& p0, const D3& p1, const D3& c) {
    const D3 d = p1 - p0;
    const double dd = dot(d, d);
    double t = dd > 0.0 ? dot(c - p0, d) / dd : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    return p0 + d * t;
}

void check(OracleTally& tally, std::uint64_t index, const Capsule& cap, const Sphere& s) {
    const D3 p0 = d3(cap.p0), p1 = d3(cap.p1), c = d3(s.center);
    const double ra = cap.radius, rs = s.radius;
    const D3 q = closestOnSegment(p0, p1, c);
    const double decisive = len(q - c) - (ra + rs);
    const double scale = maxAbs(cap.p0, cap.p1, cap.radius, s.center, s.radius);
    const double tol = bandOf(scale);
    auto text = [&] { return describe(cap, s); };
    Contact contact;
    contact.depth = -1.0f;
    const bool hit = capsuleSphere(cap, s, contact);
    tally.decide(index, hit, decisive <= 0.0, decisive, scale, text);
    if (!hit) {
        tally.require(index, contact.depth == -1.0f, "contact written on a miss", text);
        return;
    }
    const D3 n = d3(contact.normal), p = d3(contact.point);
    const double depth = contact.depth;
    tally.require(index, std::fabs(len(n) - 1.0) <= 1e-5, "normal not unit", text);
    tally.require(index, depth >= 0.0, "negative depth", text);
    tally.require(index, std::fabs(depth - std::fmax(0.0, -decisive)) <= tol, "depth off", text);
    tally.require(index, len(p - (c + n * rs)) <= tol, "point not on the sphere along the normal", text);
    // The closest axis point lies at ra + rs - depth from the centre along the normal.
    tally.require(index, len(c + n * (ra + rs - depth) - q) <= 2.0 * tol, "normal/depth inconsistent", text);
    if (equal(s.center, cap.p0))
        tally.require(index, std::fabs(dot(n, p1 - p0)) <= 1e-5 * len(p1 - p0), "normal not perpendicular",
                      text);
}

void randomCapsule(SplitMix64& rng, const Frame& f, Capsule& out) {
    const D3 p0 = f.origin + randomInCube(rng, 1.0) * f.unit;
    out.p0 = toF(p0);
    out.p1 = rng.u() < 0.05 ? out.p0 : toF(p0 + randomInCube(rng, 1.5) * f.unit);
    out.radius = rng.u() < 0.05 ? 0.0f : float(rng.range(0.0, 0.8) * f.unit);
}

Sphere randomSphereNear(SplitMix64& rng, const Frame& f, const Capsule& cap) {
    Sphere s;
    const D3 on_axis = d3(cap.p0) + (d3(cap.p1) - d3(cap.p0)) * rng.u();
    s.center = toF(on_axis + randomInCube(rng, 1.2) * f.unit);
    s.radius = rng.u() < 0.05 ? 0.0f : float(rng.range(0.0, 0.8) * f.unit);
    return s;
}

TEST(CapsuleSphere, Random1M) {
    OracleTally tally("CapsuleSphere.Random1M", kSeed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(1000000); ++i) {
        SplitMix64 rng = caseRng(kSeed, i);
        const Frame f = randomFrame(rng);
        Capsule cap;
        randomCapsule(rng, f, cap);
        check(tally, i, cap, randomSphereNear(rng, f, cap));
    }
}

TEST(CapsuleSphere, Adversarial400k) {
    const std::uint64_t seed = kSeed + 1;
    OracleTally tally("CapsuleSphere.Adversarial400k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(400000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        Capsule cap;
        randomCapsule(rng, f, cap);
        Sphere s = randomSphereNear(rng, f, cap);
        const D3 p0 = d3(cap.p0), p1 = d3(cap.p1), d = p1 - p0;
        const int kind = int(i % 6);
        if (kind <= 1) { // touching the side or an end cap (exact in double), optionally nudged
            const double t = rng.range(-0.4, 1.4);
            const double tc = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
            D3 dir = randomUnit(rng);
            if (dot(d, d) > 0.0) {
                const D3 u = unitD(d);
                if (t > 0.0 && t < 1.0) dir = unitD(dir - u * dot(dir, u));             // perpendicular: side
                if (t <= 0.0 && dot(dir, u) > 0.0) dir = dir - u * (2.0 * dot(dir, u)); // away from p1
                if (t >= 1.0 && dot(dir, u) < 0.0) dir = dir - u * (2.0 * dot(dir, u)); // away from p0
            }
            double dist = double(cap.radius) + double(s.radius);
            if (kind == 1) dist += signedLogUniform(rng, -7.0, -3.0) * f.unit;
            s.center = toF(p0 + d * tc + dir * dist);
        } else if (kind == 2) { // centre exactly on p0, or on the axis up to rounding
            s.center = rng.u() < 0.5 ? cap.p0 : toF(p0 + d * rng.u());
        } else if (kind == 3) { // collinear, beyond an end
            s.center = toF(p0 + d * (rng.u() < 0.5 ? rng.range(-2.0, 0.0) : rng.range(1.0, 3.0)));
        } else if (kind == 4) { // zero radii: a point against a segment, on it exactly (axis-aligned)
            cap.radius = 0.0f;
            s.radius = 0.0f;
            const int axis = int(rng.next() % 3);
            cap.p1 = cap.p0;
            cap.p1[axis] = float(double(cap.p0[axis]) + rng.range(-1.0, 1.0) * f.unit);
            s.center = cap.p0;
            s.center[axis] =
                float(double(cap.p0[axis]) + (double(cap.p1[axis]) - double(cap.p0[axis])) * rng.u());
            check(tally, i, cap, s); // decisive distance 0: in band whichever way rounding goes
            continue;
        } else { // zero-length capsule (a sphere)
            cap.p1 = cap.p0;
        }
        check(tally, i, cap, s);
    }
}

TEST(CapsuleSphere, LargeAndSmallCoordinates200k) {
    const std::uint64_t seed = kSeed + 2;
    OracleTally tally("CapsuleSphere.LargeSmall200k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(200000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        Frame f;
        f.unit = (i & 1) ? 1.0 : 1e-4;
        f.origin = (i & 1) ? D3{1e6, -1e6, -1e6} : D3{};
        Capsule cap;
        randomCapsule(rng, f, cap);
        check(tally, i, cap, randomSphereNear(rng, f, cap));
    }
}

TEST(CapsuleSphere, NonFiniteAndNegativeNeverHit100k) {
    const std::uint64_t seed = kSeed + 3;
    OracleTally tally("CapsuleSphere.NonFinite100k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        Capsule cap;
        randomCapsule(rng, f, cap);
        Sphere s = randomSphereNear(rng, f, cap);
        float* slots[11] = {&cap.p0.x,   &cap.p0.y,   &cap.p0.z,   &cap.p1.x,   &cap.p1.y, &cap.p1.z,
                            &cap.radius, &s.center.x, &s.center.y, &s.center.z, &s.radius};
        const int k = int(rng.next() % 12);
        if (k < 11)
            *slots[k] = nonFinite(rng);
        else
            (rng.u() < 0.5 ? cap.radius : s.radius) = -1.0f;
        Contact c;
        c.depth = -1.0f;
        tally.countOnly();
        tally.require(i, !capsuleSphere(cap, s, c) && c.depth == -1.0f, "hit on invalid input",
                      [&] { return describe(cap, s); });
    }
}

TEST(CapsuleSphere, CentreOnAxisPushesSideways) {
    Contact c;
    ASSERT_TRUE(capsuleSphere(Capsule{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 4.0f}, 1.0f},
                              Sphere{{0.0f, 0.0f, 2.0f}, 0.5f}, c));
    EXPECT_EQ(c.depth, 1.5f);
    EXPECT_EQ(c.normal.z, 0.0f);
    EXPECT_NEAR(length(c.normal), 1.0f, 1e-6f);
    ASSERT_TRUE(capsuleSphere(Capsule{{1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f}, 1.0f},
                              Sphere{{1.0f, 1.0f, 1.0f}, 0.0f}, c));
    EXPECT_EQ(c.normal.x, 1.0f);
    // End cap touching exactly: closed sets.
    EXPECT_TRUE(capsuleSphere(Capsule{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 4.0f}, 1.0f},
                              Sphere{{0.0f, 0.0f, 6.0f}, 1.0f}, c));
    EXPECT_EQ(c.depth, 0.0f);
    EXPECT_FALSE(capsuleSphere(Capsule{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 4.0f}, 1.0f},
                               Sphere{{0.0f, 0.0f, 6.0f}, 0.999f}, c));
}

} // namespace
} // namespace flak
