// Oracle test of sweptSphereTriangle. The reference needs no time-of-impact solver: the distance
// from the moving centre to the (convex) triangle is a convex function of t, so
// - the sphere touches the triangle during [0, 1] iff the segment c0-c1 comes within r of it
//   (segment-triangle distance, double), and
// - a reported time t is right iff the centre at t is within r (+ band) of the triangle and the
//   sub-segment c0-c(t) never came closer than r (- band): touching at t, no deeper before.
#include <flak/geom/swept_sphere_triangle.h>
#include <flak/geom/triangle_normal.h>

#include "flak_support/triangle_families.h"
#include "support/case_count.h"
#include "support/triangle_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>

namespace flak::test {
namespace {

constexpr std::uint64_t kSeed = 0x5EED7A5004ull;

struct SweepCase {
    Tri t;
    Vec3 c0, c1;
    float radius = 0.0f;
};

void pack(const SweepCase& k, float* in) {
    const Vec3* v[5] = {&k.c0, &k.c1, &k.t.a, &k.t.b, &k.t.c};
    for (int i = 0; i < 5; ++i) {
        in[3 * i] = v[i]->x;
        in[3 * i + 1] = v[i]->y;
        in[3 * i + 2] = v[i]->z;
    }
    in[15] = k.radius;
}

void checkCase(OracleTally& tally, std::uint64_t index, const SweepCase& k) {
    float in[16];
    pack(k, in);
    ++tally.cases;
    const DTri T = dtri(k.t.a, k.t.b, k.t.c);
    const D3 A = T.a, C0 = d3(k.c0), C1 = d3(k.c1), d = C1 - C0;
    const double r = k.radius;
    const double scale = std::max({maxAbs(T.b - A), maxAbs(T.c - A), maxAbs(C0 - A), maxAbs(C1 - A), r});
    const double band = bandOf(scale);
    const double closest = segmentTriangleDistance(C0, C1, T);
    const bool ref = closest <= r;
    RayHit hit;
    const bool got = sweptSphereTriangle(k.c0, k.c1, k.radius, k.t.a, k.t.b, k.t.c, hit);
    tally.hits += ref;
    if (got != ref)
        tally.disagree(index, closest - r, band, in, 16,
                       got ? "hit where the reference misses" : "missed hit");
    if (!(got && ref)) return;

    const double t = hit.t;
    tally.check(index, std::max(-t, t - 1.0), 0.0, in, 16, "t outside [0, 1]");
    const D3 ct = C0 + d * t;
    const double gap_at_t = pointTriangleDistance(ct, T) - r;
    if (t == 0.0) {
        tally.check(index, gap_at_t, band, in, 16, "t = 0 but not touching at the start");
    } else {
        tally.check(index, gap_at_t, band, in, 16, "not touching at the reported t");
        tally.check(index, -(segmentTriangleDistance(C0, ct, T) - r), band, in, 16,
                    "overlapped before the reported t");
    }
    const D3 pt = d3(hit.point);
    const double tol = band + outputRounding(pt) + outputRounding(ct);
    const D3 q = closestOnTriangle(ct, T);
    const double dq = len(ct - q);
    tally.check(index, pointTriangleDistance(pt, T), tol, in, 16, "contact point off the triangle");
    tally.check(index, len(ct - pt) - dq, tol, in, 16, "contact point is not the closest point at t");
    const D3 n = cross(T.b - T.a, T.c - T.a);
    if (len(n) > 0.0) {
        const double lmax = std::max({len(T.b - T.a), len(T.c - T.b), len(T.a - T.c)});
        const D3 rec = T.a + (T.b - T.a) * hit.u + (T.c - T.a) * hit.v;
        tally.check(index, len(rec - pt), tol + 8.0 * FLT_EPSILON * scale * lmax * lmax / len(n), in, 16,
                    "barycentrics do not reproduce the point");
    }
    const D3 nf = d3(hit.normal);
    tally.check(index, std::fabs(len(nf) - 1.0), 1e-5, in, 16, "normal not unit");
    // The normal points from the contact point to the centre. Compared with the kernel's own point
    // (checked above to be a closest point within tolerance) rather than the reference's: when the
    // sweep grazes along a face at height r, face and edge are equally close and the closest point
    // itself moves far under a band-sized change, while this pairing stays exact.
    const double dp = len(ct - pt);
    if (dp > 1e3 * tol && dq > 1e3 * tol) {
        tally.check(index, len(nf - (ct - pt) * (1.0 / dp)), 4.0 * tol / dp + 1e-5, in, 16,
                    "normal direction");
        // A first contact after t = 0 faces against the motion.
        if (t > 0.0)
            tally.check(index, dot(nf, d) / len(d), 1e-5 + 4.0 * tol / dq, in, 16, "normal along the motion");
    }
}

SweepCase randomCase(SplitMix64& rng, Shape shape = Shape::Random) {
    SweepCase k;
    k.t = makeShape(rng, shape, 1.0);
    k.c0 = randomPoint(rng, 2.0);
    const Vec3 target = randomPoint(rng, 0.5, randomPointOn(rng, k.t));
    const double s = rng.range(0.3, 2.0);
    k.c1 = vec(k.c0.x + (static_cast<double>(target.x) - k.c0.x) * s,
               k.c0.y + (static_cast<double>(target.y) - k.c0.y) * s,
               k.c0.z + (static_cast<double>(target.z) - k.c0.z) * s);
    k.radius = rng.rangef(0.0, 0.5);
    return k;
}

enum class SweepFamily {
    Grazing,
    ParallelToFace,
    AlongEdge,
    StartsOverlapping,
    ZeroRadius,
    ZeroMotion,
    Count
};
const char* familyName(SweepFamily f) {
    switch (f) {
    case SweepFamily::Grazing: return "grazing";
    case SweepFamily::ParallelToFace: return "parallel to face";
    case SweepFamily::AlongEdge: return "along an edge";
    case SweepFamily::StartsOverlapping: return "starts overlapping";
    case SweepFamily::ZeroRadius: return "zero radius";
    default: return "zero motion";
    }
}

SweepCase familyCase(SplitMix64& rng, SweepFamily f, Shape shape, const Placement& where) {
    SweepCase k = randomCase(rng, shape);
    const DTri T = dtri(k.t.a, k.t.b, k.t.c);
    switch (f) {
    case SweepFamily::ParallelToFace: {
        D3 n = cross(T.b - T.a, T.c - T.a);
        if (len(n) > 0.0) {
            n = n * (1.0 / len(n));
            const D3 on = d3(randomPointOn(rng, k.t));
            const D3 c0 = on + n * rng.range(-0.5, 0.5);
            double dir[3];
            randomDirection(rng, dir);
            D3 m{dir[0], dir[1], dir[2]};
            m = m - n * dot(m, n);
            const D3 c1 = c0 + m * rng.range(0.0, 2.0);
            const D3 s0 = c0 - m * rng.range(0.0, 2.0);
            k.c0 = vec(s0.x, s0.y, s0.z);
            k.c1 = vec(c1.x, c1.y, c1.z);
        }
        break;
    }
    case SweepFamily::AlongEdge: {
        const D3 e = T.b - T.a;
        double dir[3];
        randomDirection(rng, dir);
        const D3 off = D3{dir[0], dir[1], dir[2]} * rng.range(0.0, 0.4);
        const D3 c0 = T.a - e * rng.range(0.0, 1.0) + off, c1 = T.b + e * rng.range(-0.5, 1.0) + off;
        k.c0 = vec(c0.x, c0.y, c0.z);
        k.c1 = vec(c1.x, c1.y, c1.z);
        break;
    }
    case SweepFamily::StartsOverlapping: {
        const D3 c0 = d3(randomPointOn(rng, k.t));
        double dir[3];
        randomDirection(rng, dir);
        const D3 p = c0 + D3{dir[0], dir[1], dir[2]} * rng.range(0.0, 0.3);
        k.c0 = vec(p.x, p.y, p.z);
        break;
    }
    case SweepFamily::ZeroRadius: k.radius = 0.0f; break;
    case SweepFamily::ZeroMotion: k.c1 = k.c0; break;
    default: break;
    }
    k.t = place(where, k.t);
    k.c0 = place(where, k.c0);
    k.c1 = place(where, k.c1);
    k.radius = static_cast<float>(k.radius * where.scale);
    if (f == SweepFamily::ZeroMotion) k.c1 = k.c0;
    // Radius within a hair of the closest approach (grazing), or of the starting distance.
    const DTri P = dtri(k.t.a, k.t.b, k.t.c);
    if (f == SweepFamily::Grazing || f == SweepFamily::ParallelToFace || f == SweepFamily::AlongEdge ||
        (f != SweepFamily::ZeroRadius && rng.u() < 0.3)) {
        const double closest = segmentTriangleDistance(d3(k.c0), d3(k.c1), P);
        const double pick = rng.u();
        double r = pick < 0.2 ? closest : closest * (1.0 + signedLogUniform(rng, -8.0, -2.0));
        if (f == SweepFamily::StartsOverlapping)
            r = pointTriangleDistance(d3(k.c0), P) * (1.0 + 0.5 * rng.u());
        k.radius = static_cast<float>(std::max(r, 0.0));
    }
    return k;
}

// Exact grid constructions: a zero-radius or small sphere whose centre passes exactly through a
// vertex, an edge point or a face point.
SweepCase gridCase(SplitMix64& rng) {
    SweepCase k;
    k.t = {gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8)};
    int i = static_cast<int>(rng.next() % 17u), j = static_cast<int>(rng.next() % 17u);
    if (i + j > 16) {
        i = 16 - i;
        j = 16 - j;
    }
    if (rng.u() < 0.5) j = 16 - i;
    const Vec3 q = pointOn(k.t, i, j, 4);
    const Vec3 d = gridPoint(rng, 1.0, 4);
    k.c0 =
        vec(q.x - static_cast<double>(d.x), q.y - static_cast<double>(d.y), q.z - static_cast<double>(d.z));
    k.c1 =
        vec(q.x + static_cast<double>(d.x), q.y + static_cast<double>(d.y), q.z + static_cast<double>(d.z));
    k.radius = rng.u() < 0.5 ? 0.0f : gridCoord(rng, 0.25, 6) + 0.25f;
    return k;
}

TEST(SweptSphereTriangle, Random1M) {
    OracleTally tally("swept sphere random", kSeed);
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

TEST(SweptSphereTriangle, AdversarialFamilies) {
    long failures = 0;
    std::uint64_t seed = kSeed + 1;
    for (int f = 0; f < static_cast<int>(SweepFamily::Count); ++f) {
        for (const Placement& where : kPlacements) {
            char name[96];
            std::snprintf(name, sizeof name, "%s %s", familyName(static_cast<SweepFamily>(f)), where.name);
            OracleTally tally(name, ++seed);
            for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(6000); ++i) {
                SplitMix64 rng = caseRng(tally.seed, i + 1);
                const Shape shape = static_cast<Shape>(rng.next() % static_cast<unsigned>(Shape::Count));
                checkCase(tally, i, familyCase(rng, static_cast<SweepFamily>(f), shape, where));
            }
            tally.print();
            failures += tally.failures;
        }
    }
    OracleTally grid("exact grid (through vertices/edges)", ++seed);
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(50000); ++i) {
        SplitMix64 rng = caseRng(grid.seed, i + 1);
        checkCase(grid, i, gridCase(rng));
    }
    grid.print();
    failures += grid.failures;
    EXPECT_EQ(failures, 0);
}

TEST(SweptSphereTriangle, NonFiniteInputsGiveNoHit) {
    long bad = 0;
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(kSeed + 99, i + 1);
        const SweepCase k = randomCase(rng);
        float in[16];
        pack(k, in);
        poison(rng, in, 16);
        RayHit hit;
        hit.t = 7.0f;
        const bool any =
            sweptSphereTriangle({in[0], in[1], in[2]}, {in[3], in[4], in[5]}, in[15], {in[6], in[7], in[8]},
                                {in[9], in[10], in[11]}, {in[12], in[13], in[14]}, hit);
        if (any || hit.t != 7.0f) {
            if (++bad <= 5) ADD_FAILURE() << "case " << i << " inputs " << hexInputs(in, 16);
        }
    }
    std::printf("  non-finite inputs: 100000 cases, %ld with a hit\n", bad);
    EXPECT_EQ(bad, 0);
    RayHit hit;
    EXPECT_FALSE(
        sweptSphereTriangle(Vec3{}, Vec3{1, 0, 0}, -1.0f, Vec3{}, Vec3{1, 0, 0}, Vec3{0, 1, 0}, hit));
}

TEST(SweptSphereTriangle, DocumentedCases) {
    RayHit hit;
    const Vec3 a{0, 0, 0}, b{1, 0, 0}, c{0, 1, 0};
    // Face contact: falling onto the face from above.
    ASSERT_TRUE(sweptSphereTriangle(Vec3{0.25f, 0.25f, 2.0f}, Vec3{0.25f, 0.25f, -2.0f}, 0.5f, a, b, c, hit));
    EXPECT_FLOAT_EQ(hit.t, 0.375f);
    EXPECT_EQ(hit.normal.z, 1.0f);
    EXPECT_FLOAT_EQ(hit.point.x, 0.25f);
    // Initially overlapping: t = 0, normal from the closest point towards c0.
    ASSERT_TRUE(sweptSphereTriangle(Vec3{0.25f, 0.25f, 0.1f}, Vec3{5, 5, 5}, 0.5f, a, b, c, hit));
    EXPECT_EQ(hit.t, 0.0f);
    EXPECT_EQ(hit.normal.z, 1.0f);
    // Centre starting exactly on the face, moving up: face normal turned against the motion.
    ASSERT_TRUE(sweptSphereTriangle(Vec3{0.25f, 0.25f, 0.0f}, Vec3{0.25f, 0.25f, 1.0f}, 0.5f, a, b, c, hit));
    EXPECT_EQ(hit.t, 0.0f);
    EXPECT_EQ(hit.normal.z, -1.0f);
    // Edge contact: moving along -y towards edge ab from beyond it, at the height of the radius.
    ASSERT_TRUE(sweptSphereTriangle(Vec3{0.5f, -2.0f, 0.0f}, Vec3{0.5f, 2.0f, 0.0f}, 0.5f, a, b, c, hit));
    EXPECT_FLOAT_EQ(hit.t, 0.375f);
    EXPECT_NEAR(hit.normal.y, -1.0f, 1e-6f);
    // Zero radius through the face: a segment test.
    ASSERT_TRUE(sweptSphereTriangle(Vec3{0.2f, 0.2f, 1.0f}, Vec3{0.2f, 0.2f, -1.0f}, 0.0f, a, b, c, hit));
    EXPECT_FLOAT_EQ(hit.t, 0.5f);
    // Stops short.
    EXPECT_FALSE(sweptSphereTriangle(Vec3{0.2f, 0.2f, 2.0f}, Vec3{0.2f, 0.2f, 1.0f}, 0.5f, a, b, c, hit));
    // Zero radius through a vertex or an edge: the face normal turned against the motion (the
    // offset from the contact to the centre is rounding there, and gave any direction).
    const Vec3 a2{-0x1.531ecp-4f, -0x1.262becp-1f, 0x1.62393cp-1f},
        b2{-0x1.a71854p-1f, -0x1.46583p-4f, -0x1.fba71p-3f},
        c2{-0x1.c5faep-5f, 0x1.1537a4p-1f, -0x1.670644p-1f};
    const Vec3 from{-0x1.4df91cp-1f, 0x1.6c007ap-1f, -0x1.0776aap+0f},
        to{-0x1.001bc6p+0f, -0x1.bd9686p-1f, 0x1.1119ccp-1f};
    ASSERT_TRUE(sweptSphereTriangle(from, to, 0.0f, a2, b2, c2, hit));
    Vec3 face, motion;
    ASSERT_TRUE(computeTriangleNormal(a2, b2, c2, face));
    sub(to, from, motion);
    if (dot(face, motion) > 0.0f) negate(face, face);
    EXPECT_NEAR(dot(hit.normal, face), 1.0f, 1e-6f);
    EXPECT_LT(dot(hit.normal, motion), 0.0f);
}

// Slivers 0.5 and 1 long and FLT_TRUE_MIN thick (found by the blob fuzz target): their edge
// functions' terms with the thickness underflow, so a sweep through a sliver's line beyond its end
// met edge functions of zero (or the thickness itself) at the plane and was taken as a face hit at
// t = 0.33, where the segment passes 0.0096 from the triangle. A sliver whose height is below
// 2^-20 of its longest edge is decided by its edges and vertices: no hit at radius 0, and for
// larger radii, and thicker slivers, the reference's answer.
TEST(SweptSphereTriangle, SliversAreDecidedByTheirEdges) {
    const Vec3 c0{-0.988281429f, -1.0f, -0.988281429f}, c1{1.99999976f, 1.98828125f, 1.99999976f};
    RayHit hit;
    EXPECT_FALSE(sweptSphereTriangle(c0, c1, 0.0f, Vec3{-0.0f, 0.5f, 0.0f}, Vec3{0.0f, 0x1p-29f, 0.0f},
                                     Vec3{0.0f, 0.0f, FLT_TRUE_MIN}, hit));
    EXPECT_FALSE(sweptSphereTriangle(c0, c1, 0.0f, Vec3{0.0f, 1.0f, 0.0f}, Vec3{0.0f, 0.0f, 0.0f},
                                     Vec3{0.0f, 0.0f, FLT_TRUE_MIN}, hit));
    OracleTally tally("swept sphere slivers", kSeed);
    std::uint64_t index = 0;
    for (const float thickness : {FLT_TRUE_MIN, 1e-30f, 1e-10f, 0x1p-21f, 0x1p-19f, 1e-3f}) {
        for (const float top : {0.5f, 1.0f}) {
            SweepCase k;
            k.t = Tri{Vec3{0.0f, top, 0.0f}, Vec3{0.0f, 0x1p-29f, 0.0f}, Vec3{0.0f, 0.0f, thickness}};
            k.c0 = c0;
            k.c1 = c1;
            for (const float radius : {0.0f, 0.005f, 0.0095f, 0.0097f, 0.012f, 0.02f, 0.1f}) {
                k.radius = radius;
                checkCase(tally, index++, k);
            }
        }
    }
    tally.print();
    EXPECT_EQ(tally.failures, 0);
    // Random slivers 1 long on a coordinate plane (so that a denormal thickness is held), and
    // sweeps that often lie in that plane and cross the sliver's line: 9,161 of these 200,000
    // failed with the face test that took every point with edge functions >= 0.
    OracleTally random("swept sphere random slivers", kSeed + 7);
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(200000); ++i) {
        SplitMix64 rng = caseRng(random.seed, i + 1);
        const float thickness =
            i % 4 == 0 ? FLT_TRUE_MIN : (i % 4 == 1 ? 1e-44f : (i % 4 == 2 ? 1e-30f : 1e-7f));
        const int along = static_cast<int>(rng.next() % 3),
                  across = (along + 1 + static_cast<int>(rng.next() % 2)) % 3;
        SweepCase k;
        k.t.a = Vec3{rng.rangef(-0.1, 0.1), rng.rangef(-0.1, 0.1), rng.rangef(-0.1, 0.1)};
        k.t.a[across] = 0.0f;
        k.t.b = k.t.a;
        k.t.c = k.t.a;
        k.t.b[along] += 1.0f;
        k.t.c[along] += rng.rangef(0, 1);
        k.t.c[across] = rng.next() % 2 ? thickness : -thickness;
        k.c0 = Vec3{rng.rangef(-1, 1), rng.rangef(-1, 1), rng.rangef(-1, 1)};
        k.c1 = Vec3{rng.rangef(-1, 1), rng.rangef(-1, 1), rng.rangef(-1, 1)};
        if (rng.next() % 2) k.c0[across] = k.c1[across] = 0.0f;
        if (rng.next() % 2) {
            const int third = 3 - along - across;
            const float m = rng.rangef(0, 1);
            k.c0[third] = k.t.a[third] - m;
            k.c1[third] = k.t.a[third] + m;
        }
        k.radius = rng.rangef(0, 0.2);
        checkCase(random, i, k);
    }
    random.print();
    EXPECT_EQ(random.failures, 0);
}

} // namespace
} // namespace flak::test
