// The kernels that do not rescale (sphere-sphere, capsule-sphere, sphere-box, the closest point on
// a triangle) at powers of two away from unit scale. Multiplying every input by a power of two is
// exact, and while every square the kernels form stays a normal float their answers are the unit
// scale's, bit for bit, with lengths scaled by the same power: tolerance.h rule 7 states the
// range this checks. Beyond it squares underflow or overflow (a point 1e-30 from a sphere of
// radius 1e-30 touches it).
#include <flak/geom/capsule_sphere.h>
#include <flak/geom/closest_point_triangle.h>
#include <flak/geom/sphere_aabb.h>
#include <flak/geom/sphere_sphere.h>

#include "flak_support/split_mix.h"
#include "support/case_count.h"
#include "support/same_bits.h"
#include "support/scaled.h"

#include <gtest/gtest.h>

#include <cmath>

namespace flak::test {
namespace {

bool sameContact(const Contact& unit, const Contact& at, float f) {
    return sameBits(at.normal, unit.normal) && sameBits(at.point, scaled(unit.point, f)) &&
           sameBits(at.depth, unit.depth * f);
}

TEST(ContactKernelScale, AnswersAlikeFrom2ToTheMinus50To2To50) {
    const int exponents[] = {-50, -40, -30, -20, -10, 10, 20, 30, 40, 50};
    SplitMix64 rng(0x5CA1E0002ull);
    long compared = 0, hits = 0;
    for (int i = 0; i < caseCount(20000); ++i) {
        Vec3 v[6];
        for (Vec3& p : v) p = Vec3{rng.rangef(-1, 1), rng.rangef(-1, 1), rng.rangef(-1, 1)};
        const float ra = rng.rangef(0, 1), rb = rng.rangef(0, 1);
        Aabb box;
        box.min = Vec3{rng.rangef(-0.5, 0), rng.rangef(-0.5, 0), rng.rangef(-0.5, 0)};
        box.max = Vec3{rng.rangef(0, 0.5), rng.rangef(0, 0.5), rng.rangef(0, 0.5)};
        Contact ss, cs, sb;
        const bool s_s = sphereSphere(Sphere{v[0], ra}, Sphere{v[1], rb}, ss);
        const bool c_s = capsuleSphere(Capsule{v[2], v[3], ra}, Sphere{v[1], rb}, cs);
        const bool s_b = sphereAabb(Sphere{v[0], ra}, box, sb);
        Vec3 closest;
        float u = 0, w = 0;
        ASSERT_TRUE(closestPointOnTriangle(v[0], v[3], v[4], v[5], closest, u, w));
        hits += s_s + c_s + s_b;
        for (const int e : exponents) {
            const float f = std::ldexp(1.0f, e);
            Contact c;
            ASSERT_EQ(sphereSphere(Sphere{scaled(v[0], f), ra * f}, Sphere{scaled(v[1], f), rb * f}, c), s_s)
                << "case " << i << " 2^" << e;
            if (s_s) {
                ASSERT_TRUE(sameContact(ss, c, f)) << "sphereSphere case " << i << " 2^" << e;
            }
            ASSERT_EQ(capsuleSphere(Capsule{scaled(v[2], f), scaled(v[3], f), ra * f},
                                    Sphere{scaled(v[1], f), rb * f}, c),
                      c_s)
                << "case " << i << " 2^" << e;
            if (c_s) {
                ASSERT_TRUE(sameContact(cs, c, f)) << "capsuleSphere case " << i << " 2^" << e;
            }
            const Aabb sbox{scaled(box.min, f), scaled(box.max, f)};
            ASSERT_EQ(sphereAabb(Sphere{scaled(v[0], f), ra * f}, sbox, c), s_b)
                << "case " << i << " 2^" << e;
            if (s_b) {
                ASSERT_TRUE(sameContact(sb, c, f)) << "sphereAabb case " << i << " 2^" << e;
            }
            Vec3 at;
            float au = 0, aw = 0;
            ASSERT_TRUE(closestPointOnTriangle(scaled(v[0], f), scaled(v[3], f), scaled(v[4], f),
                                               scaled(v[5], f), at, au, aw));
            ASSERT_TRUE(sameBits(at, scaled(closest, f)) && sameBits(au, u) && sameBits(aw, w))
                << "closestPointOnTriangle case " << i << " 2^" << e;
            compared += 4;
        }
    }
    std::printf("[contact scale] %ld kernel answers at 10 powers of two equal to unit scale's, bit for bit "
                "(%ld contacts at unit scale)\n",
                compared, hits);
}

} // namespace
} // namespace flak::test
