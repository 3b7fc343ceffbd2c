// Seeded random triangles and the adversarial families of the triangle kernels' oracle tests and
// benchmarks: slivers (needles, caps), zero-area triangles, exact grid constructions (points
// exactly on edges and faces), placements at very large and very small scales, non-finite values.
#pragma once

#include "flak_support/split_mix.h"

#include <flak/math/vec3.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace flak::test {

struct Tri {
    Vec3 a, b, c;
};

// Each case draws from its own generator, oracle.h's caseRng. This family numbers its streams
// from 1 (case i draws caseRng(seed, i + 1)), as it has since its first recorded seeds.

inline Vec3 vec(double x, double y, double z) {
    return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
}

/// 10^U(lo, hi).
inline double logUniform(SplitMix64& rng, double lo_exp, double hi_exp) {
    return std::pow(10.0, rng.range(lo_exp, hi_exp));
}

/// +1 or -1 times 10^U(lo, hi).
inline double signedLogUniform(SplitMix64& rng, double lo_exp, double hi_exp) {
    const double sign = rng.u() < 0.5 ? -1.0 : 1.0;
    return sign * logUniform(rng, lo_exp, hi_exp);
}

/// Uniform in the cube [-e, e]^3 around `center`. (Draws are sequenced statement by statement
/// everywhere here: the order in which a compiler evaluates function arguments is unspecified,
/// and a case must replay the same on any build.)
inline Vec3 randomPoint(SplitMix64& rng, double e, const Vec3& center = Vec3{}) {
    const double x = rng.range(-e, e);
    const double y = rng.range(-e, e);
    const double z = rng.range(-e, e);
    return vec(center.x + x, center.y + y, center.z + z);
}

/// Uniform direction (double components).
inline void randomDirection(SplitMix64& rng, double out[3]) {
    const double z = 2.0 * rng.u() - 1.0, phi = 6.283185307179586 * rng.u(), s = std::sqrt(1.0 - z * z);
    out[0] = s * std::cos(phi);
    out[1] = s * std::sin(phi);
    out[2] = z;
}

/// A grid coordinate k / 2^bits in [-range, range]: sums, differences and small dyadic multiples of
/// grid values stay exact in float, which is what makes "exactly on the edge" constructible.
inline float gridCoord(SplitMix64& rng, double range, int bits) {
    const double unit = std::ldexp(1.0, bits);
    return static_cast<float>(std::floor(rng.range(-range, range) * unit) / unit);
}
inline Vec3 gridPoint(SplitMix64& rng, double range, int bits) {
    return {gridCoord(rng, range, bits), gridCoord(rng, range, bits), gridCoord(rng, range, bits)};
}

/// a + (b - a) i / 2^m + (c - a) j / 2^m, computed in double: exact (hence exactly on the triangle
/// for 0 <= i, j, i + j <= 2^m) when the vertices are grid points with few bits.
inline Vec3 pointOn(const Tri& t, int i, int j, int m) {
    const double s = std::ldexp(static_cast<double>(i), -m), r = std::ldexp(static_cast<double>(j), -m);
    const auto f = [&](float a, float b, float c) {
        return static_cast<double>(a) + (static_cast<double>(b) - a) * s + (static_cast<double>(c) - a) * r;
    };
    return vec(f(t.a.x, t.b.x, t.c.x), f(t.a.y, t.b.y, t.c.y), f(t.a.z, t.b.z, t.c.z));
}

/// Random barycentric point of t (double, rounded once).
inline Vec3 randomPointOn(SplitMix64& rng, const Tri& t) {
    double u = rng.u(), v = rng.u();
    if (u + v > 1.0) {
        u = 1.0 - u;
        v = 1.0 - v;
    }
    const auto f = [&](float a, float b, float c) {
        return static_cast<double>(a) + (static_cast<double>(b) - a) * u + (static_cast<double>(c) - a) * v;
    };
    return vec(f(t.a.x, t.b.x, t.c.x), f(t.a.y, t.b.y, t.c.y), f(t.a.z, t.b.z, t.c.z));
}

/// Triangle shapes of the adversarial families.
enum class Shape { Random, Needle, Cap, Collinear, Coincident, Point, Count };
inline const char* shapeName(Shape s) {
    switch (s) {
    case Shape::Random: return "random";
    case Shape::Needle: return "needle";
    case Shape::Cap: return "cap";
    case Shape::Collinear: return "collinear";
    case Shape::Coincident: return "coincident";
    case Shape::Point: return "point";
    default: return "?";
    }
}

/// Rotates or mirrors the vertex order at random, so a special edge appears in every position.
inline Tri shuffled(SplitMix64& rng, const Tri& t) {
    const int k = static_cast<int>(rng.next() % 6u);
    switch (k) {
    case 0: return t;
    case 1: return {t.b, t.c, t.a};
    case 2: return {t.c, t.a, t.b};
    case 3: return {t.a, t.c, t.b};
    case 4: return {t.c, t.b, t.a};
    default: return {t.b, t.a, t.c};
    }
}

/// A triangle of the given shape, about `size` across, in the cube [-size, size]^3. Slivers have a
/// thinness (height / longest edge) log-uniform in [1e-7, 1e-1]. Collinear and coincident ones are
/// exactly degenerate in float.
inline Tri makeShape(SplitMix64& rng, Shape shape, double size) {
    Tri t;
    switch (shape) {
    case Shape::Random: t = {randomPoint(rng, size), randomPoint(rng, size), randomPoint(rng, size)}; break;
    case Shape::Needle: {
        // Two long edges and a short one: c = b + thin * |ab| * random direction.
        t.a = randomPoint(rng, size);
        t.b = randomPoint(rng, size);
        double dir[3];
        randomDirection(rng, dir);
        const double l = std::sqrt(static_cast<double>(distanceSq(t.a, t.b))) * logUniform(rng, -7.0, -1.0);
        t.c = vec(t.b.x + dir[0] * l, t.b.y + dir[1] * l, t.b.z + dir[2] * l);
        break;
    }
    case Shape::Cap: {
        // One angle near 180 degrees: c near the middle of ab, lifted by thin * |ab|.
        t.a = randomPoint(rng, size);
        t.b = randomPoint(rng, size);
        double dir[3];
        randomDirection(rng, dir);
        const double s = rng.range(0.05, 0.95);
        const double l = std::sqrt(static_cast<double>(distanceSq(t.a, t.b))) * logUniform(rng, -7.0, -1.0);
        t.c = vec(t.a.x + (static_cast<double>(t.b.x) - t.a.x) * s + dir[0] * l,
                  t.a.y + (static_cast<double>(t.b.y) - t.a.y) * s + dir[1] * l,
                  t.a.z + (static_cast<double>(t.b.z) - t.a.z) * s + dir[2] * l);
        break;
    }
    case Shape::Collinear: {
        // a, a + e * i/4, a + e * j/4 on a grid: exactly collinear.
        t.a = gridPoint(rng, size, 10);
        const Vec3 e = gridPoint(rng, size, 10);
        const double i = static_cast<double>(static_cast<int>(rng.next() % 13u) - 4) / 4.0;
        const double j = static_cast<double>(static_cast<int>(rng.next() % 13u) - 4) / 4.0;
        t.b = vec(t.a.x + e.x * i, t.a.y + e.y * i, t.a.z + e.z * i);
        t.c = vec(t.a.x + e.x * j, t.a.y + e.y * j, t.a.z + e.z * j);
        break;
    }
    case Shape::Coincident:
        t.a = randomPoint(rng, size);
        t.b = t.a;
        t.c = randomPoint(rng, size);
        break;
    default:
        t.a = randomPoint(rng, size);
        t.b = t.a;
        t.c = t.a;
        break;
    }
    return shuffled(rng, t);
}

/// A random unit normal n and two unit directions u, w spanning its plane (n, u, w right-handed).
inline void randomPlaneFrame(SplitMix64& rng, double n[3], double u[3], double w[3]) {
    double a[3];
    randomDirection(rng, n);
    randomDirection(rng, a);
    const double an = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
    for (int i = 0; i < 3; ++i) u[i] = a[i] - an * n[i];
    const double ul = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; ++i) u[i] /= ul;
    w[0] = n[1] * u[2] - n[2] * u[1];
    w[1] = n[2] * u[0] - n[0] * u[2];
    w[2] = n[0] * u[1] - n[1] * u[0];
}

/// Two triangles a hair (1e-12 to 1e-3) out of one random plane, or the second one's plane tilted
/// from it by 1e-10 to 1e-1 radians about a line across the first: where such planes cut is noise
/// in float. The second is shifted in the plane so that about half of the pairs overlap.
inline void nearlyCoplanarPair(SplitMix64& rng, Tri& out_s, Tri& out_t) {
    double n[3], u[3], w[3];
    randomPlaneFrame(rng, n, u, w);
    const Vec3 origin = randomPoint(rng, 1.0);
    const bool tilted = rng.u() < 0.5;
    const double tilt = signedLogUniform(rng, -10.0, -1.0);
    const double axis = rng.range(-0.5, 0.5);
    const double shift_x = rng.range(-1.5, 1.5);
    const double shift_y = rng.range(-1.5, 1.5);
    const auto point = [&](bool second) {
        const double x = rng.range(-1.0, 1.0) + (second ? shift_x : 0.0);
        const double y = rng.range(-1.0, 1.0) + (second ? shift_y : 0.0);
        const double hair = rng.u() < 0.2 ? 0.0 : signedLogUniform(rng, -12.0, -3.0);
        const double h = second && tilted ? tilt * (x - axis) : hair;
        double p[3];
        for (int i = 0; i < 3; ++i) p[i] = origin[i] + u[i] * x + w[i] * y + n[i] * h;
        return vec(p[0], p[1], p[2]);
    };
    out_s.a = point(false);
    out_s.b = point(false);
    out_s.c = point(false);
    out_t.a = point(true);
    out_t.b = point(true);
    out_t.c = point(true);
}

/// A triangle t with one edge lying in the plane of s (to the rounding of its float vertices, or
/// exactly) and its third vertex well off it; the edge lands anywhere in that plane, inside s,
/// across it or a unit away. Half of the pairs have s in a random plane; the others have s in the
/// plane z = 0 with one vertex lifted by a tiny tilt (2^-149, a denormal, up to 1e-6) and t's
/// edge exactly at z = 0: the plane sides of that edge are a rounding away from zero, on either
/// side, and where the edge's line meets s's plane is anywhere.
inline void edgeInPlanePair(SplitMix64& rng, Tri& out_s, Tri& out_t) {
    const double lift = (rng.u() < 0.5 ? 1.0 : -1.0) * rng.range(0.2, 1.0);
    if (rng.u() < 0.5) {
        double n[3], u[3], w[3];
        randomPlaneFrame(rng, n, u, w);
        const Vec3 origin = randomPoint(rng, 0.5);
        const auto point = [&](double range, double h) {
            const double x = rng.range(-range, range);
            const double y = rng.range(-range, range);
            double p[3];
            for (int i = 0; i < 3; ++i) p[i] = origin[i] + u[i] * x + w[i] * y + n[i] * h;
            return vec(p[0], p[1], p[2]);
        };
        out_s.a = point(1.0, 0.0);
        out_s.b = point(1.0, 0.0);
        out_s.c = point(1.0, 0.0);
        out_t.a = point(1.5, 0.0);
        out_t.b = point(1.5, 0.0);
        out_t.c = point(1.0, lift);
    } else {
        const unsigned kind = static_cast<unsigned>(rng.next() % 3u);
        const float tilt = kind == 0u ? 0x1p-149f * static_cast<float>(1u + rng.next() % 4u)
                                      : static_cast<float>(logUniform(rng, kind == 1u ? -30.0 : -12.0, -6.0));
        const auto flat = [&](double range) {
            const double x = rng.range(-range, range);
            const double y = rng.range(-range, range);
            return vec(x, y, 0.0);
        };
        out_s.a = flat(1.0);
        out_s.b = flat(1.0);
        out_s.b.z = rng.u() < 0.5 ? tilt : -tilt;
        out_s.c = flat(1.0);
        out_t.a = flat(1.5);
        out_t.b = flat(1.5);
        out_t.c = flat(1.0);
        out_t.c.z = static_cast<float>(lift);
    }
    out_s = shuffled(rng, out_s);
    out_t = shuffled(rng, out_t);
}

/// Where a unit-scale configuration is put in the world: world = offset + scale * local, rounded
/// to float. Power-of-two scales keep exact constructions exact; the offset of "far" rounds.
struct Placement {
    const char* name;
    double scale;
    double offset;
};
inline constexpr Placement kPlacements[] = {
    {"unit", 1.0, 0.0},
    {"far(1e6 offset)", 1.0, 1.0e6},
    {"huge(2^20)", 1048576.0, 0.0},
    {"huge-far(2^20 at 3e6)", 1048576.0, 3.0e6},
    {"tiny(2^-13)", 1.0 / 8192.0, 0.0},
    {"tiny-off(2^-13 at 0.5)", 1.0 / 8192.0, 0.5},
};

inline Vec3 place(const Placement& p, const Vec3& v) {
    return vec(p.offset + p.scale * v.x, p.offset + p.scale * v.y, p.offset + p.scale * v.z);
}
inline Tri place(const Placement& p, const Tri& t) { return {place(p, t.a), place(p, t.b), place(p, t.c)}; }

/// NaN, +Inf or -Inf.
inline float nonFinite(SplitMix64& rng) {
    switch (rng.next() % 3u) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    default: return -std::numeric_limits<float>::infinity();
    }
}

/// Replaces one or two random entries of `values` by NaN/Inf.
inline void poison(SplitMix64& rng, float* values, int count) {
    const int n = 1 + static_cast<int>(rng.next() % 2u);
    for (int k = 0; k < n; ++k) values[rng.next() % static_cast<unsigned>(count)] = nonFinite(rng);
}

} // namespace flak::test
