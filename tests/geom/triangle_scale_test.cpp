// The triangle kernels at every scale a float holds. Multiplying every input by a power of two is
// exact, so a kernel whose answers depend only on the shapes must give the same decision, and
// outputs scaled by the same power, bit for bit. The kernels whose squares or higher powers would
// underflow or overflow far from unit scale rescale their local frame (unitScaleFactor in
// runtime/src/geom/triangle_local.h); before that, sweptSphereTriangle answered wrongly from about
// 2^-30 and 2^35, segmentTriangle from 2^-50 and 2^50, sphereTriangle from 2^-60 and
// triangleAabbOverlap from 2^-70. triTriOverlap needs no rescaling up to 2^40, the largest
// coordinates a blob holds (from 2^50 its products overflow).
#include <flak/geom/segment_triangle.h>
#include <flak/geom/sphere_triangle.h>
#include <flak/geom/swept_sphere_triangle.h>
#include <flak/geom/tri_tri.h>
#include <flak/geom/triangle_aabb.h>

#include "flak_support/split_mix.h"
#include "support/case_count.h"
#include "support/same_bits.h"
#include "support/scaled.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

namespace flak::test {
namespace {

// Every output of a RayHit at scale f against the same hit at unit scale: t, u, v and the normal
// as they are, the point times f.
bool sameHit(const RayHit& unit, const RayHit& at, float f) {
    return sameBits(unit.t, at.t) && sameBits(unit.u, at.u) && sameBits(unit.v, at.v) &&
           sameBits(unit.normal, at.normal) && sameBits(scaled(unit.point, f), at.point);
}

TEST(TriangleKernelScale, EveryPowerOfTwoAnswersAlike) {
    // From 2^-90 (inputs of 2^-100 stay normal floats) to 2^60 (squares stay below FLT_MAX only
    // after rescaling); 0 is the reference and +-20 the edges of the range left untouched.
    const int exponents[] = {-90, -70, -60, -50, -40, -35, -30, -21, -20, 20, 21, 30, 35, 40, 50, 60};
    SplitMix64 rng(0x5CA1E0001ull);
    long compared = 0, hits = 0;
    for (int i = 0; i < caseCount(20000); ++i) {
        Vec3 v[8];
        for (Vec3& p : v) p = Vec3{rng.rangef(-1, 1), rng.rangef(-1, 1), rng.rangef(-1, 1)};
        const float radius = rng.rangef(0, 1), swept_radius = rng.rangef(0, 0.3);
        Aabb box;
        box.min = Vec3{rng.rangef(-0.5, 0), rng.rangef(-0.5, 0), rng.rangef(-0.5, 0)};
        box.max = Vec3{rng.rangef(0, 0.5), rng.rangef(0, 0.5), rng.rangef(0, 0.5)};
        Contact sphere_unit;
        RayHit fast_unit, watertight_unit, swept_unit;
        const bool sphere = sphereTriangle(Sphere{v[3], radius}, v[0], v[1], v[2], sphere_unit);
        const bool fast = segmentTriangle(v[3], v[4], v[0], v[1], v[2], fast_unit);
        const bool watertight = segmentTriangleWatertight(v[3], v[4], v[0], v[1], v[2], watertight_unit);
        const bool swept = sweptSphereTriangle(v[3], v[4], swept_radius, v[0], v[1], v[2], swept_unit);
        const bool overlap = triangleAabbOverlap(v[0], v[1], v[2], box);
        const bool pair = triTriOverlap(v[0], v[1], v[2], v[5], v[6], v[7]);
        hits += sphere + fast + watertight + swept + overlap + pair;
        for (const int e : exponents) {
            const float f = std::ldexp(1.0f, e);
            Vec3 s[8];
            for (int k = 0; k < 8; ++k) s[k] = scaled(v[k], f);
            Aabb sbox;
            sbox.min = scaled(box.min, f);
            sbox.max = scaled(box.max, f);
            Contact contact;
            RayHit hit;
            ASSERT_EQ(sphereTriangle(Sphere{s[3], radius * f}, s[0], s[1], s[2], contact), sphere)
                << "case " << i << " 2^" << e;
            if (sphere) {
                ASSERT_TRUE(sameBits(contact.depth, sphere_unit.depth * f) &&
                            sameBits(contact.point, scaled(sphere_unit.point, f)) &&
                            sameBits(contact.normal, sphere_unit.normal))
                    << "case " << i << " 2^" << e;
            }
            ASSERT_EQ(segmentTriangle(s[3], s[4], s[0], s[1], s[2], hit), fast) << "case " << i << " 2^" << e;
            if (fast) {
                ASSERT_TRUE(sameHit(fast_unit, hit, f)) << "case " << i << " 2^" << e;
            }
            ASSERT_EQ(segmentTriangleWatertight(s[3], s[4], s[0], s[1], s[2], hit), watertight)
                << "case " << i << " 2^" << e;
            if (watertight) {
                ASSERT_TRUE(sameHit(watertight_unit, hit, f)) << "case " << i << " 2^" << e;
            }
            ASSERT_EQ(sweptSphereTriangle(s[3], s[4], swept_radius * f, s[0], s[1], s[2], hit), swept)
                << "case " << i << " 2^" << e;
            if (swept) {
                ASSERT_TRUE(sameHit(swept_unit, hit, f)) << "case " << i << " 2^" << e;
            }
            ASSERT_EQ(triangleAabbOverlap(s[0], s[1], s[2], sbox), overlap) << "case " << i << " 2^" << e;
            compared += 5;
            if (e <= 40) {
                ASSERT_EQ(triTriOverlap(s[0], s[1], s[2], s[5], s[6], s[7]), pair)
                    << "case " << i << " 2^" << e;
                ++compared;
            }
        }
    }
    std::printf("[triangle scale] %ld kernel answers at 16 powers of two equal to unit scale's, bit for bit "
                "(%ld hits at unit scale)\n",
                compared, hits);
}

// Coplanar pairs take tri-tri's 2D test, whose edge-line products are squares of coordinate
// differences: below about 2^-75 they fell under float's range, no edge separated, and pairs
// apart overlapped. Random pairs in one axis plane (random in-plane coordinates; the plane's
// coordinate shared, so the pair is exactly coplanar), and the pair that showed it, at every
// power of two tri-tri covers.
TEST(TriangleKernelScale, CoplanarTriTriAnswersAlike) {
    const int exponents[] = {-90, -80, -75, -70, -60, -50, -40, -30, -20, 20, 30, 40};
    std::vector<std::array<Vec3, 6>> pairs;
    pairs.push_back({Vec3{1.5f, -0.5f, -0.5f}, Vec3{-1.0f, -0.5f, 1.5f}, Vec3{-1.0f, -0.5f, 1.0f},
                     Vec3{-0.5f, -0.5f, -0.5f}, Vec3{0.5f, -0.5f, 0.0f}, Vec3{-1.5f, -0.5f, -0.5f}});
    SplitMix64 rng(0xC0B1A4E5ull);
    for (int i = 0; i < caseCount(4000); ++i) {
        std::array<Vec3, 6> t;
        const int axis = i % 3;
        const float plane = rng.rangef(-1, 1);
        for (Vec3& p : t) {
            p = Vec3{rng.rangef(-1, 1), rng.rangef(-1, 1), rng.rangef(-1, 1)};
            p[axis] = plane;
        }
        pairs.push_back(t);
    }
    long compared = 0, overlapping = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const std::array<Vec3, 6>& v = pairs[i];
        const bool unit = triTriOverlap(v[0], v[1], v[2], v[3], v[4], v[5]);
        overlapping += unit;
        if (i == 0) {
            EXPECT_FALSE(unit); // 0.086 apart in their plane
        }
        for (const int e : exponents) {
            const float f = std::ldexp(1.0f, e);
            Vec3 s[6];
            for (int k = 0; k < 6; ++k) s[k] = scaled(v[k], f);
            ASSERT_EQ(triTriOverlap(s[0], s[1], s[2], s[3], s[4], s[5]), unit) << "pair " << i << " 2^" << e;
            Vec3 start, end;
            bool coplanar = false;
            ASSERT_EQ(triTriIntersection(s[0], s[1], s[2], s[3], s[4], s[5], start, end, coplanar), unit)
                << "pair " << i << " 2^" << e;
            ++compared;
        }
    }
    std::printf("[triangle scale] %ld coplanar tri-tri answers at 12 powers of two equal to unit scale's "
                "(%ld of %zu pairs overlap)\n",
                compared, overlapping, pairs.size());
}

} // namespace
} // namespace flak::test
