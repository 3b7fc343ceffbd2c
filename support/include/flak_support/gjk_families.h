// Test helper: random convex shapes and shape pairs for the GJK tests and benchmarks (spheres,
// capsules, oriented boxes, point hulls; degenerate families; optional transforms).
#pragma once

#include <flak/geom/convex_shape.h>
#include <flak/math/quat.h>
#include <flak/math/transform.h>

#include "flak_support/split_mix.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace flak::test {

/// A ConvexShape with its own hull storage and optional transform. Copies re-point the hull.
struct TestShape {
    ConvexShape shape;
    std::vector<Vec3> points;
    bool transformed = false;
    Transform xf;

    TestShape() = default;
    TestShape(const TestShape& o) : shape(o.shape), points(o.points), transformed(o.transformed), xf(o.xf) {
        repoint();
    }
    TestShape& operator=(const TestShape& o) {
        shape = o.shape;
        points = o.points;
        transformed = o.transformed;
        xf = o.xf;
        repoint();
        return *this;
    }
    void repoint() {
        if (shape.kind == ConvexKind::Hull) {
            shape.points = points.data();
            shape.count = std::uint32_t(points.size());
        }
    }
    const Transform* transform() const { return transformed ? &xf : nullptr; }
};

inline void randomRotation(SplitMix64& rng, Mat33& out) {
    const double u1 = rng.u(), u2 = rng.u(), u3 = rng.u(), pi2 = 6.283185307179586;
    Quat q;
    set(float(std::sqrt(1 - u1) * std::sin(pi2 * u2)), float(std::sqrt(1 - u1) * std::cos(pi2 * u2)),
        float(std::sqrt(u1) * std::sin(pi2 * u3)), float(std::sqrt(u1) * std::cos(pi2 * u3)), q);
    normalize(q, q);
    toMat33(q, out);
}

inline Vec3 randomUnit(SplitMix64& rng) {
    for (;;) {
        const double x = rng.range(-1, 1), y = rng.range(-1, 1), z = rng.range(-1, 1),
                     l = x * x + y * y + z * z;
        if (l > 1e-4 && l <= 1.0) {
            const double s = 1.0 / std::sqrt(l);
            return Vec3{float(x * s), float(y * s), float(z * s)};
        }
    }
}

/// Hull families: generic points in an ellipsoid, coplanar, collinear, one point, with duplicates.
enum class HullFamily { Generic, Flat, Collinear, Point, Duplicates };

/// A random shape of `kind` and about `size`, centred near (cx, cy, cz) in the world. Transformed
/// shapes are built near their local origin and placed by a random rigid transform.
inline TestShape randomShape(SplitMix64& rng, ConvexKind kind, double size, double cx, double cy, double cz,
                             bool transformed, HullFamily family = HullFamily::Generic, int max_points = 8) {
    TestShape t;
    t.transformed = transformed;
    double ox = cx, oy = cy, oz = cz;
    if (transformed) {
        randomRotation(rng, t.xf.rotation);
        set(float(cx), float(cy), float(cz), t.xf.translation);
        ox = rng.range(-0.2, 0.2) * size;
        oy = rng.range(-0.2, 0.2) * size;
        oz = rng.range(-0.2, 0.2) * size;
    }
    auto around = [&](double x, double y, double z) {
        return Vec3{float(ox + x), float(oy + y), float(oz + z)};
    };
    const double zero_odds = rng.u();
    switch (kind) {
    case ConvexKind::Sphere:
        makeSphere(Sphere{around(0, 0, 0), zero_odds < 0.1 ? 0.0f : float(size * rng.range(0.05, 1.0))},
                   t.shape);
        break;
    case ConvexKind::Capsule: {
        const Vec3 d = randomUnit(rng);
        const double h = zero_odds < 0.1 ? 0.0 : size * rng.range(0.05, 1.0);
        const float r = zero_odds > 0.9 ? 0.0f : float(size * rng.range(0.05, 0.7));
        makeCapsule(Capsule{around(d.x * h, d.y * h, d.z * h), around(-d.x * h, -d.y * h, -d.z * h), r},
                    t.shape);
        break;
    }
    case ConvexKind::Box: {
        Obb box;
        box.center = around(0, 0, 0);
        randomRotation(rng, box.rotation);
        set(float(size * rng.range(0.05, 1.0)), float(size * rng.range(0.05, 1.0)),
            float(size * rng.range(0.05, 1.0)), box.halfExtents);
        if (zero_odds < 0.1) box.halfExtents[int(rng.next() % 3)] = 0.0f;
        if (zero_odds < 0.03) box.halfExtents[int(rng.next() % 3)] = 0.0f;
        makeBox(box, t.shape);
        break;
    }
    case ConvexKind::Hull: {
        const int n = 1 + int(rng.next() % std::uint64_t(max_points));
        Mat33 frame;
        randomRotation(rng, frame);
        const double ax = size, ay = size * rng.range(0.2, 1.0), az = size * rng.range(0.2, 1.0);
        for (int i = 0; i < n; ++i) {
            Vec3 local{float(rng.range(-ax, ax)), float(rng.range(-ay, ay)), float(rng.range(-az, az))};
            if (family == HullFamily::Flat) local.z = 0.0f;
            if (family == HullFamily::Collinear) local.y = local.z = 0.0f;
            if (family == HullFamily::Point) local = Vec3{};
            Vec3 w;
            mul(frame, local, w);
            t.points.push_back(around(w.x, w.y, w.z));
            if (family == HullFamily::Duplicates && rng.u() < 0.5) t.points.push_back(t.points.back());
        }
        makeHull(t.points.data(), std::uint32_t(t.points.size()), t.shape);
        break;
    }
    }
    t.repoint();
    return t;
}

/// A pair of shapes at a random distance: from deep overlap to well apart (centre distance from 0
/// to 1.6 times the size sum), near the origin or far (1e4 .. 1e5) from it, sizes 1e-2 .. 1e2 with
/// ratios up to 10 either way; both transformed 40% of the time.
struct TestPair {
    TestShape a, b;
};
inline TestPair randomPair(SplitMix64& rng, ConvexKind ka, ConvexKind kb, HullFamily fa = HullFamily::Generic,
                           HullFamily fb = HullFamily::Generic, double ratio_decades = 1.0) {
    const double size_a = std::pow(10.0, rng.range(-2.0, 2.0));
    const double size_b = size_a * std::pow(10.0, rng.range(-ratio_decades, ratio_decades));
    double cx = rng.range(-10, 10) * size_a, cy = rng.range(-10, 10) * size_a,
           cz = rng.range(-10, 10) * size_a;
    if (rng.u() < 0.25) {
        cx = rng.range(1e4, 1e5);
        cy = -rng.range(1e4, 1e5);
    }
    const bool transformed = rng.u() < 0.4;
    TestPair p;
    p.a = randomShape(rng, ka, size_a, cx, cy, cz, transformed, fa);
    const Vec3 d = randomUnit(rng);
    const double dist = (size_a + size_b) * rng.range(0.0, 1.6);
    p.b = randomShape(rng, kb, size_b, cx + d.x * dist, cy + d.y * dist, cz + d.z * dist, transformed, fb);
    return p;
}

/// Prints a shape exactly (hex floats), for replaying a failure.
inline const char* kindName(ConvexKind k) {
    switch (k) {
    case ConvexKind::Sphere: return "sphere";
    case ConvexKind::Capsule: return "capsule";
    case ConvexKind::Box: return "box";
    case ConvexKind::Hull: return "hull";
    }
    return "?";
}

inline void printShape(const char* name, const TestShape& t) {
    const ConvexShape& s = t.shape;
    std::printf("  %s: %s radius %a center {%a, %a, %a} extent {%a, %a, %a}\n", name, kindName(s.kind),
                double(s.radius), double(s.center.x), double(s.center.y), double(s.center.z),
                double(s.extent.x), double(s.extent.y), double(s.extent.z));
    if (s.kind == ConvexKind::Box)
        std::printf("    axes {%a %a %a} {%a %a %a} {%a %a %a}\n", double(s.axes.c0.x), double(s.axes.c0.y),
                    double(s.axes.c0.z), double(s.axes.c1.x), double(s.axes.c1.y), double(s.axes.c1.z),
                    double(s.axes.c2.x), double(s.axes.c2.y), double(s.axes.c2.z));
    for (const Vec3& p : t.points)
        std::printf("    point {%a, %a, %a}\n", double(p.x), double(p.y), double(p.z));
    if (t.transformed) {
        const Transform& x = t.xf;
        std::printf("    transform R {%a %a %a} {%a %a %a} {%a %a %a} t {%a %a %a}\n",
                    double(x.rotation.c0.x), double(x.rotation.c0.y), double(x.rotation.c0.z),
                    double(x.rotation.c1.x), double(x.rotation.c1.y), double(x.rotation.c1.z),
                    double(x.rotation.c2.x), double(x.rotation.c2.y), double(x.rotation.c2.z),
                    double(x.translation.x), double(x.translation.y), double(x.translation.z));
    }
}

} // namespace flak::test

namespace flak::test {

/// World positions of the pair's reference points: the transforms' translations when transformed,
/// else the shapes' core points.
inline void corePointOf(const TestPair& p, Vec3& out_a, Vec3& out_b) {
    if (p.a.transformed) {
        out_a = p.a.xf.translation;
        out_b = p.b.xf.translation;
    } else {
        corePoint(p.a.shape, out_a);
        corePoint(p.b.shape, out_b);
    }
}

} // namespace flak::test
