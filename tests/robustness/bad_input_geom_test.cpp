// Bad input for every narrow-phase kernel (flak/geom): NaN, +-Inf, huge values, negative and zero
// radii, zero-length segments, zero-area triangles, null polygons. Each call must return (none
// loops on a float condition; GJK is capped by kMaxGjkIterations) with the documented result:
// tolerance.h rule 6 says non-finite input gives "no hit" with outputs untouched, and each header
// names its other invalid cases. Huge finite values beyond a kernel's documented valid range only
// have to return (their answer is unspecified); they are called to show that they do.
#include "bad_input.h"
#include "support/assert_recorder.h"

#include <flak/geom/capsule_sphere.h>
#include <flak/geom/circle_polygon.h>
#include <flak/geom/closest_point_triangle.h>
#include <flak/geom/convex_shape.h>
#include <flak/geom/gjk.h>
#include <flak/geom/gjk_raycast.h>
#include <flak/geom/obb_obb.h>
#include <flak/geom/point_in_polygon.h>
#include <flak/geom/polygon_sat.h>
#include <flak/geom/segment_aabb.h>
#include <flak/geom/segment_polygon.h>
#include <flak/geom/segment_triangle.h>
#include <flak/geom/sphere_aabb.h>
#include <flak/geom/sphere_sphere.h>
#include <flak/geom/sphere_triangle.h>
#include <flak/geom/swept_sphere_triangle.h>
#include <flak/geom/tri_tri.h>
#include <flak/geom/triangle_aabb.h>
#include <flak/geom/triangle_normal.h>

#include <gtest/gtest.h>

namespace flak::test {
namespace {

const Vec3 kA = vec3(0, 0, 0), kB = vec3(2, 0, 0), kC = vec3(0, 2, 0);

// Calls `fn(point)` with `base` whose x, y and z in turn are each value of `values`.
template <typename Fn> void forEachBadPoint(const Vec3& base, const std::vector<float>& values, Fn fn) {
    for (float v : values)
        for (int k = 0; k < 3; ++k) {
            SCOPED_TRACE(testing::Message() << "axis " << k << " value " << v);
            fn(withComponent(base, k, v));
        }
}

TEST(BadInputGeom, SphereSphere) {
    Contact c;
    Sphere a, b;
    set(0, 0, 0, a.center);
    a.radius = 1;
    b = a;
    forEachBadPoint(a.center, nonFiniteValues(), [&](const Vec3& p) {
        Sphere bad = a;
        bad.center = p;
        poison(c);
        EXPECT_FALSE(sphereSphere(bad, b, c));
        EXPECT_FALSE(sphereSphere(b, bad, c));
        EXPECT_TRUE(isPoisoned(c));
    });
    for (float r : {-1.0f, kNaN, kInf, -kInf}) {
        Sphere bad = a;
        bad.radius = r;
        poison(c);
        EXPECT_FALSE(sphereSphere(bad, b, c)) << r;
        EXPECT_TRUE(isPoisoned(c));
    }
    // Zero radii: two points; equal points touch with the documented +x normal.
    a.radius = b.radius = 0;
    ASSERT_TRUE(sphereSphere(a, b, c));
    EXPECT_EQ(c.normal.x, 1.0f);
    EXPECT_EQ(c.depth, 0.0f);
    for (float h : hugeValues()) { // out of range: returns
        Sphere big = a;
        big.radius = std::fabs(h);
        (void)sphereSphere(big, b, c);
        big.center.x = h;
        (void)sphereSphere(big, b, c);
    }
    // Squares past float's range are decided in double: spheres 1e25 apart with a radius of 1e20
    // do not touch (inf <= inf said they did, with depth -inf); a point 1e19 inside one does.
    Sphere huge{{0, 0, 0}, 1e20f}, point{{1e25f, 0, 0}, 0.0f};
    poison(c);
    EXPECT_FALSE(sphereSphere(huge, point, c));
    EXPECT_TRUE(isPoisoned(c));
    point.center.x = 1e19f;
    ASSERT_TRUE(sphereSphere(huge, point, c));
    EXPECT_EQ(c.normal.x, -1.0f);
    EXPECT_NEAR(c.depth, 9e19f, 1e14f);
    // Depth is never negative: a point just past a radius whose square rounds down touches with 0.
    Sphere tiny{{0, 0, 0}, 0x1.79d3bcp-67f}, past{{0x1.79d3bep-67f, 0, 0}, 0.0f};
    if (sphereSphere(tiny, past, c)) {
        EXPECT_GE(c.depth, 0.0f);
    }
}

TEST(BadInputGeom, CapsuleSphere) {
    Capsule cap{kA, kB, 1.0f};
    Sphere s;
    set(1, 0.5f, 0, s.center);
    s.radius = 0.5f;
    Contact c;
    forEachBadPoint(kA, nonFiniteValues(), [&](const Vec3& p) {
        Capsule bad = cap;
        bad.p1 = p;
        poison(c);
        EXPECT_FALSE(capsuleSphere(bad, s, c));
        Sphere bs = s;
        bs.center = p;
        EXPECT_FALSE(capsuleSphere(cap, bs, c));
        EXPECT_TRUE(isPoisoned(c));
    });
    for (float r : {-0.5f, kNaN, kInf}) {
        Capsule bad = cap;
        bad.radius = r;
        Sphere bs = s;
        bs.radius = r;
        poison(c);
        EXPECT_FALSE(capsuleSphere(bad, s, c)) << r;
        EXPECT_FALSE(capsuleSphere(cap, bs, c)) << r;
        EXPECT_TRUE(isPoisoned(c));
    }
    // Zero-length segment and zero radius with the centre on it: +x normal, unit.
    Capsule point{kA, kA, 0.0f};
    Sphere at;
    at.center = kA;
    at.radius = 0.0f;
    ASSERT_TRUE(capsuleSphere(point, at, c));
    EXPECT_EQ(c.normal.x, 1.0f);
    for (float h : hugeValues()) {
        Capsule big{kA, vec3(h, 0, 0), std::fabs(h)};
        (void)capsuleSphere(big, s, c);
    }
}

TEST(BadInputGeom, ClosestPointOnTriangle) {
    const Vec3 p = vec3(0.5f, 0.5f, 1.0f);
    Vec3 out;
    float u = 7, v = 7;
    auto check = [&](const Vec3& pp, const Vec3& a, const Vec3& b, const Vec3& c) {
        u = v = 7;
        EXPECT_FALSE(closestPointOnTriangle(pp, a, b, c, out, u, v));
        EXPECT_EQ(u, 0.0f);
        EXPECT_EQ(v, 0.0f);
        EXPECT_EQ(std::memcmp(&out, &pp, sizeof(Vec3)), 0); // out_point = p, bit for bit
    };
    forEachBadPoint(p, nonFiniteValues(), [&](const Vec3& bad) {
        check(bad, kA, kB, kC);
        check(p, bad, kB, kC);
        check(p, kA, bad, kC);
        check(p, kA, kB, bad);
    });
    // Zero-area triangles: valid (a segment, a point).
    EXPECT_TRUE(closestPointOnTriangle(p, kA, kB, kB, out, u, v));
    EXPECT_TRUE(closestPointOnTriangle(p, kA, kA, kA, out, u, v));
    EXPECT_TRUE(isFinite(out));
    forEachBadPoint(p, hugeValues(),
                    [&](const Vec3& big) { (void)closestPointOnTriangle(big, kA, kB, kC, out, u, v); });
}

TEST(BadInputGeom, SphereTriangleAndSweep) {
    Sphere s;
    set(0.5f, 0.5f, 0.5f, s.center);
    s.radius = 1.0f;
    Contact c;
    RayHit h;
    forEachBadPoint(s.center, nonFiniteValues(), [&](const Vec3& bad) {
        Sphere bs = s;
        bs.center = bad;
        poison(c);
        poison(h);
        EXPECT_FALSE(sphereTriangle(bs, kA, kB, kC, c));
        EXPECT_FALSE(sphereTriangle(s, bad, kB, kC, c));
        EXPECT_FALSE(sweptSphereTriangle(bad, kA, 1.0f, kA, kB, kC, h));
        EXPECT_FALSE(sweptSphereTriangle(s.center, bad, 1.0f, kA, kB, kC, h));
        EXPECT_FALSE(sweptSphereTriangle(s.center, kA, 1.0f, kA, kB, bad, h));
        EXPECT_TRUE(isPoisoned(c));
        EXPECT_TRUE(isPoisoned(h));
    });
    for (float r : {-1.0f, kNaN, kInf, -kInf}) {
        Sphere bs = s;
        bs.radius = r;
        poison(c);
        poison(h);
        EXPECT_FALSE(sphereTriangle(bs, kA, kB, kC, c)) << r;
        EXPECT_FALSE(sweptSphereTriangle(s.center, kA, r, kA, kB, kC, h)) << r;
        EXPECT_TRUE(isPoisoned(c));
        EXPECT_TRUE(isPoisoned(h));
    }
    // Zero radius on a point triangle: the documented +x stand-in normal; zero-length sweeps.
    Sphere at;
    at.center = kA;
    at.radius = 0.0f;
    ASSERT_TRUE(sphereTriangle(at, kA, kA, kA, c));
    EXPECT_EQ(c.normal.x, 1.0f);
    EXPECT_TRUE(sweptSphereTriangle(kA, kA, 0.0f, kA, kB, kC, h)); // a static point on the face
    EXPECT_FALSE(sweptSphereTriangle(vec3(0, 0, 5), vec3(0, 0, 5), 1.0f, kA, kB, kC, h));
    for (float big : hugeValues()) {
        (void)sphereTriangle(s, kA, vec3(big, 0, 0), kC, c);
        (void)sweptSphereTriangle(vec3(0, 0, big), vec3(0, 0, -big), 1.0f, kA, kB, kC, h);
        (void)sweptSphereTriangle(kA, kB, std::fabs(big), kA, kB, kC, h);
    }
}

TEST(BadInputGeom, SegmentAndRayTriangle) {
    const Vec3 p0 = vec3(0.5f, 0.5f, 1), p1 = vec3(0.5f, 0.5f, -1);
    RayHit h;
    forEachBadPoint(p0, nonFiniteValues(), [&](const Vec3& bad) {
        poison(h);
        EXPECT_FALSE(segmentTriangle(bad, p1, kA, kB, kC, h));
        EXPECT_FALSE(segmentTriangle(p0, bad, kA, kB, kC, h));
        EXPECT_FALSE(segmentTriangle(p0, p1, kA, bad, kC, h));
        EXPECT_FALSE(segmentTriangleWatertight(bad, p1, kA, kB, kC, h));
        EXPECT_FALSE(segmentTriangleWatertight(p0, p1, kA, kB, bad, h));
        EXPECT_TRUE(isPoisoned(h));
        WatertightRay ray;
        EXPECT_FALSE(makeWatertightRay(bad, vec3(0, 0, -1), 2.0f, ray));
        EXPECT_EQ(ray.t_max, -1.0f); // the invalid marker
        EXPECT_FALSE(rayTriangleWatertight(ray, kA, kB, kC, h));
        EXPECT_FALSE(makeWatertightRay(p0, bad, 2.0f, ray));
        EXPECT_FALSE(rayTriangleWatertight(ray, kA, kB, kC, h));
        ASSERT_TRUE(makeWatertightRay(p0, vec3(0, 0, -1), 2.0f, ray));
        EXPECT_FALSE(rayTriangleWatertight(ray, bad, kB, kC, h));
        EXPECT_TRUE(isPoisoned(h));
    });
    WatertightRay ray;
    for (float tmax : {-1.0f, kNaN, kInf}) {
        EXPECT_FALSE(makeWatertightRay(p0, vec3(0, 0, -1), tmax, ray)) << tmax;
        EXPECT_FALSE(rayTriangleWatertight(ray, kA, kB, kC, h));
    }
    EXPECT_FALSE(makeWatertightRay(p0, vec3(0, 0, 0), 1.0f, ray)); // zero direction
    EXPECT_FALSE(rayTriangleWatertight(ray, kA, kB, kC, h));
    // A default-constructed (never prepared) ray is invalid too.
    EXPECT_FALSE(rayTriangleWatertight(WatertightRay{}, kA, kB, kC, h));
    // Zero-length segments and zero-area triangles never hit the fast test.
    poison(h);
    EXPECT_FALSE(segmentTriangle(kA, kA, kA, kB, kC, h));
    EXPECT_FALSE(segmentTriangle(p0, p1, kA, kB, kB, h));
    EXPECT_FALSE(segmentTriangleWatertight(kA, kA, kA, kB, kC, h)); // zero direction: invalid ray
    EXPECT_TRUE(isPoisoned(h));
    for (float big : hugeValues()) {
        (void)segmentTriangle(vec3(0.5f, 0.5f, big), vec3(0.5f, 0.5f, -big), kA, kB, kC, h);
        (void)segmentTriangleWatertight(vec3(0.5f, 0.5f, big), vec3(0.5f, 0.5f, -big), kA, kB, kC, h);
    }
}

TEST(BadInputGeom, TriTri) {
    const Vec3 d = vec3(0.5f, 0.5f, -1), e = vec3(0.5f, 0.5f, 1), f = vec3(3, 3, 0);
    Vec3 s, t;
    bool coplanar = true;
    TriangleBatch4 batch;
    clearBatch(batch);
    forEachBadPoint(d, nonFiniteValues(), [&](const Vec3& bad) {
        EXPECT_FALSE(triTriOverlap(kA, kB, kC, bad, e, f));
        EXPECT_FALSE(triTriOverlap(bad, kB, kC, d, e, f));
        poison(s);
        coplanar = true;
        EXPECT_FALSE(triTriIntersection(kA, kB, kC, bad, e, f, s, t, coplanar));
        EXPECT_FALSE(coplanar); // documented: out_coplanar = false on false
        EXPECT_TRUE(isPoisoned(s));
        TriangleBatch4 b4;
        clearBatch(b4);
        setBatchTriangle(0, bad, e, f, b4);
        setBatchTriangle(1, d, e, f, b4);
        EXPECT_EQ(triTriOverlap4(kA, kB, kC, b4), 2u); // lane 0 has the NaN, lane 1 overlaps
        EXPECT_EQ(triTriOverlap4(bad, kB, kC, b4), 0u);
        TriangleBatch8 b8;
        b8.half[0] = b4;
        clearBatch(b8.half[1]);
        EXPECT_EQ(triTriOverlap8(kA, kB, kC, b8), 2u);
    });
    // Cleared lanes never overlap, even against a triangle at the origin.
    EXPECT_EQ(triTriOverlap4(kA, kB, kC, batch), 0u);
    // A lane outside 0..3 is a programmer error that is ignored.
    {
        AssertRecorder recorder;
        TriangleBatch4 b4;
        clearBatch(b4);
        setBatchTriangle(4, kA, kB, kC, b4);
        setBatchTriangle(-1, kA, kB, kC, b4);
        EXPECT_EQ(triTriOverlap4(kA, kB, kC, b4), 0u);
#if defined(FLAK_ENABLE_ASSERTS)
        EXPECT_EQ(recorder.count(), 2);
#endif
    }
    // Two zero-area triangles never overlap; a zero-area one against a face is its edges.
    EXPECT_FALSE(triTriOverlap(kA, kB, kB, kA, kB, kB));
    EXPECT_TRUE(triTriOverlap(kA, kB, kC, d, e, e));
    for (float big : hugeValues()) {
        (void)triTriOverlap(kA, kB, kC, vec3(big, 0, -1), vec3(0, big, 1), f);
        (void)triTriIntersection(kA, kB, kC, vec3(big, 0, -1), vec3(0, big, 1), f, s, t, coplanar);
    }
}

TEST(BadInputGeom, TriangleAabbAndNormal) {
    Aabb box;
    set(-1, -1, -1, box.min);
    set(1, 1, 1, box.max);
    Vec3 n;
    forEachBadPoint(kA, nonFiniteValues(), [&](const Vec3& bad) {
        EXPECT_FALSE(triangleAabbOverlap(bad, kB, kC, box));
        Aabb bb = box;
        bb.min = bad;
        EXPECT_FALSE(triangleAabbOverlap(kA, kB, kC, bb));
        set(5, 5, 5, n);
        EXPECT_FALSE(computeTriangleNormal(bad, kB, kC, n));
        EXPECT_EQ(n.x, 0.0f);
        EXPECT_EQ(n.y, 0.0f);
        EXPECT_EQ(n.z, 0.0f);
    });
    Aabb inverted = box;
    inverted.min.y = 2.0f;
    EXPECT_FALSE(triangleAabbOverlap(kA, kB, kC, inverted));
    // Zero-area triangles: valid for the box test (a segment through the box), no normal.
    EXPECT_TRUE(triangleAabbOverlap(vec3(-5, 0, 0), vec3(5, 0, 0), vec3(5, 0, 0), box));
    EXPECT_FALSE(computeTriangleNormal(kA, kB, kB, n));
    EXPECT_EQ(lengthSq(n), 0.0f);
    // Finite floats never overflow the double normal.
    EXPECT_TRUE(computeTriangleNormal(vec3(-FLT_MAX, 0, 0), vec3(FLT_MAX, 0, 0), vec3(0, FLT_MAX, 0), n));
    EXPECT_TRUE(isFinite(n));
    EXPECT_NEAR(length(n), 1.0f, 1e-6f);
    for (float big : hugeValues()) (void)triangleAabbOverlap(kA, vec3(big, 0, 0), kC, box);
}

TEST(BadInputGeom, SphereAabb) {
    Aabb box;
    set(-1, -1, -1, box.min);
    set(1, 1, 1, box.max);
    Sphere s;
    set(0, 0, 0, s.center);
    s.radius = 1;
    Contact c;
    forEachBadPoint(s.center, nonFiniteValues(), [&](const Vec3& bad) {
        Sphere bs = s;
        bs.center = bad;
        poison(c);
        EXPECT_FALSE(sphereAabbOverlap(bs, box));
        EXPECT_FALSE(sphereAabb(bs, box, c));
        EXPECT_FALSE(sphereAabbBoundsOverlap(bs, box));
        Aabb bb = box;
        bb.max = bad;
        EXPECT_FALSE(sphereAabbOverlap(s, bb));
        EXPECT_FALSE(sphereAabb(s, bb, c));
        EXPECT_FALSE(sphereAabbBoundsOverlap(s, bb));
        EXPECT_TRUE(isPoisoned(c));
        (void)distanceSq(bad, box); // NaN or unspecified: it returns
    });
    for (float r : {-1.0f, kNaN, kInf}) {
        Sphere bs = s;
        bs.radius = r;
        EXPECT_FALSE(sphereAabbOverlap(bs, box)) << r;
        EXPECT_FALSE(sphereAabb(bs, box, c)) << r;
        EXPECT_FALSE(sphereAabbBoundsOverlap(bs, box)) << r;
    }
    Aabb inverted = box;
    inverted.min.z = 3.0f;
    EXPECT_FALSE(sphereAabbOverlap(s, inverted));
    EXPECT_FALSE(sphereAabb(s, inverted, c));
    EXPECT_FALSE(sphereAabbBoundsOverlap(s, inverted));
    // The empty box (min +inf, max -inf) is non-finite and inverted.
    Aabb empty;
    setEmpty(empty);
    EXPECT_FALSE(sphereAabbOverlap(s, empty));
    s.radius = 0.0f; // a point inside: the nearest face decides, unit normal
    ASSERT_TRUE(sphereAabb(s, box, c));
    EXPECT_NEAR(length(c.normal), 1.0f, 1e-6f);
    for (float big : hugeValues()) {
        Sphere bs = s;
        bs.radius = std::fabs(big);
        (void)sphereAabb(bs, box, c);
        (void)sphereAabbBoundsOverlap(bs, box);
    }
}

TEST(BadInputGeom, SegmentAabb) {
    Aabb box;
    set(-1, -1, -1, box.min);
    set(1, 1, 1, box.max);
    SlabSegment seg;
    float t0 = 5, t1 = 5;
    forEachBadPoint(vec3(0, 0, -5), nonFiniteValues(), [&](const Vec3& bad) {
        prepareSegment(bad, vec3(0, 0, 5), seg);
        EXPECT_FALSE(seg.valid);
        EXPECT_FALSE(segmentAabb(seg, box, t0, t1));
        EXPECT_FALSE(segmentAabbOverlap(seg, box));
        prepareRay(vec3(0, 0, -5), bad, 10.0f, seg);
        EXPECT_FALSE(seg.valid);
        EXPECT_FALSE(segmentAabbOverlap(seg, box));
        prepareSegment(vec3(0, 0, -5), vec3(0, 0, 5), seg);
        ASSERT_TRUE(seg.valid);
        Aabb bb = box;
        bb.min = bad;
        t0 = t1 = 5;
        EXPECT_FALSE(segmentAabb(seg, bb, t0, t1));
        EXPECT_FALSE(segmentAabbOverlap(seg, bb));
        EXPECT_EQ(t0, 5.0f);
        EXPECT_EQ(t1, 5.0f);
    });
    // A difference that overflows: invalid.
    prepareSegment(vec3(-FLT_MAX, 0, 0), vec3(FLT_MAX, 0, 0), seg);
    EXPECT_FALSE(seg.valid);
    for (float tmax : {-1.0f, kNaN, kInf}) {
        prepareRay(vec3(0, 0, -5), vec3(0, 0, 1), tmax, seg);
        EXPECT_FALSE(seg.valid) << tmax;
    }
    // Zero-length segment: the point p0; inverted box: false.
    prepareSegment(vec3(0, 0, 0), vec3(0, 0, 0), seg);
    ASSERT_TRUE(seg.valid);
    EXPECT_TRUE(segmentAabb(seg, box, t0, t1));
    Aabb inverted = box;
    inverted.max.x = -2.0f;
    EXPECT_FALSE(segmentAabbOverlap(seg, inverted));
    // A default SlabSegment is invalid.
    EXPECT_FALSE(segmentAabbOverlap(SlabSegment{}, box));
    prepareRay(vec3(0, 0, 0), vec3(0, 0, 0), 1.0f, seg); // zero dir: a point
    EXPECT_TRUE(seg.valid);
    EXPECT_TRUE(segmentAabbOverlap(seg, box));
}

TEST(BadInputGeom, Obb) {
    Obb a;
    set(0, 0, 0, a.center);
    set(1, 1, 1, a.halfExtents);
    Obb b = a;
    set(1.5f, 0, 0, b.center);
    ASSERT_TRUE(obbObbOverlap(a, b));
    forEachBadPoint(a.center, nonFiniteValues(), [&](const Vec3& bad) {
        Obb x = a;
        x.center = bad;
        EXPECT_FALSE(obbObbOverlap(x, b));
        x = a;
        x.halfExtents = bad;
        EXPECT_FALSE(obbObbOverlap(x, b));
        x = a;
        x.rotation.c1 = bad; // NaN rotation
        EXPECT_FALSE(obbObbOverlap(b, x));
    });
    Obb neg = a;
    neg.halfExtents.y = -0.5f;
    EXPECT_FALSE(obbObbOverlap(neg, b));
    Obb flat = a; // zero extents: a point at the origin inside b? no: b spans [0.5, 2.5]
    set(0, 0, 0, flat.halfExtents);
    EXPECT_FALSE(obbObbOverlap(flat, b));
    EXPECT_TRUE(obbObbOverlap(flat, a));
    for (float big : hugeValues()) {
        Obb x = a;
        set(std::fabs(big), std::fabs(big), std::fabs(big), x.halfExtents);
        (void)obbObbOverlap(x, b);
        x.rotation.c0.x = big; // non-orthonormal: returns
        (void)obbObbOverlap(x, b);
    }
}

TEST(BadInputGeom, Polygons2D) {
    const Vec2 square[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    const Vec2 inside{0.5f, 0.5f};
    CirclePolygonContact cc;
    SegmentPolygonHit sh;
    PolygonMtv mtv;
    for (float v : nonFiniteValues()) {
        SCOPED_TRACE(v);
        const Vec2 bad_point{v, 0.5f};
        Vec2 bad_poly[4] = {square[0], square[1], square[2], square[3]};
        bad_poly[2].y = v;
        EXPECT_FALSE(pointInPolygon(bad_point, square, 4));
        EXPECT_FALSE(pointInPolygon(inside, bad_poly, 4));
        poison(cc);
        poison(sh);
        poison(mtv);
        EXPECT_FALSE(circlePolygon(bad_point, 0.1f, square, 4, cc));
        EXPECT_FALSE(circlePolygon(inside, 0.1f, bad_poly, 4, cc));
        EXPECT_FALSE(circlePolygon(inside, v, square, 4, cc));
        EXPECT_FALSE(segmentPolygon(bad_point, inside, square, 4, sh));
        EXPECT_FALSE(segmentPolygon(inside, bad_point, square, 4, sh));
        EXPECT_FALSE(segmentPolygon(Vec2{-1, 0.5f}, inside, bad_poly, 4, sh));
        EXPECT_FALSE(polygonSat(square, 4, bad_poly, 4, mtv));
        EXPECT_FALSE(polygonSat(bad_poly, 4, square, 4, mtv));
        EXPECT_TRUE(isPoisoned(cc));
        EXPECT_TRUE(isPoisoned(sh));
        EXPECT_TRUE(isPoisoned(mtv));
        (void)crossingVote(Vec2{v, -1}, Vec2{v, 1}); // a single vote: returns (any answer)
    }
    // Null arrays and count 0: false, outputs untouched.
    poison(cc);
    poison(sh);
    poison(mtv);
    EXPECT_FALSE(pointInPolygon(inside, nullptr, 0));
    EXPECT_FALSE(pointInPolygon(inside, nullptr, 4));
    EXPECT_FALSE(pointInPolygon(inside, square, 2));
    EXPECT_FALSE(circlePolygon(inside, 1.0f, nullptr, 0, cc));
    EXPECT_FALSE(circlePolygon(inside, 1.0f, square, 0, cc));
    EXPECT_FALSE(circlePolygon(inside, -1.0f, square, 4, cc));
    EXPECT_FALSE(segmentPolygon(inside, Vec2{2, 2}, nullptr, 0, sh));
    EXPECT_FALSE(segmentPolygon(inside, Vec2{2, 2}, square, 0, sh));
    EXPECT_FALSE(polygonSat(nullptr, 0, square, 4, mtv));
    EXPECT_FALSE(polygonSat(square, 4, nullptr, 0, mtv));
    EXPECT_FALSE(polygonSat(square, 0, square, 4, mtv));
    EXPECT_TRUE(isPoisoned(cc));
    EXPECT_TRUE(isPoisoned(sh));
    EXPECT_TRUE(isPoisoned(mtv));
    // Overflowing segment difference: false.
    EXPECT_FALSE(segmentPolygon(Vec2{-FLT_MAX, 0.5f}, Vec2{FLT_MAX, 0.5f}, square, 4, sh));
    // Degenerate polygons: a point and a segment act as themselves; zero radius is a point.
    const Vec2 one[1] = {{0.5f, 0.5f}};
    EXPECT_TRUE(circlePolygon(inside, 0.0f, one, 1, cc));
    EXPECT_TRUE(polygonSat(one, 1, one, 1, mtv));
    EXPECT_EQ(mtv.axis.x, -1.0f); // the documented tie: -x
    EXPECT_EQ(mtv.axis.y, 0.0f);
    EXPECT_EQ(mtv.depth, 0.0f);
    const Vec2 seg[2] = {{0, 0}, {1, 1}};
    EXPECT_TRUE(segmentPolygon(Vec2{1, 0}, Vec2{0, 1}, seg, 2, sh));
    EXPECT_TRUE(segmentPolygon(inside, inside, square, 4, sh)); // zero-length segment inside
    EXPECT_EQ(sh.normal.x, 0.0f);
    EXPECT_EQ(sh.normal.y, 0.0f);
    for (float big : hugeValues()) {
        (void)circlePolygon(inside, std::fabs(big), square, 4, cc);
        (void)circlePolygon(Vec2{big, big}, 1.0f, square, 4, cc);
        const Vec2 huge_poly[3] = {{big, 0}, {0, big}, {-big, -big}};
        (void)pointInPolygon(inside, huge_poly, 3);
        (void)polygonSat(huge_poly, 3, square, 4, mtv);
        (void)segmentPolygon(Vec2{0, 0}, Vec2{big, 0}, huge_poly, 3, sh);
    }
}

TEST(BadInputGeom, ConvexShapesAndGjk) {
    Sphere s;
    set(0, 0, 0, s.center);
    s.radius = 1;
    ConvexShape good, bad;
    makeSphere(s, good);
    GjkResult r;
    RayHit h;
    GjkInfo info;
    const Transform id = identityTransform();
    auto expectInvalid = [&](const ConvexShape& shape) {
        EXPECT_FALSE(isValid(shape));
        poison(r);
        poison(h);
        EXPECT_FALSE(gjkDistance(shape, good, r));
        EXPECT_FALSE(gjkDistance(good, shape, r));
        EXPECT_FALSE(gjkDistance(shape, id, good, id, r));
        EXPECT_FALSE(gjkIntersect(shape, good, &info));
        EXPECT_EQ(info.exit, GjkExit::Invalid);
        EXPECT_FALSE(gjkIntersect(good, id, shape, id));
        EXPECT_FALSE(gjkShapeCast(shape, good, vec3(1, 0, 0), h, &info));
        EXPECT_FALSE(gjkShapeCast(good, id, shape, id, vec3(1, 0, 0), h));
        EXPECT_TRUE(isPoisoned(r));
        EXPECT_TRUE(isPoisoned(h));
    };
    for (float v : nonFiniteValues()) {
        SCOPED_TRACE(v);
        Sphere bs = s;
        bs.center.y = v;
        makeSphere(bs, bad);
        expectInvalid(bad);
        bs = s;
        bs.radius = v;
        makeSphere(bs, bad);
        expectInvalid(bad);
        makeCapsule(Capsule{kA, vec3(v, 0, 0), 1.0f}, bad);
        expectInvalid(bad);
        Obb box;
        set(1, 1, 1, box.halfExtents);
        box.rotation.c1.z = v;
        makeBox(box, bad);
        expectInvalid(bad);
        const Vec3 pts[3] = {kA, kB, vec3(0, v, 0)};
        makeHull(pts, 3, bad);
        expectInvalid(bad);
        // The support functions take any direction and return (NaN direction: ties rule).
        Vec3 out;
        supportCore(good, vec3(v, 0, 0), out);
        supportPoint(good, vec3(v, v, v), out);
        makeHull(pts, 2, bad); // a valid two-point hull
        supportCore(bad, vec3(v, 1, 0), out);
        if (std::isnan(v)) {
            EXPECT_EQ(out.x, kA.x); // NaN dot products never beat the first point
            // A box takes the +extent corner on a NaN axis (it took -extent: NaN >= 0 is false).
            Obb corner_box;
            set(1, 2, 3, corner_box.halfExtents);
            ConvexShape boxed;
            makeBox(corner_box, boxed);
            supportCore(boxed, vec3(v, v, v), out);
            EXPECT_EQ(out.x, 1.0f);
            EXPECT_EQ(out.y, 2.0f);
            EXPECT_EQ(out.z, 3.0f);
        }
        // Non-finite transforms and translations.
        for (const Transform& t : nonFiniteTransforms()) {
            EXPECT_FALSE(gjkDistance(good, t, good, id, r));
            EXPECT_FALSE(gjkIntersect(good, id, good, t));
            EXPECT_FALSE(gjkShapeCast(good, t, good, id, vec3(1, 0, 0), h));
        }
        EXPECT_FALSE(gjkShapeCast(good, good, vec3(0, v, 0), h));
    }
    // Shapes whose offset from each other overflows float (3e38 apart each way): refused, where
    // an infinite tolerance took them for overlapping.
    {
        Sphere left{{-3e38f, 0, 0}, 1.0f}, right{{3e38f, 0, 0}, 1.0f};
        ConvexShape l, rs;
        makeSphere(left, l);
        makeSphere(right, rs);
        poison(r);
        EXPECT_FALSE(gjkDistance(l, rs, r));
        EXPECT_TRUE(isPoisoned(r));
        EXPECT_FALSE(gjkIntersect(l, rs, &info));
        EXPECT_EQ(info.exit, GjkExit::Invalid);
        EXPECT_FALSE(gjkShapeCast(l, rs, vec3(1, 0, 0), h));
    }
    // Negative radius, negative half extent, null hull, empty hull.
    Sphere neg = s;
    neg.radius = -1;
    makeSphere(neg, bad);
    expectInvalid(bad);
    Obb box;
    set(1, -1, 1, box.halfExtents);
    makeBox(box, bad);
    expectInvalid(bad);
    makeHull(nullptr, 3, bad);
    expectInvalid(bad);
    const Vec3 pts[1] = {kB};
    makeHull(pts, 0, bad);
    expectInvalid(bad);
    // corePoint / supportCore / supportPoint on an invalid hull (null or empty) answer the
    // shape's centre instead of reading the array (documented in convex_shape.h).
    Vec3 out;
    makeHull(nullptr, 5, bad);
    corePoint(bad, out);
    EXPECT_EQ(lengthSq(out), 0.0f);
    supportCore(bad, vec3(1, 0, 0), out);
    EXPECT_EQ(lengthSq(out), 0.0f);
    supportPoint(bad, vec3(1, 0, 0), out);
    EXPECT_EQ(lengthSq(out), 0.0f);
    makeHull(pts, 0, bad);
    corePoint(bad, out);
    EXPECT_EQ(lengthSq(out), 0.0f);
    supportCore(bad, vec3(0, 1, 0), out);
    EXPECT_EQ(lengthSq(out), 0.0f);
    // Degenerate valid shapes: single-point hull, zero radius, zero-length capsule, flat box.
    makeHull(pts, 1, bad);
    ASSERT_TRUE(isValid(bad));
    ASSERT_TRUE(gjkDistance(bad, good, r));
    EXPECT_NEAR(r.distance, 1.0f, 1e-5f);
    makeCapsule(Capsule{kA, kA, 0.0f}, bad);
    ASSERT_TRUE(gjkIntersect(bad, good));
    // Zero translation cast of overlapping shapes: hit at t = 0 with a zero normal.
    ASSERT_TRUE(gjkShapeCast(good, good, vec3(0, 0, 0), h));
    EXPECT_EQ(h.t, 0.0f);
    // Huge and odd transforms: bounded (kMaxGjkIterations), whatever the answer.
    for (const Transform& t : oddFiniteTransforms()) {
        if (gjkDistance(good, t, good, id, r)) {
            EXPECT_LE(r.info.iterations, kMaxGjkIterations);
        }
        (void)gjkIntersect(good, t, good, id, &info);
        EXPECT_LE(info.iterations, kMaxGjkIterations);
        (void)gjkShapeCast(good, t, good, id, vec3(1, 0, 0), h, &info);
        EXPECT_LE(info.iterations, kMaxGjkIterations);
    }
    for (float big : hugeValues()) {
        Sphere bs = s;
        bs.radius = std::fabs(big);
        makeSphere(bs, bad);
        (void)gjkDistance(bad, good, r);
        (void)gjkShapeCast(good, bad, vec3(big, 0, 0), h, &info);
        EXPECT_LE(info.iterations, kMaxGjkIterations);
        const Vec3 far_pts[3] = {vec3(big, 0, 0), vec3(0, big, 0), vec3(0, 0, big)};
        makeHull(far_pts, 3, bad);
        (void)gjkIntersect(bad, good, &info);
        EXPECT_LE(info.iterations, kMaxGjkIterations);
    }
}

} // namespace
} // namespace flak::test
