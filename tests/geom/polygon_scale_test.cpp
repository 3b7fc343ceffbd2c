// The planar kernels across the scales a level can have. Multiplying every input by a power of two
// is exact, so a kernel whose answers depend only on the shapes gives the same decision, and outputs
// scaled by the same power, bit for bit. circlePolygon, segmentPolygon, pointInPolygon and
// polygonSat do not rescale: they answer alike from 2^-40 to 2^60 (tolerance.h rule 7), checked
// here on polygon_families.h's convex, star and comb polygons. Outside, their squares and
// products leave the float range: on random stars of 3 to 12 points, circles and segments around
// them, answers first differ at about 2^-49 (circlePolygon, squares underflow) and 2^63
// (segmentPolygon and polygonSat, products overflow).
#include <flak/geom/circle_polygon.h>
#include <flak/geom/point_in_polygon.h>
#include <flak/geom/polygon_sat.h>
#include <flak/geom/segment_polygon.h>

#include "flak_support/polygon_families.h"
#include "flak_support/split_mix.h"
#include "support/case_count.h"
#include "support/same_bits.h"
#include "support/scaled.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace flak::test {
namespace {

TEST(PolygonKernelScale, EveryPowerOfTwoInRangeAnswersAlike) {
    const int exponents[] = {-40, -30, -20, -10, 10, 20, 30, 40, 50, 60};
    SplitMix64 rng(0x5CA1E0002ull);
    long compared = 0, hits = 0;
    for (int i = 0; i < caseCount(20000); ++i) {
        // A convex, star or comb polygon of unit size (collinear points and clockwise order
        // included) and a convex one beside it for the separating-axis test.
        const Polygon p = randomPolygon(rng, Placement{1.0, rng.range(-0.3, 0.3), 0.0}, 12);
        const Polygon q = makeConvex(rng, 3 + int(rng.next() % 6), rng.range(-1, 1), rng.range(-1, 1), 0.5,
                                     rng.range(0.1, 0.5));
        const std::uint32_t n = std::uint32_t(p.size()), m = std::uint32_t(q.size());
        Polygon sp(p.size()), sq(q.size());
        const Vec2 c0{rng.rangef(-1, 1), rng.rangef(-1, 1)}, c1{rng.rangef(-1, 1), rng.rangef(-1, 1)};
        const float radius = rng.rangef(0, 1);
        CirclePolygonContact contact_unit;
        SegmentPolygonHit segment_unit;
        PolygonMtv mtv_unit;
        const bool circle = circlePolygon(c0, radius, p.data(), n, contact_unit);
        const bool segment = segmentPolygon(c0, c1, p.data(), n, segment_unit);
        const bool inside = pointInPolygon(c0, p.data(), n);
        const bool sat = polygonSat(p.data(), n, q.data(), m, mtv_unit);
        hits += circle + segment + inside + sat;
        for (const int e : exponents) {
            const float f = std::ldexp(1.0f, e);
            for (std::size_t k = 0; k < p.size(); ++k) sp[k] = scaled(p[k], f);
            for (std::size_t k = 0; k < q.size(); ++k) sq[k] = scaled(q[k], f);
            const Vec2 s0 = scaled(c0, f), s1 = scaled(c1, f);
            CirclePolygonContact contact;
            ASSERT_EQ(circlePolygon(s0, radius * f, sp.data(), n, contact), circle)
                << "case " << i << " 2^" << e;
            if (circle) {
                ASSERT_TRUE(sameBits(contact.push, scaled(contact_unit.push, f)) &&
                            sameBits(contact.normal, contact_unit.normal) &&
                            sameBits(contact.closest, scaled(contact_unit.closest, f)) &&
                            sameBits(contact.depth, contact_unit.depth * f))
                    << "case " << i << " 2^" << e;
            }
            SegmentPolygonHit hit;
            ASSERT_EQ(segmentPolygon(s0, s1, sp.data(), n, hit), segment) << "case " << i << " 2^" << e;
            if (segment) {
                ASSERT_TRUE(sameBits(hit.t, segment_unit.t) &&
                            sameBits(hit.point, scaled(segment_unit.point, f)) &&
                            sameBits(hit.normal, segment_unit.normal) && hit.edge == segment_unit.edge)
                    << "case " << i << " 2^" << e;
            }
            ASSERT_EQ(pointInPolygon(s0, sp.data(), n), inside) << "case " << i << " 2^" << e;
            PolygonMtv mtv;
            ASSERT_EQ(polygonSat(sp.data(), n, sq.data(), m, mtv), sat) << "case " << i << " 2^" << e;
            if (sat) {
                ASSERT_TRUE(sameBits(mtv.axis, mtv_unit.axis) && sameBits(mtv.depth, mtv_unit.depth * f))
                    << "case " << i << " 2^" << e;
            }
            compared += 4;
        }
    }
    std::printf("[polygon scale] %ld kernel answers at 10 powers of two equal to unit scale's, bit for bit "
                "(%ld hits at unit scale)\n",
                compared, hits);
}

} // namespace
} // namespace flak::test
