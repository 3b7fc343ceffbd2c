// ns per call of the 2D polygon kernels and the GJK family on precomputed, seeded random inputs
// (a mix of hits and misses; the same inputs every run). Polygon and shape generators are the
// oracle tests' own (tests/support/polygon_families.h, tests/geom/gjk_families.h).
#include <flak/geom/circle_polygon.h>
#include <flak/geom/gjk.h>
#include <flak/geom/gjk_raycast.h>
#include <flak/geom/point_in_polygon.h>
#include <flak/geom/polygon_sat.h>
#include <flak/geom/segment_polygon.h>

#include "flak_support/gjk_families.h"
#include "flak_support/polygon_families.h"

#include <benchmark/benchmark.h>

#include <vector>

namespace flak {
namespace {

// Large enough that the branch predictor cannot learn the repeating input sequence (see the
// note in triangle_bench.cpp).
constexpr std::size_t kCount = 16384; // a power of two: the index wraps with a mask
constexpr std::uint64_t kSeed = 0x91A7A55Eull;

template <typename T> const T& at(const std::vector<T>& v, std::size_t i) { return v[i & (kCount - 1)]; }

// Star-shaped (concave) polygons of `n` vertices around the origin, size 1, and query points
// spread over their bounding box grown by 30%.
struct PolygonSet {
    std::vector<test::Polygon> polys;
    std::vector<Vec2> points;
    std::vector<Vec2> ends;
    std::vector<float> radii;
};
PolygonSet makePolygons(int n, bool convex) {
    test::SplitMix64 rng(kSeed + std::uint64_t(n));
    PolygonSet s;
    for (std::size_t i = 0; i < kCount; ++i) {
        s.polys.push_back(convex ? test::makeConvex(rng, n, 0.0, 0.0, 1.0, rng.range(0.3, 1.0))
                                 : test::makeStar(rng, n, 0.0, 0.0, 1.0, 0.3));
        s.points.push_back(Vec2{rng.rangef(-1.3, 1.3), rng.rangef(-1.3, 1.3)});
        s.ends.push_back(Vec2{rng.rangef(-1.3, 1.3), rng.rangef(-1.3, 1.3)});
        s.radii.push_back(rng.rangef(0.0, 0.4));
    }
    return s;
}

void BM_PointInPolygon(benchmark::State& state) {
    const PolygonSet s = makePolygons(int(state.range(0)), false);
    std::size_t i = 0;
    for (auto _ : state) {
        const test::Polygon& p = at(s.polys, i);
        benchmark::DoNotOptimize(pointInPolygon(at(s.points, i), p.data(), std::uint32_t(p.size())));
        ++i;
    }
}
BENCHMARK(BM_PointInPolygon)->Arg(8)->Arg(32);

void BM_CirclePolygon(benchmark::State& state) {
    const PolygonSet s = makePolygons(int(state.range(0)), false);
    std::size_t i = 0;
    CirclePolygonContact c;
    for (auto _ : state) {
        const test::Polygon& p = at(s.polys, i);
        benchmark::DoNotOptimize(
            circlePolygon(at(s.points, i), at(s.radii, i), p.data(), std::uint32_t(p.size()), c));
        benchmark::DoNotOptimize(c);
        ++i;
    }
}
BENCHMARK(BM_CirclePolygon)->Arg(8)->Arg(32);

// A circle wedged in the slot of a U-shaped wall: the nearest-feature push is blocked and the full
// search decides (the kernel's slow path).
void BM_CirclePolygonNotch(benchmark::State& state) {
    const test::Polygon u{{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}};
    test::SplitMix64 rng(kSeed);
    std::vector<Vec2> centers;
    for (std::size_t k = 0; k < kCount; ++k)
        centers.push_back(Vec2{rng.rangef(1.3, 1.7), rng.rangef(1.2, 2.8)});
    std::size_t i = 0;
    CirclePolygonContact c;
    for (auto _ : state) {
        benchmark::DoNotOptimize(circlePolygon(at(centers, i), 0.6f, u.data(), std::uint32_t(u.size()), c));
        benchmark::DoNotOptimize(c);
        ++i;
    }
}
BENCHMARK(BM_CirclePolygonNotch);

void BM_SegmentPolygon(benchmark::State& state) {
    const PolygonSet s = makePolygons(int(state.range(0)), false);
    std::size_t i = 0;
    SegmentPolygonHit h;
    for (auto _ : state) {
        const test::Polygon& p = at(s.polys, i);
        benchmark::DoNotOptimize(
            segmentPolygon(at(s.points, i), at(s.ends, i), p.data(), std::uint32_t(p.size()), h));
        benchmark::DoNotOptimize(h);
        ++i;
    }
}
BENCHMARK(BM_SegmentPolygon)->Arg(8)->Arg(32);

// Convex n-gons of size 1, the second one offset so that about half the pairs overlap.
void BM_PolygonSat(benchmark::State& state) {
    const int n = int(state.range(0));
    test::SplitMix64 rng(kSeed + 7);
    std::vector<test::Polygon> a, b;
    for (std::size_t k = 0; k < kCount; ++k) {
        a.push_back(test::makeConvex(rng, n, 0.0, 0.0, 1.0, rng.range(0.3, 1.0)));
        b.push_back(
            test::makeConvex(rng, n, rng.range(-2.2, 2.2), rng.range(-2.2, 2.2), 1.0, rng.range(0.3, 1.0)));
    }
    std::size_t i = 0;
    PolygonMtv m;
    for (auto _ : state) {
        const test::Polygon& pa = at(a, i);
        const test::Polygon& pb = at(b, i);
        benchmark::DoNotOptimize(
            polygonSat(pa.data(), std::uint32_t(pa.size()), pb.data(), std::uint32_t(pb.size()), m));
        benchmark::DoNotOptimize(m);
        ++i;
    }
}
BENCHMARK(BM_PolygonSat)->Arg(4)->Arg(8);

// GJK pairs: arg = 0 sphere-sphere, 1 capsule-capsule, 2 box-box, 3 hull8-hull8, 4 sphere-box,
// 5 box-box with transforms, 6 hull32-box. Sizes 1e-2..1e2, from deep overlap to well apart.
struct GjkSet {
    std::vector<test::TestPair> pairs;
    std::vector<Vec3> moves;
};
GjkSet makePairs(int kind) {
    test::SplitMix64 rng(kSeed + 100 + std::uint64_t(kind));
    GjkSet s;
    const ConvexKind kinds[][2] = {
        {ConvexKind::Sphere, ConvexKind::Sphere}, {ConvexKind::Capsule, ConvexKind::Capsule},
        {ConvexKind::Box, ConvexKind::Box},       {ConvexKind::Hull, ConvexKind::Hull},
        {ConvexKind::Sphere, ConvexKind::Box},    {ConvexKind::Box, ConvexKind::Box},
        {ConvexKind::Hull, ConvexKind::Box}};
    for (std::size_t k = 0; k < kCount; ++k) {
        test::TestPair p;
        if (kind == 6) {
            p.a =
                test::randomShape(rng, ConvexKind::Hull, 1.0, 0, 0, 0, false, test::HullFamily::Generic, 32);
            while (p.a.points.size() < 24)
                p.a = test::randomShape(rng, ConvexKind::Hull, 1.0, 0, 0, 0, false, test::HullFamily::Generic,
                                        32);
            p.b = test::randomShape(rng, ConvexKind::Box, 1.0, rng.range(-3, 3), rng.range(-3, 3), 0, false);
        } else {
            do {
                p = test::randomPair(rng, kinds[kind][0], kinds[kind][1]);
            } while (p.a.transformed != (kind == 5));
        }
        s.pairs.push_back(p);
        Vec3 ca, cb, d;
        test::corePointOf(p, ca, cb);
        sub(cb, ca, d);
        scale(d, float(rng.range(0.5, 2.0)), d);
        s.moves.push_back(d);
    }
    return s;
}

const char* kPairNames[] = {"sphere-sphere", "capsule-capsule",     "box-box",   "hull8-hull8",
                            "sphere-box",    "box-box-transformed", "hull32-box"};

void BM_GjkDistance(benchmark::State& state) {
    const GjkSet s = makePairs(int(state.range(0)));
    state.SetLabel(kPairNames[state.range(0)]);
    std::size_t i = 0;
    GjkResult r;
    for (auto _ : state) {
        const test::TestPair& p = at(s.pairs, i);
        if (p.a.transformed) {
            benchmark::DoNotOptimize(gjkDistance(p.a.shape, p.a.xf, p.b.shape, p.b.xf, r));
        } else {
            benchmark::DoNotOptimize(gjkDistance(p.a.shape, p.b.shape, r));
        }
        benchmark::DoNotOptimize(r);
        ++i;
    }
}
BENCHMARK(BM_GjkDistance)->DenseRange(0, 6);

void BM_GjkIntersect(benchmark::State& state) {
    const GjkSet s = makePairs(int(state.range(0)));
    state.SetLabel(kPairNames[state.range(0)]);
    std::size_t i = 0;
    for (auto _ : state) {
        const test::TestPair& p = at(s.pairs, i);
        if (p.a.transformed) {
            benchmark::DoNotOptimize(gjkIntersect(p.a.shape, p.a.xf, p.b.shape, p.b.xf));
        } else {
            benchmark::DoNotOptimize(gjkIntersect(p.a.shape, p.b.shape));
        }
        ++i;
    }
}
BENCHMARK(BM_GjkIntersect)->DenseRange(0, 6);

void BM_GjkShapeCast(benchmark::State& state) {
    const GjkSet s = makePairs(int(state.range(0)));
    state.SetLabel(kPairNames[state.range(0)]);
    std::size_t i = 0;
    RayHit h;
    for (auto _ : state) {
        const test::TestPair& p = at(s.pairs, i);
        if (p.a.transformed) {
            benchmark::DoNotOptimize(gjkShapeCast(p.a.shape, p.a.xf, p.b.shape, p.b.xf, at(s.moves, i), h));
        } else {
            benchmark::DoNotOptimize(gjkShapeCast(p.a.shape, p.b.shape, at(s.moves, i), h));
        }
        benchmark::DoNotOptimize(h);
        ++i;
    }
}
BENCHMARK(BM_GjkShapeCast)->DenseRange(0, 6);

} // namespace
} // namespace flak
