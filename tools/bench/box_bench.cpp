// ns per call of the box-family kernels on precomputed random inputs (a mix of hits and misses), seeded so
// every run measures the same inputs.
#include <flak/geom/capsule_sphere.h>
#include <flak/geom/obb_obb.h>
#include <flak/geom/segment_aabb.h>
#include <flak/geom/sphere_aabb.h>
#include <flak/geom/sphere_sphere.h>
#include <flak/geom/triangle_aabb.h>
#include <flak/math/quat.h>

#include "flak_support/split_mix.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

namespace flak {
namespace {

// Large enough that the branch predictor cannot learn the repeating input sequence (see the
// note in triangle_bench.cpp).
constexpr std::size_t kCount = 65536; // a power of two: the index wraps with a mask
constexpr std::uint64_t kSeed = 0xB0C5BE4Cull;

Vec3 randomVec(test::SplitMix64& rng, float half) {
    return Vec3{rng.rangef(-half, half), rng.rangef(-half, half), rng.rangef(-half, half)};
}

Aabb randomBox(test::SplitMix64& rng) {
    const Vec3 c = randomVec(rng, 1.0f);
    const Vec3 h{rng.rangef(0.1, 1.0), rng.rangef(0.1, 1.0), rng.rangef(0.1, 1.0)};
    Aabb b;
    sub(c, h, b.min);
    add(c, h, b.max);
    return b;
}

Mat33 randomRotation(test::SplitMix64& rng) {
    Quat q{rng.rangef(-1, 1), rng.rangef(-1, 1), rng.rangef(-1, 1), rng.rangef(-1, 1)};
    normalize(q, q);
    Mat33 m;
    toMat33(q, m);
    return m;
}

template <typename T> const T& at(const std::vector<T>& v, std::size_t i) { return v[i & (kCount - 1)]; }

void BM_SphereAabbOverlap(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<Sphere> s(kCount);
    std::vector<Aabb> b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        b[i] = randomBox(rng);
        s[i] = Sphere{randomVec(rng, 2.0f), rng.rangef(0.0, 1.0)};
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(sphereAabbOverlap(at(s, i), at(b, i)));
        ++i;
    }
}
BENCHMARK(BM_SphereAabbOverlap);

void BM_SphereAabbContact(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<Sphere> s(kCount);
    std::vector<Aabb> b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        b[i] = randomBox(rng);
        s[i] = Sphere{randomVec(rng, 2.0f), rng.rangef(0.0, 1.0)};
    }
    std::size_t i = 0;
    Contact c;
    for (auto _ : state) {
        benchmark::DoNotOptimize(sphereAabb(at(s, i), at(b, i), c));
        benchmark::DoNotOptimize(c);
        ++i;
    }
}
BENCHMARK(BM_SphereAabbContact);

void BM_SphereAabbBounds(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<Sphere> s(kCount);
    std::vector<Aabb> b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        b[i] = randomBox(rng);
        s[i] = Sphere{randomVec(rng, 2.0f), rng.rangef(0.0, 1.0)};
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(sphereAabbBoundsOverlap(at(s, i), at(b, i)));
        ++i;
    }
}
BENCHMARK(BM_SphereAabbBounds);

// One prepared segment against many boxes, as in a BVH walk.
void BM_SegmentAabb(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<SlabSegment> seg(kCount);
    std::vector<Aabb> b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        b[i] = randomBox(rng);
        const Vec3 p0 = randomVec(rng, 3.0f);
        Vec3 p1;
        scale(p0, -rng.rangef(0.2, 1.0), p1);
        prepareSegment(p0, p1, seg[i]);
    }
    std::size_t i = 0;
    float t0 = 0.0f, t1 = 0.0f;
    for (auto _ : state) {
        benchmark::DoNotOptimize(segmentAabb(at(seg, i >> 4), at(b, i), t0, t1));
        benchmark::DoNotOptimize(t0);
        ++i;
    }
}
BENCHMARK(BM_SegmentAabb);

void BM_SegmentAabbOverlap(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<SlabSegment> seg(kCount);
    std::vector<Aabb> b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        b[i] = randomBox(rng);
        const Vec3 p0 = randomVec(rng, 3.0f);
        Vec3 p1;
        scale(p0, -rng.rangef(0.2, 1.0), p1);
        prepareSegment(p0, p1, seg[i]);
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(segmentAabbOverlap(at(seg, i >> 4), at(b, i)));
        ++i;
    }
}
BENCHMARK(BM_SegmentAabbOverlap);

void BM_AabbAabb(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<Aabb> a(kCount), b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        a[i] = randomBox(rng);
        b[i] = randomBox(rng);
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(overlaps(at(a, i), at(b, i)));
        ++i;
    }
}
BENCHMARK(BM_AabbAabb);

void BM_SphereSphere(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<Sphere> a(kCount), b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        a[i] = Sphere{randomVec(rng, 1.0f), rng.rangef(0.0, 1.0)};
        b[i] = Sphere{randomVec(rng, 1.0f), rng.rangef(0.0, 1.0)};
    }
    std::size_t i = 0;
    Contact c;
    for (auto _ : state) {
        benchmark::DoNotOptimize(sphereSphere(at(a, i), at(b, i), c));
        benchmark::DoNotOptimize(c);
        ++i;
    }
}
BENCHMARK(BM_SphereSphere);

void BM_CapsuleSphere(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<Capsule> a(kCount);
    std::vector<Sphere> b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        a[i] = Capsule{randomVec(rng, 1.0f), randomVec(rng, 1.0f), rng.rangef(0.0, 0.6)};
        b[i] = Sphere{randomVec(rng, 1.5f), rng.rangef(0.0, 0.6)};
    }
    std::size_t i = 0;
    Contact c;
    for (auto _ : state) {
        benchmark::DoNotOptimize(capsuleSphere(at(a, i), at(b, i), c));
        benchmark::DoNotOptimize(c);
        ++i;
    }
}
BENCHMARK(BM_CapsuleSphere);

// arg 0: random rotations; arg 1: identity rotations (every edge axis degenerate, so each takes the
// double re-evaluation: the kernel's slowest path).
void BM_ObbObb(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<Obb> a(kCount), b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        for (Obb* o : {&a[i], &b[i]}) {
            o->center = randomVec(rng, 1.2f);
            o->halfExtents = Vec3{rng.rangef(0.1, 1.0), rng.rangef(0.1, 1.0), rng.rangef(0.1, 1.0)};
            if (state.range(0) == 0) o->rotation = randomRotation(rng);
        }
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(obbObbOverlap(at(a, i), at(b, i)));
        ++i;
    }
}
BENCHMARK(BM_ObbObb)->Arg(0)->Arg(1);

void BM_TriangleAabb(benchmark::State& state) {
    test::SplitMix64 rng(kSeed);
    std::vector<Vec3> v(3 * kCount);
    std::vector<Aabb> b(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        b[i] = randomBox(rng);
        const Vec3 c = randomVec(rng, 1.5f);
        for (int k = 0; k < 3; ++k) add(c, randomVec(rng, 1.0f), v[3 * i + std::size_t(k)]);
    }
    std::size_t i = 0;
    for (auto _ : state) {
        const std::size_t k = 3 * (i & (kCount - 1));
        benchmark::DoNotOptimize(triangleAabbOverlap(v[k], v[k + 1], v[k + 2], at(b, i)));
        ++i;
    }
}
BENCHMARK(BM_TriangleAabb);

} // namespace
} // namespace flak
