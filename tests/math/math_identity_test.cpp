#include <flak/math.h>
#include <flak/math/grid_index.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace flak {
namespace {

TEST(Math, VectorIdentities) {
    const Vec3 a{1.0f, 2.0f, 3.0f}, b{-4.0f, 0.5f, 2.0f};
    Vec3 c;
    cross(a, b, c);
    EXPECT_FLOAT_EQ(dot(a, c), 0.0f);
    EXPECT_FLOAT_EQ(dot(b, c), 0.0f);
    Vec3 s;
    add(a, b, s);
    sub(s, b, s); // out aliases an input
    EXPECT_TRUE(equal(s, a));
    EXPECT_EQ(largestAxis(Vec3{0.0f, -5.0f, 4.0f}), 1);
}

TEST(Math, NormalizeRejectsZeroAndNonFinite) {
    Vec3 out{9.0f, 9.0f, 9.0f};
    EXPECT_FALSE(normalize(Vec3{}, out));
    EXPECT_TRUE(equal(out, Vec3{}));
    EXPECT_FALSE(normalize(Vec3{std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f}, out));
    EXPECT_FALSE(normalize(Vec3{std::numeric_limits<float>::infinity(), 0.0f, 0.0f}, out));
    ASSERT_TRUE(normalize(Vec3{3.0f, 0.0f, 4.0f}, out));
    EXPECT_FLOAT_EQ(length(out), 1.0f);
    Quat q;
    EXPECT_FALSE(normalize(Quat{0.0f, 0.0f, 0.0f, 0.0f}, q));
    EXPECT_EQ(q.w, 1.0f); // identity fallback
    Vec2 v2;
    EXPECT_FALSE(normalize(Vec2{}, v2));
}

TEST(Math, QuaternionAndMatrixAgree) {
    Quat q;
    fromAxisAngle(Vec3{0.0f, 0.0f, 1.0f}, 1.5707963f, q);
    Mat33 m;
    toMat33(q, m);
    Vec3 r1, r2;
    rotate(q, Vec3{1.0f, 0.0f, 0.0f}, r1);
    mul(m, Vec3{1.0f, 0.0f, 0.0f}, r2);
    EXPECT_NEAR(r1.x, 0.0f, 1e-6f);
    EXPECT_NEAR(r1.y, 1.0f, 1e-6f);
    EXPECT_NEAR(r2.x, r1.x, 1e-6f);
    EXPECT_NEAR(r2.y, r1.y, 1e-6f);
    EXPECT_NEAR(determinant(m), 1.0f, 1e-6f);
}

TEST(Math, TransformInverseAndRelative) {
    Quat q;
    fromAxisAngle(Vec3{0.6f, 0.0f, 0.8f}, 0.7f, q);
    Transform a;
    fromQuatTranslation(q, Vec3{1.0f, -2.0f, 3.0f}, a);
    Transform inv, id;
    inverse(a, inv);
    compose(a, inv, id);
    EXPECT_NEAR(id.rotation.c0.x, 1.0f, 1e-6f);
    EXPECT_NEAR(id.rotation.c1.x, 0.0f, 1e-6f);
    EXPECT_NEAR(length(id.translation), 0.0f, 1e-6f);
    Transform rel;
    relative(a, a, rel);
    EXPECT_NEAR(rel.rotation.c2.z, 1.0f, 1e-6f);
    EXPECT_NEAR(length(rel.translation), 0.0f, 1e-6f);
    Vec3 p{5.0f, 6.0f, 7.0f}, tp, back;
    transformPoint(a, p, tp);
    inverseTransformPoint(a, tp, back);
    EXPECT_NEAR(back.x, p.x, 1e-5f);
    EXPECT_NEAR(back.y, p.y, 1e-5f);
    EXPECT_NEAR(back.z, p.z, 1e-5f);
}

TEST(Math, MatrixInverseRejectsSingular) {
    Mat33 singular;
    singular.c2 = singular.c0;
    Mat33 out;
    EXPECT_FALSE(inverse(singular, out));
    Mat33 m;
    set(2.0f, 0.0f, 1.0f, m.c0);
    set(0.0f, 3.0f, 0.0f, m.c1);
    set(1.0f, 0.0f, 4.0f, m.c2);
    ASSERT_TRUE(inverse(m, out));
    Mat33 p;
    mul(m, out, p);
    EXPECT_NEAR(p.c0.x, 1.0f, 1e-6f);
    EXPECT_NEAR(p.c0.z, 0.0f, 1e-6f);
    EXPECT_NEAR(p.c2.z, 1.0f, 1e-6f);
}

TEST(Math, BoundsBasics) {
    Aabb box;
    setEmpty(box);
    EXPECT_TRUE(isEmpty(box));
    const Vec3 pts[3] = {{0, 0, 0}, {1, 2, 3}, {-1, 0, 1}};
    fromPoints(pts, 3, box);
    EXPECT_FALSE(isEmpty(box));
    EXPECT_TRUE(contains(box, Vec3{0.5f, 1.0f, 2.0f}));
    Aabb touching{{1, 2, 3}, {4, 4, 4}};
    EXPECT_TRUE(overlaps(box, touching)); // closed intervals
    EXPECT_FLOAT_EQ(surfaceArea(Aabb{{0, 0, 0}, {1, 2, 3}}), 22.0f);

    Transform t;
    Quat q;
    fromAxisAngle(Vec3{0, 0, 1}, 0.78539816f, q);
    fromQuatTranslation(q, Vec3{10, 0, 0}, t);
    Aabb moved;
    transformAabb(t, Aabb{{-1, -1, -1}, {1, 1, 1}}, moved);
    EXPECT_NEAR(moved.max.x, 10.0f + std::sqrt(2.0f), 1e-5f);
    EXPECT_NEAR(moved.max.z, 1.0f, 1e-6f);

    Obb obb;
    obb.center = Vec3{0, 0, 0};
    obb.halfExtents = Vec3{1, 2, 3};
    Vec3 cp;
    closestPoint(obb, Vec3{5, -5, 0.5f}, cp);
    EXPECT_FLOAT_EQ(cp.x, 1.0f);
    EXPECT_FLOAT_EQ(cp.y, -2.0f);
    EXPECT_FLOAT_EQ(cp.z, 0.5f);
    EXPECT_TRUE(overlaps(Sphere{{0, 0, 0}, 1.0f}, Sphere{{2, 0, 0}, 1.0f}));
    EXPECT_FALSE(overlaps(Sphere{{0, 0, 0}, 1.0f}, Sphere{{2.001f, 0, 0}, 1.0f}));
}

// The grid index stays in [0, n - 1] for every n, also above 2^24, where float(n - 1) can round up
// to n (2^24 + 3 rounds to 2^24 + 4): the clamp gave n there, one cell past the grid.
TEST(Math, GridIndexStaysInsideTheGrid) {
    for (const std::uint32_t n :
         {1u, 2u, 16384u, (1u << 24) + 1u, (1u << 24) + 4u, (1u << 30) + 3u, 0xFFFFFFFFu}) {
        SCOPED_TRACE(n);
        EXPECT_EQ(gridIndex(1e30f, 0.0f, 1.0f, n), n - 1u);
        EXPECT_EQ(gridIndex(static_cast<float>(n), 0.0f, 1.0f, n), n - 1u);
        EXPECT_EQ(gridIndex(-5.0f, 0.0f, 1.0f, n), 0u);
        EXPECT_EQ(gridIndex(std::numeric_limits<float>::quiet_NaN(), 0.0f, 1.0f, n), 0u);
        const float top = static_cast<float>(n - 1u); // may be n itself
        EXPECT_LE(gridIndex(top, 0.0f, 1.0f, n), n - 1u);
        EXPECT_LE(gridIndex(std::nextafter(top, 0.0f), 0.0f, 1.0f, n), n - 1u);
        std::uint32_t previous = 0; // monotone up to and past the top, a few hundred steps
        for (float v = std::max(top * 0.99f, 0.5f); v < top * 1.01f + 4.0f;
             v = std::nextafter(v * 1.0001f, 1e38f)) {
            const std::uint32_t i = gridIndex(v, 0.0f, 1.0f, n);
            ASSERT_LE(i, n - 1u) << v;
            ASSERT_GE(i, previous) << v;
            previous = i;
        }
    }
    EXPECT_EQ(gridIndex(2.5f, 0.0f, 1.0f, 16384u), 2u);
}

TEST(Math, Vec4UsesTheSameArithmeticAsScalar) {
    alignas(16) Vec4 a{1.0f, -2.0f, 3.5f, 0.25f}, b{0.1f, 0.2f, -0.3f, 4.0f}, r;
    add(a, b, r);
    EXPECT_EQ(r.x, 1.0f + 0.1f);
    EXPECT_EQ(r.z, 3.5f + -0.3f);
    mul(a, b, r);
    EXPECT_EQ(r.y, -2.0f * 0.2f);
    min(a, b, r);
    EXPECT_EQ(r.w, 0.25f);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    min(Vec4{nan, 1, 1, 1}, Vec4{5, 1, 1, 1}, r);
    EXPECT_EQ(r.x, 5.0f); // SSE rule: second operand when unordered
}

} // namespace
} // namespace flak
