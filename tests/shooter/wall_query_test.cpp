// Wall sets: point inside solid, circle contacts and push-out, segment first hit, swept circle
// first hit, against brute-force oracles (every edge alone / every ring alone with the geom
// kernels) and double references, on random levels and adversarial inputs; the baker's refusals.
#include "shooter/shooter_scenes.h"
#include "support/case_count.h"

#include "flak_support/polygon_families.h"

#include <flak/bvh/sphere_query.h>

#include <cstring>
#include <functional>

namespace flak::test {
namespace {

bool sameContact(const WallContact& a, const WallContact& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Query points: uniform over the level, on vertices, on edge midpoints and just off them.
Vec2 probePoint(SplitMix64& rng, const WallSet& w, double lo, double hi) {
    const double pick = rng.u();
    if (pick < 0.5 || w.point_count == 0) return Vec2{rng.rangef(lo, hi), rng.rangef(lo, hi)};
    const std::uint32_t e = std::uint32_t(rng.u() * w.point_count) % w.point_count;
    Vec2 a, b;
    wallEdgePoints(w, e, a, b);
    if (pick < 0.6) return a;                                            // a vertex
    if (pick < 0.7) return Vec2{0.5f * (a.x + b.x), 0.5f * (a.y + b.y)}; // an edge midpoint
    const float f = rng.rangef(0, 1), off = rng.rangef(-1e-3, 1e-3);
    return Vec2{a.x + (b.x - a.x) * f + off, a.y + (b.y - a.y) * f - off}; // near the boundary
}

struct LevelCase {
    std::unique_ptr<Level> level;
    double lo, hi;
};

std::vector<LevelCase> testLevels(std::uint64_t seed) {
    std::vector<LevelCase> out;
    const double origins[] = {-50.0, 1000.0, -3e4};
    const double cells[] = {10.0, 2.0, 40.0};
    for (int k = 0; k < 3; ++k) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(k));
        const int n = 4 + k;
        out.push_back({bakeLevel(randomPolygons(rng, n, cells[k], origins[k]), 1 + std::uint32_t(k) * 3),
                       origins[k] - cells[k], origins[k] + (n + 1) * cells[k]});
    }
    // Adversarial: axis-aligned rectangles with a rectangular hole and a comb (collinear edges,
    // shared coordinates, vertical and horizontal edges the rays run along).
    std::vector<bake::WallPolygon> grid;
    bake::WallPolygon frame;
    frame.rings = {rectRing(0, 0, 8, 8), rectRing(2, 2, 6, 6)};
    grid.push_back(frame);
    bake::WallPolygon island;
    island.rings = {rectRing(3, 3, 5, 5)};
    grid.push_back(island);
    bake::WallPolygon comb;
    comb.rings = {{Vec2{10, 0}, Vec2{16, 0}, Vec2{16, 4}, Vec2{15, 4}, Vec2{15, 1}, Vec2{14, 1}, Vec2{14, 4},
                   Vec2{13, 4}, Vec2{13, 1}, Vec2{12, 1}, Vec2{12, 4}, Vec2{11, 4}, Vec2{11, 1},
                   Vec2{10, 1}}};
    grid.push_back(comb);
    out.push_back({bakeLevel(grid, 2), -2.0, 18.0});
    return out;
}

TEST(WallQuery, PointInsideEqualsXorOfRings) {
    const std::uint64_t seed = 0x5A11u + oracleSeedOffset();
    OracleTally tally("walls point inside", seed);
    auto levels = testLevels(seed);
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const WallSet& w = levels[l].level->walls;
        const auto rings = storedRings(w);
        for (int i = 0; i < caseCount(20000); ++i) {
            const std::uint64_t index = l * 100000 + std::uint64_t(i);
            SplitMix64 rng = caseRng(seed, index);
            const Vec2 p = probePoint(rng, w, levels[l].lo, levels[l].hi);
            const bool kernel = pointInWalls(w, p);
            const bool brute = brutePointInWalls(w, p);
            tally.countOnly(brute);
            tally.require(index, kernel == brute, "pointInWalls != XOR pointInPolygon",
                          [&] { return hex2(p); });
            for (const WallSet* view : levels[l].level->views())
                tally.require(index, pointInWalls(*view, p) == kernel, "a gridded view answers otherwise",
                              [&] { return hex2(p); });
            // The double reference: even-odd by crossing in double, forgiven within the band.
            bool ref = false;
            double dist = kDInf, scale = 0.0;
            for (const auto& ring : rings) {
                const DPoly local = toLocal(ring, toD(p));
                ref ^= dInsideCrossing(D2{}, local);
                dist = std::min(dist, dBoundaryDistance(D2{}, local));
                scale = std::max(scale, polygonScale(ring, toD(p)));
            }
            if (ref != kernel && dist > bandOf(scale))
                tally.fail(index, "pointInWalls vs double reference away from the boundary: " + hex2(p));
        }
    }
    EXPECT_EQ(tally.failures, 0);
    EXPECT_FALSE(pointInWalls(levels[0].level->walls, Vec2{NAN, 0.0f}));
}

// The inside tree skips a whole ring only when the point lies more than 1 unit left of its box
// (wall_set.cpp): rings of subnormal height put the crossing vote's products at the underflow
// edge on both sides of that gap (a ring within the gap can then have an odd vote though the point
// is outside it, and the answer must still equal the XOR of pointInPolygon), and a ring of 300
// edges (its own subtree of leaves) with a hole exercises the split of one ring's edges.
TEST(WallQuery, PointInsideEqualsXorOfRingsAtTheUnderflowEdge) {
    const std::uint64_t seed = 0x5B11u + oracleSeedOffset();
    OracleTally tally("walls point inside, subnormal heights and large rings", seed);
    auto tiny = [](int k) { return std::ldexp(float(k), -149); };
    std::vector<bake::WallPolygon> slivers;
    for (int i = 0; i < 6; ++i) {
        const float x0 = 0.3f + 0.7f * float(i), x1 = x0 + 0.5f;
        bake::WallPolygon p;
        if (i % 2 == 0)
            p.rings = {{Vec2{x0, tiny(2 + i)}, Vec2{x1, tiny(3 + i)}, Vec2{x0 + 0.2f, tiny(9 + i)}}};
        else
            p.rings = {rectRing(x0, tiny(1), x1, tiny(7 + i))};
        slivers.push_back(p);
    }
    std::vector<bake::WallPolygon> big;
    bake::WallPolygon annulus;
    std::vector<Vec2> outer, hole;
    for (int i = 0; i < 300; ++i) {
        const double a = 2.0 * 3.14159265358979 * i / 300.0;
        outer.push_back(Vec2{float(50.0 * std::cos(a)), float(50.0 * std::sin(a))});
        if (i % 3 == 0) hole.push_back(Vec2{float(20.0 * std::cos(a)), float(20.0 * std::sin(a))});
    }
    annulus.rings = {outer, hole};
    big.push_back(annulus);
    bake::WallPolygon island;
    island.rings = {rectRing(-5, -5, 5, 5)};
    big.push_back(island);
    std::vector<std::unique_ptr<Level>> levels;
    levels.push_back(bakeLevel(slivers, 1));
    levels.push_back(bakeLevel(big, 4));
    for (std::size_t l = 0; l < levels.size(); ++l) {
        ASSERT_NE(levels[l], nullptr);
        const WallSet& w = levels[l]->walls;
        for (int i = 0; i < caseCount(40000); ++i) {
            const std::uint64_t index = l * 100000 + std::uint64_t(i);
            SplitMix64 rng = caseRng(seed, index);
            Vec2 p;
            if (l == 0) {
                // x anywhere from left of every ring to right of them, or exactly 1 (and a few
                // ulps more or less) left of a vertex; y a small multiple of the smallest subnormal.
                const std::uint32_t e = std::uint32_t(rng.u() * w.point_count) % w.point_count;
                Vec2 a, b;
                wallEdgePoints(w, e, a, b);
                const double pick = rng.u();
                if (pick < 0.4) {
                    p.x = rng.rangef(-3.0, 6.0);
                } else if (pick < 0.6) {
                    p.x = a.x;
                } else {
                    p.x = a.x - 1.0f;
                    const int ulps = int(rng.u() * 5) - 2;
                    for (int k = 0; k < (ulps < 0 ? -ulps : ulps); ++k)
                        p.x = std::nextafter(p.x, ulps < 0 ? -INFINITY : INFINITY);
                }
                p.y = tiny(int(rng.u() * 22) - 3);
            } else {
                p = probePoint(rng, w, -60.0, 60.0);
            }
            const bool kernel = pointInWalls(w, p);
            const bool brute = brutePointInWalls(w, p);
            tally.countOnly(brute);
            tally.require(index, kernel == brute, "pointInWalls != XOR pointInPolygon",
                          [&] { return hex2(p); });
            for (const WallSet* view : levels[l]->views()) {
                tally.require(index, pointInWalls(*view, p) == kernel, "a gridded view answers otherwise",
                              [&] { return hex2(p); });
                // A start inside names the ring of the nearest crossing, also where the edges'
                // ends lie a subnormal distance from the ray.
                WallRayHit h;
                if (kernel && segmentWallsFirstHit(*view, p, Vec2{p.x + 1.0f, p.y}, h))
                    tally.require(index, h.ring == bruteInsideRing(w, p),
                                  "start-inside ring: not the nearest crossing", [&] { return hex2(p); });
            }
        }
    }
    EXPECT_EQ(tally.failures, 0);
}

TEST(WallQuery, CircleContactsMatchEveryEdgeAlone) {
    const std::uint64_t seed = 0xC1C1Eu + oracleSeedOffset();
    OracleTally tally("walls circle contacts", seed);
    auto levels = testLevels(seed);
    long contacts = 0, inside_cases = 0, pushes = 0, unsettled = 0;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const WallSet& w = levels[l].level->walls;
        const double size = levels[l].hi - levels[l].lo;
        for (int i = 0; i < caseCount(6000); ++i) {
            const std::uint64_t index = l * 100000 + std::uint64_t(i);
            SplitMix64 rng = caseRng(seed, index);
            const Vec2 c = probePoint(rng, w, levels[l].lo, levels[l].hi);
            const float r = rng.u() < 0.05 ? 0.0f : rng.rangef(0.0, size * 0.08);
            WallContact items[256];
            OutBuffer<WallContact> buf{items, 256, 0, 0};
            WallPush push;
            ASSERT_EQ(circleWalls(w, c, r, buf, push), Status::Ok);
            for (const WallSet* view : levels[l].level->views()) {
                WallContact view_items[256];
                OutBuffer<WallContact> view_buf{view_items, 256, 0, 0};
                WallPush view_push;
                ASSERT_EQ(circleWalls(*view, c, r, view_buf, view_push), Status::Ok);
                tally.require(index,
                              view_buf.count == buf.count &&
                                  std::memcmp(view_items, items, sizeof(WallContact) * buf.count) == 0 &&
                                  std::memcmp(&view_push, &push, sizeof push) == 0,
                              "a gridded view answers otherwise", [&] { return hex2(c); });
            }
            bool inside = false;
            const std::vector<WallContact> brute = bruteCircleContacts(w, c, r, inside);
            tally.countOnly(!brute.empty() || inside);
            const std::string what = "c " + hex2(c) + " r " + hexf(r);
            if (!inside || !brute.empty()) {
                tally.require(index, buf.count == brute.size(), "contact count", [&] {
                    return what + ": " + std::to_string(buf.count) + " vs " + std::to_string(brute.size());
                });
                for (std::uint32_t k = 0; k < std::min<std::size_t>(buf.count, brute.size()); ++k)
                    tally.require(index, sameContact(items[k], brute[k]), "contact differs",
                                  [&] { return what; });
            }
            contacts += long(buf.count);
            if (inside && brute.empty()) {
                ++inside_cases;
                tally.require(index, buf.count == 1, "deep inside: one nearest contact",
                              [&] { return what; });
                if (buf.count == 1) {
                    // Nearest edge: its distance must be the least over every edge (double, within the band).
                    double best = kDInf, scale = 0.0;
                    for (std::uint32_t e = 0; e < w.point_count; ++e) {
                        Vec2 a, b;
                        wallEdgePoints(w, e, a, b);
                        best = std::min(best, dSegmentDistance(toD(c), toD(a), toD(b)));
                        scale = std::max({scale, std::fabs(double(a.x)), std::fabs(double(a.y))});
                    }
                    const double got = double(items[0].depth) - r;
                    tally.check(index, std::fabs(got - best), 4 * bandOf(scale + r), nullptr, 0,
                                "nearest edge distance");
                }
            }
            // The push, recomputed from the oracle's contacts by the documented rule, round by round.
            bool settled = false;
            const Vec2 expect = bruteSettledPush(
                c,
                [&](const Vec2& offset) {
                    Vec2 moved, round_push{0.0f, 0.0f};
                    add(c, offset, moved);
                    bruteRoundPush(w, moved, r, round_push);
                    return round_push;
                },
                &settled);
            if (expect.x != 0.0f || expect.y != 0.0f) {
                ++pushes;
                unsettled += settled ? 0 : 1;
            }
            tally.require(index, std::memcmp(&expect, &push.push, sizeof expect) == 0,
                          "push differs from the rule", [&] { return what; });
            tally.require(index, push.inside == (inside ? 1u : 0u), "inside count", [&] { return what; });
            // Decision against the double reference: touching iff distance <= r (forgiven in the band).
            double dist = kDInf, scale = r;
            for (std::uint32_t e = 0; e < w.point_count; ++e) {
                Vec2 a, b;
                wallEdgePoints(w, e, a, b);
                dist = std::min(dist, dSegmentDistance(toD(c), toD(a), toD(b)));
                scale = std::max({scale, std::fabs(double(a.x) - c.x), std::fabs(double(a.y) - c.y),
                                  std::fabs(double(b.x) - c.x), std::fabs(double(b.y) - c.y)});
            }
            const bool ref_touch = dist <= r;
            const bool got_touch = !inside ? buf.count > 0 : true;
            if (!inside && got_touch != ref_touch && std::fabs(dist - r) > bandOf(scale))
                tally.fail(index, "circle decision vs double reference: " + what);
        }
    }
    tally.note("contacts", contacts);
    tally.note("deep inside", inside_cases);
    tally.note("pushes", pushes);
    tally.note("pushes still inside after every round", unsettled);
    EXPECT_EQ(tally.failures, 0);
}

TEST(WallQuery, CirclePushClearsSingleContacts) {
    // A circle touching one edge from outside, pushed by the combined push, touches it no more
    // than the band allows.
    const std::uint64_t seed = 0x9054u + oracleSeedOffset();
    OracleTally tally("walls push clears", seed);
    auto levels = testLevels(seed);
    const WallSet& w = levels[0].level->walls;
    for (int i = 0; i < 20000; ++i) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(i));
        const Vec2 c = probePoint(rng, w, levels[0].lo, levels[0].hi);
        const float r = rng.rangef(0.01, 1.5);
        WallContact items[64];
        OutBuffer<WallContact> buf{items, 64, 0, 0};
        WallPush push;
        ASSERT_EQ(circleWalls(w, c, r, buf, push), Status::Ok);
        if (push.inside != 0 || buf.count == 0) continue;
        tally.countOnly(true);
        Vec2 moved;
        add(c, push.push, moved);
        for (std::uint32_t k = 0; k < buf.count; ++k) {
            Vec2 a, b;
            wallEdgePoints(w, items[k].edge_id, a, b);
            const double d = dSegmentDistance(toD(moved), toD(a), toD(b));
            const double scale =
                std::max({std::fabs(double(moved.x)), std::fabs(double(moved.y)), double(r)});
            if (buf.count == 1)
                tally.check(std::uint64_t(i), std::max(0.0, r - d), 8 * bandOf(scale), nullptr, 0,
                            "overlap left");
        }
        // Never deeper into the solid: the pushed centre is not inside.
        tally.require(std::uint64_t(i), !pointInWalls(w, moved) || push.contact_count > 1,
                      "pushed into the solid", [&] { return hex2(c); });
    }
    EXPECT_EQ(tally.failures, 0);
}

TEST(WallQuery, CircleBufferOverflowIsCounted) {
    auto levels = testLevels(7);
    const WallSet& w = levels[3].level->walls;
    const Vec2 c{12.0f, 2.0f}; // in the comb: touches many teeth with a big radius
    WallContact all[128];
    OutBuffer<WallContact> big{all, 128, 0, 0};
    WallPush p_all, p_small;
    ASSERT_EQ(circleWalls(w, c, 3.0f, big, p_all), Status::Ok);
    ASSERT_GT(big.count, 3u);
    WallContact few[3];
    OutBuffer<WallContact> small{few, 3, 0, 0};
    EXPECT_EQ(circleWalls(w, c, 3.0f, small, p_small), Status::BufferFull);
    EXPECT_EQ(small.count, 3u);
    EXPECT_EQ(small.dropped, big.count - 3);
    EXPECT_EQ(std::memcmp(few, all, sizeof few), 0);
    EXPECT_EQ(std::memcmp(&p_all, &p_small, sizeof p_all), 0); // the push uses every contact
    OutBuffer<WallContact> none{nullptr, 0, 0, 0};
    EXPECT_EQ(circleWalls(w, c, 3.0f, none, p_small), Status::BufferFull);
    EXPECT_EQ(none.dropped, big.count);
    // Non-finite or negative input: nothing, Ok.
    OutBuffer<WallContact> b2{all, 128, 0, 0};
    EXPECT_EQ(circleWalls(w, Vec2{NAN, 1.0f}, 1.0f, b2, p_small), Status::Ok);
    EXPECT_EQ(circleWalls(w, c, -1.0f, b2, p_small), Status::Ok);
    EXPECT_EQ(circleWalls(w, c, INFINITY, b2, p_small), Status::Ok);
    EXPECT_EQ(b2.count, 0u);
}

TEST(WallQuery, SegmentFirstHitMatchesEveryEdgeAlone) {
    const std::uint64_t seed = 0x5E6u + oracleSeedOffset();
    OracleTally tally("walls segment first hit", seed);
    auto levels = testLevels(seed);
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const WallSet& w = levels[l].level->walls;
        const auto rings = storedRings(w);
        for (int i = 0; i < caseCount(8000); ++i) {
            const std::uint64_t index = l * 100000 + std::uint64_t(i);
            SplitMix64 rng = caseRng(seed, index);
            const Vec2 p0 = probePoint(rng, w, levels[l].lo, levels[l].hi);
            Vec2 p1 = probePoint(rng, w, levels[l].lo, levels[l].hi);
            if (rng.u() < 0.1) p1 = Vec2{p0.x, p1.y}; // vertical
            if (rng.u() < 0.1) p1 = Vec2{p1.x, p0.y}; // horizontal: along the rays of the inside test
            if (rng.u() < 0.03) p1 = p0;              // a point
            WallRayHit got, want;
            bool inside = false;
            const bool g = segmentWallsFirstHit(w, p0, p1, got);
            for (const WallSet* view : levels[l].level->views()) {
                WallRayHit view_hit = got;
                tally.require(index,
                              segmentWallsFirstHit(*view, p0, p1, view_hit) == g &&
                                  std::memcmp(&view_hit, &got, sizeof got) == 0,
                              "a gridded view answers otherwise",
                              [&] { return hex2(p0) + " -> " + hex2(p1); });
            }
            const bool b = bruteSegmentWalls(w, p0, p1, want, inside);
            tally.countOnly(b);
            const std::string what = hex2(p0) + " -> " + hex2(p1);
            tally.require(index, g == b, "hit/miss vs every edge alone", [&] { return what; });
            if (!g || !b) continue;
            tally.require(index, got.t == want.t && got.edge == want.edge, "t or edge",
                          [&] { return what + " t " + hexf(got.t) + " vs " + hexf(want.t); });
            if (!inside) {
                tally.require(index,
                              got.edge_id == want.edge_id && std::memcmp(&got.normal, &want.normal, 8) == 0 &&
                                  std::memcmp(&got.point, &want.point, 8) == 0,
                              "hit record", [&] { return what; });
            } else {
                // The polygon named must contain the start (its rings' XOR).
                bool in = false;
                for (std::uint32_t r = 0; r < w.ring_count; ++r)
                    if (w.rings[r].polygon == got.polygon)
                        in ^= pointInPolygon(p0, rings[r].data(), std::uint32_t(rings[r].size()));
                tally.require(index, in, "start-inside polygon does not hold the start",
                              [&] { return what; });
                tally.require(index, got.ring == bruteInsideRing(w, p0),
                              "start-inside ring: not the nearest crossing", [&] { return what; });
            }
            // Each ring's own kernel (segmentPolygon on the whole ring) agrees on the first hit's t
            // to within the band when the start is outside every ring.
            bool in_some_ring = false;
            for (const auto& ring : rings)
                in_some_ring |= pointInPolygon(p0, ring.data(), std::uint32_t(ring.size()));
            if (!inside && !in_some_ring) {
                float best = 2.0f;
                double scale = 0.0;
                for (const auto& ring : rings) {
                    SegmentPolygonHit h;
                    if (segmentPolygon(p0, p1, ring.data(), std::uint32_t(ring.size()), h))
                        best = std::min(best, h.t);
                    scale = std::max(scale, polygonScale(ring, toD(p0)));
                }
                const double len = dlen(dsub(toD(p1), toD(p0)));
                // A start within the band of a ring's boundary is inside or outside at the
                // kernel's choice (segment_polygon.h), so a disagreement there is forgiven by the
                // start's distance to the nearest edge; anywhere else t must agree.
                if (best <= 1.0f) {
                    const double err = std::fabs(double(best) - got.t) * len, tol = 4 * bandOf(scale + len);
                    if (err <= tol) {
                        tally.noteError(err, tol);
                    } else {
                        double start_gap = kDInf;
                        for (std::uint32_t e = 0; e < w.point_count; ++e) {
                            Vec2 ea, eb;
                            wallEdgePoints(w, e, ea, eb);
                            start_gap = std::min(start_gap, dSegmentDistance(toD(p0), toD(ea), toD(eb)));
                        }
                        tally.disagree(index, start_gap, tol, nullptr, 0, "t vs per-ring segmentPolygon");
                    }
                }
            }
        }
    }
    EXPECT_EQ(tally.failures, 0);
    WallRayHit h;
    EXPECT_FALSE(segmentWallsFirstHit(levels[0].level->walls, Vec2{NAN, 0}, Vec2{1, 1}, h));
    EXPECT_FALSE(segmentWallsFirstHit(WallSet{}, Vec2{0, 0}, Vec2{1, 1}, h));
}

// Double reference of the swept circle vs one edge: distance to the segment along the path is
// convex in t, so the first contact is a root left of the minimum (ternary search, then bisection).
bool refSweptEdge(const D2& c0, const D2& c1, double r, const D2& a, const D2& b, double& out_t,
                  double& out_min_gap) {
    auto f = [&](double t) {
        const D2 c{c0.x + (c1.x - c0.x) * t, c0.y + (c1.y - c0.y) * t};
        return dSegmentDistance(c, a, b) - r;
    };
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 200; ++i) {
        const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (f(m1) <= f(m2))
            hi = m2;
        else
            lo = m1;
    }
    const double tm = 0.5 * (lo + hi);
    out_min_gap = std::min(f(tm), std::min(f(0.0), f(1.0)));
    if (f(0.0) <= 0.0) {
        out_t = 0.0;
        return true;
    }
    if (out_min_gap > 0.0) return false;
    const double tmin = f(1.0) <= f(tm) ? 1.0 : tm;
    double x0 = 0.0, x1 = tmin;
    for (int i = 0; i < 200; ++i) {
        const double m = 0.5 * (x0 + x1);
        if (f(m) <= 0.0)
            x1 = m;
        else
            x0 = m;
    }
    out_t = x1;
    return true;
}

TEST(WallQuery, SweptCircleEdgeMatchesDoubleReference) {
    const std::uint64_t seed = 0x5EE9u + oracleSeedOffset();
    OracleTally tally("swept circle vs edge", seed);
    for (int i = 0; i < caseCount(40000); ++i) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(i));
        const double s = rng.u() < 0.2 ? 1e4 : 10.0;
        const Vec2 a{rng.rangef(-s, s), rng.rangef(-s, s)};
        Vec2 b{rng.rangef(-s, s), rng.rangef(-s, s)};
        if (rng.u() < 0.05) b = a;    // a point
        if (rng.u() < 0.1) b.y = a.y; // axis aligned
        const Vec2 c0{rng.rangef(-s, s), rng.rangef(-s, s)};
        Vec2 c1{rng.rangef(-s, s), rng.rangef(-s, s)};
        if (rng.u() < 0.1) { // parallel to the edge
            c1 = Vec2{c0.x + (b.x - a.x), c0.y + (b.y - a.y)};
        }
        const float r = rng.u() < 0.05 ? 0.0f : rng.rangef(0, s * 0.3);
        WallRayHit h;
        const bool got = sweptCircleEdge(c0, c1, r, a, b, h);
        double t_ref = 0.0, gap = 0.0;
        const bool ref = refSweptEdge(toD(c0), toD(c1), r, toD(a), toD(b), t_ref, gap);
        const double scale = std::max({maxAbs(Vec3{a.x, a.y, 0}), maxAbs(Vec3{b.x, b.y, 0}),
                                       maxAbs(Vec3{c0.x, c0.y, 0}), maxAbs(Vec3{c1.x, c1.y, 0}), double(r)});
        const float inputs[] = {c0.x, c0.y, c1.x, c1.y, r, a.x, a.y, b.x, b.y};
        tally.decide(std::uint64_t(i), got, ref, gap, scale, [&] { return hexInputs(inputs, 9); });
        if (got && ref) {
            // The gap at the reported t must be ~0 (or <= 0 at t = 0), and no deeper contact earlier.
            const D2 ct{c0.x + (double(c1.x) - c0.x) * h.t, c0.y + (double(c1.y) - c0.y) * h.t};
            const double g = dSegmentDistance(ct, toD(a), toD(b)) - r;
            const double len = dlen(dsub(toD(c1), toD(c0)));
            if (h.t > 0.0f)
                tally.check(std::uint64_t(i), std::fabs(g), 4 * bandOf(scale), inputs, 9, "gap at t");
            tally.check(std::uint64_t(i), std::max(0.0, t_ref - double(h.t)) * len, 4 * bandOf(scale), inputs,
                        9, "contact before the reference's first");
        }
    }
    EXPECT_EQ(tally.failures, 0);
}

TEST(WallQuery, SweptCircleWallsMatchesEveryEdgeAlone) {
    const std::uint64_t seed = 0x5C1Du + oracleSeedOffset();
    OracleTally tally("walls swept circle", seed);
    auto levels = testLevels(seed);
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const WallSet& w = levels[l].level->walls;
        const double size = levels[l].hi - levels[l].lo;
        for (int i = 0; i < caseCount(5000); ++i) {
            const std::uint64_t index = l * 100000 + std::uint64_t(i);
            SplitMix64 rng = caseRng(seed, index);
            const Vec2 c0 = probePoint(rng, w, levels[l].lo, levels[l].hi);
            const Vec2 c1 = probePoint(rng, w, levels[l].lo, levels[l].hi);
            const float r = rng.u() < 0.1 ? 0.0f : rng.rangef(0, size * 0.03);
            WallRayHit got, want;
            bool inside = false;
            const bool g = sweptCircleWallsFirstHit(w, c0, c1, r, got);
            for (const WallSet* view : levels[l].level->views()) {
                WallRayHit view_hit = got;
                tally.require(index,
                              sweptCircleWallsFirstHit(*view, c0, c1, r, view_hit) == g &&
                                  std::memcmp(&view_hit, &got, sizeof got) == 0,
                              "a gridded view answers otherwise",
                              [&] { return hex2(c0) + " -> " + hex2(c1); });
            }
            const bool b = bruteSweptWalls(w, c0, c1, r, want, inside);
            tally.countOnly(b);
            const std::string what = hex2(c0) + " -> " + hex2(c1) + " r " + hexf(r);
            tally.require(index, g == b, "hit/miss vs every edge alone", [&] { return what; });
            if (g && b)
                tally.require(
                    index,
                    got.t == want.t && got.edge == want.edge && (inside || got.edge_id == want.edge_id),
                    "t or edge", [&] { return what + " t " + hexf(got.t) + " vs " + hexf(want.t); });
            if (g && inside)
                tally.require(index, got.ring == bruteInsideRing(w, c0),
                              "start-inside ring: not the nearest crossing", [&] { return what; });
        }
    }
    EXPECT_EQ(tally.failures, 0);
}

// The baker's edge checks against every pair: random rings of few points (often
// self-intersecting, sometimes touching each other) are accepted exactly when no two edges meet
// other than neighbours at their shared end.
TEST(WallBaker, EdgeChecksMatchEveryPair) {
    SplitMix64 rng(oracleSeedOffset() + 31);
    auto meet = [](const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
        auto orient = [](const Vec2& p, const Vec2& q, const Vec2& r) {
            return (double(q.x) - p.x) * (double(r.y) - p.y) - (double(q.y) - p.y) * (double(r.x) - p.x);
        };
        auto on = [](const Vec2& p, const Vec2& q, const Vec2& r) {
            return std::min(p.x, q.x) <= r.x && r.x <= std::max(p.x, q.x) && std::min(p.y, q.y) <= r.y &&
                   r.y <= std::max(p.y, q.y);
        };
        const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
        if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
            return true;
        return (o1 == 0 && on(a, b, c)) || (o2 == 0 && on(a, b, d)) || (o3 == 0 && on(c, d, a)) ||
               (o4 == 0 && on(c, d, b));
    };
    int accepted = 0, refused = 0;
    for (int k = 0; k < 3000; ++k) {
        std::vector<bake::WallPolygon> polys(1 + static_cast<std::size_t>(rng.u() * 2));
        for (auto& p : polys) {
            const float cx = rng.rangef(0, 6), cy = rng.rangef(0, 6);
            std::vector<Vec2> ring(3 + static_cast<std::size_t>(rng.u() * 5));
            for (Vec2& v : ring)
                v = Vec2{cx + std::round(rng.rangef(-3, 3)), cy + std::round(rng.rangef(-3, 3))};
            p.rings.push_back(ring);
        }
        // The pairs' answer (the rings' own point checks and nesting aside).
        bool crossing = false;
        std::vector<std::pair<std::size_t, std::size_t>> edges; // (ring, index)
        for (std::size_t r = 0; r < polys.size(); ++r)
            for (std::size_t i = 0; i < polys[r].rings[0].size(); ++i) edges.push_back({r, i});
        for (std::size_t e = 0; e < edges.size(); ++e)
            for (std::size_t f = e + 1; f < edges.size(); ++f) {
                const auto& ra = polys[edges[e].first].rings[0];
                const auto& rb = polys[edges[f].first].rings[0];
                const std::size_t n = ra.size(), i = edges[e].second, j = edges[f].second;
                const Vec2 &a = ra[i], &b = ra[(i + 1) % n], &c = rb[j], &d = rb[(j + 1) % rb.size()];
                if (edges[e].first == edges[f].first && (j == i + 1 || (i == 0 && j == n - 1))) {
                    const bool next = j == i + 1;
                    const Vec2 &u = next ? a : b, &s = next ? b : a, &v = next ? d : c;
                    const double cr =
                        (double(s.x) - u.x) * (double(v.y) - u.y) - (double(s.y) - u.y) * (double(v.x) - u.x);
                    crossing = crossing || (cr == 0.0 && (double(u.x) - s.x) * (double(v.x) - s.x) +
                                                                 (double(u.y) - s.y) * (double(v.y) - s.y) >
                                                             0.0);
                } else {
                    crossing = crossing || meet(a, b, c, d);
                }
            }
        std::vector<std::uint32_t> words;
        const std::string message = bake::buildWallSection(polys, bake::WallBuildOptions{}, words).message;
        const bool edge_refusal = message.find("self-intersecting") != std::string::npos ||
                                  message.find("touches or crosses") != std::string::npos;
        const bool other_refusal = !message.empty() && !edge_refusal;
        if (other_refusal) continue; // a point, area or nesting refusal, decided before or after
        ASSERT_EQ(edge_refusal, crossing) << "case " << k << ": " << message;
        (crossing ? refused : accepted) += 1;
    }
    std::printf("[ walls ] edge checks: %d accepted, %d refused as crossing\n", accepted, refused);
    EXPECT_GT(accepted, 100);
    EXPECT_GT(refused, 100);
}

// A ring of 200,000 points bakes (the edge checks are a sweep, not every pair).
TEST(WallBaker, LargeRingBakes) {
    bake::WallPolygon p;
    p.name = "big";
    std::vector<Vec2> ring(200000);
    for (std::size_t i = 0; i < ring.size(); ++i) {
        const double a = 2.0 * 3.14159265358979 * double(i) / double(ring.size());
        const double r = 1000.0 + 50.0 * std::sin(37.0 * a);
        ring[i] = Vec2{static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))};
    }
    p.rings.push_back(ring);
    std::vector<std::uint32_t> words;
    EXPECT_EQ(bake::buildWallSection({p}, bake::WallBuildOptions{}, words).message, "");
    EXPECT_GT(words.size(), 200000u);
}

TEST(WallBaker, RejectsMalformedPolygonsWithAClearMessage) {
    auto message = [](std::vector<bake::WallPolygon> polys) {
        std::vector<std::uint32_t> words;
        return bake::buildWallSection(polys, bake::WallBuildOptions{}, words).message;
    };
    auto poly = [](std::vector<std::vector<Vec2>> rings, const char* name = "p") {
        bake::WallPolygon p;
        p.name = name;
        p.line = 3;
        p.rings = std::move(rings);
        return p;
    };
    EXPECT_NE(message({poly({{Vec2{0, 0}, Vec2{1, 1}, Vec2{1, 0}, Vec2{0, 1}}}, "bowtie")})
                  .find("'bowtie' (line 3), outer ring: self-intersecting"),
              std::string::npos);
    EXPECT_NE(message({poly({{Vec2{0, 0}, Vec2{1, 0}}})}).find("fewer than 3 points"), std::string::npos);
    EXPECT_NE(message({poly({{Vec2{0, 0}, Vec2{NAN, 0}, Vec2{0, 1}}})}).find("point 1 is NaN"),
              std::string::npos);
    EXPECT_NE(message({poly({{Vec2{0, 0}, Vec2{1, 0}, Vec2{2, 0}}})}).find("zero area"), std::string::npos);
    EXPECT_NE(message({poly({{Vec2{0, 0}, Vec2{1, 0}, Vec2{1, 0}, Vec2{0, 1}}})}).find("repeats"),
              std::string::npos);
    EXPECT_NE(message({poly({rectRing(0, 0, 4, 4), rectRing(5, 5, 6, 6)})}).find("not inside its outer ring"),
              std::string::npos);
    EXPECT_NE(message({poly({rectRing(0, 0, 4, 4)}), poly({rectRing(1, 1, 2, 2)}, "inner")})
                  .find("overlaps another polygon"),
              std::string::npos);
    EXPECT_NE(message({poly({rectRing(0, 0, 4, 4)}), poly({rectRing(4, 0, 8, 4)}, "neighbour")})
                  .find("touches or crosses"),
              std::string::npos);
    // A point exactly on another polygon's edge, with coordinates of very different sizes: the
    // double orientation rounded it off the edge, and the baker took a level its verify refused.
    EXPECT_NE(message({poly({{Vec2{0x5p-31f, 0xfp-31f}, Vec2{2097152, 6291456}, Vec2{2097152, 0}}}),
                       poly({{Vec2{-5, 10}, Vec2{0.125f, 10}, Vec2{0.125f, 0.375f}}}, "touching")})
                  .find("touches or crosses"),
              std::string::npos);
    // A hole of one polygon around another polygon's island: the nesting parity holds, but the
    // hole would cut the island (it was taken: the point (0, 0) of the island was not solid).
    EXPECT_NE(message({poly({rectRing(-10, -10, 10, 10), rectRing(-8, -8, 8, 8), rectRing(-1, -1, 1, 1)}),
                       poly({rectRing(-5, -5, 5, 5)}, "island")})
                  .find("inside another polygon"),
              std::string::npos);
    // Without that hole the level is fine: an island in the other polygon's hole.
    EXPECT_EQ(message({poly({rectRing(-10, -10, 10, 10), rectRing(-8, -8, 8, 8)}),
                       poly({rectRing(-5, -5, 5, 5)}, "island")}),
              "");
    // A level file: errors name the line.
    std::vector<bake::WallPolygon> parsed;
    EXPECT_NE(bake::parseLevelFile("polygon a\n0 0\n1 zz\n", parsed).message.find("line 3"),
              std::string::npos);
    EXPECT_NE(bake::parseLevelFile("0 0\n", parsed).message.find("before any 'polygon'"), std::string::npos);
    ASSERT_FALSE(
        bake::parseLevelFile(
            "# level\npolygon crate\n0 0\n2 0\n2 2 # corner\n0 2\nhole\n0.5 0.5\n1 1.5\n1.5 0.5\n", parsed)
            .failed());
    ASSERT_EQ(parsed.size(), 1u);
    EXPECT_EQ(parsed[0].name, "crate");
    EXPECT_EQ(parsed[0].rings.size(), 2u);
    EXPECT_EQ(message(parsed), "");
}

TEST(WallBlob, RingsAreOrientedAndTheBlobValidates) {
    auto levels = testLevels(11);
    for (auto& lc : levels) {
        const WallSet& w = lc.level->walls;
        for (std::uint32_t r = 0; r < w.ring_count; ++r) {
            const std::vector<Vec2> ring(w.points + w.rings[r].first_point,
                                         w.points + w.rings[r].first_point + w.rings[r].point_count);
            const bool hole = (w.rings[r].flags & kWallHoleFlag) != 0;
            EXPECT_EQ(dArea2(ring) < 0.0, hole) << "ring " << r;
        }
        // Every node box holds its edges; every edge appears once.
        std::vector<int> seen(w.point_count, 0);
        for (std::uint32_t e = 0; e < w.point_count; ++e)
            ++seen[w.rings[w.edges[e].ring].first_point + w.edges[e].index];
        for (int s : seen) EXPECT_EQ(s, 1);
    }
    // Corruption is refused: a flipped byte in a resealed blob, a bad ring count.
    Level& lv = *levels[0].level;
    std::vector<unsigned char> copy(lv.bytes->data(), lv.bytes->data() + lv.bytes->size());
    const std::size_t walls_at = blobSection(lv.blob, SectionKind::Walls).offset;
    std::uint32_t bad_rings = 0xFFFFu;
    std::memcpy(copy.data() + walls_at + 4, &bad_rings, 4);
    const std::uint64_t sum = blobChecksum(copy.data(), copy.size());
    std::memcpy(copy.data() + offsetof(BlobHeader, checksum), &sum, 8);
    AlignedBytes aligned(copy);
    Blob blob;
    BlobError err;
    ASSERT_EQ(openBlob(aligned.data(), aligned.size(), blob, &err), Status::Ok); // walls: their room's
    WallSet refused;
    EXPECT_EQ(loadWallSet(blob, refused, &err), Status::BlobCorrupt);
    EXPECT_STRNE(err.what, "");
    EXPECT_EQ(refused.ring_count, 0u);
    // A wall-only blob has no mesh (and no cluster): their views say so.
    MeshBlob mesh;
    EXPECT_EQ(loadMeshBlob(lv.blob, mesh, &err), Status::InvalidArgument);
    EXPECT_STREQ(err.what, "the blob holds no mesh");
    EXPECT_EQ(mesh.triangle_count, 0u);
    SphereCluster none;
    EXPECT_EQ(loadSphereCluster(lv.blob, none), Status::InvalidArgument);
}

TEST(WallBlob, ByteSwapRoundTrip) {
    auto levels = testLevels(5);
    Level& lv = *levels[0].level;
    bake::WriteOptions write;
    write.mesh = false;
    bake::WallBuildOptions options;
    options.max_leaf = 1; // as testLevels built level 0
    ASSERT_FALSE(bake::buildWallSection(lv.polygons, options, write.walls).failed());
    write.big_endian = __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__; // the other byte order
    std::vector<unsigned char> raw;
    ASSERT_FALSE(bake::writeBlob(bake::SourceMesh{}, bake::BuiltTree{}, write, raw).failed());
    AlignedBytes foreign(raw);
    Blob blob;
    ASSERT_EQ(openBlob(foreign.data(), foreign.size(), blob), Status::BlobWrongEndian);
    ASSERT_EQ(swapBlobByteOrder(foreign.data(), foreign.size()), Status::Ok);
    ASSERT_EQ(openBlob(foreign.data(), foreign.size(), blob), Status::Ok);
    WallSet w;
    ASSERT_EQ(loadWallSet(blob, w), Status::Ok);
    ASSERT_EQ(w.point_count, lv.walls.point_count);
    EXPECT_EQ(std::memcmp(w.points, lv.walls.points, sizeof(Vec2) * w.point_count), 0);
    EXPECT_EQ(std::memcmp(w.nodes, lv.walls.nodes, sizeof(WallNode) * w.node_count), 0);
    ASSERT_EQ(w.inside_node_count, lv.walls.inside_node_count);
    EXPECT_EQ(
        std::memcmp(w.inside_nodes, lv.walls.inside_nodes, sizeof(WallInsideNode) * w.inside_node_count), 0);
}

// The inside tree's checks: each damage, resealed, is refused with its own message.
TEST(WallBlob, InsideTreeCorruptionIsRefused) {
    auto levels = testLevels(9);
    Level& lv = *levels[1].level;
    const WallSet& w = lv.walls;
    ASSERT_GT(w.inside_node_count, 2u);
    const std::size_t inside_at =
        std::size_t(reinterpret_cast<const unsigned char*>(w.inside_nodes) - lv.bytes->data());
    // The first leaf (no internal node's last node) and the last internal node.
    std::uint32_t leaf = w.inside_node_count, internal = 0;
    for (std::uint32_t i = 0; i < w.inside_node_count; ++i) {
        if ((w.inside_nodes[i].info & kLeafBit) == 0)
            internal = i;
        else if (leaf == w.inside_node_count)
            leaf = i;
    }
    auto refuse = [&](std::uint32_t node, std::size_t field, std::uint32_t value, const char* what) {
        BlobError err;
        EXPECT_EQ(loadResealedSections(lv.bytes->data(), lv.bytes->size(),
                                       inside_at + node * sizeof(WallInsideNode) + field, &value, 4, err),
                  Status::BlobCorrupt)
            << what;
        EXPECT_NE(std::string(err.what).find(what), std::string::npos) << err.what;
    };
    const WallInsideNode& l = w.inside_nodes[leaf];
    refuse(leaf, offsetof(WallInsideNode, ring), l.ring ^ kWallWholeRings, "whole-ring flag");
    refuse(leaf, offsetof(WallInsideNode, ring), w.ring_count, "outside their ring");
    refuse(leaf, offsetof(WallInsideNode, info), l.info + 1u, "");
    refuse(internal, offsetof(WallInsideNode, info), w.inside_node_count, "skip link");
    refuse(internal, offsetof(WallInsideNode, ring), 1u, "names a ring");
    float nan = NAN;
    std::uint32_t nan_bits;
    std::memcpy(&nan_bits, &nan, 4);
    refuse(leaf, offsetof(WallInsideNode, min), nan_bits, "inside node bounds");
    // A leaf box shrunk to a point inside it no longer bounds its edges.
    std::uint32_t bits;
    std::memcpy(&bits, &l.max[0], 4);
    refuse(leaf, offsetof(WallInsideNode, min), bits, "inside node box or shape");
    std::memcpy(&bits, &l.max[1], 4);
    refuse(leaf, offsetof(WallInsideNode, min) + 4, bits, "inside node box or shape");
}

// The edge tree, the points and the cluster: boxes that do not bound what is under them, and
// coordinates beyond the format's limit, are refused, each with its own message.
TEST(WallBlob, BoxesAndCoordinatesAreProven) {
    auto levels = testLevels(9);
    Level& lv = *levels[1].level;
    const WallSet& w = lv.walls;
    ASSERT_GT(w.node_count, 2u);
    auto refuse = [&](const void* field, float value, const char* what) {
        const std::size_t at = std::size_t(static_cast<const unsigned char*>(field) - lv.bytes->data());
        BlobError err;
        EXPECT_EQ(loadResealedSections(lv.bytes->data(), lv.bytes->size(), at, &value, 4, err),
                  Status::BlobCorrupt)
            << what;
        EXPECT_NE(std::string(err.what).find(what), std::string::npos) << err.what;
    };
    std::uint32_t leaf = 0;
    while ((w.nodes[leaf].info & kLeafBit) == 0) ++leaf;
    refuse(&w.nodes[leaf].min[0], w.nodes[leaf].max[0], "wall node box or shape");
    refuse(&w.nodes[0].max[1], w.nodes[0].min[1], "wall node box or shape");
    refuse(&w.points[0].x, 2.0e12f, "coordinate range");
    // The header's bounds must be the points' exact box: a point moved outside it, a box grown
    // (which would only stretch the queries' margins) and a box shrunk are each refused.
    const char* exact = "walls bounds are not the exact box of the points";
    refuse(&w.points[1].y, w.points[1].y + 1000.0f, exact);
    const auto* header = reinterpret_cast<const WallsHeader*>(
        reinterpret_cast<const unsigned char*>(w.rings) - sizeof(WallsHeader));
    refuse(&header->bounds_min[0], header->bounds_min[0] - 1.0e29f, exact);
    refuse(&header->bounds_max[1], header->bounds_max[1] + 0.5f, exact);
    refuse(&header->bounds_max[0], header->bounds_min[0], exact);
}

} // namespace
} // namespace flak::test

#include "mesh_slice.h"

namespace flak::test {
namespace {

TEST(WallBaker, MeshSliceGivesClosedPolygonsWithHoles) {
    // A torus cut through its middle: one polygon, an annulus (outer radius 2.5, hole 1.5).
    bake::SourceMesh prepared;
    (void)bakeBytes(torus(48, 16), BakeSettings{}, &prepared);
    std::vector<bake::WallPolygon> polys;
    ASSERT_FALSE(bake::sliceMesh(prepared, 0.01, polys).failed());
    ASSERT_EQ(polys.size(), 1u);
    ASSERT_EQ(polys[0].rings.size(), 2u);
    auto level = bakeLevel(polys);
    EXPECT_TRUE(pointInWalls(level->walls, Vec2{2.0f, 0.0f}));
    EXPECT_TRUE(pointInWalls(level->walls, Vec2{0.0f, -2.0f}));
    EXPECT_FALSE(pointInWalls(level->walls, Vec2{0.0f, 0.0f}));
    EXPECT_FALSE(pointInWalls(level->walls, Vec2{3.0f, 0.0f}));
    // An open mesh is refused with a message; a plane that misses the mesh too.
    EXPECT_NE(bake::sliceMesh(prepared, 5.0, polys).message.find("cuts no triangle"), std::string::npos);
    bake::SourceMesh open_mesh;
    (void)bakeBytes(terrain(8, 10.0f), BakeSettings{}, &open_mesh);
    EXPECT_NE(bake::sliceMesh(open_mesh, 0.0, polys).message.find("not closed"), std::string::npos);
    // A fin of no thickness (a triangle and its reverse) beside the torus: its cut is a loop of two
    // points, left out and counted (it was dropped without a word).
    bake::SourceMesh finned = prepared;
    const auto base = static_cast<std::uint32_t>(finned.positions.size());
    finned.positions.insert(finned.positions.end(), {Vec3{5, 0, -1}, Vec3{7, 0, -1}, Vec3{6, 0, 1}});
    finned.indices.insert(finned.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 1});
    std::uint32_t dropped = 99;
    ASSERT_FALSE(bake::sliceMesh(finned, 0.01, polys, &dropped).failed());
    EXPECT_EQ(polys.size(), 1u);
    EXPECT_EQ(dropped, 1u);
    ASSERT_FALSE(bake::sliceMesh(prepared, 0.01, polys, &dropped).failed());
    EXPECT_EQ(dropped, 0u);
}

} // namespace
} // namespace flak::test

namespace flak::test {
namespace {

TEST(WallBlob, DeepVerifyPassesOnBakedLevels) {
    auto levels = testLevels(21);
    for (auto& lc : levels) {
        const std::vector<std::string> problems = bake::deepVerify(lc.level->blob);
        EXPECT_TRUE(problems.empty()) << (problems.empty() ? "" : problems[0]);
    }
}

// The tools take a blob only whole: loadAnyOrder (inspect, verify, the baker's own check) refuses
// a blob whose Walls section fails loadWallSet, saying what and where, though openBlob takes it.
TEST(WallBlob, ToolsRefuseABlobWhoseWallsFailTheirLoad) {
    auto levels = testLevels(5);
    Level& lv = *levels[0].level;
    const std::size_t walls_at = blobSection(lv.blob, SectionKind::Walls).offset;
    const std::uint32_t bad_rings = 0xFFFFu;
    const std::vector<unsigned char> bad =
        resealed(lv.bytes->data(), lv.bytes->size(), walls_at + 4, &bad_rings, 4);
    std::vector<unsigned char> storage;
    Blob blob;
    BlobError err;
    bool foreign = false;
    EXPECT_EQ(bake::loadAnyOrder(bad, storage, blob, err, foreign), Status::BlobCorrupt);
    EXPECT_STRNE(err.what, "");
    EXPECT_GE(err.offset, walls_at);
    EXPECT_EQ(blob.data, nullptr);
}

// What the loader's one pass leaves to verify: a square whose middle points are swapped into a
// bowtie keeps its bounds and its one leaf box, so it loads (and is answered like brute force
// over the edges it holds), and verify says the walls are not a valid level.
TEST(WallBlob, VerifyReportsASelfCrossingRingTheLoaderTakes) {
    bake::WallPolygon square;
    square.rings.push_back({Vec2{0.0f, 0.0f}, Vec2{4.0f, 0.0f}, Vec2{4.0f, 4.0f}, Vec2{0.0f, 4.0f}});
    auto level = bakeLevel({square}, 8);
    ASSERT_TRUE(bake::deepVerify(level->blob).empty());
    std::vector<unsigned char> copy(level->bytes->data(), level->bytes->data() + level->bytes->size());
    const std::size_t points_at =
        std::size_t(reinterpret_cast<const unsigned char*>(level->walls.points) - level->bytes->data());
    Vec2 p1, p2;
    std::memcpy(&p1, copy.data() + points_at + sizeof(Vec2), sizeof(Vec2));
    std::memcpy(&p2, copy.data() + points_at + 2 * sizeof(Vec2), sizeof(Vec2));
    std::memcpy(copy.data() + points_at + sizeof(Vec2), &p2, sizeof(Vec2));
    std::memcpy(copy.data() + points_at + 2 * sizeof(Vec2), &p1, sizeof(Vec2));
    const std::uint64_t sum = blobChecksum(copy.data(), copy.size());
    std::memcpy(copy.data() + offsetof(BlobHeader, checksum), &sum, 8);
    AlignedBytes aligned(copy);
    Blob blob;
    BlobError err;
    ASSERT_EQ(openBlob(aligned.data(), aligned.size(), blob, &err), Status::Ok) << err.what;
    const std::vector<std::string> problems = bake::deepVerify(blob);
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems[0].rfind("walls: ", 0), 0u) << problems[0];
}

// The loader proves each edge reference in range, not that each edge is held once. Two squares
// in one leaf: ring 1's edges renamed as ring 0's (ring 0 twice, ring 1 never), or ring 1's inside
// leaf replaced by ring 0's, load (resealed) and answer as the loader documents, and verify
// names the repeated and the missing edges.
TEST(WallBlob, VerifyReportsEdgesRepeatedOrLeftOut) {
    bake::WallPolygon a, b;
    a.rings.push_back({Vec2{0.0f, 0.0f}, Vec2{1.0f, 0.0f}, Vec2{1.0f, 1.0f}, Vec2{0.0f, 1.0f}});
    b.rings.push_back({Vec2{3.0f, 0.0f}, Vec2{4.0f, 0.0f}, Vec2{4.0f, 1.0f}, Vec2{3.0f, 1.0f}});
    auto level = bakeLevel({a, b}, 8);
    ASSERT_TRUE(bake::deepVerify(level->blob).empty());
    const unsigned char* base = level->bytes->data();
    const auto verifyAfter = [&](const std::function<void(std::vector<unsigned char>&)>& damage) {
        std::vector<unsigned char> copy(base, base + level->bytes->size());
        damage(copy);
        AlignedBytes aligned(resealed(std::move(copy)));
        Blob blob;
        WallSet walls;
        BlobError err;
        EXPECT_EQ(openBlob(aligned.data(), aligned.size(), blob, &err), Status::Ok) << err.what;
        EXPECT_EQ(loadWallSet(blob, walls, &err), Status::Ok) << err.what;
        return bake::deepVerify(blob);
    };
    const std::size_t edges_at =
        std::size_t(reinterpret_cast<const unsigned char*>(level->walls.edges) - base);
    std::vector<std::string> problems = verifyAfter([&](std::vector<unsigned char>& bytes) {
        for (std::uint32_t e = 0; e < level->walls.point_count; ++e) {
            if (level->walls.edges[e].ring != 1) continue;
            const std::uint32_t ring0 = 0;
            std::memcpy(bytes.data() + edges_at + e * sizeof(WallEdge) + offsetof(WallEdge, ring), &ring0, 4);
        }
    });
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems[0], "walls: the edges repeat edge 0 of ring 0");
    const std::size_t inside_at =
        std::size_t(reinterpret_cast<const unsigned char*>(level->walls.inside_nodes) - base);
    std::uint32_t leaf0 = kNoEdge, leaf1 = kNoEdge; // the leaves of ring 0 and ring 1
    for (std::uint32_t i = 0; i < level->walls.inside_node_count; ++i) {
        const WallInsideNode& n = level->walls.inside_nodes[i];
        if ((n.info & kLeafBit) == 0) continue;
        if (leafInfoFirst(n.info) == 0) leaf0 = i;
        if (leafInfoFirst(n.info) == 4) leaf1 = i;
    }
    ASSERT_NE(leaf0, kNoEdge);
    ASSERT_NE(leaf1, kNoEdge);
    problems = verifyAfter([&](std::vector<unsigned char>& bytes) {
        std::memcpy(bytes.data() + inside_at + leaf1 * sizeof(WallInsideNode),
                    bytes.data() + inside_at + leaf0 * sizeof(WallInsideNode), sizeof(WallInsideNode));
    });
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems[0], "walls: the inside tree's leaves repeat edge 0 of ring 0");
}

} // namespace
} // namespace flak::test

namespace flak::test {
namespace {

// Resealed corruptions of a blob carrying walls and a cluster (a pipeline that re-seals what it
// damaged): each is refused, or loads and is queried safely (ASan and UBSan watch in the sanitize
// build).
TEST(WallBlob, ResealedCorruptionIsRejectedOrSafe) {
    SplitMix64 lrng(77);
    BakeSettings settings;
    ASSERT_FALSE(bake::buildWallSection(randomPolygons(lrng, 3, 6.0, 0.0), bake::WallBuildOptions{},
                                        settings.write.walls)
                     .failed());
    settings.write.cluster = randomSpheres(lrng, 12, 1.0, 0.1, 0.4);
    const std::vector<unsigned char> good = bakeBytes(icosphere(1), settings);
    SplitMix64 rng(0xBADu);
    long accepted = 0, rejected = 0;
    for (int i = 0; i < 3000; ++i) {
        std::vector<unsigned char> bad = good;
        const int flips = 1 + int(rng.u() * 3);
        for (int k = 0; k < flips; ++k) {
            // Mostly inside the sections (past the header and table), sometimes anywhere.
            const std::size_t at = rng.u() < 0.9 ? 64 + std::size_t(rng.u() * double(bad.size() - 64))
                                                 : std::size_t(rng.u() * double(bad.size()));
            bad[at] = static_cast<unsigned char>(rng.next());
        }
        const std::uint64_t sum = blobChecksum(bad.data(), bad.size());
        std::memcpy(bad.data() + offsetof(BlobHeader, checksum), &sum, 8);
        AlignedBytes a(bad);
        Blob whole;
        MeshBlob blob;
        if (openBlob(a.data(), a.size(), whole) != Status::Ok || loadMeshBlob(whole, blob) != Status::Ok) {
            ++rejected;
            continue;
        }
        ++accepted;
        WallSet w;
        if (loadWallSet(whole, w) == Status::Ok) {
            for (int q = 0; q < 4; ++q) {
                const Vec2 p{rng.rangef(-2, 20), rng.rangef(-2, 20)},
                    p1{rng.rangef(-2, 20), rng.rangef(-2, 20)};
                // What loads answers like brute force over the edges it holds.
                const char* wrong = wallDisagreement(w, p, p1, q % 2 == 0 ? 1.0f : 0.5f);
                ASSERT_EQ(wrong, nullptr) << "corruption " << i << ": " << wrong;
            }
        }
        SphereCluster c;
        if (loadSphereCluster(whole, c) == Status::Ok) {
            Transform id;
            setIdentity(id);
            ClusterRayHit h;
            (void)clusterMeshAnyHit(c, id, blob, id);
            (void)segmentClusterFirstHit(c, id, Vec3{-3, 0, 0}, Vec3{3, 0.1f, 0}, h);
        }
    }
    std::printf("[ fuzz ] walls+cluster blob: %ld accepted, %ld rejected\n", accepted, rejected);
    EXPECT_GT(rejected, 0);
}

} // namespace
} // namespace flak::test
