// Oracle tests of segmentPolygon. The reference works in double around p0 (exact local
// coordinates): start inside by the winding number, then brute force over every edge with its own
// segment-segment intersection (collinear overlaps included). A disagreement is forgiven only when
// the segment never gets deeper than the band into the solid before the later of the two answers
// and the reported point lies within the band of the solid.
#include <flak/geom/segment_polygon.h>

#include "flak_support/polygon_families.h"
#include "support/case_count.h"
#include "support/oracle.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>

namespace flak {
namespace {

using namespace test;

const std::uint64_t kSeed = 0x5E6E0000ull + oracleSeedOffset();

// First t in [0, 1] of the segment 0 + t d on [a, b], or +inf.
double segmentFirstT(const D2& d, const D2& a, const D2& b) {
    const D2 e = dsub(b, a);
    const double den = dcross(d, e);
    if (den != 0.0) {
        const double t = dcross(a, e) / den, u = dcross(a, d) / den;
        return (t >= 0.0 && t <= 1.0 && u >= 0.0 && u <= 1.0) ? t : kDInf;
    }
    if (dcross(a, d) != 0.0) return kDInf;
    const double dd = ddot(d, d);
    if (dd == 0.0) return dSegmentDistance(D2{}, a, b) == 0.0 ? 0.0 : kDInf;
    const double ta = ddot(a, d) / dd, tb = ddot(b, d) / dd;
    const double lo = std::min(ta, tb), hi = std::max(ta, tb);
    if (hi < 0.0 || lo > 1.0) return kDInf;
    return std::max(lo, 0.0);
}

// First hit of 0 + t d on the solid (poly relative to p0), +inf for a miss.
double referenceFirstHit(const DPoly& poly, const D2& d) {
    if (dBoundaryDistance(D2{}, poly) == 0.0 || dInsideWinding(D2{}, poly)) return 0.0;
    double best = kDInf;
    for (std::size_t i = 0; i < poly.size(); ++i)
        best = std::min(best, segmentFirstT(d, poly[i], poly[(i + 1) % poly.size()]));
    return best;
}

// Interval of t in [0, 1] where the distance from 0 + t d to [a, b] is <= w (a capsule is convex:
// the union of its rectangle's and its two discs' intervals is one interval). False when empty.
bool capsuleInterval(const D2& d, const D2& a, const D2& b, double w, double& lo, double& hi) {
    lo = kDInf;
    hi = -kDInf;
    const double dd = ddot(d, d);
    if (dd == 0.0) {
        if (dSegmentDistance(D2{}, a, b) > w) return false;
        lo = 0.0;
        hi = 1.0;
        return true;
    }
    for (const D2& c : {a, b}) {
        const D2 f = dmul(c, -1.0);
        const double bq = ddot(f, d), cq = ddot(f, f) - w * w, disc = bq * bq - dd * cq;
        if (disc < 0.0) continue;
        lo = std::min(lo, (-bq - std::sqrt(disc)) / dd);
        hi = std::max(hi, (-bq + std::sqrt(disc)) / dd);
    }
    const D2 e = dsub(b, a);
    const double ee = ddot(e, e);
    if (ee > 0.0) {
        const double len = std::sqrt(ee);
        double rlo = -kDInf, rhi = kDInf;
        // along(t) = (-a).e + t d.e in [0, ee]; across(t) = cross(e, -a) + t cross(e, d) in [-w len, w len]
        auto clip = [&](double alpha, double beta, double lower, double upper) {
            if (beta == 0.0) {
                if (alpha < lower || alpha > upper) rlo = kDInf;
                return;
            }
            double t0 = (lower - alpha) / beta, t1 = (upper - alpha) / beta;
            if (t0 > t1) std::swap(t0, t1);
            rlo = std::max(rlo, t0);
            rhi = std::min(rhi, t1);
        };
        clip(-ddot(a, e), ddot(d, e), 0.0, ee);
        clip(dcross(e, dmul(a, -1.0)), dcross(e, d), -w * len, w * len);
        if (rlo <= rhi) {
            lo = std::min(lo, rlo);
            hi = std::max(hi, rhi);
        }
    }
    lo = std::max(lo, 0.0);
    hi = std::min(hi, 1.0);
    return lo <= hi;
}

// First t at which 0 + t d is inside the solid deeper than w, or +inf.
double firstDeepT(const DPoly& poly, const D2& d, double w) {
    const std::size_t n = poly.size();
    std::vector<std::pair<double, double>> near;
    for (std::size_t i = 0; i < n; ++i) {
        double lo, hi;
        if (capsuleInterval(d, poly[i], poly[(i + 1) % n], w, lo, hi)) near.push_back({lo, hi});
    }
    std::vector<double> cand{0.0};
    for (const auto& iv : near) cand.push_back(std::min(1.0, iv.second + 1e-12));
    std::sort(cand.begin(), cand.end());
    for (double t : cand) {
        bool covered = false;
        for (const auto& iv : near) covered = covered || (t >= iv.first && t <= iv.second);
        if (!covered && dInsideCrossing(dmul(d, t), poly)) return t;
    }
    return kDInf;
}

struct SegmentCase {
    Polygon poly;
    Vec2 p0, p1;
};

// Hits that agree with the reference on hit/miss but whose t differs by more than the band along the
// segment (grazing entries, where t is ill-conditioned), forgiven by the depth checks.
long forgiven_t = 0;

bool checkCase(const SegmentCase& k, std::uint64_t seed, long index, OracleTally& tally) {
    SegmentPolygonHit got{};
    const bool hit = segmentPolygon(k.p0, k.p1, k.poly.data(), std::uint32_t(k.poly.size()), got);
    ++tally.cases;
    if (hit) ++tally.hits;
    const D2 origin = toD(k.p0);
    const DPoly poly = toLocal(k.poly, origin);
    const D2 d = dsub(toD(k.p1), origin);
    const double scale = std::max({polygonScale(k.poly, origin), std::fabs(d.x), std::fabs(d.y)});
    const double band = bandOf(scale);
    const double len = dlen(d);
    const double ref_t = referenceFirstHit(poly, d);
    const bool want = ref_t < kDInf;
    auto fail = [&](const char* what, double a, double b) {
        ++tally.failures;
        std::printf(
            "segmentPolygon %s: seed=%llu case=%ld (%.9g vs %.9g, band %g) hit=%d want=%d ref_t=%.9g\n", what,
            (unsigned long long)seed, index, a, b, band, int(hit), int(want), ref_t);
        std::printf("  got t %a point {%a, %a} normal {%a, %a} edge %u\n", double(got.t), double(got.point.x),
                    double(got.point.y), double(got.normal.x), double(got.normal.y), got.edge);
        std::printf("  p0 {%a, %a} p1 {%a, %a}\n", double(k.p0.x), double(k.p0.y), double(k.p1.x),
                    double(k.p1.y));
        printPolygon("polygon", k.poly);
        return false;
    };
    const bool agree_t = hit && want && std::fabs(double(got.t) - ref_t) * len <= band;
    if (hit != want || (hit && want && !agree_t)) {
        // Not plain agreement: the segment must not go deeper than the band before the kernel's
        // answer, and a reported point must be within the band of the solid.
        const double deep = firstDeepT(poly, d, band);
        if (!hit && deep < kDInf) return fail("missed a penetrating segment", deep, 0.0);
        if (hit && double(got.t) > deep + 1e-12)
            return fail("hit reported after a deep penetration", got.t, deep);
        if (hit) {
            const D2 at = dmul(d, double(got.t));
            const double sd = dSignedDistance(at, poly);
            if (sd > band) return fail("hit point away from the solid", sd, 0.0);
        }
        ++tally.in_band;
        if (hit != want) {
            ++tally.forgiven;
        } else {
            ++forgiven_t;
        }
    }
    if (!hit) return true;
    if (agree_t) tally.noteError(std::fabs(double(got.t) - ref_t) * len, band);
    const double out_round =
        std::ldexp(std::max(std::fabs(double(got.point.x)), std::fabs(double(got.point.y))), -23);
    const D2 at = dmul(d, double(got.t));
    if (dlen(dsub(dsub(toD(got.point), origin), at)) > band + out_round)
        return fail("point != p0 + t (p1 - p0)", got.t, 0.0);
    const D2 nrm = toD(got.normal);
    if (got.edge == kNoEdge) {
        if (got.t != 0.0f) return fail("start-inside hit with t != 0", got.t, 0.0);
        if (dSignedDistance(D2{}, poly) > band) return fail("start-inside hit from outside", 0.0, 0.0);
        if (len > 0.0 && std::fabs(dlen(nrm) - 1.0) > 1e-5) return fail("normal not unit", dlen(nrm), 1.0);
        return true;
    }
    if (got.edge >= poly.size()) return fail("edge index out of range", got.edge, 0.0);
    const D2 a = poly[got.edge], b = poly[(got.edge + 1) % poly.size()], e = dsub(b, a);
    if (dSegmentDistance(at, a, b) > band)
        return fail("hit point off the reported edge", dSegmentDistance(at, a, b), 0.0);
    if (len == 0.0) {
        if (dlen(nrm) != 0.0) return fail("zero-length segment: normal not zero", dlen(nrm), 0.0);
        if (dSegmentDistance(D2{}, a, b) > band) return fail("point off the reported edge", 0.0, 0.0);
        return true;
    }
    if (std::fabs(dlen(nrm) - 1.0) > 1e-5) return fail("normal not unit", dlen(nrm), 1.0);
    if (dlen(e) > 0.0 && std::fabs(ddot(nrm, e)) > 1e-5 * dlen(e))
        return fail("normal not perpendicular", ddot(nrm, e), 0.0);
    if (ddot(nrm, d) > 1e-5 * len) return fail("normal faces along the segment", ddot(nrm, d), 0.0);
    return true;
}

SegmentCase randomCase(SplitMix64& rng) {
    const Placement pl = randomPlacement(rng);
    SegmentCase k;
    k.poly = randomPolygon(rng, pl, 12);
    auto randomPoint = [&](double grow) {
        return v2(pl.cx + rng.range(-grow, grow) * pl.size, pl.cy + rng.range(-grow, grow) * pl.size);
    };
    const double u = rng.u();
    const std::size_t i = std::size_t(rng.next() % k.poly.size());
    const Vec2 a = k.poly[i], b = k.poly[(i + 1) % k.poly.size()];
    if (u < 0.5) {
        k.p0 = randomPoint(1.5);
        k.p1 = randomPoint(1.5);
    } else if (u < 0.6) {
        // Along an edge's line, overlapping it or not.
        const float s0 = rng.rangef(-1.0, 2.0), s1 = rng.rangef(-1.0, 2.0);
        k.p0 = Vec2{a.x + (b.x - a.x) * s0, a.y + (b.y - a.y) * s0};
        k.p1 = Vec2{a.x + (b.x - a.x) * s1, a.y + (b.y - a.y) * s1};
    } else if (u < 0.7) {
        // Through a vertex.
        k.p0 = randomPoint(1.5);
        k.p1 = Vec2{a.x + (a.x - k.p0.x) * rng.rangef(0.0, 1.0), a.y + (a.y - k.p0.y) * rng.rangef(0.0, 1.0)};
    } else if (u < 0.75) {
        // Zero length, anywhere or on an edge.
        k.p0 = rng.u() < 0.5 ? randomPoint(1.2) : a;
        k.p1 = k.p0;
    } else if (u < 0.85) {
        // Short, near an edge.
        const D2 p = pointNearEdge(rng, k.poly, pl.size * rng.range(-0.05, 0.05));
        k.p0 = v2(p.x, p.y);
        k.p1 = v2(p.x + rng.range(-0.1, 0.1) * pl.size, p.y + rng.range(-0.1, 0.1) * pl.size);
    } else {
        // Ending exactly on an edge point (t = 1) or starting on one.
        const float t = rng.rangef(0.0, 1.0);
        const Vec2 on{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
        k.p0 = randomPoint(1.5);
        k.p1 = on;
        if (rng.u() < 0.5) std::swap(k.p0, k.p1);
    }
    return k;
}

TEST(SegmentPolygon, Random1M) {
    SplitMix64 rng(kSeed);
    OracleTally tally("SegmentPolygon.Random1M", kSeed);
    forgiven_t = 0;
    for (long i = 0; i < caseCount<long>(1000000) && !tally.failures; ++i)
        checkCase(randomCase(rng), kSeed, i, tally);
    tally.print();
    std::printf("[SegmentPolygon.Random1M] hits forgiven a t off by more than the band (grazing): %ld\n",
                forgiven_t);
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GT(tally.hits, tally.cases / 4);
    EXPECT_LT(tally.hits, tally.cases * 3 / 4);
}

TEST(SegmentPolygon, AdversarialFamilies) {
    SplitMix64 rng(kSeed + 1);
    OracleTally tally("SegmentPolygon.AdversarialFamilies", kSeed + 1);
    forgiven_t = 0;
    long index = 0;
    for (int round = 0; round < caseCount<int>(50000) && !tally.failures; ++round) {
        const Placement pl = randomPlacement(rng);
        SegmentCase k;
        const int family = round % 5;
        if (family <= 1) {
            // Axis-aligned comb: segments exactly along edges, through vertices, ending on edges.
            k.poly = makeComb(rng, 1 + int(rng.next() % 3), 0.0, 0.0, 2.0);
            for (Vec2& v : k.poly)
                v = v2(pl.cx + std::round(double(v.x) * 64.0) / 64.0 * pl.size,
                       pl.cy + std::round(double(v.y) * 64.0) / 64.0 * pl.size);
            const Vec2 v = k.poly[std::size_t(rng.next() % k.poly.size())];
            const float ext = float(pl.size * rng.range(0.1, 2.0));
            const int pick = int(rng.next() % 4);
            if (pick == 0) { // horizontal through the vertex's y
                k.p0 = Vec2{v.x - ext, v.y};
                k.p1 = Vec2{v.x + float(pl.size * rng.range(-2.0, 2.0)), v.y};
            } else if (pick == 1) { // vertical through the vertex's x
                k.p0 = Vec2{v.x, v.y + ext};
                k.p1 = Vec2{v.x, v.y - float(pl.size * rng.range(-2.0, 2.0))};
            } else if (pick == 2) { // ending exactly at the vertex
                k.p0 = v2(pl.cx + rng.range(-1.5, 1.5) * pl.size, pl.cy + rng.range(-1.5, 1.5) * pl.size);
                k.p1 = v;
            } else { // zero length at the vertex
                k.p0 = v;
                k.p1 = v;
            }
        } else if (family == 2) {
            // Degenerate polygons: a point, a segment, collinear points.
            const int n = 1 + int(rng.next() % 5);
            const D2 dir{rng.range(-1, 1), rng.range(-1, 1)};
            for (int j = 0; j < n; ++j) {
                const double t = rng.range(-1, 1) * pl.size;
                k.poly.push_back(v2(pl.cx + dir.x * t, pl.cy + dir.y * t));
            }
            k.p0 = v2(pl.cx + rng.range(-1, 1) * pl.size, pl.cy + rng.range(-1, 1) * pl.size);
            const Vec2 target = k.poly[std::size_t(rng.next() % k.poly.size())];
            k.p1 = rng.u() < 0.5 ? target
                                 : v2(pl.cx + rng.range(-1, 1) * pl.size, pl.cy + rng.range(-1, 1) * pl.size);
        } else {
            k = randomCase(rng);
        }
        checkCase(k, kSeed + 1, index++, tally);
    }
    tally.print();
    std::printf(
        "[SegmentPolygon.AdversarialFamilies] hits forgiven a t off by more than the band (grazing): %ld\n",
        forgiven_t);
    EXPECT_EQ(tally.failures, 0);
}

TEST(SegmentPolygon, DocumentedCases) {
    const Polygon square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    SegmentPolygonHit h{};
    // Through the left side.
    ASSERT_TRUE(segmentPolygon(Vec2{-1.0f, 0.5f}, Vec2{1.0f, 0.5f}, square.data(), 4, h));
    EXPECT_FLOAT_EQ(h.t, 0.5f);
    EXPECT_EQ(h.edge, 3u);
    EXPECT_FLOAT_EQ(h.normal.x, -1.0f);
    // Starting inside.
    ASSERT_TRUE(segmentPolygon(Vec2{0.5f, 0.5f}, Vec2{2.0f, 0.5f}, square.data(), 4, h));
    EXPECT_EQ(h.t, 0.0f);
    EXPECT_EQ(h.edge, kNoEdge);
    EXPECT_FLOAT_EQ(h.normal.x, -1.0f);
    // Ending exactly on the boundary: t = 1.
    ASSERT_TRUE(segmentPolygon(Vec2{-1.0f, 0.5f}, Vec2{0.0f, 0.5f}, square.data(), 4, h));
    EXPECT_EQ(h.t, 1.0f);
    // Sliding along the bottom edge from outside: normal is the outward one (0, -1).
    ASSERT_TRUE(segmentPolygon(Vec2{-1.0f, 0.0f}, Vec2{2.0f, 0.0f}, square.data(), 4, h));
    EXPECT_FLOAT_EQ(h.t, 1.0f / 3.0f);
    EXPECT_EQ(h.normal.x, 0.0f);
    EXPECT_EQ(h.normal.y, -1.0f);
    Polygon cw = square;
    reversePolygon(cw);
    ASSERT_TRUE(segmentPolygon(Vec2{-1.0f, 0.0f}, Vec2{2.0f, 0.0f}, cw.data(), 4, h));
    EXPECT_EQ(h.normal.y, -1.0f);
    // A miss, and a zero-length segment inside.
    EXPECT_FALSE(segmentPolygon(Vec2{-1.0f, 2.0f}, Vec2{2.0f, 2.0f}, square.data(), 4, h));
    ASSERT_TRUE(segmentPolygon(Vec2{0.5f, 0.5f}, Vec2{0.5f, 0.5f}, square.data(), 4, h));
    EXPECT_EQ(h.normal.x, 0.0f);
    EXPECT_EQ(h.normal.y, 0.0f);
}

// Ends and vertices exactly on the boundary, off the axes (integer points, so the cases are
// exact): the interpolated crossing rounded just behind the start or past the end and the
// segment missed; a line through a vertex reported the edge that starts there, not the lower
// index.
TEST(SegmentPolygon, BoundaryEndsAndVertexTiesOffTheAxes) {
    SegmentPolygonHit h{};
    const Polygon ends_on_edge{{31, 25}, {-4, -20}, {39, 17}}; // (10, -2) is 3/5 along edge 0
    ASSERT_TRUE(segmentPolygon(Vec2{23, 24}, Vec2{10, -2}, ends_on_edge.data(), 3, h));
    EXPECT_EQ(h.t, 1.0f);
    EXPECT_EQ(h.edge, 0u);
    const Polygon starts_on_edge{{20, 18}, {-22, -19}, {27, -24}}; // (25, -12) is on edge 2
    ASSERT_TRUE(segmentPolygon(Vec2{25, -12}, Vec2{162, -24}, starts_on_edge.data(), 3, h));
    EXPECT_EQ(h.t, 0.0f);
    const Polygon quad{{41, 43}, {26, -23}, {-28, -33}, {-36, 2}}; // the line passes through vertex 3
    ASSERT_TRUE(segmentPolygon(Vec2{-87, 137}, Vec2{15, -133}, quad.data(), 4, h));
    EXPECT_EQ(h.edge, 2u);
    EXPECT_EQ(h.point.x, -36.0f);
    EXPECT_EQ(h.point.y, 2.0f);
    // Every vertex of the quad, by a segment from far outside through it: the edge that ends
    // there (vertex 0: edge 0, which starts there, is the lower index).
    for (std::uint32_t k = 0; k < 4; ++k) {
        const Vec2 v = quad[k];
        const Vec2 out{v.x * 3.0f, v.y * 3.0f}; // from beyond the vertex, seen from the centroid
        ASSERT_TRUE(segmentPolygon(out, Vec2{0.0f, 0.0f}, quad.data(), 4, h)) << k;
        EXPECT_EQ(h.edge, k == 0 ? 0u : k - 1) << k;
    }
}

TEST(SegmentPolygon, NonFinite) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const Polygon square{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    SegmentPolygonHit h{};
    h.t = 7.0f;
    for (float bad : {nan, inf, -inf}) {
        EXPECT_FALSE(segmentPolygon(Vec2{bad, 0.0f}, Vec2{0.0f, 0.0f}, square.data(), 4, h));
        EXPECT_FALSE(segmentPolygon(Vec2{-2.0f, 0.0f}, Vec2{0.0f, bad}, square.data(), 4, h));
        for (std::size_t i = 0; i < 4; ++i) {
            Polygon p = square;
            p[i].x = bad;
            EXPECT_FALSE(segmentPolygon(Vec2{-2.0f, 0.0f}, Vec2{2.0f, 0.0f}, p.data(), 4, h));
        }
    }
    // Finite ends whose difference overflows.
    EXPECT_FALSE(segmentPolygon(Vec2{-3e38f, 0.0f}, Vec2{3e38f, 0.0f}, square.data(), 4, h));
    EXPECT_FALSE(segmentPolygon(Vec2{0.0f, 0.0f}, Vec2{1.0f, 0.0f}, nullptr, 4, h));
    EXPECT_FALSE(segmentPolygon(Vec2{0.0f, 0.0f}, Vec2{1.0f, 0.0f}, square.data(), 0, h));
    EXPECT_EQ(h.t, 7.0f);
}

} // namespace
} // namespace flak
