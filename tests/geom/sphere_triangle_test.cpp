// Oracle tests of closestPointOnTriangle and sphereTriangle against a double-precision reference
// (tests/support/triangle_reference.h) on a million random cases and the adversarial families.
#include <flak/geom/closest_point_triangle.h>
#include <flak/geom/sphere_triangle.h>

#include "flak_support/triangle_families.h"
#include "support/case_count.h"
#include "support/triangle_reference.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace flak::test {
namespace {

constexpr std::uint64_t kSeed = 0x5EED7A5001ull;

struct SphereCase {
    Tri t;
    Vec3 center;
    float radius = 0.0f;
};

void pack(const SphereCase& k, float* in) {
    const Vec3* v[4] = {&k.t.a, &k.t.b, &k.t.c, &k.center};
    for (int i = 0; i < 4; ++i) {
        in[3 * i] = v[i]->x;
        in[3 * i + 1] = v[i]->y;
        in[3 * i + 2] = v[i]->z;
    }
    in[12] = k.radius;
}

double longestEdge(const DTri& t) { return std::max({len(t.b - t.a), len(t.c - t.b), len(t.a - t.c)}); }

void checkCase(OracleTally& tally, std::uint64_t index, const SphereCase& k) {
    float in[13];
    pack(k, in);
    ++tally.cases;
    const DTri T = dtri(k.t.a, k.t.b, k.t.c);
    const D3 A = T.a, P = d3(k.center);
    const double r = k.radius;
    const double scale = std::max({maxAbs(T.b - A), maxAbs(T.c - A), maxAbs(P - A), r});
    const double band = bandOf(scale);
    const D3 q = closestOnTriangle(P, T);
    const double d = len(P - q);
    const bool ref = d <= r;

    Contact contact;
    const bool got = sphereTriangle(Sphere{k.center, k.radius}, k.t.a, k.t.b, k.t.c, contact);
    tally.hits += ref;
    if (got != ref)
        tally.disagree(index, d - r, band, in, 13, got ? "hit where the reference misses" : "missed hit");

    // closestPointOnTriangle: on the triangle, as close as the closest, barycentrics consistent.
    Vec3 cp;
    float u = -1.0f, v = -1.0f;
    if (!closestPointOnTriangle(k.center, k.t.a, k.t.b, k.t.c, cp, u, v)) {
        tally.check(index, 1.0, 0.0, in, 13, "closestPointOnTriangle refused finite input");
        return;
    }
    const D3 CP = d3(cp);
    const double tol_pt = band + outputRounding(CP);
    tally.check(index, pointTriangleDistance(CP, T), tol_pt, in, 13, "closest point off the triangle");
    tally.check(index, len(P - CP) - d, tol_pt, in, 13, "closest point farther than the closest");
    tally.check(
        index, std::max({-static_cast<double>(u), -static_cast<double>(v), static_cast<double>(u) + v - 1.0}),
        1e-6, in, 13, "barycentrics outside the triangle");
    // Barycentrics reproduce the point up to their conditioning: across a sliver a tiny move changes
    // them a lot, so the allowance grows with kappa = longest edge^2 / (2 area) (1 to 2 for a
    // well-shaped triangle).
    const D3 n = cross(T.b - A, T.c - A);
    if (len(n) > 0.0) {
        const double lmax = longestEdge(T);
        const double kappa = lmax * lmax / len(n);
        const D3 rec = A + (T.b - A) * u + (T.c - A) * v;
        tally.check(index, len(rec - CP), tol_pt + 8.0 * FLT_EPSILON * scale * kappa, in, 13,
                    "barycentrics do not reproduce the point");
    }

    if (got && ref) {
        const D3 pt = d3(contact.point);
        const double tol = band + outputRounding(pt);
        tally.check(index, pointTriangleDistance(pt, T), tol, in, 13, "contact point off the triangle");
        tally.check(index, len(P - pt) - d, tol, in, 13, "contact point not the closest");
        tally.check(index, std::fabs(static_cast<double>(contact.depth) - (r - d)), band, in, 13, "depth");
        const D3 nf = d3(contact.normal);
        tally.check(index, std::fabs(len(nf) - 1.0), 1e-5, in, 13, "normal not unit");
        // Within the band of the triangle the direction is rounding noise (any unit vector is
        // in tolerance); the documented exact cases are checked in DocumentedNormals.
        if (d > 1e3 * band)
            tally.check(index, len(nf - (P - q) * (1.0 / d)), 4.0 * tol / d + 1e-5, in, 13,
                        "normal direction");
    }
}

SphereCase randomCase(SplitMix64& rng) {
    SphereCase k;
    k.t = makeShape(rng, Shape::Random, 1.0);
    k.center = randomPoint(rng, 1.0);
    k.radius = rng.rangef(0.0, 1.0);
    return k;
}

// A centre near a vertex, an edge or the face (or exactly on it), and a radius within a hair of
// its true distance: the cases where the answer is decided by the last bits.
SphereCase familyCase(SplitMix64& rng, Shape shape, const Placement& where) {
    SphereCase k;
    const Tri t = makeShape(rng, shape, 1.0);
    Vec3 target;
    const unsigned region = static_cast<unsigned>(rng.next() % 3u);
    if (region == 0u) {
        target = rng.u() < 0.5 ? t.a : t.b;
    } else if (region == 1u) {
        const double s = rng.u();
        target = vec(t.a.x + (static_cast<double>(t.b.x) - t.a.x) * s,
                     t.a.y + (static_cast<double>(t.b.y) - t.a.y) * s,
                     t.a.z + (static_cast<double>(t.b.z) - t.a.z) * s);
    } else {
        target = randomPointOn(rng, t);
    }
    double dir[3];
    randomDirection(rng, dir);
    const double dist = rng.u() < 0.1 ? 0.0 : logUniform(rng, -6.0, 0.0);
    const Vec3 centre = vec(target.x + dir[0] * dist, target.y + dir[1] * dist, target.z + dir[2] * dist);
    k.t = place(where, t);
    k.center = place(where, centre);
    const double d = pointTriangleDistance(d3(k.center), dtri(k.t.a, k.t.b, k.t.c));
    const double pick = rng.u();
    if (pick < 0.2)
        k.radius = static_cast<float>(d);
    else if (pick < 0.9)
        k.radius = static_cast<float>(d * (1.0 + signedLogUniform(rng, -8.0, -2.0)));
    else
        k.radius = static_cast<float>(where.scale * rng.range(0.0, 0.5));
    if (!(k.radius >= 0.0f)) k.radius = 0.0f;
    return k;
}

// Exact grid constructions: the centre exactly on a vertex, an edge or the face, or exactly above
// a face point along an axis-aligned normal.
SphereCase gridCase(SplitMix64& rng) {
    SphereCase k;
    const bool flat = rng.u() < 0.5;
    k.t = {gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8)};
    if (flat) k.t.a.z = k.t.b.z = k.t.c.z = gridCoord(rng, 1.0, 8); // plane z = const: exact normal
    const int m = 4;
    int i = static_cast<int>(rng.next() % 17u), j = static_cast<int>(rng.next() % 17u);
    if (i + j > 16) {
        i = 16 - i;
        j = 16 - j;
    }
    k.center = pointOn(k.t, i, j, m);
    if (flat && rng.u() < 0.5) k.center.z += gridCoord(rng, 0.5, 6);
    const double d = pointTriangleDistance(d3(k.center), dtri(k.t.a, k.t.b, k.t.c));
    k.radius = rng.u() < 0.5 ? static_cast<float>(d) : gridCoord(rng, 0.5, 6) + 0.5f;
    return k;
}

TEST(SphereTriangle, Random1M) {
    OracleTally tally("sphere-triangle random", kSeed);
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(1000000); ++i) {
        SplitMix64 rng = caseRng(kSeed, i + 1);
        checkCase(tally, i, randomCase(rng));
    }
    tally.print();
    EXPECT_EQ(tally.failures, 0);
    const double frac = static_cast<double>(tally.hits) / static_cast<double>(tally.cases);
    EXPECT_GT(frac, 0.2);
    EXPECT_LT(frac, 0.8);
}

TEST(SphereTriangle, AdversarialFamilies) {
    long failures = 0;
    std::uint64_t seed = kSeed + 1;
    for (int s = 0; s < static_cast<int>(Shape::Count); ++s) {
        for (const Placement& where : kPlacements) {
            char name[96];
            std::snprintf(name, sizeof name, "%s %s", shapeName(static_cast<Shape>(s)), where.name);
            OracleTally tally(name, ++seed);
            for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(8000); ++i) {
                SplitMix64 rng = caseRng(tally.seed, i + 1);
                checkCase(tally, i, familyCase(rng, static_cast<Shape>(s), where));
            }
            tally.print();
            failures += tally.failures;
        }
    }
    OracleTally grid("exact grid (centre on the triangle)", ++seed);
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(50000); ++i) {
        SplitMix64 rng = caseRng(grid.seed, i + 1);
        checkCase(grid, i, gridCase(rng));
    }
    grid.print();
    failures += grid.failures;
    EXPECT_EQ(failures, 0);
}

TEST(SphereTriangle, NonFiniteInputsGiveNoContact) {
    long bad = 0;
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(kSeed + 99, i + 1);
        SphereCase k = randomCase(rng);
        float in[13];
        pack(k, in);
        poison(rng, in, 13);
        const Vec3 a{in[0], in[1], in[2]}, b{in[3], in[4], in[5]}, c{in[6], in[7], in[8]},
            p{in[9], in[10], in[11]};
        Contact contact;
        contact.depth = 123.0f;
        Vec3 cp;
        float u = 0.0f, v = 0.0f;
        const bool hit = sphereTriangle(Sphere{p, in[12]}, a, b, c, contact);
        const bool closest = closestPointOnTriangle(p, a, b, c, cp, u, v);
        // closestPointOnTriangle has no radius: a poisoned radius alone leaves it valid.
        const bool radius_only = std::isfinite(in[0] + in[1] + in[2] + in[3] + in[4] + in[5] + in[6] + in[7] +
                                               in[8] + in[9] + in[10] + in[11]);
        if (hit || contact.depth != 123.0f || (closest && !radius_only)) {
            if (++bad <= 5) ADD_FAILURE() << "case " << i << " inputs " << hexInputs(in, 13);
        }
    }
    std::printf("  non-finite inputs: 100000 cases, %ld with a contact\n", bad);
    EXPECT_EQ(bad, 0);
    // A negative radius is invalid input too.
    Contact contact;
    EXPECT_FALSE(sphereTriangle(Sphere{Vec3{}, -1.0f}, Vec3{}, Vec3{1, 0, 0}, Vec3{0, 1, 0}, contact));
}

TEST(SphereTriangle, DocumentedNormals) {
    Contact contact;
    // Centre exactly on the face: the face normal of the winding.
    ASSERT_TRUE(sphereTriangle(Sphere{Vec3{0.25f, 0.25f, 0.0f}, 0.5f}, Vec3{}, Vec3{1, 0, 0}, Vec3{0, 1, 0},
                               contact));
    EXPECT_EQ(contact.normal.z, 1.0f);
    EXPECT_EQ(contact.depth, 0.5f);
    // Zero-area triangle along x, centre on it: a unit normal perpendicular to the segment.
    ASSERT_TRUE(
        sphereTriangle(Sphere{Vec3{0.5f, 0.0f, 0.0f}, 0.1f}, Vec3{}, Vec3{1, 0, 0}, Vec3{2, 0, 0}, contact));
    EXPECT_EQ(contact.normal.x, 0.0f);
    EXPECT_NEAR(length(contact.normal), 1.0f, 1e-6f);
    // Centre on the face of a tilted triangle: plus or minus the face normal.
    ASSERT_TRUE(sphereTriangle(Sphere{Vec3{0.25f, 0.25f, 0.25f}, 0.5f}, Vec3{}, Vec3{1, 0, 0.5f},
                               Vec3{0, 1, 0.5f}, contact));
    EXPECT_NEAR(std::fabs(contact.normal.z), 1.0f / std::sqrt(1.5f), 1e-6f);
    EXPECT_NEAR(std::fabs(contact.normal.x), 0.5f / std::sqrt(1.5f), 1e-6f);
    // Centre exactly on an edge: the face normal as wound.
    ASSERT_TRUE(
        sphereTriangle(Sphere{Vec3{0.5f, 0.0f, 0.0f}, 0.5f}, Vec3{}, Vec3{1, 0, 0}, Vec3{0, 1, 0}, contact));
    EXPECT_EQ(contact.normal.z, 1.0f);
    // Touching counts (closed sets): distance exactly equal to the radius.
    EXPECT_TRUE(sphereTriangle(Sphere{Vec3{0.25f, 0.25f, 2.0f}, 2.0f}, Vec3{}, Vec3{1, 0, 0}, Vec3{0, 1, 0},
                               contact));
    EXPECT_EQ(contact.depth, 0.0f);
}

} // namespace
} // namespace flak::test
