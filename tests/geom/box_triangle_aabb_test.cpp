// Oracle: triangleAabbOverlap against an independent method in double: Sutherland-Hodgman clipping
// of the triangle by the six (closed) half-spaces of the box; they meet iff something is left. The
// decisive distance (triangle_aabb.h) is the L-inf gap from bisecting a growth of the box when they
// are apart, and minus the penetration depth (smallest projected overlap over the 13 candidate
// axes, formed in double) when they meet.
#include <flak/geom/triangle_aabb.h>

#include "support/box_families.h"
#include "support/case_count.h"

#include <gtest/gtest.h>

namespace flak {
namespace {

using namespace test::box;
using namespace test;

constexpr std::uint64_t kSeed = 0x5A4B0600ull;

struct Tri {
    Vec3 v[3];
};

std::string describe(const Tri& t, const Aabb& box) {
    return "triangle {" + hexv(t.v[0]) + ", " + hexv(t.v[1]) + ", " + hexv(t.v[2]) + "} box " + hexBox(box);
}

// Clips the triangle against the box grown by s per side (extents floored at zero).
bool clipReference(const Tri& t, const Aabb& box, double s) {
    D3 poly[16], next[16];
    int n = 3;
    for (int k = 0; k < 3; ++k) poly[k] = d3(t.v[k]);
    for (int axis = 0; axis < 3; ++axis) {
        double lo = double(box.min[axis]) - s, hi = double(box.max[axis]) + s;
        if (lo > hi) lo = hi = 0.5 * (double(box.min[axis]) + double(box.max[axis]));
        for (int side = 0; side < 2; ++side) {
            // Keep sign * (x - bound) <= 0.
            const double bound = side ? hi : lo, sign = side ? 1.0 : -1.0;
            int m = 0;
            for (int k = 0; k < n; ++k) {
                const D3& a = poly[k];
                const D3& b = poly[(k + 1) % n];
                const double da = sign * (a[axis] - bound), db = sign * (b[axis] - bound);
                if (da <= 0.0) next[m++] = a;
                if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) {
                    D3 p = a + (b - a) * (da / (da - db));
                    p[axis] = bound; // exactly on the plane
                    next[m++] = p;
                }
            }
            if (m == 0) return false;
            n = m;
            for (int k = 0; k < n; ++k) poly[k] = next[k];
        }
    }
    return true;
}

double penetrationDepth(const Tri& t, const Aabb& box) {
    const D3 v[3] = {d3(t.v[0]), d3(t.v[1]), d3(t.v[2])};
    D3 c, h;
    for (int k = 0; k < 3; ++k) {
        c[k] = 0.5 * (double(box.min[k]) + double(box.max[k]));
        h[k] = 0.5 * (double(box.max[k]) - double(box.min[k]));
    }
    double depth = std::numeric_limits<double>::infinity();
    auto axis = [&](const D3& l) {
        const double length = len(l);
        if (!(length > 1e-12 * (1.0 + maxAbs(toF(l))))) return;
        const D3 n = l * (1.0 / length);
        double lo = INFINITY, hi = -INFINITY;
        for (const D3& p : v) {
            lo = std::fmin(lo, dot(p - c, n));
            hi = std::fmax(hi, dot(p - c, n));
        }
        const double r = h.x * std::fabs(n.x) + h.y * std::fabs(n.y) + h.z * std::fabs(n.z);
        depth = std::fmin(depth, std::fmin(r - lo, hi + r));
    };
    const D3 e[3] = {v[1] - v[0], v[2] - v[1], v[0] - v[2]};
    const D3 unit[3] = {D3{1, 0, 0}, D3{0, 1, 0}, D3{0, 0, 1}};
    axis(cross(e[0], e[1]));
    for (int k = 0; k < 3; ++k) {
        axis(unit[k]);
        for (int j = 0; j < 3; ++j) axis(cross(unit[k], e[j]));
    }
    return depth;
}

double decisive(const Tri& t, const Aabb& box, bool reference_hit) {
    if (reference_hit) return -penetrationDepth(t, box);
    const double reach = 4.0 * (maxAbs(t.v[0], t.v[1], t.v[2], box.min, box.max) + 1e-30);
    return bisect([&](double s) { return clipReference(t, box, s); }, 0.0, reach);
}

using Kernel = bool (*)(const Vec3&, const Vec3&, const Vec3&, const Aabb&);

bool check(OracleTally& tally, std::uint64_t index, const Tri& t, const Aabb& box,
           Kernel kernel = &triangleAabbOverlap) {
    const bool reference = clipReference(t, box, 0.0);
    const bool hit = kernel(t.v[0], t.v[1], t.v[2], box);
    const double scale = maxAbs(t.v[0], t.v[1], t.v[2], box.min, box.max);
    auto text = [&] { return describe(t, box); };
    tally.decide(index, hit, reference, hit == reference ? 0.0 : decisive(t, box, reference), scale, text);
    if (kernel == &triangleAabbOverlap) {
        // Vertex order and orientation may change the answer only inside the band.
        const bool rotated = triangleAabbOverlap(t.v[1], t.v[2], t.v[0], box);
        const bool flipped = triangleAabbOverlap(t.v[0], t.v[2], t.v[1], box);
        if (rotated != hit || flipped != hit)
            tally.require(index, std::fabs(decisive(t, box, reference)) <= bandOf(scale),
                          "vertex order changes the answer outside the band", text);
    }
    return hit;
}

Tri randomTriangleNear(SplitMix64& rng, const Frame& f, const D3& around) {
    const double size = std::pow(10.0, rng.range(-0.7, 0.4)) * f.unit;
    const D3 tc = around + randomInCube(rng, 1.1) * f.unit;
    Tri t;
    for (auto& v : t.v) v = toF(tc + randomInCube(rng, 1.0) * size);
    return t;
}

TEST(TriangleAabb, Random1M) {
    OracleTally tally("TriangleAabb.Random1M", kSeed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(1000000); ++i) {
        SplitMix64 rng = caseRng(kSeed, i);
        const Frame f = randomFrame(rng);
        Aabb box;
        D3 bc;
        randomBox(rng, f, box, bc);
        check(tally, i, randomTriangleNear(rng, f, bc), box);
    }
}

// Zero-area triangles: exactly collinear (dyadic grid), collinear up to rounding, two or three
// vertices equal; and slivers whose edges meet at 1e-9 .. 1e-2 radians.
TEST(TriangleAabb, DegenerateAndSliver300k) {
    const std::uint64_t seed = kSeed + 1;
    OracleTally tally("TriangleAabb.DegenerateSliver300k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(300000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        Aabb box;
        D3 bc;
        randomBox(rng, f, box, bc);
        Tri t = randomTriangleNear(rng, f, bc);
        const D3 a = d3(t.v[0]), b = d3(t.v[1]), ab = b - a;
        switch (i % 5) {
        case 0: { // exactly collinear on a dyadic grid: v2 = 2 v1 - v0
            const float unit = std::ldexp(1.0f, int(rng.next() % 21) - 10);
            for (int k = 0; k < 3; ++k) {
                const float g0 = float(int(rng.next() % 9) - 2), g1 = float(int(rng.next() % 9) - 2);
                t.v[0][k] = g0 * unit;
                t.v[1][k] = g1 * unit;
                t.v[2][k] = (2.0f * g1 - g0) * unit;
                box.min[k] = 0.0f;
                box.max[k] = float(int(rng.next() % 5)) * unit;
            }
            break;
        }
        case 1: // collinear up to float rounding
            t.v[2] = toF(a + ab * rng.range(-1.0, 2.0));
            break;
        case 2: // two equal, or all three equal
            t.v[2] = t.v[int(rng.next() % 2)];
            if (rng.u() < 0.4) t.v[1] = t.v[0];
            break;
        default: { // slivers
            const D3 off = randomUnit(rng);
            const D3 perp = unitD(off - ab * (dot(off, ab) / std::fmax(dot(ab, ab), 1e-300)));
            const double s = std::pow(10.0, rng.range(-9.0, -2.0)) * len(ab);
            t.v[2] = toF(a + ab * rng.range(-0.5, 1.5) + perp * s);
            break;
        }
        }
        check(tally, i, t, box);
    }
}

// Touching: a vertex exactly on a face; the triangle lying in a face plane; and random triangles
// placed just touching along a random direction (edge-on-edge, edge-on-face, vertex-on-face),
// nudged by 1e-8 .. 1e-2 relative.
TEST(TriangleAabb, TouchingAndCoplanar150k) {
    const std::uint64_t seed = kSeed + 2;
    OracleTally tally("TriangleAabb.TouchingCoplanar150k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(150000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        Aabb box;
        D3 bc;
        randomBox(rng, f, box, bc);
        Tri t = randomTriangleNear(rng, f, bc);
        const int axis = int(rng.next() % 3);
        const bool at_max = rng.u() < 0.5;
        const float face = at_max ? box.max[axis] : box.min[axis];
        const int kind = int(i % 3);
        if (kind == 0) { // vertex 0 on the face, the others beyond it
            for (int k = 0; k < 3; ++k)
                if (k != axis) t.v[0][k] = float(rng.range(box.min[k], box.max[k]));
            t.v[0][axis] = face;
            for (int v = 1; v < 3; ++v)
                t.v[v][axis] = float(double(face) + (at_max ? 1.0 : -1.0) * rng.range(0.0, 1.0) * f.unit);
        } else if (kind == 1) { // in the face plane
            for (auto& v : t.v) v[axis] = face;
        } else { // placed just touching by bisection on the reference
            const D3 dir = randomUnit(rng);
            const Tri base = t;
            auto at = [&](double lambda) {
                Tri moved = base;
                for (auto& v : moved.v) v = toF(d3(v) + dir * lambda);
                return moved;
            };
            const double reach = 8.0 * f.unit + 1e-30;
            const double touch =
                bisect([&](double l) { return !clipReference(at(l), box, 0.0); }, 0.0, reach);
            const double pick = rng.u();
            const double nudge = pick < 0.2 ? 0.0 : signedLogUniform(rng, -8.0, -2.0);
            t = at(touch * (1.0 + nudge));
        }
        check(tally, i, t, box);
    }
}

TEST(TriangleAabb, LargeAndSmallCoordinates200k) {
    const std::uint64_t seed = kSeed + 3;
    OracleTally tally("TriangleAabb.LargeSmall200k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(200000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        Frame f;
        f.unit = (i & 1) ? 1.0 : 1e-4;
        f.origin = (i & 1) ? D3{-1e6, -1e6, 1e6} : D3{};
        Aabb box;
        D3 bc;
        randomBox(rng, f, box, bc);
        check(tally, i, randomTriangleNear(rng, f, bc), box);
    }
}

TEST(TriangleAabb, NonFiniteAndInvalidNeverHit100k) {
    const std::uint64_t seed = kSeed + 4;
    OracleTally tally("TriangleAabb.NonFinite100k", seed);
    for (std::uint64_t i = 0; i < test::caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(seed, i);
        const Frame f = randomFrame(rng);
        Aabb box;
        D3 bc;
        randomBox(rng, f, box, bc);
        Tri t;
        for (auto& v : t.v) v = toF(bc + randomInCube(rng, 0.5) * f.unit); // overlapping when valid
        const int k = int(rng.next() % 16);
        if (k < 9) {
            t.v[k / 3][k % 3] = nonFinite(rng);
        } else if (k < 15) {
            (k < 12 ? box.min : box.max)[k % 3] = nonFinite(rng);
        } else {
            std::swap(box.min.z, box.max.z);
            if (box.min.z == box.max.z) box.max.z = box.min.z - (std::fabs(box.min.z) * 0.01f + 1.0f);
        }
        tally.countOnly();
        tally.require(i, !triangleAabbOverlap(t.v[0], t.v[1], t.v[2], box), "hit on invalid input",
                      [&] { return describe(t, box); });
    }
}

TEST(TriangleAabb, KnownValues) {
    const Aabb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    // Large triangle through the box.
    EXPECT_TRUE(
        triangleAabbOverlap(Vec3{-5.0f, -5.0f, 0.5f}, Vec3{5.0f, -5.0f, 0.5f}, Vec3{0.0f, 5.0f, 0.5f}, box));
    // In the top face plane: touching.
    EXPECT_TRUE(
        triangleAabbOverlap(Vec3{-5.0f, -5.0f, 1.0f}, Vec3{5.0f, -5.0f, 1.0f}, Vec3{0.0f, 5.0f, 1.0f}, box));
    // Plane cuts past the corner (1,1,1): x + y + z = 3.01 misses, = 3 touches.
    EXPECT_FALSE(
        triangleAabbOverlap(Vec3{3.01f, 0.0f, 0.0f}, Vec3{0.0f, 3.01f, 0.0f}, Vec3{0.0f, 0.0f, 3.01f}, box));
    EXPECT_TRUE(
        triangleAabbOverlap(Vec3{3.0f, 0.0f, 0.0f}, Vec3{0.0f, 3.0f, 0.0f}, Vec3{0.0f, 0.0f, 3.0f}, box));
    // A point triangle inside, and a segment triangle crossing the box diagonally.
    EXPECT_TRUE(
        triangleAabbOverlap(Vec3{0.5f, 0.5f, 0.5f}, Vec3{0.5f, 0.5f, 0.5f}, Vec3{0.5f, 0.5f, 0.5f}, box));
    EXPECT_TRUE(
        triangleAabbOverlap(Vec3{-1.0f, -1.0f, -1.0f}, Vec3{2.0f, 2.0f, 2.0f}, Vec3{0.5f, 0.5f, 0.5f}, box));
    // A segment triangle passing beside the edge x = z = 1 (x + z = 2.1): only an edge axis
    // separates it; at x + z = 2 it touches the edge.
    EXPECT_FALSE(
        triangleAabbOverlap(Vec3{-1.0f, 0.5f, 3.1f}, Vec3{3.1f, 0.5f, -1.0f}, Vec3{-1.0f, 0.5f, 3.1f}, box));
    EXPECT_TRUE(
        triangleAabbOverlap(Vec3{-1.0f, 0.5f, 3.0f}, Vec3{3.0f, 0.5f, -1.0f}, Vec3{-1.0f, 0.5f, 3.0f}, box));
}

} // namespace
} // namespace flak
