// Oracle: prepareSegment / prepareRay / segmentAabb / segmentAabbOverlap against a double-precision
// Liang-Barsky clip (explicit branches for zero direction components), on a million random cases
// and adversarial families. Checks the conservative guarantee: the kernel never misses a box the
// reference hits unless the reference's own L-inf gap is at double-rounding level.
#include <flak/geom/segment_aabb.h>

#include "support/box_families.h"
#include "support/case_count.h"

#include <gtest/gtest.h>

namespace flak {
namespace {

using namespace test::box;
using namespace test;

constexpr std::uint64_t kSeed = 0x5A4B0400ull;
// Below this L-inf gap (relative to scale) the double reference itself may round either way.
constexpr double kDoubleLevel = 1e-12;

struct Query {
    Vec3 p0;
    Vec3 p1;  // segment end (segment queries)
    Vec3 dir; // ray direction (ray queries)
    float t_max = 1.0f;
    bool is_ray = false;
};

std::string describe(const Query& q, const Aabb& box) {
    if (q.is_ray)
        return "ray {" + hexv(q.p0) + ", dir " + hexv(q.dir) + ", t_max " + hexf(q.t_max) + "} box " +
               hexBox(box);
    return "segment {" + hexv(q.p0) + ", " + hexv(q.p1) + "} box " + hexBox(box);
}

struct Outcome {
    bool reference = false;
    bool kernel = false;
};

Outcome check(OracleTally& tally, long& boundary_misses, std::uint64_t index, const Query& q,
              const SlabSegment& prepared, const Aabb& box) {
    const D3 o = d3(q.p0);
    const D3 d = q.is_ray ? d3(q.dir) : d3(q.p1) - o;
    const double t_max = q.t_max;
    const Clip ref = clipReference(o, d, t_max, box, 0.0);
    const double scale =
        q.is_ray ? maxAbs(q.p0, toF(o + d * t_max), box.min, box.max) : maxAbs(q.p0, q.p1, box.min, box.max);
    auto text = [&] { return describe(q, box); };

    float t_enter = -7.0f, t_exit = -7.0f;
    const bool hit = segmentAabb(prepared, box, t_enter, t_exit);
    tally.require(index, hit == segmentAabbOverlap(prepared, box),
                  "segmentAabb and segmentAabbOverlap differ", text);
    if (hit != ref.hit) {
        const double size = 2.0 * (scale + 1.0);
        const double decisive =
            bisect([&](double s) { return clipReference(o, d, t_max, box, s).hit; }, -size, size);
        tally.decide(index, hit, ref.hit, decisive, scale, text);
        if (!hit) {
            // Conservative guarantee: a miss is allowed only where double rounding blurs the truth.
            tally.require(index, decisive > -kDoubleLevel * scale,
                          "conservative guarantee broken (missed a hit)", text);
            ++boundary_misses;
        }
    } else {
        tally.decide(index, hit, ref.hit, 0.0, scale, text);
    }
    if (hit) {
        tally.require(index, 0.0f <= t_enter && t_enter <= t_exit && t_exit <= q.t_max, "t out of order",
                      text);
        if (ref.hit) {
            const double len = std::fmax(std::fabs(d.x), std::fmax(std::fabs(d.y), std::fabs(d.z)));
            const double tol = bandOf(scale);
            tally.require(index, std::fabs(t_enter - ref.enter) * len <= tol, "entry t off", text);
            tally.require(index, std::fabs(t_exit - ref.exit) * len <= tol, "exit t off", text);
        }
    } else {
        tally.require(index, t_enter == -7.0f && t_exit == -7.0f, "outputs written on a miss", text);
    }
    return Outcome{ref.hit, hit};
}

Outcome checkSegment(OracleTally& tally, long& boundary_misses, std::uint64_t index, const Vec3& p0,
                     const Vec3& p1, const Aabb& box) {
    Query q;
    q.p0 = p0;
    q.p1 = p1;
    SlabSegment s;
    prepareSegment(p0, p1, s);
    return check(tally, boundary_misses, index, q, s, box);
}

TEST(SegmentAabb, Random1M) {
    // 62,500 prepared segments, each reused against 16 boxes, as a BVH walk reuses it.
    OracleTally tally("SegmentAabb.Random1M", kSeed);
    long boundary = 0;
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(62500); ++i) {
        SplitMix64 rng = caseRng(kSeed, i);
        const Frame f = randomFrame(rng);
        Query q;
        // Segments that pass near the frame's centre, where the boxes are.
        const D3 from = randomInCube(rng, 2.5);
        q.p0 = toF(f.origin + from * f.unit);
        const double back = rng.range(0.2, 1.0);
        const D3 jitter = randomInCube(rng, 1.0);
        q.p1 = rng.u() < 0.03 ? q.p0 : toF(f.origin + (from * -back + jitter) * f.unit);
        SlabSegment prepared;
        prepareSegment(q.p0, q.p1, prepared);
        for (std::uint64_t k = 0; k < 16; ++k) {
            Aabb box;
            D3 bc;
            randomBox(rng, f, box, bc);
            check(tally, boundary, i * 16 + k, q, prepared, box);
        }
    }
    tally.note("misses at double level", boundary);
}

// Segments with one or two direction components exactly zero, their origin on a slab plane, one
// ulp inside or outside it, or anywhere; grazing segments lying in a face plane; segments ending
// exactly on a face (a hit at t = 1 by rule 1).
TEST(SegmentAabb, ZeroDirectionAndGrazing300k) {
    const std::uint64_t seed = kSeed + 1;
    OracleTally tally("SegmentAabb.ZeroDirection300k", seed);
    long boundary = 0;
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(300000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        Aabb box;
        D3 bc;
        randomBox(rng, f, box, bc);
        Vec3 p0 = toF(bc + randomInCube(rng, 2.0) * f.unit);
        Vec3 p1 = toF(bc + randomInCube(rng, 2.0) * f.unit);
        const int kind = int(i % 3);
        if (kind < 2) {
            const int zero_axes = 1 + int(rng.next() % 2);
            const int first = int(rng.next() % 3);
            for (int z = 0; z < zero_axes; ++z) {
                const int axis = (first + z) % 3;
                float v = 0.0f;
                switch (rng.next() % 6) {
                case 0: v = box.min[axis]; break;
                case 1: v = box.max[axis]; break;
                case 2: v = std::nextafter(box.min[axis], -INFINITY); break;
                case 3: v = std::nextafter(box.max[axis], INFINITY); break;
                case 4: v = std::nextafter(box.min[axis], INFINITY); break;
                default: v = float(rng.range(box.min[axis], box.max[axis])); break;
                }
                p0[axis] = v;
                p1[axis] = kind == 0 ? v : -0.0f + v; // kind 1: the same value (direction +0)
            }
            checkSegment(tally, boundary, i, p0, p1, box);
            checkSegment(tally, boundary, i, p1, p0, box); // reversed: -0 and +0 directions
        } else {
            // Ends exactly on a face, coming from outside that face: hit at t = 1.
            const int axis = int(rng.next() % 3);
            const bool at_max = rng.u() < 0.5;
            for (int k = 0; k < 3; ++k) p1[k] = float(rng.range(box.min[k], box.max[k]));
            p1[axis] = at_max ? box.max[axis] : box.min[axis];
            p0[axis] = float(double(p1[axis]) + (at_max ? 1.0 : -1.0) * rng.range(0.01, 2.0) * f.unit);
            const Outcome out = checkSegment(tally, boundary, i, p0, p1, box);
            tally.require(i, out.kernel, "segment ending on a face missed", [&] {
                return describe(Query{p0, p1, {}, 1.0f, false}, box);
            });
        }
    }
    tally.note("misses at double level", boundary);
}

// Small integers times a power of two: every coordinate, difference and comparison is exact, and
// exact touches (corners, edges, faces, endpoints) are common. The reference is exact here, so the
// kernel must agree exactly where it hits and may only add hits within the band.
TEST(SegmentAabb, IntegerGridExact300k) {
    const std::uint64_t seed = kSeed + 2;
    OracleTally tally("SegmentAabb.IntegerGrid300k", seed);
    long boundary = 0, exact_touches = 0;
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(300000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const float unit = std::ldexp(1.0f, int(rng.next() % 31) - 14);
        auto grid = [&](int lo, int hi) {
            return float(lo + int(rng.next() % std::uint64_t(hi - lo + 1))) * unit;
        };
        Aabb box;
        for (int k = 0; k < 3; ++k) {
            const float a = grid(0, 4), b = grid(0, 4);
            box.min[k] = a < b ? a : b;
            box.max[k] = a < b ? b : a;
        }
        Vec3 p0, p1;
        for (int k = 0; k < 3; ++k) {
            p0[k] = grid(-3, 7);
            p1[k] = grid(-3, 7);
        }
        const Outcome out = checkSegment(tally, boundary, i, p0, p1, box);
        tally.require(i, !out.reference || out.kernel, "exact hit missed", [&] {
            return describe(Query{p0, p1, {}, 1.0f, false}, box);
        });
        if (out.reference) {
            const D3 o = d3(p0), d = d3(p1) - o;
            if (!clipReference(o, d, 1.0, box, -1e-9 * double(unit)).hit) ++exact_touches;
        }
    }
    tally.note("exact touches", exact_touches);
    EXPECT_EQ(boundary, 0);
}

TEST(SegmentAabb, Ray200k) {
    const std::uint64_t seed = kSeed + 3;
    OracleTally tally("SegmentAabb.Ray200k", seed);
    long boundary = 0;
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(200000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        Aabb box;
        D3 bc;
        randomBox(rng, f, box, bc);
        Query q;
        q.is_ray = true;
        q.p0 = toF(bc + randomInCube(rng, 2.0) * f.unit);
        // Aimed near the box, with a length scale of its own and a reach of 0.3 to 1.5 times the
        // distance to the aim point.
        const D3 aim = bc + randomInCube(rng, 1.5) * f.unit;
        const double dir_scale = std::pow(10.0, rng.range(-2.0, 2.0));
        q.dir = toF((aim - d3(q.p0)) * (dir_scale / f.unit));
        if (rng.u() < 0.2) q.dir[int(rng.next() % 3)] = 0.0f;
        q.t_max = float(rng.range(0.3, 1.5) * f.unit / dir_scale);
        SlabSegment prepared;
        prepareRay(q.p0, q.dir, q.t_max, prepared);
        check(tally, boundary, i, q, prepared, box);
    }
    tally.note("misses at double level", boundary);
}

TEST(SegmentAabb, LargeAndSmallCoordinates200k) {
    const std::uint64_t seed = kSeed + 4;
    OracleTally tally("SegmentAabb.LargeSmall200k", seed);
    long boundary = 0;
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(200000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        Frame f;
        f.unit = (i & 1) ? 1.0 : 1e-4;
        f.origin = (i & 1) ? D3{1e6, 1e6, -1e6} : D3{};
        Aabb box;
        D3 bc;
        randomBox(rng, f, box, bc);
        const D3 from = randomInCube(rng, 2.5);
        const Vec3 p0 = toF(bc + from * f.unit);
        const double back = rng.range(0.2, 1.0);
        const D3 jitter = randomInCube(rng, 1.0);
        const Vec3 p1 = toF(bc + (from * -back + jitter) * f.unit);
        checkSegment(tally, boundary, i, p0, p1, box);
    }
    tally.note("misses at double level", boundary);
}

TEST(SegmentAabb, NonFiniteAndInvalidNeverHit100k) {
    const std::uint64_t seed = kSeed + 5;
    OracleTally tally("SegmentAabb.NonFinite100k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        Aabb box;
        D3 bc;
        randomBox(rng, f, box, bc);
        Vec3 p0 = toF(bc + randomInCube(rng, 1.0) * f.unit), p1 = toF(bc + randomInCube(rng, 1.0) * f.unit);
        float t_max = 1.0f;
        float* slots[13] = {&p0.x,      &p0.y,      &p0.z,      &p1.x,      &p1.y,      &p1.z, &box.min.x,
                            &box.min.y, &box.min.z, &box.max.x, &box.max.y, &box.max.z, &t_max};
        const int k = int(rng.next() % 15);
        if (k < 13) {
            *slots[k] = nonFinite(rng);
        } else if (k == 13) {
            t_max = -1.0f;
        } else {
            std::swap(box.min.x, box.max.x);
            if (box.min.x == box.max.x) box.max.x = box.min.x - (std::fabs(box.min.x) * 0.01f + 1.0f);
        }
        SlabSegment s;
        Vec3 dir;
        sub(p1, p0, dir);
        if (k == 12 || k == 13)
            prepareRay(p0, dir, t_max, s);
        else
            prepareSegment(p0, p1, s);
        float a = -7.0f, b = -7.0f;
        tally.countOnly();
        tally.require(i,
                      !segmentAabb(s, box, a, b) && a == -7.0f && b == -7.0f && !segmentAabbOverlap(s, box),
                      "hit on invalid input", [&] {
                          return "segment {" + hexv(p0) + ", " + hexv(p1) + "} t_max " + hexf(t_max) +
                                 " box " + hexBox(box);
                      });
    }
}

TEST(SegmentAabb, KnownValues) {
    const Aabb box{{0.0f, 0.0f, 0.0f}, {2.0f, 2.0f, 2.0f}};
    SlabSegment s;
    float a = 0.0f, b = 0.0f;
    prepareSegment(Vec3{-1.0f, 1.0f, 1.0f}, Vec3{3.0f, 1.0f, 1.0f}, s);
    ASSERT_TRUE(segmentAabb(s, box, a, b));
    EXPECT_EQ(a, 0.25f);
    EXPECT_EQ(b, 0.75f);
    // Origin exactly on the x = 0 plane, direction x exactly 0: inside the closed slab.
    prepareSegment(Vec3{0.0f, -1.0f, 1.0f}, Vec3{0.0f, 3.0f, 1.0f}, s);
    ASSERT_TRUE(segmentAabb(s, box, a, b));
    EXPECT_EQ(a, 0.25f);
    EXPECT_EQ(b, 0.75f);
    // The same one ulp outside: a miss.
    prepareSegment(Vec3{-1e-30f, -1.0f, 1.0f}, Vec3{-1e-30f, 3.0f, 1.0f}, s);
    EXPECT_FALSE(segmentAabbOverlap(s, box));
    // Starting inside: entry 0.
    prepareSegment(Vec3{1.0f, 1.0f, 1.0f}, Vec3{1.0f, 1.0f, 5.0f}, s);
    ASSERT_TRUE(segmentAabb(s, box, a, b));
    EXPECT_EQ(a, 0.0f);
    EXPECT_EQ(b, 0.25f);
    // A point on a corner.
    prepareSegment(Vec3{2.0f, 2.0f, 2.0f}, Vec3{2.0f, 2.0f, 2.0f}, s);
    ASSERT_TRUE(segmentAabb(s, box, a, b));
    EXPECT_EQ(a, 0.0f);
    // Ending exactly on the face: t = 1.
    prepareSegment(Vec3{-3.0f, 1.0f, 1.0f}, Vec3{0.0f, 1.0f, 1.0f}, s);
    ASSERT_TRUE(segmentAabb(s, box, a, b));
    EXPECT_EQ(a, 1.0f);
    EXPECT_EQ(b, 1.0f);
}

} // namespace
} // namespace flak
