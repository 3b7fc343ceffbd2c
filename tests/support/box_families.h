// Shared helpers of the box-family oracle tests: seeded generators of scales, rotations and
// adversarial values, the segment-box clip reference, and hex-float printing of boxes and matrices. The double vectors, the band,
// caseRng and the tally are support/oracle.h's.
//
// Every case draws from its own generator, caseRng(test seed, case index), so a failure printed
// as "seed S case I" replays alone. Inputs are printed as hex floats (exact).
#pragma once

#include <flak/math/aabb.h>
#include <flak/math/mat33.h>
#include <flak/math/vec3.h>

#include "support/oracle.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace flak::test::box {

inline Vec3 toF(const D3& v) { return {float(v.x), float(v.y), float(v.z)}; }
inline D3 unitD(const D3& a) { return a * (1.0 / len(a)); }

/// Three uniform draws in [lo, hi), one statement each: the order of draws inside one expression
/// (even a braced list, under some compilers' sanitizer builds) must not decide the case.
inline D3 randomIn(SplitMix64& rng, double lo, double hi) {
    D3 r;
    r.x = rng.range(lo, hi);
    r.y = rng.range(lo, hi);
    r.z = rng.range(lo, hi);
    return r;
}
inline D3 randomInCube(SplitMix64& rng, double half) { return randomIn(rng, -half, half); }

/// Where features of size `unit` sit: near `origin` (often far from the world origin).
struct Frame {
    double unit = 1.0;
    D3 origin;
};

/// Sizes from 1e-4 to 1e6, and an origin at 0, a few units away, or 1e3 units away.
inline Frame randomFrame(SplitMix64& rng) {
    static const double kUnits[] = {1e-4, 1e-2, 1.0, 1.0, 1.0, 1e2, 1e4, 1e6};
    Frame f;
    f.unit = kUnits[rng.next() % 8];
    const double pick = rng.u();
    const double reach = pick < 0.6 ? 0.0 : (pick < 0.85 ? 10.0 : 1000.0);
    f.origin = randomIn(rng, -reach, reach) * f.unit;
    return f;
}

inline D3 randomUnit(SplitMix64& rng) {
    for (;;) {
        const D3 v = randomInCube(rng, 1.0);
        const double l = len(v);
        if (l > 0.1 && l <= 1.0) return v * (1.0 / l);
    }
}

/// A uniformly random rotation in double (Shoemake), as three orthonormal columns.
inline void randomRotationD(SplitMix64& rng, D3 out[3]) {
    const double u1 = rng.u(), u2 = rng.u(), u3 = rng.u(), pi2 = 6.283185307179586;
    const double x = std::sqrt(1 - u1) * std::sin(pi2 * u2), y = std::sqrt(1 - u1) * std::cos(pi2 * u2);
    const double z = std::sqrt(u1) * std::sin(pi2 * u3), w = std::sqrt(u1) * std::cos(pi2 * u3);
    out[0] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)};
    out[1] = {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)};
    out[2] = {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
}

/// A box of half-extents up to f.unit around a centre within f.unit of f.origin; 10% of boxes are
/// flat along one axis, 2% are points.
inline void randomBox(SplitMix64& rng, const Frame& f, Aabb& out_box, D3& out_center) {
    out_center = f.origin + randomInCube(rng, 1.0) * f.unit;
    D3 h = randomIn(rng, 0.0, 1.0);
    const double pick = rng.u();
    if (pick < 0.1) h[int(rng.next() % 3)] = 0.0;
    if (pick < 0.02) h = D3{};
    h = h * f.unit;
    out_box = Aabb{toF(out_center - h), toF(out_center + h)};
}

/// Rotation by `angle` about unit `axis`, applied to v (Rodrigues), in double.
inline D3 rotateAbout(const D3& axis, double angle, const D3& v) {
    const double c = std::cos(angle), s = std::sin(angle);
    return v * c + cross(axis, v) * s + axis * (dot(axis, v) * (1 - c));
}

inline Mat33 toMat33(const D3 cols[3]) { return Mat33{toF(cols[0]), toF(cols[1]), toF(cols[2])}; }

/// +-10^U(lo, hi): a relative nudge of random sign. (Each draw is its own statement: the order of
/// two draws inside one expression is unspecified, and replay needs it fixed.)
inline double signedLogUniform(SplitMix64& rng, double lo, double hi) {
    const double sign = rng.u() < 0.5 ? -1.0 : 1.0;
    return sign * std::pow(10.0, rng.range(lo, hi));
}

/// A value that is not finite: NaN, +inf or -inf.
inline float nonFinite(SplitMix64& rng) {
    const std::uint64_t k = rng.next() % 3;
    return k == 0
               ? std::numeric_limits<float>::quiet_NaN()
               : (k == 1 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
}

/// Smallest s (to about 1e-13 relative) with hit(s) true, for hit monotone in s on [lo, hi].
/// Returns lo if hit(lo), hi if !hit(hi).
template <typename Hit> double bisect(Hit&& hit, double lo, double hi) {
    if (hit(lo)) return lo;
    if (!hit(hi)) return hi;
    for (int i = 0; i < 200 && hi - lo > 1e-13 * (std::fabs(lo) + std::fabs(hi)); ++i) {
        const double mid = 0.5 * (lo + hi);
        (hit(mid) ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
}

/// What clipReference finds.
struct Clip {
    bool hit = false;
    double enter = 0.0, exit = 0.0;
};

/// Liang-Barsky in double: the segment o + t d, t in [0, t_max], against [lo, hi] grown by s per
/// side (extents floored at zero); where it enters and leaves when it hits. Zero direction
/// components take explicit branches.
inline Clip clipReference(const D3& o, const D3& d, double t_max, const Aabb& box, double s) {
    Clip c;
    double enter = 0.0, exit = t_max;
    for (int i = 0; i < 3; ++i) {
        double lo = double(box.min[i]) - s, hi = double(box.max[i]) + s;
        if (lo > hi) lo = hi = 0.5 * (double(box.min[i]) + double(box.max[i]));
        if (d[i] == 0.0) {
            if (o[i] < lo || o[i] > hi) return c;
            continue;
        }
        double t0 = (lo - o[i]) / d[i], t1 = (hi - o[i]) / d[i];
        if (t0 > t1) std::swap(t0, t1);
        enter = std::fmax(enter, t0);
        exit = std::fmin(exit, t1);
        if (enter > exit) return c;
    }
    c.hit = true;
    c.enter = enter;
    c.exit = exit;
    return c;
}

inline std::string hexBox(const Aabb& b) { return "{" + hexv(b.min) + ", " + hexv(b.max) + "}"; }
inline std::string hexMat(const Mat33& m) {
    return "{" + hexv(m.c0) + ", " + hexv(m.c1) + ", " + hexv(m.c2) + "}";
}

} // namespace flak::test::box
