// Oracle tests of pointInPolygon: winding number by summed angles in double (a different method
// from the kernel's float crossing number), forgiving only points within the tolerance band of the
// boundary.
#include <flak/geom/point_in_polygon.h>

#include "flak_support/polygon_families.h"
#include "support/case_count.h"
#include "support/oracle.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>

namespace flak {
namespace {

using namespace test;

const std::uint64_t kSeed = 0x5EED0001ull + oracleSeedOffset();

bool pip(const Vec2& p, const Polygon& poly) {
    return pointInPolygon(p, poly.data(), std::uint32_t(poly.size()));
}

// One oracle case. Returns false after printing the case on an out-of-band disagreement.
bool checkCase(const Polygon& poly, const Vec2& p, std::uint64_t seed, long index, OracleTally& tally) {
    const bool got = pip(p, poly);
    ++tally.cases;
    if (got) ++tally.hits;
    const D2 pd = toD(p);
    const DPoly local = toLocal(poly, pd); // exact: the reference works around the point
    const double band = bandOf(polygonScale(poly, pd));
    const double dist = dBoundaryDistance(D2{}, local);
    if (dist <= band) {
        ++tally.in_band;
        // On the boundary the reference has no answer; near it, a flip is forgiven.
        if (dist > 0.0 && got != dInsideWinding(D2{}, local)) ++tally.forgiven;
        return true;
    }
    const bool want = dInsideWinding(D2{}, local);
    if (got == want) return true;
    ++tally.failures;
    std::printf("pointInPolygon disagreement: seed=%llu case=%ld got=%d want=%d dist=%g band=%g\n",
                (unsigned long long)seed, index, int(got), int(want), dist, band);
    std::printf("  point {%a, %a}\n", double(p.x), double(p.y));
    printPolygon("polygon", poly);
    return false;
}

TEST(PointInPolygon, Random1M) {
    SplitMix64 rng(kSeed);
    OracleTally tally("PointInPolygon.Random1M", kSeed);
    long index = 0;
    while (index < caseCount<long>(1000000)) {
        const Placement pl = randomPlacement(rng);
        const Polygon poly = randomPolygon(rng, pl);
        double lo_x = kDInf, lo_y = kDInf, hi_x = -kDInf, hi_y = -kDInf;
        for (const Vec2& v : poly) {
            lo_x = std::min(lo_x, double(v.x));
            hi_x = std::max(hi_x, double(v.x));
            lo_y = std::min(lo_y, double(v.y));
            hi_y = std::max(hi_y, double(v.y));
        }
        const double gx = 0.1 * (hi_x - lo_x), gy = 0.1 * (hi_y - lo_y);
        for (int k = 0; k < 8; ++k, ++index) {
            Vec2 p;
            if (k < 5) {
                p = v2(rng.range(lo_x - gx, hi_x + gx), rng.range(lo_y - gy, hi_y + gy));
            } else if (k < 7) {
                // Near an edge, at distances from 1e-8 to 1e-1 of the size, either side.
                const double off = pl.size * std::pow(10.0, rng.range(-8.0, -1.0)) * (rng.u() < 0.5 ? -1 : 1);
                const D2 d = pointNearEdge(rng, poly, off);
                p = v2(d.x, d.y);
            } else {
                p = poly[std::size_t(rng.next() % poly.size())];
            }
            if (!checkCase(poly, p, kSeed, index, tally)) break;
        }
        if (tally.failures) break;
    }
    tally.print();
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GT(tally.hits, tally.cases / 5);
    EXPECT_LT(tally.hits, tally.cases * 4 / 5);
}

TEST(PointInPolygon, AdversarialFamilies) {
    SplitMix64 rng(kSeed + 1);
    OracleTally tally("PointInPolygon.AdversarialFamilies", kSeed + 1);
    long index = 0;
    for (int round = 0; round < caseCount<int>(20000) && !tally.failures; ++round) {
        const Placement pl = randomPlacement(rng);
        // Axis-aligned combs: points exactly on vertical and horizontal edges and at vertices.
        Polygon comb = makeComb(rng, 1 + int(rng.next() % 4), pl.cx, pl.cy, pl.size);
        if (rng.u() < 0.5) reversePolygon(comb);
        for (int k = 0; k < 6; ++k, ++index) {
            const std::size_t i = std::size_t(rng.next() % comb.size());
            const Vec2 a = comb[i], b = comb[(i + 1) % comb.size()];
            Vec2 p = a;
            if (k % 2 == 0) {
                const float t = rng.rangef(0.0, 1.0);
                p = Vec2{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
            }
            if (!checkCase(comb, p, kSeed + 1, index, tally)) break;
        }
        // Collinear vertices and zero-area polygons.
        Polygon flat;
        const D2 dir{rng.range(-1, 1), rng.range(-1, 1)};
        for (int k = 0; k < 3 + int(rng.next() % 4); ++k) {
            const double t = rng.range(-1, 1) * pl.size;
            flat.push_back(v2(pl.cx + dir.x * t, pl.cy + dir.y * t));
        }
        for (int k = 0; k < 4; ++k, ++index) {
            const Vec2 p = k < 2 ? flat[std::size_t(rng.next() % flat.size())]
                                 : v2(pl.cx + rng.range(-1, 1) * pl.size, pl.cy + rng.range(-1, 1) * pl.size);
            if (!checkCase(flat, p, kSeed + 1, index, tally)) break;
        }
        // Fewer than 3 points: never inside.
        Polygon few(flat.begin(), flat.begin() + std::ptrdiff_t(rng.next() % 3));
        const Vec2 q = few.empty() ? Vec2{} : few[0];
        EXPECT_FALSE(pip(q, few));
        EXPECT_FALSE(pointInPolygon(q, nullptr, 5));
        // Collinear extra vertices on a star, near-boundary points at the band's own scale.
        Polygon star = makeStar(rng, 3 + int(rng.next() % 10), pl.cx, pl.cy, pl.size, 0.2);
        addCollinear(rng, star, 3);
        for (int k = 0; k < 4; ++k, ++index) {
            const D2 d = pointNearEdge(rng, star, pl.size * 1e-5 * rng.range(-3.0, 3.0));
            if (!checkCase(star, v2(d.x, d.y), kSeed + 1, index, tally)) break;
        }
    }
    tally.print();
    EXPECT_EQ(tally.failures, 0);
}

// Adjacent polygons sharing edges partition the points on those edges: a fan of triangles around
// the centre of a star polygon (every spoke shared by two triangles, the centre by all), and a
// convex polygon cut in two by a chord.
TEST(PointInPolygon, SharedEdgesPartition200k) {
    SplitMix64 rng(kSeed + 2);
    long checked = 0, failures = 0;
    for (int round = 0; round < caseCount<int>(20000) && failures == 0; ++round) {
        const Placement pl = randomPlacement(rng);
        const int n = 3 + int(rng.next() % 10);
        const Polygon star = makeStar(rng, n, pl.cx, pl.cy, pl.size, 0.3);
        const Vec2 c = v2(pl.cx, pl.cy);
        std::vector<Polygon> fan;
        bool folded = false;
        for (int i = 0; i < n; ++i) {
            fan.push_back({c, star[std::size_t(i)], star[std::size_t((i + 1) % n)]});
            folded = folded || !(dArea2(fan.back()) > 0.0);
        }
        if (folded) continue; // an angular gap over pi: the centre is outside, not a fan
        for (int k = 0; k < 10; ++k) {
            Vec2 p = c;
            if (k > 0) {
                const Vec2 v = star[std::size_t(rng.next() % star.size())];
                const float t = k < 5 ? rng.rangef(0.0, 1.0) : rng.rangef(0.0, 1e-3);
                p = Vec2{c.x + (v.x - c.x) * t, c.y + (v.y - c.y) * t};
            }
            const D2 pd = toD(p);
            const DPoly local = toLocal(star, pd);
            if (dBoundaryDistance(D2{}, local) <= bandOf(polygonScale(star, pd)) ||
                !dInsideWinding(D2{}, local))
                continue;
            int owners = 0;
            for (const Polygon& tri : fan) owners += pip(p, tri) ? 1 : 0;
            ++checked;
            if (owners != 1) {
                ++failures;
                std::printf("fan partition: round=%d k=%d owners=%d point {%a, %a}\n", round, k, owners,
                            double(p.x), double(p.y));
                printPolygon("star", star);
            }
        }
        // Chord split of a convex polygon.
        const Polygon convex = makeConvex(rng, 4 + int(rng.next() % 8), pl.cx, pl.cy, pl.size, pl.size * 0.7);
        const std::size_t m = convex.size(), i = rng.next() % m, j = (i + 2 + rng.next() % (m - 3)) % m;
        Polygon left, right;
        for (std::size_t k = i;; k = (k + 1) % m) {
            left.push_back(convex[k]);
            if (k == j) break;
        }
        for (std::size_t k = j;; k = (k + 1) % m) {
            right.push_back(convex[k]);
            if (k == i) break;
        }
        for (int k = 0; k < 10; ++k) {
            const float t = rng.rangef(0.0, 1.0);
            const Vec2 a = convex[i], b = convex[j];
            const Vec2 p{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
            const D2 pd = toD(p);
            const DPoly local = toLocal(convex, pd);
            if (dBoundaryDistance(D2{}, local) <= bandOf(polygonScale(convex, pd)) ||
                !dInsideWinding(D2{}, local))
                continue;
            ++checked;
            const int owners = int(pip(p, left)) + int(pip(p, right));
            if (owners != 1) {
                ++failures;
                std::printf("chord partition: round=%d owners=%d point {%a, %a}\n", round, owners,
                            double(p.x), double(p.y));
                printPolygon("convex", convex);
            }
        }
    }
    std::printf("[PointInPolygon.SharedEdgesPartition200k] points on shared edges checked=%ld failures=%ld\n",
                checked, failures);
    EXPECT_EQ(failures, 0);
    EXPECT_GT(checked, caseCount(150000L));
}

TEST(PointInPolygon, DocumentedBoundaryRule) {
    const Polygon square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    Polygon cw = square;
    reversePolygon(cw);
    for (const Polygon* p : {&square, static_cast<const Polygon*>(&cw)}) {
        EXPECT_TRUE(pip(Vec2{0.0f, 0.5f}, *p));  // left side
        EXPECT_TRUE(pip(Vec2{0.5f, 0.0f}, *p));  // bottom side
        EXPECT_FALSE(pip(Vec2{1.0f, 0.5f}, *p)); // right side
        EXPECT_FALSE(pip(Vec2{0.5f, 1.0f}, *p)); // top side
        EXPECT_TRUE(pip(Vec2{0.0f, 0.0f}, *p));
        EXPECT_FALSE(pip(Vec2{1.0f, 0.0f}, *p));
        EXPECT_FALSE(pip(Vec2{0.0f, 1.0f}, *p));
        EXPECT_FALSE(pip(Vec2{1.0f, 1.0f}, *p));
        EXPECT_TRUE(pip(Vec2{0.5f, 0.5f}, *p));
    }
}

TEST(PointInPolygon, OrientationIndependent100k) {
    SplitMix64 rng(kSeed + 3);
    long mismatches = 0;
    for (int i = 0; i < 12500; ++i) {
        const Placement pl = randomPlacement(rng);
        Polygon poly = randomPolygon(rng, pl);
        Polygon rev = poly;
        reversePolygon(rev);
        for (int k = 0; k < 8; ++k) {
            const D2 d =
                k < 4 ? pointNearEdge(rng, poly, 0.0)
                      : D2{pl.cx + rng.range(-1.2, 1.2) * pl.size, pl.cy + rng.range(-1.2, 1.2) * pl.size};
            const Vec2 p = v2(d.x, d.y);
            mismatches += pip(p, poly) != pip(p, rev) ? 1 : 0;
        }
    }
    EXPECT_EQ(mismatches, 0);
}

TEST(PointInPolygon, NonFinite) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const Polygon square{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (float bad : {nan, inf, -inf}) {
        EXPECT_FALSE(pip(Vec2{bad, 0.0f}, square));
        EXPECT_FALSE(pip(Vec2{0.0f, bad}, square));
        for (std::size_t i = 0; i < square.size(); ++i) {
            for (int c = 0; c < 2; ++c) {
                Polygon p = square;
                (c ? p[i].y : p[i].x) = bad;
                EXPECT_FALSE(pip(Vec2{0.0f, 0.0f}, p));
                EXPECT_FALSE(pip(Vec2{0.5f, 0.25f}, p));
            }
        }
    }
}

} // namespace
} // namespace flak
