// Test helper: 2D polygon families (convex, star-shaped, combs, collinear vertices, degenerate) and
// double-precision references for the polygon kernels. References never call flak's kernels. The
// band, seeding and tally of the oracle tests are support/oracle.h's (not included here: the
// benchmarks share these families).
#pragma once

#include <flak/math/vec2.h>

#include "flak_support/split_mix.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace flak::test {

using Polygon = std::vector<Vec2>;

struct D2 {
    double x = 0.0;
    double y = 0.0;
};
inline D2 toD(const Vec2& v) { return {double(v.x), double(v.y)}; }
inline D2 dsub(const D2& a, const D2& b) { return {a.x - b.x, a.y - b.y}; }
inline D2 dadd(const D2& a, const D2& b) { return {a.x + b.x, a.y + b.y}; }
inline D2 dmul(const D2& a, double s) { return {a.x * s, a.y * s}; }
inline double ddot(const D2& a, const D2& b) { return a.x * b.x + a.y * b.y; }
inline double dcross(const D2& a, const D2& b) { return a.x * b.y - a.y * b.x; }
inline double dlen(const D2& a) { return std::sqrt(a.x * a.x + a.y * a.y); }
inline D2 dperp(const D2& a) { return {-a.y, a.x}; }

constexpr double kDInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;

/// Largest |coordinate - origin| over the polygon's vertices (double).
inline double polygonScale(const Polygon& poly, const D2& origin) {
    double s = 0.0;
    for (const Vec2& v : poly) s = std::max({s, std::fabs(v.x - origin.x), std::fabs(v.y - origin.y)});
    return s;
}

/// Distance from p to the segment [a, b] (double), and optionally the closest point.
inline double dSegmentDistance(const D2& p, const D2& a, const D2& b, D2* closest = nullptr) {
    const D2 e = dsub(b, a);
    const double ee = ddot(e, e);
    double t = 0.0;
    if (ee > 0.0) t = std::clamp(ddot(dsub(p, a), e) / ee, 0.0, 1.0);
    const D2 c = dadd(a, dmul(e, t));
    if (closest) *closest = c;
    return dlen(dsub(p, c));
}

/// A polygon in double, usually relative to the query's own origin: the difference of two floats
/// is exact in double, so local coordinates carry no rounding at all, even at 1e6 from the origin.
using DPoly = std::vector<D2>;

/// The polygon's vertices minus `origin`, exactly.
inline DPoly toLocal(const Polygon& poly, const D2& origin) {
    DPoly out;
    for (const Vec2& v : poly) out.push_back({double(v.x) - origin.x, double(v.y) - origin.y});
    return out;
}

/// Distance from p to the polygon's boundary (edges, closed implicitly); +inf when empty.
inline double dBoundaryDistance(const D2& p, const DPoly& poly, D2* closest = nullptr) {
    double best = kDInf;
    const std::size_t n = poly.size();
    for (std::size_t i = 0; i < n; ++i) {
        D2 c;
        const double d = dSegmentDistance(p, poly[i], poly[(i + 1) % n], &c);
        if (d < best) {
            best = d;
            if (closest) *closest = c;
        }
    }
    return best;
}

/// Winding number around p by the sum of signed angles (double); p off the boundary.
inline int dWinding(const D2& p, const DPoly& poly) {
    double sum = 0.0;
    const std::size_t n = poly.size();
    for (std::size_t i = 0; i < n; ++i) {
        const D2 a = dsub(poly[i], p), b = dsub(poly[(i + 1) % n], p);
        sum += std::atan2(dcross(a, b), ddot(a, b));
    }
    return int(std::lround(sum / (2.0 * kPi)));
}

/// Even-odd inside by the winding number's parity (equal to the crossing number's parity).
inline bool dInsideWinding(const D2& p, const DPoly& poly) {
    if (poly.size() < 3) return false;
    return (dWinding(p, poly) & 1) != 0;
}

/// Even-odd inside by a crossing count with the x-intercept formulation (double). Used to check
/// candidate points that are far from the boundary, where any correct rule agrees.
inline bool dInsideCrossing(const D2& p, const DPoly& poly) {
    if (poly.size() < 3) return false;
    bool inside = false;
    const std::size_t n = poly.size();
    for (std::size_t i = 0; i < n; ++i) {
        const D2 a = poly[i], b = poly[(i + 1) % n];
        if ((a.y > p.y) != (b.y > p.y)) {
            const double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if (x > p.x) inside = !inside;
        }
    }
    return inside;
}

/// Signed distance from the polygon's solid boundary: negative inside (crossing-count inside).
inline double dSignedDistance(const D2& p, const DPoly& poly) {
    const double d = dBoundaryDistance(p, poly);
    return dInsideCrossing(p, poly) ? -d : d;
}

/// Twice the signed area (double).
inline double dArea2(const DPoly& poly) {
    double s = 0.0;
    const std::size_t n = poly.size();
    for (std::size_t i = 0; i < n; ++i) s += dcross(poly[i], poly[(i + 1) % n]);
    return s;
}
inline double dArea2(const Polygon& poly) { return dArea2(toLocal(poly, D2{})); }

// ---- Families -------------------------------------------------------------------------------

inline Vec2 v2(double x, double y) { return Vec2{float(x), float(y)}; }

/// Strictly convex polygon on a rotated ellipse, counter-clockwise.
inline Polygon makeConvex(SplitMix64& rng, int n, double cx, double cy, double rx, double ry) {
    std::vector<double> ang(static_cast<std::size_t>(n));
    for (double& a : ang) a = rng.range(0.0, 2.0 * kPi);
    std::sort(ang.begin(), ang.end());
    const double rot = rng.range(0.0, 2.0 * kPi), c = std::cos(rot), s = std::sin(rot);
    Polygon p;
    for (double a : ang) {
        const double x = rx * std::cos(a), y = ry * std::sin(a);
        p.push_back(v2(cx + c * x - s * y, cy + s * x + c * y));
    }
    return p;
}

/// Star-shaped (usually concave) polygon around (cx, cy), counter-clockwise.
inline Polygon makeStar(SplitMix64& rng, int n, double cx, double cy, double r, double inner) {
    std::vector<double> ang(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ang[std::size_t(i)] = (i + rng.range(0.05, 0.95)) * 2.0 * kPi / n;
    Polygon p;
    for (double a : ang) {
        const double rr = r * rng.range(inner, 1.0);
        p.push_back(v2(cx + rr * std::cos(a), cy + rr * std::sin(a)));
    }
    return p;
}

/// A comb: a bar with `teeth` rectangular teeth and deep notches between them, counter-clockwise;
/// axis-aligned half the time, otherwise rotated at random.
inline Polygon makeComb(SplitMix64& rng, int teeth, double cx, double cy, double size) {
    const double x0 = -size / 2, w = size / (2.0 * teeth - 1.0);
    const double bar = size * rng.range(0.1, 0.4);
    const double h = size * rng.range(0.3, 1.0);
    std::vector<D2> q{{x0, -bar}, {size / 2, -bar}};
    for (int k = teeth - 1; k >= 0; --k) {
        const double l = x0 + 2.0 * k * w, r = k == teeth - 1 ? size / 2 : l + w;
        if (k < teeth - 1) q.push_back({r, 0.0});
        q.push_back({r, h});
        q.push_back({l, h});
        if (k > 0) q.push_back({l, 0.0});
    }
    const double rot = rng.u() < 0.5 ? rng.range(0.0, 2.0 * kPi) : 0.0, c = std::cos(rot), s = std::sin(rot);
    Polygon p;
    for (const D2& d : q) p.push_back(v2(cx + c * d.x - s * d.y, cy + s * d.x + c * d.y));
    return p;
}

/// Inserts `k` collinear points (float lerps along random edges; collinear up to float rounding).
inline void addCollinear(SplitMix64& rng, Polygon& poly, int k) {
    for (int j = 0; j < k && poly.size() >= 2; ++j) {
        const std::size_t i = std::size_t(rng.next() % poly.size());
        const Vec2 a = poly[i], b = poly[(i + 1) % poly.size()];
        const float t = rng.rangef(0.1, 0.9);
        const Vec2 m{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
        poly.insert(poly.begin() + std::ptrdiff_t(i + 1), m);
    }
}

inline void reversePolygon(Polygon& poly) { std::reverse(poly.begin(), poly.end()); }

/// Size and position of a random case: sizes 1e-4 .. 1e6, positions at the origin, moderate, or
/// far (1e6) from it.
struct Placement {
    double size;
    double cx;
    double cy;
};
inline Placement randomPlacement(SplitMix64& rng) {
    static const double kSizes[] = {1e-4, 1e-2, 1.0, 1.0, 1.0, 30.0, 1e3, 1e6};
    const double size = kSizes[rng.next() % 8];
    const double pick = rng.u();
    double cx = 0.0, cy = 0.0;
    if (pick < 0.3) {
        cx = rng.range(-10.0, 10.0) * size;
        cy = rng.range(-10.0, 10.0) * size;
    } else if (pick < 0.45) {
        cx = 1e6 * rng.range(0.5, 1.0);
        cy = -1e6 * rng.range(0.5, 1.0);
    }
    return {size, cx, cy};
}

/// A random polygon: convex, star-shaped or comb, sometimes with collinear vertices, sometimes
/// clockwise.
inline Polygon randomPolygon(SplitMix64& rng, const Placement& pl, int max_vertices = 14) {
    Polygon p;
    const double u = rng.u();
    if (u < 0.3) {
        p = makeConvex(rng, 3 + int(rng.next() % std::uint64_t(max_vertices - 2)), pl.cx, pl.cy, pl.size,
                       pl.size * rng.range(0.2, 1.0));
    } else if (u < 0.85) {
        p = makeStar(rng, 3 + int(rng.next() % std::uint64_t(max_vertices - 2)), pl.cx, pl.cy, pl.size,
                     rng.range(0.1, 0.9));
    } else {
        p = makeComb(rng, 1 + int(rng.next() % 3), pl.cx, pl.cy, 2.0 * pl.size);
    }
    if (rng.u() < 0.15) addCollinear(rng, p, 1 + int(rng.next() % 3));
    if (rng.u() < 0.25) reversePolygon(p);
    return p;
}

/// A point on a random edge (float lerp), optionally pushed off it by `offset` along its normal.
inline D2 pointNearEdge(SplitMix64& rng, const Polygon& poly, double offset) {
    const std::size_t i = std::size_t(rng.next() % poly.size());
    const D2 a = toD(poly[i]), b = toD(poly[(i + 1) % poly.size()]);
    const double t = rng.u();
    D2 p = dadd(a, dmul(dsub(b, a), t));
    const double len = dlen(dsub(b, a));
    if (len > 0.0) p = dadd(p, dmul(dperp(dsub(b, a)), offset / len));
    return p;
}

/// Prints a polygon as hex floats (exact, for replaying a failure).
inline void printPolygon(const char* name, const Polygon& poly) {
    std::printf("  %s (%zu points):", name, poly.size());
    for (const Vec2& v : poly) std::printf(" {%a, %a}", double(v.x), double(v.y));
    std::printf("\n");
}

} // namespace flak::test
