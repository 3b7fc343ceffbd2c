// Shared inputs of the bad-input suite: the classes of bad float, bad transforms, and the small
// meshes (normal, empty, all-degenerate), cluster and wall set the queries are run on.
//
// Every test in this directory calls a public function with bad input and asserts the result its
// `///` documentation promises. Every such call returns: there is no loop in the runtime whose
// exit depends on a float comparison that NaN could keep false (the blob walks step by skip
// links, the tree walks by parent links, GJK by kMaxGjkIterations), and the test binary runs under
// a ctest TIMEOUT, so a hang would fail the suite rather than stall it.
#pragma once

#include "bvh/bake_helpers.h"
#include "flak_support/mesh_gen.h"
#include "shooter/shooter_scenes.h"

#include <flak/math/transform.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace flak::test {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

/// NaN, +Inf, -Inf.
inline std::vector<float> nonFiniteValues() { return {kNaN, kInf, -kInf}; }
/// Finite but absurd magnitudes (and the largest float).
inline std::vector<float> hugeValues() { return {1e30f, -1e30f, FLT_MAX, -FLT_MAX}; }
/// Every bad float of both classes.
inline std::vector<float> badValues() { return {kNaN, kInf, -kInf, 1e30f, -1e30f, FLT_MAX, -FLT_MAX}; }

inline Vec3 vec3(float x, float y, float z) {
    Vec3 v;
    set(x, y, z, v);
    return v;
}

/// `v` with component `axis` replaced by `value`.
inline Vec3 withComponent(const Vec3& v, int axis, float value) {
    Vec3 out = v;
    out[axis] = value;
    return out;
}

inline Transform identityTransform() {
    Transform t;
    setIdentity(t);
    return t;
}

/// Transforms whose rotation or translation holds a non-finite value (NaN rotation entry,
/// Inf/NaN translation, an all-NaN rotation).
inline std::vector<Transform> nonFiniteTransforms() {
    std::vector<Transform> out;
    Transform t = identityTransform();
    t.rotation.c0.x = kNaN;
    out.push_back(t);
    t = identityTransform();
    t.rotation.c2.y = kInf;
    out.push_back(t);
    t = identityTransform();
    t.translation.z = kNaN;
    out.push_back(t);
    t = identityTransform();
    t.translation.x = -kInf;
    out.push_back(t);
    t = identityTransform();
    set(kNaN, kNaN, kNaN, t.rotation.c0);
    set(kNaN, kNaN, kNaN, t.rotation.c1);
    set(kNaN, kNaN, kNaN, t.rotation.c2);
    out.push_back(t);
    return out;
}

/// Finite transforms that break the "rigid" assumption or sit far away: a zero rotation, a scaled
/// (non-orthonormal) rotation, a FLT_MAX-scaled rotation, a huge translation, FLT_MAX translation.
/// Functions take them as given (results are unspecified but must be returned without a crash).
inline std::vector<Transform> oddFiniteTransforms() {
    std::vector<Transform> out;
    Transform t = identityTransform();
    set(0, 0, 0, t.rotation.c0);
    set(0, 0, 0, t.rotation.c1);
    set(0, 0, 0, t.rotation.c2);
    out.push_back(t);
    t = identityTransform();
    set(1e20f, 0, 0, t.rotation.c0);
    set(0, 1e-20f, 3.0f, t.rotation.c1);
    out.push_back(t);
    t = identityTransform();
    set(FLT_MAX, FLT_MAX, 0, t.rotation.c0);
    out.push_back(t);
    t = identityTransform();
    set(1e30f, -1e30f, 1e30f, t.translation);
    out.push_back(t);
    t = identityTransform();
    set(FLT_MAX, -FLT_MAX, FLT_MAX, t.translation);
    out.push_back(t);
    return out;
}

/// A byte pattern an output is filled with before a call that must leave it untouched.
template <typename T> void poison(T& value) { std::memset(static_cast<void*>(&value), 0xA5, sizeof(T)); }
template <typename T> bool isPoisoned(const T& value) {
    T ref;
    poison(ref);
    return std::memcmp(static_cast<const void*>(&value), static_cast<const void*>(&ref), sizeof(T)) == 0;
}

/// A mesh baked and loaded (bytes held at a 16-byte aligned address).
struct BadInputMesh {
    std::unique_ptr<AlignedBytes> bytes;
    Blob whole;    // the opened container
    MeshBlob blob; // its mesh
};

inline std::unique_ptr<BadInputMesh> loadBaked(const std::vector<unsigned char>& raw) {
    auto m = std::make_unique<BadInputMesh>();
    m->bytes = std::make_unique<AlignedBytes>(raw);
    BlobError err;
    EXPECT_EQ(openBlob(m->bytes->data(), m->bytes->size(), m->whole, &err), Status::Ok) << err.what;
    EXPECT_EQ(loadMeshBlob(m->whole, m->blob, &err), Status::Ok) << err.what;
    return m;
}

/// A small closed mesh (icosphere level 1, radius 2, 80 triangles).
inline std::unique_ptr<BadInputMesh> goodMesh() { return loadBaked(bakeBytes(icosphere(1, 2.0f))); }

/// A mesh whose every triangle has zero area (collinear or coincident vertices), kept by the
/// baker's keep_degenerate option.
inline std::unique_ptr<BadInputMesh> degenerateMesh() {
    Mesh m;
    for (int i = 0; i < 12; ++i) {
        const float x = static_cast<float>(i);
        const std::uint32_t base = static_cast<std::uint32_t>(m.positions.size());
        m.positions.push_back(vec3(x, 0, 0));
        m.positions.push_back(vec3(x + 0.5f, 0.5f, 0.25f));
        m.positions.push_back(vec3(x + 1.0f, 1.0f, 0.5f)); // collinear with the first two
        m.positions.push_back(vec3(x, 2.0f, 1.0f));        // a point triangle below
        m.indices.insert(m.indices.end(), {base, base + 1, base + 2, base + 3, base + 3, base + 3});
    }
    BakeSettings settings;
    settings.prepare.keep_degenerate = true;
    return loadBaked(bakeBytes(m, settings));
}

/// A ring of four spheres (radius 0.5) around the origin.
struct BadInputCluster {
    std::vector<Sphere> spheres;
    SphereCluster cluster;
};
inline std::unique_ptr<BadInputCluster> goodCluster() {
    auto c = std::make_unique<BadInputCluster>();
    for (int i = 0; i < 4; ++i) {
        Sphere s;
        set(static_cast<float>(i) - 1.5f, 0.0f, 0.0f, s.center);
        s.radius = 0.5f;
        c->spheres.push_back(s);
    }
    EXPECT_EQ(makeSphereCluster(c->spheres.data(), 4, c->cluster), Status::Ok);
    return c;
}

/// Two squares with a hole in the first: a small wall set.
inline std::unique_ptr<Level> goodWalls() {
    std::vector<bake::WallPolygon> polys(2);
    polys[0].rings.push_back(rectRing(0, 0, 10, 10));
    polys[0].rings.push_back({Vec2{4, 4}, Vec2{4, 6}, Vec2{6, 6}, Vec2{6, 4}});
    polys[1].rings.push_back(rectRing(20, 0, 30, 5));
    return bakeLevel(std::move(polys));
}

} // namespace flak::test
