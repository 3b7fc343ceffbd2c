// Float math against a double-precision reference on a million random inputs.
//
// Tolerance: each checked result is a short chain (at most ~12 dependent float operations) of
// values bounded by `scale`; the float result differs from the exact one by at most a few ulps
// of `scale` per operation. We allow 32 * FLT_EPSILON * scale (about 3.8e-6 relative), which is
// ample for those chains and still catches any wrong sign, swapped axis or order mistake.
#include <flak/math.h>

#include "flak_support/split_mix.h"
#include "support/case_count.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

namespace flak {
namespace {

struct D3 {
    double x, y, z;
};
D3 toD(const Vec3& v) { return {v.x, v.y, v.z}; }
D3 dadd(const D3& a, const D3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 dsub(const D3& a, const D3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double ddot(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 dcross(const D3& a, const D3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dlen(const D3& a) { return std::sqrt(ddot(a, a)); }
D3 dscale(const D3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }

// Rotation by quaternion in double (unit q, after normalising in double).
D3 drotate(const Quat& qf, const D3& v) {
    const double n =
        std::sqrt(double(qf.x) * qf.x + double(qf.y) * qf.y + double(qf.z) * qf.z + double(qf.w) * qf.w);
    const D3 u{qf.x / n, qf.y / n, qf.z / n};
    const double w = qf.w / n;
    const D3 t = dscale(dcross(u, v), 2.0);
    return dadd(dadd(v, dscale(t, w)), dcross(u, t));
}

double maxDiff(const Vec3& f, const D3& d) {
    return std::fmax(std::fabs(f.x - d.x), std::fmax(std::fabs(f.y - d.y), std::fabs(f.z - d.z)));
}

void randomUnitQuat(test::SplitMix64& rng, Quat& out) {
    // Shoemake's uniform rotation, then normalised in float.
    const double u1 = rng.u(), u2 = rng.u(), u3 = rng.u();
    const double pi2 = 6.283185307179586;
    Quat q;
    set(float(std::sqrt(1 - u1) * std::sin(pi2 * u2)), float(std::sqrt(1 - u1) * std::cos(pi2 * u2)),
        float(std::sqrt(u1) * std::sin(pi2 * u3)), float(std::sqrt(u1) * std::cos(pi2 * u3)), q);
    normalize(q, out);
}

void randomVec(test::SplitMix64& rng, double extent, Vec3& out) {
    set(rng.rangef(-extent, extent), rng.rangef(-extent, extent), rng.rangef(-extent, extent), out);
}

const int kCases = test::caseCount<int>(1000000); // fewer under FLAK_CASE_DIVISOR (emulators)
constexpr double kTol = 32.0 * FLT_EPSILON;

TEST(MathReference, MillionQuaternionRotationsAndNormalisation) {
    const std::uint64_t seed = 0x3A7Au;
    test::SplitMix64 rng(seed);
    for (int i = 0; i < kCases; ++i) {
        Quat q;
        randomUnitQuat(rng, q);
        ASSERT_NEAR(lengthSq(q), 1.0f, 4 * FLT_EPSILON) << "seed " << seed << " case " << i;
        Vec3 v;
        randomVec(rng, 1000.0, v);
        Vec3 r, rm;
        rotate(q, v, r);
        Mat33 m;
        toMat33(q, m);
        mul(m, v, rm);
        const D3 ref = drotate(q, toD(v));
        const double scale = dlen(toD(v)) + 1e-30;
        ASSERT_LE(maxDiff(r, ref), kTol * scale) << "rotate, seed " << seed << " case " << i;
        ASSERT_LE(maxDiff(rm, ref), kTol * scale) << "matrix, seed " << seed << " case " << i;
        // Quaternion product equals composed rotation.
        Quat q2, q12;
        randomUnitQuat(rng, q2);
        mul(q, q2, q12);
        Vec3 r12;
        rotate(q12, v, r12);
        const D3 ref12 = drotate(q, drotate(q2, toD(v)));
        ASSERT_LE(maxDiff(r12, ref12), kTol * scale) << "product, seed " << seed << " case " << i;
    }
}

TEST(MathReference, MillionTransformRoundTripsAgainstDouble) {
    const std::uint64_t seed = 0x7F0Du;
    test::SplitMix64 rng(seed);
    for (int i = 0; i < kCases; ++i) {
        Quat qa, qb;
        randomUnitQuat(rng, qa);
        randomUnitQuat(rng, qb);
        Vec3 ta, tb, p;
        randomVec(rng, 500.0, ta);
        randomVec(rng, 500.0, tb);
        randomVec(rng, 500.0, p);
        Transform a, b, ab, inv, rel;
        fromQuatTranslation(qa, ta, a);
        fromQuatTranslation(qb, tb, b);
        compose(a, b, ab);
        inverse(a, inv);
        relative(a, b, rel);

        const D3 pd = toD(p);
        const D3 ref_b = dadd(drotate(qb, pd), toD(tb));
        const D3 ref_ab = dadd(drotate(qa, ref_b), toD(ta));
        const double scale = dlen(pd) + dlen(toD(ta)) + dlen(toD(tb));

        Vec3 got;
        transformPoint(ab, p, got);
        ASSERT_LE(maxDiff(got, ref_ab), kTol * scale) << "compose, seed " << seed << " case " << i;

        Vec3 back;
        transformPoint(inv, got, back); // inverse(a)(a(b(p))) = b(p)
        ASSERT_LE(maxDiff(back, ref_b), 2 * kTol * scale) << "inverse, seed " << seed << " case " << i;

        Vec3 back2;
        inverseTransformPoint(a, got, back2);
        ASSERT_LE(maxDiff(back2, ref_b), 2 * kTol * scale) << "inverse point, seed " << seed << " case " << i;

        Vec3 r;
        transformPoint(rel, p, r); // relative(a,b) = inverse(a) o b
        const D3 ref_rel = [&] {
            const D3 d = dsub(ref_b, toD(ta));
            // apply inverse rotation of a: rotate by conjugate
            Quat c;
            conjugate(qa, c);
            return drotate(c, d);
        }();
        ASSERT_LE(maxDiff(r, ref_rel), 2 * kTol * scale) << "relative, seed " << seed << " case " << i;

        Vec3 v;
        transformVector(a, p, v);
        ASSERT_LE(maxDiff(v, drotate(qa, pd)), kTol * (dlen(pd) + 1e-30)) << "vector, seed " << seed;
    }
}

TEST(MathReference, BatchTransformMatchesSingleBitForBit) {
    test::SplitMix64 rng(0xBA7C4u);
    Vec3 in[257], out[257];
    for (int round = 0; round < 200; ++round) {
        Quat q;
        randomUnitQuat(rng, q);
        Vec3 t;
        randomVec(rng, 100.0, t);
        Transform xf;
        fromQuatTranslation(q, t, xf);
        for (Vec3& p : in) randomVec(rng, 100.0, p);
        transformPoints(xf, in, 257, out);
        for (int i = 0; i < 257; ++i) {
            Vec3 one;
            transformPoint(xf, in[i], one);
            ASSERT_TRUE(equal(one, out[i])) << "round " << round << " point " << i;
        }
    }
}

} // namespace
} // namespace flak
