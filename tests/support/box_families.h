// Shared helpers of the box-family oracle tests: double-precision vectors, seeded generators of
// scales, rotations and adversarial values, and the tally that applies tolerance.h's band.
//
// Every case draws from its own generator, seeded by (test seed, case index), so a failure
// printed as "seed S case I" replays alone. Inputs are printed as hex floats (exact).
#pragma once

#include <flak/geom/tolerance.h>
#include <flak/math/aabb.h>
#include <flak/math/mat33.h>
#include <flak/math/vec3.h>

#include "support/split_mix.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace flak::test::box {

struct D3 {
    double x = 0.0, y = 0.0, z = 0.0;
    double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
    double& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
};
inline D3 toD(const Vec3& v) { return {v.x, v.y, v.z}; }
inline Vec3 toF(const D3& v) { return {float(v.x), float(v.y), float(v.z)}; }
inline D3 operator+(const D3& a, const D3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline D3 operator-(const D3& a, const D3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline D3 operator*(const D3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline double dotD(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline D3 crossD(const D3& a, const D3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double lenD(const D3& a) { return std::sqrt(dotD(a, a)); }
inline D3 unitD(const D3& a) { return a * (1.0 / lenD(a)); }

inline double maxAbs(const Vec3& v) {
    return std::fmax(std::fabs(v.x), std::fmax(std::fabs(v.y), std::fabs(v.z)));
}
inline double maxAbs(float f) { return std::fabs(f); }
template <typename T, typename... Rest> double maxAbs(const T& first, const Rest&... rest) {
    if constexpr (sizeof...(rest) == 0) {
        return maxAbs(first);
    } else {
        return std::fmax(maxAbs(first), maxAbs(rest...));
    }
}

/// The band of tolerance.h rule 3 for a given input scale.
inline double band(double scale) { return double(kToleranceRelative) * scale; }

/// The generator of one case: independent of every other case, so one index replays alone.
inline SplitMix64 caseRng(std::uint64_t seed, std::uint64_t index) {
    SplitMix64 mix(seed ^ (index * 0xD1B54A32D192ED03ull));
    return SplitMix64(mix.next());
}

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
        const double l = lenD(v);
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

/// Rotation by `angle` about unit `axis`, applied to v (Rodrigues), in double.
inline D3 rotateAbout(const D3& axis, double angle, const D3& v) {
    const double c = std::cos(angle), s = std::sin(angle);
    return v * c + crossD(axis, v) * s + axis * (dotD(axis, v) * (1 - c));
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

inline std::string hexf(float f) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", double(f));
    return buf;
}
inline std::string hexv(const Vec3& v) { return "{" + hexf(v.x) + ", " + hexf(v.y) + ", " + hexf(v.z) + "}"; }
inline std::string hexBox(const Aabb& b) { return "{" + hexv(b.min) + ", " + hexv(b.max) + "}"; }
inline std::string hexMat(const Mat33& m) {
    return "{" + hexv(m.c0) + ", " + hexv(m.c1) + ", " + hexv(m.c2) + "}";
}

/// Counts one oracle run: agreements, disagreements forgiven inside the band, failures. Prints a
/// summary line (cases, hit fraction, forgiven) and the first few failures with replay data.
class Tally {
public:
    Tally(std::string name, std::uint64_t seed) : m_name(std::move(name)), m_seed(seed) {}
    ~Tally() { report(); }
    Tally(const Tally&) = delete;
    Tally& operator=(const Tally&) = delete;

    /// One decision. `decisive` is the reference's decisive distance, `scale` the input scale;
    /// `describe` is called only for a failure.
    template <typename Describe>
    void decide(std::uint64_t index, bool kernel, bool reference, double decisive, double scale,
                Describe&& describe) {
        ++m_cases;
        if (reference) ++m_ref_hits;
        if (kernel == reference) return;
        if (std::fabs(decisive) <= band(scale)) {
            ++m_forgiven;
            return;
        }
        fail(index, "kernel " + std::string(kernel ? "hit" : "miss") + ", reference " +
                        (reference ? "hit" : "miss") + ", decisive " + std::to_string(decisive) +
                        " vs band " + std::to_string(band(scale)) + ": " + describe());
    }

    /// A property that must hold with no forgiveness.
    template <typename Describe>
    void require(std::uint64_t index, bool ok, const char* what, Describe&& describe) {
        if (!ok) fail(index, std::string(what) + ": " + describe());
    }

    /// Counts a case that is only checked for "no crash" and fixed outputs (non-finite input).
    void countOnly(bool reference_hit = false) {
        ++m_cases;
        if (reference_hit) ++m_ref_hits;
    }

    void note(const std::string& key, long value) { m_notes += ", " + key + " " + std::to_string(value); }

    long failures() const { return m_failures; }
    long forgiven() const { return m_forgiven; }
    long cases() const { return m_cases; }

    void report() {
        if (m_reported) return;
        m_reported = true;
        std::printf("[ oracle ] %-34s cases %8ld  hit fraction %.3f  forgiven in band %ld%s  failures %ld\n",
                    m_name.c_str(), m_cases, m_cases ? double(m_ref_hits) / double(m_cases) : 0.0, m_forgiven,
                    m_notes.c_str(), m_failures);
        std::fflush(stdout);
    }

private:
    void fail(std::uint64_t index, const std::string& text) {
        ++m_failures;
        if (m_failures <= 8) {
            ADD_FAILURE() << m_name << " seed 0x" << std::hex << m_seed << std::dec << " case " << index
                          << ": " << text;
        }
    }

    std::string m_name;
    std::uint64_t m_seed;
    long m_cases = 0;
    long m_ref_hits = 0;
    long m_forgiven = 0;
    long m_failures = 0;
    std::string m_notes;
    bool m_reported = false;
};

} // namespace flak::test::box
