// Oracle tests of gjkDistance and gjkIntersect against the double references of gjk_reference.h
// (closed forms for spheres, capsules and point-box; feature-pair minimum for boxes and hulls).
// Each case runs both kernels; the distance must match within the band, the witness points must
// lie on their shapes and realise the distance, the boolean may flip only within the band, and no
// well-formed case may end at the iteration cap.
#include <flak/geom/gjk.h>

#include "flak_support/gjk_families.h"
#include "geom/gjk_reference.h"
#include "support/case_count.h"
#include "support/oracle.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>

namespace flak {
namespace {

using namespace test;

const std::uint64_t kSeed = 0x61C0D157ull + oracleSeedOffset();

struct GjkTally : OracleTally {
    using OracleTally::OracleTally;
    int max_iterations = 0;
    int max_iterations_intersect = 0;
    long exits[6] = {0, 0, 0, 0, 0, 0};
};

bool runDistance(const TestPair& p, GjkResult& out) {
    if (p.a.transformed) return gjkDistance(p.a.shape, p.a.xf, p.b.shape, p.b.xf, out);
    return gjkDistance(p.a.shape, p.b.shape, out);
}
bool runIntersect(const TestPair& p, GjkInfo& info) {
    if (p.a.transformed) return gjkIntersect(p.a.shape, p.a.xf, p.b.shape, p.b.xf, &info);
    return gjkIntersect(p.a.shape, p.b.shape, &info);
}

D3 originOf(const TestPair& p) {
    if (p.a.transformed) return d3(p.a.xf.translation);
    Vec3 o;
    corePoint(p.a.shape, o);
    return d3(o);
}

bool checkPair(const TestPair& p, std::uint64_t seed, long index, GjkTally& tally) {
    ++tally.cases;
    const D3 origin = originOf(p);
    const RefShape ra = makeRef(p.a.shape, p.a.transform(), origin);
    const RefShape rb = makeRef(p.b.shape, p.b.transform(), origin);
    const double band = bandOf(std::max(refScale(ra, p.a.transformed), refScale(rb, p.b.transformed)));
    const double want = shapeDistance(ra, rb);
    GjkResult got{};
    const bool ok = runDistance(p, got);
    GjkInfo iinfo{};
    const bool inter = runIntersect(p, iinfo);
    if (got.overlap) ++tally.hits;
    auto fail = [&](const char* what, double x, double y) {
        ++tally.failures;
        std::printf("gjk %s: seed=%llu case=%ld (%.9g vs %.9g, band %g) distance=%.9g want=%.9g overlap=%d "
                    "intersect=%d iterations=%d exit=%d\n",
                    what, (unsigned long long)seed, index, x, y, band, double(got.distance), want,
                    int(got.overlap), int(inter), got.info.iterations, int(got.info.exit));
        std::printf("  point_a {%a, %a, %a} point_b {%a, %a, %a} normal {%a, %a, %a}\n",
                    double(got.point_a.x), double(got.point_a.y), double(got.point_a.z),
                    double(got.point_b.x), double(got.point_b.y), double(got.point_b.z), double(got.normal.x),
                    double(got.normal.y), double(got.normal.z));
        printShape("a", p.a);
        printShape("b", p.b);
        return false;
    };
    if (!ok) return fail("distance returned false", 0, 0);
    tally.max_iterations = std::max(tally.max_iterations, got.info.iterations);
    tally.max_iterations_intersect = std::max(tally.max_iterations_intersect, iinfo.iterations);
    ++tally.exits[int(got.info.exit)];
    if (got.info.exit == GjkExit::IterationCap)
        return fail("distance hit the iteration cap", got.info.iterations, 0);
    if (iinfo.exit == GjkExit::IterationCap)
        return fail("intersect hit the iteration cap", iinfo.iterations, 0);
    const double d = got.distance;
    if (want > 0.0 && want <= band) ++tally.in_band; // apart by no more than the band
    if (std::fabs(d - want) > band) return fail("distance", d, want);
    tally.noteError(std::fabs(d - want), band);
    if (got.overlap != (d == 0.0)) return fail("overlap flag != (distance == 0)", got.overlap, d);
    // The boolean test: a flip is forgiven only when the shapes are apart by at most the band or
    // overlap by at most the band.
    const bool want_overlap = want == 0.0;
    if (inter != want_overlap || got.overlap != want_overlap) {
        const double depth = want_overlap ? penetrationBound(ra, rb) : 0.0;
        if (want_overlap ? depth > band : want > band)
            return fail("overlap decision", want_overlap ? -depth : want, 0);
        ++tally.forgiven;
    }
    // Witness points: on their shapes, realising the distance.
    const double out_round = std::ldexp(std::max(maxAbs(d3(got.point_a)), maxAbs(d3(got.point_b))), -23);
    const D3 pa = d3(got.point_a) - origin, pb = d3(got.point_b) - origin;
    const double slack = band + 2.0 * out_round;
    if (!got.overlap || (p.a.shape.radius + p.b.shape.radius > 0.0 && len(d3(got.normal)) > 0.0)) {
        if (pointDistance(pa, ra) > slack) return fail("point_a off A", pointDistance(pa, ra), 0);
        if (pointDistance(pb, rb) > slack) return fail("point_b off B", pointDistance(pb, rb), 0);
    }
    if (!got.overlap) {
        if (std::fabs(len(pa - pb) - d) > slack)
            return fail("|point_a - point_b| != distance", len(pa - pb), d);
        if (std::fabs(len(d3(got.normal)) - 1.0) > 1e-5)
            return fail("normal not unit", len(d3(got.normal)), 1);
        if (len(pa - pb - d3(got.normal) * d) > slack) return fail("normal not along b->a", 0, 0);
    } else if (len(d3(got.normal)) == 0.0) {
        // Cores overlap: a point of each core (no depth information, see gjk.h).
        if (pointDistance(pa, ra) > slack || pointDistance(pb, rb) > slack)
            return fail("overlap points off their shapes", pointDistance(pa, ra), pointDistance(pb, rb));
    }
    return true;
}

void report(GjkTally& t) {
    t.print();
    std::printf("[%s] max iterations: distance %d, intersect %d (cap %d); exits converged=%ld overlap=%ld "
                "no-progress=%ld cap=%ld\n",
                t.name.c_str(), t.max_iterations, t.max_iterations_intersect, kMaxGjkIterations, t.exits[0],
                t.exits[2], t.exits[3], t.exits[4]);
}

TEST(GjkDistance, CheapPairs1M) {
    // Spheres, capsules and sphere-box: closed-form references, 1M cases.
    const ConvexKind pairs[][2] = {
        {ConvexKind::Sphere, ConvexKind::Sphere},  {ConvexKind::Sphere, ConvexKind::Capsule},
        {ConvexKind::Capsule, ConvexKind::Sphere}, {ConvexKind::Capsule, ConvexKind::Capsule},
        {ConvexKind::Sphere, ConvexKind::Box},     {ConvexKind::Box, ConvexKind::Sphere}};
    SplitMix64 rng(kSeed);
    GjkTally tally("GjkDistance.CheapPairs1M", kSeed);
    for (long i = 0; i < caseCount<long>(1000000) && !tally.failures; ++i) {
        const auto& k = pairs[i % 6];
        checkPair(randomPair(rng, k[0], k[1]), kSeed, i, tally);
    }
    report(tally);
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GT(tally.hits, tally.cases / 5);
    EXPECT_LT(tally.hits, tally.cases * 4 / 5);
}

TEST(GjkDistance, BoxAndHullPairs200k) {
    // Boxes and point hulls (up to 8 points) against everything: the feature-pair reference costs
    // tens of microseconds per case, so 200k cases keep the suite within its time budget.
    const ConvexKind kinds[] = {ConvexKind::Sphere, ConvexKind::Capsule, ConvexKind::Box, ConvexKind::Hull};
    SplitMix64 rng(kSeed + 1);
    GjkTally tally("GjkDistance.BoxAndHullPairs200k", kSeed + 1);
    long index = 0;
    while (index < caseCount<long>(200000) && !tally.failures) {
        const ConvexKind ka = kinds[rng.next() % 4], kb = kinds[rng.next() % 4];
        if (int(ka) < 2 && int(kb) < 2) continue; // cheap pairs: above
        if ((ka == ConvexKind::Sphere && kb == ConvexKind::Box) ||
            (kb == ConvexKind::Sphere && ka == ConvexKind::Box))
            continue;
        checkPair(randomPair(rng, ka, kb), kSeed + 1, index++, tally);
    }
    report(tally);
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GT(tally.hits, tally.cases / 5);
    EXPECT_LT(tally.hits, tally.cases * 4 / 5);
}

TEST(GjkDistance, DegenerateFamilies100k) {
    // Flat, collinear, single-point and duplicate-point hulls; huge size ratios (1e-4 .. 1e4);
    // identical shapes; exactly touching and deeply overlapping pairs.
    SplitMix64 rng(kSeed + 2);
    GjkTally tally("GjkDistance.DegenerateFamilies100k", kSeed + 2);
    const HullFamily fams[] = {HullFamily::Flat, HullFamily::Collinear, HullFamily::Point,
                               HullFamily::Duplicates, HullFamily::Generic};
    const ConvexKind kinds[] = {ConvexKind::Sphere, ConvexKind::Capsule, ConvexKind::Box, ConvexKind::Hull};
    for (long i = 0; i < caseCount<long>(100000) && !tally.failures; ++i) {
        const int family = int(i % 5);
        TestPair p;
        if (family <= 1) {
            p = randomPair(rng, ConvexKind::Hull, kinds[rng.next() % 4], fams[rng.next() % 5],
                           fams[rng.next() % 5]);
        } else if (family == 2) {
            p = randomPair(rng, kinds[rng.next() % 4], kinds[rng.next() % 4], HullFamily::Generic,
                           HullFamily::Generic, 4.0);
        } else if (family == 3) {
            // Identical shapes (distance 0, cores coincide).
            p = randomPair(rng, kinds[rng.next() % 4], ConvexKind::Sphere, fams[rng.next() % 5]);
            p.b = p.a;
        } else {
            // Exactly touching: B is A moved along a support direction by the sum of the supports
            // (in float, so touching up to rounding), or deep inside.
            p = randomPair(rng, kinds[rng.next() % 4], kinds[rng.next() % 4]);
            if (!p.a.transformed) {
                const Vec3 n = randomUnit(rng);
                Vec3 sa, sb, nb;
                supportPoint(p.a.shape, n, sa);
                scale(n, -1.0f, nb);
                supportPoint(p.b.shape, nb, sb);
                const float deep = rng.u() < 0.5 ? 1.0f : 0.5f;
                Vec3 move;
                sub(sa, sb, move);
                scale(move, deep, move);
                TestShape moved = p.b;
                add(moved.shape.center, move, moved.shape.center);
                if (moved.shape.kind == ConvexKind::Capsule)
                    add(moved.shape.extent, move, moved.shape.extent);
                for (Vec3& q : moved.points) add(q, move, q);
                moved.repoint();
                p.b = moved;
            }
        }
        checkPair(p, kSeed + 2, i, tally);
    }
    report(tally);
    EXPECT_EQ(tally.failures, 0);
}

TEST(GjkDistance, KnownValues) {
    ConvexShape a, b;
    makeBox(Obb{Vec3{0, 0, 0}, Vec3{1, 1, 1}, Mat33{}}, a);
    makeSphere(Sphere{Vec3{3, 0, 0}, 0.5f}, b);
    GjkResult r{};
    ASSERT_TRUE(gjkDistance(a, b, r));
    EXPECT_NEAR(r.distance, 1.5f, 1e-6f);
    EXPECT_NEAR(r.normal.x, -1.0f, 1e-6f);
    EXPECT_NEAR(r.point_a.x, 1.0f, 1e-6f);
    EXPECT_NEAR(r.point_b.x, 2.5f, 1e-6f);
    EXPECT_FALSE(gjkIntersect(a, b));
    // Face-to-face boxes, exactly touching.
    makeBox(Obb{Vec3{2, 0.5f, 0}, Vec3{1, 1, 1}, Mat33{}}, b);
    ASSERT_TRUE(gjkDistance(a, b, r));
    EXPECT_EQ(r.distance, 0.0f);
    EXPECT_TRUE(gjkIntersect(a, b));
    // Capsules crossing at right angles 1 apart, radii 0.25 each.
    makeCapsule(Capsule{Vec3{-1, 0, 0}, Vec3{1, 0, 0}, 0.25f}, a);
    makeCapsule(Capsule{Vec3{0, -1, 1}, Vec3{0, 1, 1}, 0.25f}, b);
    ASSERT_TRUE(gjkDistance(a, b, r));
    EXPECT_NEAR(r.distance, 0.5f, 1e-6f);
    EXPECT_NEAR(r.normal.z, -1.0f, 1e-6f);
}

TEST(GjkDistance, NonFiniteAndInvalid) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    ConvexShape good;
    makeBox(Obb{Vec3{0, 0, 0}, Vec3{1, 1, 1}, Mat33{}}, good);
    std::vector<Vec3> pts{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    for (float bad : {nan, inf, -inf}) {
        std::vector<ConvexShape> broken;
        ConvexShape s;
        makeSphere(Sphere{Vec3{bad, 0, 0}, 1.0f}, s);
        broken.push_back(s);
        makeSphere(Sphere{Vec3{0, 0, 0}, bad}, s);
        broken.push_back(s);
        makeCapsule(Capsule{Vec3{0, 0, 0}, Vec3{0, bad, 0}, 1.0f}, s);
        broken.push_back(s);
        makeBox(Obb{Vec3{0, 0, 0}, Vec3{1, bad, 1}, Mat33{}}, s);
        broken.push_back(s);
        Mat33 rot;
        rot.c1.z = bad;
        makeBox(Obb{Vec3{0, 0, 0}, Vec3{1, 1, 1}, rot}, s);
        broken.push_back(s);
        std::vector<Vec3> bad_pts = pts;
        bad_pts[2].z = bad;
        makeHull(bad_pts.data(), 3, s);
        broken.push_back(s);
        for (const ConvexShape& x : broken) {
            GjkResult r{};
            r.distance = 42.0f;
            EXPECT_FALSE(gjkDistance(x, good, r));
            EXPECT_FALSE(gjkDistance(good, x, r));
            EXPECT_EQ(r.distance, 42.0f);
            GjkInfo info{};
            EXPECT_FALSE(gjkIntersect(x, good, &info));
            EXPECT_EQ(info.exit, GjkExit::Invalid);
        }
        Transform xf;
        xf.translation.y = bad;
        GjkResult r{};
        EXPECT_FALSE(gjkDistance(good, xf, good, Transform{}, r));
        EXPECT_FALSE(gjkIntersect(good, Transform{}, good, xf));
    }
    ConvexShape s;
    makeSphere(Sphere{Vec3{0, 0, 0}, -1.0f}, s);
    GjkResult r{};
    EXPECT_FALSE(gjkDistance(s, good, r));
    makeHull(nullptr, 3, s);
    EXPECT_FALSE(gjkDistance(s, good, r));
    makeHull(pts.data(), 0, s);
    EXPECT_FALSE(gjkDistance(s, good, r));
    // Huge but finite coordinates: a result or false, never a hang (bounded by the cap).
    makeSphere(Sphere{Vec3{3e38f, 0, 0}, 1.0f}, s);
    GjkInfo info{};
    gjkIntersect(s, good, &info);
    EXPECT_LE(info.iterations, kMaxGjkIterations);
}

} // namespace
} // namespace flak
