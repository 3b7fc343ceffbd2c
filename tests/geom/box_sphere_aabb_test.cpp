// Oracle: sphereAabbOverlap / sphereAabb / sphereAabbBoundsOverlap against a double-precision
// signed distance, on a million random cases and adversarial families.
#include <flak/geom/sphere_aabb.h>

#include "support/box_families.h"
#include "support/case_count.h"

#include <gtest/gtest.h>

namespace flak {
namespace {

using namespace test::box;
using namespace test;

constexpr std::uint64_t kSeed = 0x5A4B0001ull;

struct Case {
    Sphere sphere;
    Aabb box;
};

std::string describe(const Case& c) {
    return "sphere {" + hexv(c.sphere.center) + ", " + hexf(c.sphere.radius) + "} box " + hexBox(c.box);
}

// Signed Euclidean distance from p to the box (negative inside: minus the nearest face distance).
double signedDistance(const D3& p, const Aabb& box) {
    double out_sq = 0.0, inside = std::numeric_limits<double>::infinity();
    bool outside = false;
    for (int i = 0; i < 3; ++i) {
        const double lo = box.min[i], hi = box.max[i];
        if (p[i] < lo) {
            out_sq += (lo - p[i]) * (lo - p[i]);
            outside = true;
        } else if (p[i] > hi) {
            out_sq += (p[i] - hi) * (p[i] - hi);
            outside = true;
        } else {
            inside = std::fmin(inside, std::fmin(p[i] - lo, hi - p[i]));
        }
    }
    return outside ? std::sqrt(out_sq) : -inside;
}

// The real-arithmetic bounds test as a signed L-inf gap between [c - r, c + r] and the box (c +- r
// in double is exact for these inputs' exponent range). Hit when <= 0.
double boundsGap(const Case& c) {
    double gap = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < 3; ++i) {
        const double ci = c.sphere.center[i], r = c.sphere.radius;
        gap = std::fmax(gap, std::fmax((ci - r) - double(c.box.max[i]), double(c.box.min[i]) - (ci + r)));
    }
    return gap;
}

void check(OracleTally& tally, OracleTally& bounds_tally, std::uint64_t index, const Case& c,
           long& bounds_extra) {
    const D3 center = d3(c.sphere.center);
    const double r = c.sphere.radius;
    const double decisive = signedDistance(center, c.box) - r;
    const bool reference = decisive <= 0.0;
    const double scale = maxAbs(c.sphere.center, c.sphere.radius, c.box.min, c.box.max);
    const double tol = bandOf(scale);
    auto text = [&] { return describe(c); };

    const bool hit = sphereAabbOverlap(c.sphere, c.box);
    tally.decide(index, hit, reference, decisive, scale, text);

    Contact contact;
    contact.depth = -1.0f;
    const bool contact_hit = sphereAabb(c.sphere, c.box, contact);
    tally.require(index, contact_hit == hit, "sphereAabb decides unlike sphereAabbOverlap", text);
    if (contact_hit) {
        const D3 n = d3(contact.normal), p = d3(contact.point);
        const double depth = contact.depth;
        tally.require(index, std::fabs(len(n) - 1.0) <= 1e-5, "normal not unit", text);
        tally.require(index, depth >= 0.0, "negative depth", text);
        tally.require(index, std::fabs(depth - std::fmax(0.0, -decisive)) <= tol, "depth off", text);
        tally.require(index, std::fabs(signedDistance(p, c.box)) <= tol, "point not on the box surface",
                      text);
        // centre = point + normal * (r - depth): outside, the distance; inside, minus the face distance.
        tally.require(index, len(p + n * (r - depth) - center) <= 2.0 * tol,
                      "point/normal/depth inconsistent", text);
    } else {
        tally.require(index, contact.depth == -1.0f, "contact written on a miss", text);
    }

    // Conservative form: never false where the exact kernel or real arithmetic says true.
    const bool bounds = sphereAabbBoundsOverlap(c.sphere, c.box);
    const double gap = boundsGap(c);
    bounds_tally.decide(index, bounds, gap <= 0.0, gap, scale, text);
    bounds_tally.require(index, bounds || gap > 0.0, "bounds test rejects a real bounds hit", text);
    bounds_tally.require(index, bounds || !hit, "bounds test rejects an exact-kernel hit", text);
    bounds_tally.require(index, bounds || !reference, "bounds test rejects a real hit", text);
    if (bounds && !hit) ++bounds_extra;
}

Case randomCase(SplitMix64& rng) {
    const Frame f = randomFrame(rng);
    Case c;
    D3 bc;
    randomBox(rng, f, c.box, bc);
    c.sphere.center = toF(bc + randomInCube(rng, 1.6) * f.unit);
    c.sphere.radius = rng.u() < 0.05 ? 0.0f : float(rng.range(0.0, 1.5) * f.unit);
    return c;
}

// Touching a face, an edge or a corner region (exact in double, then rounded), centre inside,
// centre exactly on a face, zero radius, zero extents.
Case adversarialCase(SplitMix64& rng, int& out_kind) {
    const Frame f = randomFrame(rng);
    Case c;
    D3 bc;
    randomBox(rng, f, c.box, bc);
    const double r = rng.u() < 0.1 ? 0.0 : rng.range(0.0, 1.5) * f.unit;
    c.sphere.radius = float(r);
    const int kind = int(rng.next() % 4);
    out_kind = kind;
    D3 q, n;
    int nonzero = 0;
    for (int i = 0; i < 3; ++i) {
        const int region = int(rng.next() % 3) - 1;
        const double lo = c.box.min[i], hi = c.box.max[i];
        q[i] = region < 0 ? lo : (region > 0 ? hi : rng.range(lo, hi));
        n[i] = region * rng.range(0.05, 1.0);
        nonzero += region != 0;
    }
    if (nonzero == 0) n[0] = 1.0, q[0] = c.box.max[0];
    n = unitD(n);
    if (kind == 0) { // touching: centre at distance r from the closest box point
        c.sphere.center = toF(q + n * double(c.sphere.radius));
    } else if (kind == 1) { // touching, nudged by a relative 1e-7 .. 1e-3 in or out
        const double nudge = signedLogUniform(rng, -7.0, -3.0);
        c.sphere.center = toF(q + n * (double(c.sphere.radius) + nudge * f.unit));
    } else if (kind == 2) { // centre inside the box
        for (int i = 0; i < 3; ++i) c.sphere.center[i] = float(rng.range(c.box.min[i], c.box.max[i]));
    } else { // centre exactly on the surface (a face, edge or corner)
        c.sphere.center = toF(q);
        for (int i = 0; i < 3; ++i) {
            if (c.sphere.center[i] < c.box.min[i]) c.sphere.center[i] = c.box.min[i];
            if (c.sphere.center[i] > c.box.max[i]) c.sphere.center[i] = c.box.max[i];
        }
    }
    return c;
}

TEST(SphereAabb, Random1M) {
    OracleTally tally("SphereAabb.Random1M", kSeed);
    OracleTally bounds("SphereAabbBounds.Random1M", kSeed);
    long extra = 0;
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(1000000); ++i) {
        SplitMix64 rng = caseRng(kSeed, i);
        check(tally, bounds, i, randomCase(rng), extra);
    }
    bounds.note("bounds-only yes", extra);
}

TEST(SphereAabb, Adversarial400k) {
    const std::uint64_t seed = kSeed + 1;
    OracleTally tally("SphereAabb.Adversarial400k", seed);
    OracleTally bounds("SphereAabbBounds.Adversarial400k", seed);
    long extra = 0;
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(400000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        int kind = 0;
        const Case c = adversarialCase(rng, kind);
        check(tally, bounds, i, c, extra);
        // Exact constructions: a centre on the closed box is a hit whatever the radius.
        if (kind == 2 || kind == 3)
            tally.require(i, sphereAabbOverlap(c.sphere, c.box), "centre on or in the box missed",
                          [&] { return describe(c); });
    }
    bounds.note("bounds-only yes", extra);
}

TEST(SphereAabb, LargeAndSmallCoordinates200k) {
    const std::uint64_t seed = kSeed + 2;
    OracleTally tally("SphereAabb.LargeSmall200k", seed);
    OracleTally bounds("SphereAabbBounds.LargeSmall200k", seed);
    long extra = 0;
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(200000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        // Unit-size features at 1e6 from the origin, and 1e-4-size features at the origin.
        Frame f;
        f.unit = (i & 1) ? 1.0 : 1e-4;
        f.origin = (i & 1) ? D3{1e6, -1e6, 1e6} : D3{};
        Case c;
        D3 bc;
        randomBox(rng, f, c.box, bc);
        c.sphere.center = toF(bc + randomInCube(rng, 2.0) * f.unit);
        c.sphere.radius = float(rng.range(0.0, 1.5) * f.unit);
        check(tally, bounds, i, c, extra);
    }
}

TEST(SphereAabb, NonFiniteAndInvalidNeverHit100k) {
    const std::uint64_t seed = kSeed + 3;
    OracleTally tally("SphereAabb.NonFinite100k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        Case c = randomCase(rng);
        float* slots[10] = {&c.sphere.center.x, &c.sphere.center.y, &c.sphere.center.z, &c.sphere.radius,
                            &c.box.min.x,       &c.box.min.y,       &c.box.min.z,       &c.box.max.x,
                            &c.box.max.y,       &c.box.max.z};
        const int k = int(rng.next() % 12);
        if (k < 10) {
            *slots[k] = nonFinite(rng);
        } else if (k == 10) {
            c.sphere.radius = -c.sphere.radius - 1.0f; // negative radius
        } else {
            std::swap(c.box.min.y, c.box.max.y); // inverted box
            if (c.box.min.y == c.box.max.y)
                c.box.max.y = c.box.min.y - (std::fabs(c.box.min.y) * 0.01f + 1.0f);
        }
        Contact contact;
        contact.depth = -1.0f;
        tally.countOnly();
        auto text = [&] { return describe(c); };
        tally.require(i, !sphereAabbOverlap(c.sphere, c.box), "hit on invalid input", text);
        tally.require(i, !sphereAabb(c.sphere, c.box, contact) && contact.depth == -1.0f,
                      "contact on invalid input", text);
        tally.require(i, !sphereAabbBoundsOverlap(c.sphere, c.box), "bounds hit on invalid input", text);
    }
}

TEST(SphereAabb, DistanceSqMatchesArvo) {
    const Aabb box{{-1.0f, -2.0f, -3.0f}, {1.0f, 2.0f, 3.0f}};
    EXPECT_EQ(distanceSq(Vec3{0.0f, 0.0f, 0.0f}, box), 0.0f);
    EXPECT_EQ(distanceSq(Vec3{2.0f, 0.0f, 0.0f}, box), 1.0f);
    EXPECT_EQ(distanceSq(Vec3{2.0f, 3.0f, -5.0f}, box), 1.0f + 1.0f + 4.0f);
    EXPECT_EQ(distanceSq(Vec3{1.0f, 2.0f, 3.0f}, box), 0.0f);
}

TEST(SphereAabb, ContactFacesAndTies) {
    const Aabb box{{0.0f, 0.0f, 0.0f}, {4.0f, 4.0f, 4.0f}};
    Contact c;
    // Centre inside, nearest face +y.
    ASSERT_TRUE(sphereAabb(Sphere{{2.0f, 3.5f, 2.0f}, 1.0f}, box, c));
    EXPECT_EQ(c.normal.y, 1.0f);
    EXPECT_EQ(c.point.y, 4.0f);
    EXPECT_EQ(c.depth, 1.5f);
    // Exact tie at the centre: lowest axis, min face.
    ASSERT_TRUE(sphereAabb(Sphere{{2.0f, 2.0f, 2.0f}, 1.0f}, box, c));
    EXPECT_EQ(c.normal.x, -1.0f);
    EXPECT_EQ(c.depth, 3.0f);
    // Touching from outside: depth 0, normal along the offset.
    ASSERT_TRUE(sphereAabb(Sphere{{6.0f, 2.0f, 2.0f}, 2.0f}, box, c));
    EXPECT_EQ(c.depth, 0.0f);
    EXPECT_EQ(c.normal.x, 1.0f);
    EXPECT_FALSE(sphereAabb(Sphere{{6.0f, 2.0f, 2.0f}, 1.999f}, box, c));
    // Point sphere on a corner.
    ASSERT_TRUE(sphereAabb(Sphere{{4.0f, 4.0f, 0.0f}, 0.0f}, box, c));
    EXPECT_EQ(c.depth, 0.0f);
    // Corner region: the bounds test says yes, the exact test no.
    const Sphere corner{{5.0f, 5.0f, 2.0f}, 1.2f};
    EXPECT_TRUE(sphereAabbBoundsOverlap(corner, box));
    EXPECT_FALSE(sphereAabbOverlap(corner, box));
}

} // namespace
} // namespace flak
