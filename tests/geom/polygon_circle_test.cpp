// Oracle tests of circlePolygon. The reference works in double: distance to every edge, the
// winding number for the inside test, and for the push-out the nearest point of the region
// {x : distance(x, solid) >= r}, found by its own enumeration of candidate points (feet on the
// offset edges and vertex circles, their pairwise intersections, the bounding box exits), checked
// in order of distance. A second test cross-checks that reference against brute-force sampling
// of directions.
#include <flak/geom/circle_polygon.h>

#include "flak_support/polygon_families.h"
#include "support/case_count.h"
#include "support/oracle.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>

namespace flak {
namespace {

using namespace test;

const std::uint64_t kSeed = 0xC12C1E00ull + oracleSeedOffset();

struct PushReference {
    double length = 0.0;
    D2 x;               // where the centre goes
    bool notch = false; // the nearest-feature push was not clear: the full search decided
};

// Nearest point of {x : signed distance(x) >= r} to the centre (double). `poly` is relative to the
// centre (exact), so the centre is the origin.
PushReference referencePush(const DPoly& poly, double r, double scale) {
    const D2 c{};
    const double tol = 1e-10 * scale;
    auto valid = [&](const D2& x) { return dSignedDistance(x, poly) >= r - tol; };
    PushReference out;
    D2 q;
    const double s = dBoundaryDistance(c, poly, &q);
    const bool inside = s > 0.0 && dInsideWinding(c, poly);
    if (s > 0.0) {
        const D2 n = inside ? dmul(dsub(q, c), 1.0 / s) : dmul(dsub(c, q), 1.0 / s);
        const double len = inside ? s + r : std::max(0.0, r - s);
        const D2 x = dadd(c, dmul(n, len));
        if (len == 0.0 || valid(x)) {
            out.length = len;
            out.x = x;
            return out;
        }
    }
    out.notch = true;
    std::vector<std::pair<double, D2>> cand;
    auto add = [&](const D2& x) { cand.push_back({dlen(dsub(x, c)), x}); };
    double lx = kDInf, ly = kDInf, hx = -kDInf, hy = -kDInf;
    for (const D2& v : poly) {
        lx = std::min(lx, v.x);
        ly = std::min(ly, v.y);
        hx = std::max(hx, v.x);
        hy = std::max(hy, v.y);
    }
    add({lx - r, c.y});
    add({hx + r, c.y});
    add({c.x, ly - r});
    add({c.x, hy + r});
    double bound = kDInf;
    for (const auto& e : cand) bound = std::min(bound, e.first);

    struct Line {
        D2 p, u;
        double len;
    };
    std::vector<Line> lines;
    std::vector<D2> circles;
    const std::size_t n = poly.size();
    for (std::size_t i = 0; i < n; ++i) {
        const D2 a = poly[i], b = poly[(i + 1) % n];
        circles.push_back(a);
        const double len = dlen(dsub(b, a));
        if (len == 0.0) continue;
        const D2 u = dmul(dsub(b, a), 1.0 / len), m{u.y, -u.x};
        for (double side : {1.0, -1.0}) {
            const D2 p = dadd(a, dmul(m, side * r));
            if (dSegmentDistance(c, p, dadd(p, dmul(u, len))) <= bound) lines.push_back({p, u, len});
        }
    }
    for (const Line& l : lines) {
        add(l.p);
        add(dadd(l.p, dmul(l.u, l.len)));
        const double along = ddot(dsub(c, l.p), l.u);
        if (along > 0.0 && along < l.len) add(dadd(l.p, dmul(l.u, along)));
    }
    std::vector<D2> near_circles;
    for (const D2& v : circles) {
        const double d = dlen(dsub(c, v));
        if (d > 0.0) add(dadd(v, dmul(dsub(c, v), r / d)));
        if (std::fabs(d - r) <= bound) near_circles.push_back(v);
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        for (std::size_t j = i + 1; j < lines.size(); ++j) {
            const double den = dcross(lines[i].u, lines[j].u);
            if (den == 0.0) continue;
            add(dadd(lines[i].p, dmul(lines[i].u, dcross(dsub(lines[j].p, lines[i].p), lines[j].u) / den)));
        }
        for (const D2& v : near_circles) {
            const D2 w = dsub(lines[i].p, v);
            const double b = ddot(w, lines[i].u), cc = ddot(w, w) - r * r, disc = b * b - cc;
            if (disc < 0.0) continue;
            add(dadd(lines[i].p, dmul(lines[i].u, -b - std::sqrt(disc))));
            add(dadd(lines[i].p, dmul(lines[i].u, -b + std::sqrt(disc))));
        }
    }
    for (std::size_t i = 0; i < near_circles.size(); ++i) {
        for (std::size_t j = i + 1; j < near_circles.size(); ++j) {
            const D2 d = dsub(near_circles[j], near_circles[i]);
            const double dd = ddot(d, d), h2 = r * r - dd / 4;
            if (dd == 0.0 || h2 < 0.0) continue;
            const D2 mid = dadd(near_circles[i], dmul(d, 0.5)), off = dmul(dperp(d), std::sqrt(h2 / dd));
            add(dadd(mid, off));
            add(dsub(mid, off));
        }
    }
    std::sort(cand.begin(), cand.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& e : cand) {
        if (valid(e.second)) {
            out.length = e.first;
            out.x = e.second;
            return out;
        }
    }
    out.length = kDInf;
    return out;
}

struct CircleCase {
    Polygon poly;
    Vec2 center;
    float radius;
};

void printCase(const CircleCase& k) {
    std::printf("  center {%a, %a} radius %a\n", double(k.center.x), double(k.center.y), double(k.radius));
    printPolygon("polygon", k.poly);
}

struct CircleTally : OracleTally {
    using OracleTally::OracleTally;
    long notches = 0;
};

bool checkCase(const CircleCase& k, std::uint64_t seed, long index, CircleTally& tally) {
    CirclePolygonContact got{};
    const bool hit = circlePolygon(k.center, k.radius, k.poly.data(), std::uint32_t(k.poly.size()), got);
    ++tally.cases;
    if (hit) ++tally.hits;
    const D2 center = toD(k.center);
    const DPoly poly = toLocal(k.poly, center); // exact; the reference works around the centre
    const D2 c{};
    const double r = k.radius;
    const double scale = std::max(polygonScale(k.poly, center), r);
    const double band = bandOf(scale);
    const double s = dBoundaryDistance(c, poly);
    const bool inside = s > 0.0 && dInsideWinding(c, poly);
    const bool want = inside || s <= r;
    const double decisive = inside ? -(s + r) : s - r;
    const bool in_band = std::fabs(decisive) <= band;
    if (in_band) ++tally.in_band;
    auto fail = [&](const char* what, double a, double b) {
        ++tally.failures;
        std::printf("circlePolygon %s: seed=%llu case=%ld (%g vs %g, band %g) hit=%d want=%d\n", what,
                    (unsigned long long)seed, index, a, b, band, int(hit), int(want));
        std::printf("  got push {%a, %a} normal {%a, %a} closest {%a, %a} depth %a\n", double(got.push.x),
                    double(got.push.y), double(got.normal.x), double(got.normal.y), double(got.closest.x),
                    double(got.closest.y), double(got.depth));
        printCase(k);
        return false;
    };
    if (hit != want) {
        if (!in_band) return fail("contact decision", decisive, 0.0);
        ++tally.forgiven;
    }
    if (!hit) return true;
    // The push leaves the circle clear of the solid (up to the band) ...
    const D2 moved = dadd(c, toD(got.push));
    const double clearance = dSignedDistance(moved, poly);
    if (clearance < r - band) return fail("push does not separate", clearance, r);
    // ... and no clear position is nearer (up to the band; a centre within the band of the boundary
    // may be read as inside or outside, which moves the answer by twice its distance).
    const PushReference ref = referencePush(poly, r, scale);
    if (ref.notch) ++tally.notches;
    const double len = dlen(toD(got.push));
    const double slack = band + (s <= band ? 2.0 * s : 0.0);
    if (want && len > ref.length + slack) return fail("push longer than the minimum", len, ref.length);
    if (!want && len > slack) return fail("push without contact", len, 0.0);
    tally.noteError(std::fabs(len - ref.length), band);
    // Record consistency: unit normal along the push, depth = |push|.
    const D2 nrm = toD(got.normal);
    if (std::fabs(dlen(nrm) - 1.0) > 1e-5) return fail("normal not unit", dlen(nrm), 1.0);
    if (std::fabs(double(got.depth) - len) > 1e-6 * scale) return fail("depth != |push|", got.depth, len);
    if (dlen(dsub(dmul(nrm, double(got.depth)), toD(got.push))) > band)
        return fail("normal not along push", got.depth, len);
    // The closest point is on the boundary and as near as the reference's, up to the band plus the
    // rounding of a world position to float.
    const D2 cl = dsub(toD(got.closest), center);
    const double out_round =
        std::ldexp(std::max(std::fabs(double(got.closest.x)), std::fabs(double(got.closest.y))), -23);
    const double on_boundary = dBoundaryDistance(cl, poly);
    if (on_boundary > band + out_round) return fail("closest point off the boundary", on_boundary, 0.0);
    if (std::fabs(dlen(cl) - s) > band + out_round) return fail("closest point not nearest", dlen(cl), s);
    return true;
}

CircleCase randomCase(SplitMix64& rng) {
    const Placement pl = randomPlacement(rng);
    CircleCase k;
    k.poly = randomPolygon(rng, pl, 12);
    const double u = rng.u();
    double r = pl.size * rng.range(0.0, 0.6);
    if (u < 0.05) r = 0.0;
    if (u > 0.95) r = pl.size * rng.range(1.0, 3.0);
    k.radius = float(r);
    k.center = v2(pl.cx + rng.range(-1.3, 1.3) * pl.size, pl.cy + rng.range(-1.3, 1.3) * pl.size);
    return k;
}

TEST(CirclePolygon, Random1M) {
    SplitMix64 rng(kSeed);
    CircleTally tally("CirclePolygon.Random1M", kSeed);
    for (long i = 0; i < caseCount<long>(1000000) && !tally.failures; ++i)
        checkCase(randomCase(rng), kSeed, i, tally);
    tally.print();
    std::printf("[CirclePolygon.Random1M] cases decided by the full push search (notches): %ld\n",
                tally.notches);
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GT(tally.hits, tally.cases / 4);
    EXPECT_LT(tally.hits, tally.cases * 3 / 4);
    EXPECT_GT(tally.notches, caseCount(1000L));
}

TEST(CirclePolygon, AdversarialFamilies) {
    SplitMix64 rng(kSeed + 1);
    CircleTally tally("CirclePolygon.AdversarialFamilies", kSeed + 1);
    long index = 0;
    for (int round = 0; round < caseCount<int>(40000) && !tally.failures; ++round) {
        const Placement pl = randomPlacement(rng);
        const int family = round % 8;
        CircleCase k;
        if (family == 0) {
            // Circles stuck in the notches of a comb (the push must leave by the open side).
            k.poly = makeComb(rng, 2 + int(rng.next() % 3), pl.cx, pl.cy, 2.0 * pl.size);
            const Vec2 a = k.poly[3], b = k.poly[4]; // a notch's right wall, top to bottom
            const double w = std::fabs(double(k.poly[4].x) - double(k.poly[5].x)) +
                             std::fabs(double(k.poly[4].y) - double(k.poly[5].y));
            k.center = v2(0.5 * (double(b.x) + double(k.poly[5].x)) + 0.0 * a.x,
                          0.5 * (double(b.y) + double(k.poly[5].y)) +
                              rng.range(0.0, 1.0) * (double(a.y) - double(b.y)));
            k.radius = float(w * rng.range(0.2, 0.8));
        } else if (family == 1) {
            // Touching and grazing: the centre exactly r from an edge point, outside.
            k.poly = randomPolygon(rng, pl, 12);
            const double r = pl.size * rng.range(0.0, 0.5);
            const D2 p = pointNearEdge(rng, k.poly, (dArea2(k.poly) > 0 ? 1.0 : -1.0) * r);
            k.center = v2(p.x, p.y);
            k.radius = float(r);
        } else if (family == 2) {
            // Centre exactly on a vertex or on an axis-aligned edge, radius zero half the time.
            k.poly = makeComb(rng, 1 + int(rng.next() % 3), pl.cx, pl.cy, 2.0 * pl.size);
            const std::size_t i = std::size_t(rng.next() % k.poly.size());
            const Vec2 a = k.poly[i], b = k.poly[(i + 1) % k.poly.size()];
            const float t = rng.u() < 0.5 ? 0.0f : rng.rangef(0.0, 1.0);
            k.center = Vec2{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
            k.radius = rng.u() < 0.5 ? 0.0f : float(pl.size * rng.range(0.0, 0.5));
        } else if (family == 3) {
            // Degenerate polygons: a point, a segment, collinear points.
            const int n = 1 + int(rng.next() % 5);
            const D2 dir{rng.range(-1, 1), rng.range(-1, 1)};
            for (int j = 0; j < n; ++j) {
                const double t = rng.range(-1, 1) * pl.size;
                k.poly.push_back(v2(pl.cx + dir.x * t, pl.cy + dir.y * t));
            }
            k.center = v2(pl.cx + rng.range(-1, 1) * pl.size, pl.cy + rng.range(-1, 1) * pl.size);
            k.radius = float(pl.size * rng.range(0.0, 1.0));
        } else if (family == 4) {
            // Huge circles covering the whole polygon, and tiny ones.
            k.poly = randomPolygon(rng, pl, 12);
            k.center = v2(pl.cx + rng.range(-1, 1) * pl.size, pl.cy + rng.range(-1, 1) * pl.size);
            k.radius = float(pl.size * (rng.u() < 0.5 ? rng.range(2.0, 50.0) : rng.range(0.0, 1e-4)));
        } else if (family == 5) {
            // Concave stars with collinear vertices, centre deep inside.
            k.poly = makeStar(rng, 5 + int(rng.next() % 10), pl.cx, pl.cy, pl.size, 0.2);
            addCollinear(rng, k.poly, 3);
            if (rng.u() < 0.5) reversePolygon(k.poly);
            k.center = v2(pl.cx + rng.range(-0.3, 0.3) * pl.size, pl.cy + rng.range(-0.3, 0.3) * pl.size);
            k.radius = float(pl.size * rng.range(0.0, 0.8));
        } else {
            k = randomCase(rng);
        }
        checkCase(k, kSeed + 1, index++, tally);
    }
    tally.print();
    std::printf("[CirclePolygon.AdversarialFamilies] notches: %ld\n", tally.notches);
    EXPECT_EQ(tally.failures, 0);
}

// The push reference against brute force: along each of 1440 directions, the first clear position
// found by sphere tracing on the signed distance (1-Lipschitz, so a step of r - sd never passes a
// clear point). The enumeration must never be beaten by sampling, and sampling must come close.
TEST(CirclePolygon, ReferenceMatchesDirectionSampling) {
    SplitMix64 rng(kSeed + 2);
    int checked = 0;
    std::vector<double> ratios;
    for (int round = 0; round < 400000 && checked < 200; ++round) {
        const CircleCase k = randomCase(rng);
        const D2 c{};
        const DPoly poly = toLocal(k.poly, toD(k.center));
        const double r = k.radius;
        const double scale = std::max(polygonScale(k.poly, toD(k.center)), r);
        const PushReference ref = referencePush(poly, r, scale);
        if (!ref.notch || !(ref.length < kDInf)) continue;
        ++checked;
        double best = kDInf;
        for (int d = 0; d < 1440; ++d) {
            const double a = 2.0 * kPi * d / 1440.0;
            const D2 u{std::cos(a), std::sin(a)};
            double t = 0.0;
            for (int it = 0; it < 10000 && t < best; ++it) {
                const double gap = r - dSignedDistance(dadd(c, dmul(u, t)), poly);
                if (gap <= 1e-12 * scale) break;
                t += gap;
            }
            best = std::min(best, t);
        }
        EXPECT_LE(ref.length, best + 1e-9 * scale) << "round " << round;
        ratios.push_back(best / std::max(ref.length, 1e-300));
    }
    std::sort(ratios.begin(), ratios.end());
    std::printf(
        "[CirclePolygon.ReferenceMatchesDirectionSampling] notch cases sampled: %d, sampled/enumerated "
        "push: median %.6f, 90th percentile %.6f\n",
        checked, ratios[ratios.size() / 2], ratios[ratios.size() * 9 / 10]);
    EXPECT_GE(checked, 200);
    EXPECT_LT(ratios[ratios.size() / 2], 1.001);
}

TEST(CirclePolygon, NonFiniteAndInvalid) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const Polygon square{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    CirclePolygonContact out{};
    out.depth = 123.0f;
    for (float bad : {nan, inf, -inf}) {
        EXPECT_FALSE(circlePolygon(Vec2{bad, 0.0f}, 0.5f, square.data(), 4, out));
        EXPECT_FALSE(circlePolygon(Vec2{0.0f, 0.0f}, bad, square.data(), 4, out));
        for (std::size_t i = 0; i < 4; ++i) {
            Polygon p = square;
            p[i].y = bad;
            EXPECT_FALSE(circlePolygon(Vec2{0.0f, 0.0f}, 0.5f, p.data(), 4, out));
        }
    }
    EXPECT_FALSE(circlePolygon(Vec2{0.0f, 0.0f}, -1.0f, square.data(), 4, out));
    EXPECT_FALSE(circlePolygon(Vec2{0.0f, 0.0f}, 1.0f, nullptr, 4, out));
    EXPECT_FALSE(circlePolygon(Vec2{0.0f, 0.0f}, 1.0f, square.data(), 0, out));
    EXPECT_EQ(out.depth, 123.0f); // untouched
}

TEST(CirclePolygon, NotchPushLeavesByTheOpening) {
    // A U-shaped wall; a circle in the slot is pushed out along the slot, not into the far wall.
    const Polygon u{{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}};
    CirclePolygonContact out{};
    ASSERT_TRUE(circlePolygon(Vec2{1.5f, 1.5f}, 0.6f, u.data(), std::uint32_t(u.size()), out));
    EXPECT_NEAR(out.push.x, 0.0f, 1e-5f);
    // Too wide for the slot (1.2 > 1): up and out, to where it clears both corners of the opening:
    // y = 3 + sqrt(0.6^2 - 0.5^2).
    EXPECT_NEAR(out.push.y, 1.5f + std::sqrt(0.11f), 1e-5f);
    EXPECT_NEAR(out.normal.y, 1.0f, 1e-6f);
    // A smaller circle touching one wall only: nearest-feature push.
    ASSERT_TRUE(circlePolygon(Vec2{1.3f, 2.0f}, 0.4f, u.data(), std::uint32_t(u.size()), out));
    EXPECT_NEAR(out.push.x, 0.1f, 1e-5f);
    EXPECT_NEAR(out.push.y, 0.0f, 1e-6f);
}

} // namespace
} // namespace flak
