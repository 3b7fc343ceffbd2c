// Oracle tests of polygonSat. The reference (double, exact local coordinates) decides overlap from
// the Euclidean distance between the two polygons (edge-pair distances and containment, no
// projections), and takes the penetration depth as the least overlap over a superset of the
// needed axes: every edge normal and edge direction of both polygons plus the coordinate axes.
#include <flak/geom/polygon_sat.h>

#include "flak_support/polygon_families.h"
#include "support/case_count.h"
#include "support/oracle.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>

namespace flak {
namespace {

using namespace test;

const std::uint64_t kSeed = 0x5A75A700ull + oracleSeedOffset();

double orient(const D2& a, const D2& b, const D2& c) { return dcross(dsub(b, a), dsub(c, a)); }

double segmentSegmentDistance(const D2& a, const D2& b, const D2& c, const D2& d) {
    const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return 0.0;
    return std::min({dSegmentDistance(a, c, d), dSegmentDistance(b, c, d), dSegmentDistance(c, a, b),
                     dSegmentDistance(d, a, b)});
}

bool containsConvex(const DPoly& poly, const D2& p) {
    if (poly.size() < 3) return false;
    const double area = dArea2(poly);
    if (area == 0.0) return false;
    for (std::size_t i = 0; i < poly.size(); ++i) {
        const double o = orient(poly[i], poly[(i + 1) % poly.size()], p);
        if ((area > 0 && o < 0) || (area < 0 && o > 0)) return false;
    }
    return true;
}

double polygonDistance(const DPoly& a, const DPoly& b) {
    if (containsConvex(a, b[0]) || containsConvex(b, a[0])) return 0.0;
    double best = kDInf;
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = 0; j < b.size(); ++j)
            best = std::min(best,
                            segmentSegmentDistance(a[i], a[(i + 1) % a.size()], b[j], b[(j + 1) % b.size()]));
    return best;
}

struct Interval {
    double lo = kDInf, hi = -kDInf;
};
Interval projectOn(const DPoly& p, const D2& u) {
    Interval r;
    for (const D2& v : p) {
        r.lo = std::min(r.lo, ddot(v, u));
        r.hi = std::max(r.hi, ddot(v, u));
    }
    return r;
}

double penetration(const DPoly& a, const DPoly& b) {
    std::vector<D2> axes{{1, 0}, {0, 1}};
    for (const DPoly* p : {&a, &b}) {
        for (std::size_t i = 0; i < p->size(); ++i) {
            const D2 e = dsub((*p)[(i + 1) % p->size()], (*p)[i]);
            const double len = dlen(e);
            if (len == 0.0) continue;
            axes.push_back(dmul(e, 1.0 / len));
            axes.push_back(dmul(dperp(e), 1.0 / len));
        }
    }
    double best = kDInf;
    for (const D2& u : axes) {
        const Interval ia = projectOn(a, u), ib = projectOn(b, u);
        best = std::min(best, std::min(ia.hi - ib.lo, ib.hi - ia.lo));
    }
    return best;
}

struct SatCase {
    Polygon a, b;
};

bool checkCase(const SatCase& k, std::uint64_t seed, long index, OracleTally& tally) {
    PolygonMtv got{};
    const bool hit =
        polygonSat(k.a.data(), std::uint32_t(k.a.size()), k.b.data(), std::uint32_t(k.b.size()), got);
    ++tally.cases;
    if (hit) ++tally.hits;
    const D2 origin = toD(k.a[0]);
    const DPoly a = toLocal(k.a, origin), b = toLocal(k.b, origin);
    const double band = bandOf(std::max(polygonScale(k.a, origin), polygonScale(k.b, origin)));
    const double dist = polygonDistance(a, b);
    const bool want = dist == 0.0;
    const double pen = want ? penetration(a, b) : 0.0;
    const double decisive = want ? -pen : dist;
    if (std::fabs(decisive) <= band) ++tally.in_band;
    auto fail = [&](const char* what, double x, double y) {
        ++tally.failures;
        std::printf(
            "polygonSat %s: seed=%llu case=%ld (%.9g vs %.9g, band %g) hit=%d want=%d dist=%g pen=%g\n", what,
            (unsigned long long)seed, index, x, y, band, int(hit), int(want), dist, pen);
        std::printf("  got axis {%a, %a} depth %a\n", double(got.axis.x), double(got.axis.y),
                    double(got.depth));
        printPolygon("a", k.a);
        printPolygon("b", k.b);
        return false;
    };
    if (hit != want) {
        if (std::fabs(decisive) > band) return fail("overlap decision", decisive, 0.0);
        ++tally.forgiven;
    }
    if (!hit) return true;
    const D2 u = toD(got.axis);
    if (std::fabs(dlen(u) - 1.0) > 1e-6) return fail("axis not unit", dlen(u), 1.0);
    const double depth = got.depth;
    if (std::fabs(depth - pen) > band) return fail("depth", depth, pen);
    tally.noteError(std::fabs(depth - pen), band);
    // Moving A by axis * depth leaves the two just touching along the axis.
    const Interval ia = projectOn(a, u), ib = projectOn(b, u);
    if (std::fabs((ib.hi - ia.lo) - depth) > band)
        return fail("axis/depth do not separate", ib.hi - ia.lo, depth);
    return true;
}

// Convex up to the band: no vertex is outside any edge's line by more than the band (float rounding far from
// the origin can dent a convex polygon, which SAT does not accept).
bool convexWithinBand(const Polygon& poly) {
    const std::size_t n = poly.size();
    if (n < 4) return true;
    const DPoly p = toLocal(poly, toD(poly[0]));
    const double area = dArea2(p), band = bandOf(polygonScale(poly, toD(poly[0])));
    if (area == 0.0) {
        // Zero area is only a convex shape when it is a segment: all points collinear.
        std::size_t far = 0;
        for (std::size_t i = 1; i < n; ++i)
            if (dlen(dsub(p[i], p[0])) > dlen(dsub(p[far], p[0]))) far = i;
        for (std::size_t i = 1; i < n; ++i)
            if (orient(p[0], p[far], p[i]) != 0.0) return false;
        return true;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const D2 a = p[i], b = p[(i + 1) % n];
        const double len = dlen(dsub(b, a));
        for (const D2& v : p)
            if (orient(a, b, v) * (area > 0 ? 1.0 : -1.0) < -band * len) return false;
    }
    return true;
}

Polygon randomConvexOnce(SplitMix64& rng, double cx, double cy, double size);

Polygon randomConvex(SplitMix64& rng, double cx, double cy, double size) {
    for (int attempt = 0;; ++attempt) {
        Polygon p = randomConvexOnce(rng, cx, cy, size);
        if (convexWithinBand(p)) return p;
        if (attempt == 3) return Polygon(p.begin(), p.begin() + 3); // a triangle is always convex
    }
}

Polygon randomConvexOnce(SplitMix64& rng, double cx, double cy, double size) {
    const double u = rng.u();
    Polygon p;
    if (u < 0.03) {
        p = {v2(cx, cy)};
    } else if (u < 0.07) {
        const double ang = rng.range(0, 2 * kPi);
        p = {v2(cx - size * std::cos(ang), cy - size * std::sin(ang)),
             v2(cx + size * std::cos(ang), cy + size * std::sin(ang))};
    } else {
        p = makeConvex(rng, 3 + int(rng.next() % 8), cx, cy, size, size * rng.range(0.05, 1.0));
        if (rng.u() < 0.1) addCollinear(rng, p, 1 + int(rng.next() % 2));
    }
    if (rng.u() < 0.25) reversePolygon(p);
    return p;
}

SatCase randomCase(SplitMix64& rng) {
    const Placement pl = randomPlacement(rng);
    SatCase k;
    const double sb = pl.size * std::pow(10.0, rng.range(-1.0, 1.0));
    k.a = randomConvex(rng, pl.cx, pl.cy, pl.size);
    const double ang = rng.range(0, 2 * kPi), dist = (pl.size + sb) * rng.range(0.0, 1.4);
    k.b = randomConvex(rng, pl.cx + dist * std::cos(ang), pl.cy + dist * std::sin(ang), sb);
    return k;
}

TEST(PolygonSat, Random1M) {
    SplitMix64 rng(kSeed);
    OracleTally tally("PolygonSat.Random1M", kSeed);
    for (long i = 0; i < caseCount<long>(1000000) && !tally.failures; ++i)
        checkCase(randomCase(rng), kSeed, i, tally);
    tally.print();
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GT(tally.hits, tally.cases / 4);
    EXPECT_LT(tally.hits, tally.cases * 3 / 4);
}

TEST(PolygonSat, AdversarialFamilies) {
    SplitMix64 rng(kSeed + 1);
    OracleTally tally("PolygonSat.AdversarialFamilies", kSeed + 1);
    long index = 0;
    for (int round = 0; round < caseCount<int>(50000) && !tally.failures; ++round) {
        const Placement pl = randomPlacement(rng);
        SatCase k;
        const int family = round % 6;
        const float s = float(pl.size);
        const Vec2 c = v2(pl.cx, pl.cy);
        if (family == 0) {
            // Axis-aligned boxes sharing an edge or a corner exactly, or apart by one float step.
            const float w = s * float(1 + rng.next() % 4), h = s * float(1 + rng.next() % 4);
            k.a = {c, Vec2{c.x + w, c.y}, Vec2{c.x + w, c.y + h}, Vec2{c.x, c.y + h}};
            const float ox = (rng.next() % 3 == 0) ? std::nextafter(c.x + w, 1e30f) : c.x + w;
            const float oy = c.y + h * float(rng.next() % 3) * 0.5f;
            k.b = {Vec2{ox, oy}, Vec2{ox + w, oy}, Vec2{ox + w, oy + h}, Vec2{ox, oy + h}};
        } else if (family == 1) {
            // Identical polygons, and one inside the other.
            k.a = randomConvex(rng, pl.cx, pl.cy, pl.size);
            k.b = rng.u() < 0.5 ? k.a : randomConvex(rng, pl.cx, pl.cy, pl.size * 0.1);
        } else if (family == 2) {
            // Points and segments against each other and against polygons, often collinear.
            const double ang = rng.range(0, 2 * kPi);
            const D2 dir{std::cos(ang), std::sin(ang)};
            auto onLine = [&](double t) {
                return v2(pl.cx + dir.x * t * pl.size, pl.cy + dir.y * t * pl.size);
            };
            k.a = {onLine(rng.range(-1, 0)), onLine(rng.range(0, 1))};
            if (rng.u() < 0.5) k.a.resize(1);
            k.b = rng.u() < 0.5 ? Polygon{onLine(rng.range(-2, 2)), onLine(rng.range(-2, 2))}
                                : randomConvex(rng, pl.cx, pl.cy, pl.size * rng.range(0.1, 2.0));
            if (rng.u() < 0.3) k.b.resize(1);
        } else if (family == 3) {
            // Huge size ratios.
            k.a = randomConvex(rng, pl.cx, pl.cy, pl.size);
            const double tiny = pl.size * 1e-4;
            k.b = randomConvex(rng, pl.cx + rng.range(-1.2, 1.2) * pl.size,
                               pl.cy + rng.range(-1.2, 1.2) * pl.size, tiny);
            if (rng.u() < 0.5) std::swap(k.a, k.b);
        } else {
            k = randomCase(rng);
        }
        checkCase(k, kSeed + 1, index++, tally);
    }
    tally.print();
    EXPECT_EQ(tally.failures, 0);
}

TEST(PolygonSat, DocumentedCases) {
    const Polygon square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    const Polygon right{{0.75f, 0.25f}, {2, 0.25f}, {2, 0.5f}, {0.75f, 0.5f}};
    PolygonMtv m{};
    ASSERT_TRUE(polygonSat(right.data(), 4, square.data(), 4, m));
    EXPECT_FLOAT_EQ(m.depth, 0.25f);
    EXPECT_FLOAT_EQ(m.axis.x, 1.0f); // push `right` further right
    const Polygon touching{{1, 0}, {2, 0}, {2, 1}, {1, 1}};
    ASSERT_TRUE(polygonSat(touching.data(), 4, square.data(), 4, m));
    EXPECT_EQ(m.depth, 0.0f);
    const Polygon p1{{0, 0}}, p2{{1, 0}};
    EXPECT_FALSE(polygonSat(p1.data(), 1, p2.data(), 1, m));
    EXPECT_TRUE(polygonSat(p1.data(), 1, p1.data(), 1, m));
    const Polygon seg{{-1, 0}, {3, 0}}, pt{{4, 0}};
    EXPECT_FALSE(polygonSat(seg.data(), 2, pt.data(), 1, m));
}

TEST(PolygonSat, NonFinite) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const Polygon square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    PolygonMtv m{};
    m.depth = 5.0f;
    for (float bad : {nan, inf, -inf}) {
        for (std::size_t i = 0; i < 4; ++i) {
            Polygon p = square;
            p[i].x = bad;
            EXPECT_FALSE(polygonSat(p.data(), 4, square.data(), 4, m));
            EXPECT_FALSE(polygonSat(square.data(), 4, p.data(), 4, m));
        }
    }
    EXPECT_FALSE(polygonSat(nullptr, 4, square.data(), 4, m));
    EXPECT_FALSE(polygonSat(square.data(), 0, square.data(), 4, m));
    EXPECT_EQ(m.depth, 5.0f);
}

} // namespace
} // namespace flak
