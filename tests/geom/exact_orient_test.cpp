// The exact orientation sign of four float points (the tri-tri kernel's fallback for plane sides
// within their own rounding): points constructed exactly on a plane give 0, one ulp off it gives
// the side it was moved to, at every scale from denormal to 2^100; full-mantissa points near a
// plane get an exact integer reference's sign; swapping two points flips the sign; and wherever a
// double evaluation is far from its rounding error, the signs agree.
#include "geom/exact_orient.h"

#include "flak_support/triangle_families.h"
#include "support/case_count.h"

#include "support/scaled.h"

#include <gtest/gtest.h>

#include <cmath>

namespace flak::test {
namespace {

using detail::exactOrientSign;
using detail::exactOrientSignExpanded;

double orientDouble(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, double& out_bound) {
    const double bx = double(b.x) - a.x, by = double(b.y) - a.y, bz = double(b.z) - a.z;
    const double cx = double(c.x) - a.x, cy = double(c.y) - a.y, cz = double(c.z) - a.z;
    const double dx = double(d.x) - a.x, dy = double(d.y) - a.y, dz = double(d.z) - a.z;
    const double nx = by * cz - bz * cy, ny = bz * cx - bx * cz, nz = bx * cy - by * cx;
    out_bound =
        1e-12 *
        ((std::fabs(dx) + std::fabs(dy) + std::fabs(dz)) *
         ((std::fabs(bx) + std::fabs(by) + std::fabs(bz)) * (std::fabs(cx) + std::fabs(cy) + std::fabs(cz))));
    return dx * nx + dy * ny + dz * nz;
}

TEST(ExactOrient, RandomPointsAgreeWithDoubleWhereItIsSure) {
    SplitMix64 rng(0x0E1E57ull);
    long compared = 0;
    for (long i = 0; i < caseCount<long>(200000); ++i) {
        const Vec3 a = randomPoint(rng, 1.0), b = randomPoint(rng, 1.0), c = randomPoint(rng, 1.0),
                   d = randomPoint(rng, 1.0);
        double bound = 0.0;
        const double v = orientDouble(a, b, c, d, bound);
        if (std::fabs(v) <= bound) continue;
        ++compared;
        ASSERT_EQ(exactOrientSign(a, b, c, d), v > 0.0 ? 1 : -1) << "case " << i;
        ASSERT_EQ(exactOrientSign(a, c, b, d), v > 0.0 ? -1 : 1) << "case " << i;
        ASSERT_EQ(exactOrientSignExpanded(a, b, c, d), v > 0.0 ? 1 : -1) << "case " << i;
    }
    EXPECT_GT(compared, caseCount<long>(200000) * 9 / 10);
}

// Grid points of a plane z = x * kx + y * ky + k0 with dyadic coefficients are exactly on it; the
// fourth point moved one ulp in z lies above (sign of the normal's z) or below.
TEST(ExactOrient, OnePlaneAndOneUlpOffItAtEveryScale) {
    SplitMix64 rng(0x0E1E58ull);
    long cases = 0;
    for (long i = 0; i < caseCount<long>(20000); ++i) {
        const float kx = gridCoord(rng, 2.0, 4), ky = gridCoord(rng, 2.0, 4), k0 = gridCoord(rng, 1.0, 4);
        const auto on = [&](void) {
            const float x = gridCoord(rng, 1.0, 8), y = gridCoord(rng, 1.0, 8);
            return Vec3{x, y, x * kx + y * ky + k0};
        };
        const Vec3 a = on(), b = on(), c = on();
        Vec3 d = on();
        const double nz =
            (double(b.x) - a.x) * (double(c.y) - a.y) - (double(b.y) - a.y) * (double(c.x) - a.x);
        if (nz == 0.0) continue; // collinear in projection: the plane is not pinned down
        ++cases;
        const float scale = std::ldexp(1.0f, static_cast<int>(rng.next() % 240u) - 140 + 8);
        const Vec3 sa = scaled(a, scale), sb = scaled(b, scale), sc = scaled(c, scale), sd = scaled(d, scale);
        ASSERT_EQ(exactOrientSign(sa, sb, sc, sd), 0) << "case " << i << " scale " << scale;
        const bool up = rng.u() < 0.5;
        Vec3 moved = sd;
        moved.z = std::nextafter(sd.z, up ? INFINITY : -INFINITY);
        const int expected = (up ? 1 : -1) * (nz > 0.0 ? 1 : -1);
        ASSERT_EQ(exactOrientSign(sa, sb, sc, moved), expected) << "case " << i << " scale " << scale;
        ASSERT_EQ(exactOrientSign(sb, sa, sc, moved), -expected) << "case " << i;
        ASSERT_EQ(exactOrientSignExpanded(sa, sb, sc, sd), 0) << "case " << i;
        ASSERT_EQ(exactOrientSignExpanded(sa, sb, sc, moved), expected) << "case " << i;
    }
    EXPECT_GT(cases, caseCount<long>(20000) / 2);
}

// Floats of magnitude 2^-16 to 1 with full 24-bit mantissas are whole multiples of 2^-40, so the
// determinant of such points is an integer times 2^-120 that fits 126 bits: an exact reference
// (per point, the coordinates are k * 2^-40 with |k| < 2^40; differences < 2^41; products of three
// < 2^123; six of them < 2^126).
float fullMantissa(SplitMix64& rng) {
    const float m = 1.0f + static_cast<float>(rng.next() >> 41) * 0x1p-23f;
    const float f = std::ldexp(m, -1 - static_cast<int>(rng.next() % 16u));
    return rng.u() < 0.5 ? -f : f;
}

int referenceSign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    using I = __int128;
    const auto k = [](float f) { return static_cast<I>(static_cast<long long>(std::ldexp(double(f), 40))); };
    const I bx = k(b.x) - k(a.x), by = k(b.y) - k(a.y), bz = k(b.z) - k(a.z);
    const I cx = k(c.x) - k(a.x), cy = k(c.y) - k(a.y), cz = k(c.z) - k(a.z);
    const I dx = k(d.x) - k(a.x), dy = k(d.y) - k(a.y), dz = k(d.z) - k(a.z);
    const I v = dx * (by * cz - bz * cy) + dy * (bz * cx - bx * cz) + dz * (bx * cy - by * cx);
    return v > 0 ? 1 : (v < 0 ? -1 : 0);
}

// Full-mantissa points: the fourth one rounded from a point of the plane of the other three (a
// rounding away from it, either side), or all four sharing one z (exactly coplanar), and scaled
// by powers of two from 2^-100 to 2^90: the exact sign every time.
TEST(ExactOrient, FullMantissasNearAPlaneMatchAnIntegerReference) {
    SplitMix64 rng(0x0E1E59ull);
    long zeros = 0, nonzero = 0;
    for (long i = 0; i < caseCount<long>(100000); ++i) {
        const auto point = [&]() {
            const float x = fullMantissa(rng), y = fullMantissa(rng), z = fullMantissa(rng);
            return Vec3{x, y, z};
        };
        Vec3 a = point(), b = point(), c = point(), d;
        if (rng.u() < 0.2) {
            const float z = fullMantissa(rng);
            d = point();
            for (Vec3* p : {&a, &b, &c, &d}) p->z = z;
        } else {
            const double s = rng.u(), t = rng.u();
            d = vec(a.x + (double(b.x) - a.x) * s + (double(c.x) - a.x) * t,
                    a.y + (double(b.y) - a.y) * s + (double(c.y) - a.y) * t,
                    a.z + (double(b.z) - a.z) * s + (double(c.z) - a.z) * t);
            if (std::fabs(d.x) < 0x1p-16f || std::fabs(d.y) < 0x1p-16f || std::fabs(d.z) < 0x1p-16f ||
                std::fabs(d.x) >= 1.0f || std::fabs(d.y) >= 1.0f || std::fabs(d.z) >= 1.0f)
                continue; // outside the reference's exact range
        }
        const int expected = referenceSign(a, b, c, d);
        (expected == 0 ? zeros : nonzero) += 1;
        const float scale = std::ldexp(1.0f, static_cast<int>(rng.next() % 191u) - 100);
        ASSERT_EQ(exactOrientSign(scaled(a, scale), scaled(b, scale), scaled(c, scale), scaled(d, scale)),
                  expected)
            << "case " << i;
        ASSERT_EQ(exactOrientSign(b, a, c, d), -expected) << "case " << i;
        ASSERT_EQ(
            exactOrientSignExpanded(scaled(a, scale), scaled(b, scale), scaled(c, scale), scaled(d, scale)),
            expected)
            << "case " << i;
    }
    EXPECT_GT(zeros, caseCount<long>(100000) / 10);
    EXPECT_GT(nonzero, caseCount<long>(100000) / 2);
}

// The pair the tri-tri kernel got wrong: a plane lifted by a denormal at one vertex, and a point
// 0.347 of that lift below it, which float arithmetic puts exactly on the plane. (The expansion
// alone is checked too: the filters answer these.)
TEST(ExactOrient, DenormalLift) {
    const Vec3 a{0.0f, 0.0f, 0.0f}, b{1.0f, 1.0f, 0x1p-149f}, c{1.0f, 0.0f, 0.0f};
    EXPECT_EQ(exactOrientSign(a, b, c, Vec3{0.0f, -0x1.64p-2f, 0.0f}), -1);
    EXPECT_EQ(exactOrientSign(a, b, c, Vec3{0.0f, 0x1.64p-2f, 0.0f}), 1);
    EXPECT_EQ(exactOrientSign(a, b, c, Vec3{5.0f, 0.0f, 0.0f}), 0);
    EXPECT_EQ(exactOrientSign(a, a, c, Vec3{0.0f, 1.0f, 1.0f}), 0);
    EXPECT_EQ(exactOrientSignExpanded(a, b, c, Vec3{0.0f, -0x1.64p-2f, 0.0f}), -1);
    EXPECT_EQ(exactOrientSignExpanded(a, b, c, Vec3{0.0f, 0x1.64p-2f, 0.0f}), 1);
    EXPECT_EQ(exactOrientSignExpanded(a, b, c, Vec3{5.0f, 0.0f, 0.0f}), 0);
    EXPECT_EQ(exactOrientSignExpanded(a, a, c, Vec3{0.0f, 1.0f, 1.0f}), 0);
}

} // namespace
} // namespace flak::test
