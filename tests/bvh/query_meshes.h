// Test support for the blob queries: baked test meshes (generated and real), the exact triangles
// the blob holds (in triangle-id order), and random placement helpers.
#pragma once

#include "bake_helpers.h"
#include "flak_support/mesh_gen.h"
#include "flak_support/obj_mesh.h"
#include "flak_support/split_mix.h"

#include <flak/bvh/mesh_blob.h>
#include <flak/math/quat.h>
#include <flak/math/transform.h>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace flak::test {

struct BakedMesh {
    std::string name;
    std::unique_ptr<AlignedBytes> bytes;
    MeshBlob blob;
    std::vector<std::array<Vec3, 3>> tris; ///< by triangle id (leaf order), read back from the blob
    std::vector<Aabb> boxes;               ///< exact box of each triangle
    Aabb bounds;
    Vec3 center;
    float diag = 0.0f;
    bool closed = false;
};

/// source_order: bake with source ids, which keeps every triangle's corners in the source's
/// order (otherwise the writer may turn a triangle whose first or last corner is sharp).
inline std::unique_ptr<BakedMesh> bakeMesh(const std::string& name, const Mesh& mesh, bool closed,
                                           bool keep_degenerate = false, std::uint32_t max_leaf = 8,
                                           bool quantized = false, bool source_order = false) {
    auto m = std::make_unique<BakedMesh>();
    m->name = name;
    m->closed = closed;
    BakeSettings settings;
    settings.prepare.keep_degenerate = keep_degenerate;
    settings.build.max_leaf = max_leaf;
    settings.write.quantize_vertices = quantized;
    settings.write.source_ids = source_order;
    m->bytes = std::make_unique<AlignedBytes>(bakeBytes(mesh, settings));
    const Status s = loadMeshBlob(m->bytes->data(), m->bytes->size(), m->blob);
    EXPECT_EQ(s, Status::Ok) << name;
    for (std::uint32_t t = 0; t < m->blob.triangle_count; ++t) {
        std::array<Vec3, 3> v;
        triangleVertices(m->blob, t, v[0], v[1], v[2]);
        m->tris.push_back(v);
        Aabb b;
        fromPoints(v.data(), 3, b);
        m->boxes.push_back(b);
    }
    m->bounds = m->blob.bounds;
    center(m->bounds, m->center);
    Vec3 d;
    sub(m->bounds.max, m->bounds.min, d);
    m->diag = length(d);
    return m;
}

inline const char* kWusonObj = "/usr/share/assimp/models/OBJ/WusonOBJ.obj";
inline const char* kSpiderObj = "/usr/share/assimp/models/OBJ/spider.obj";

/// The query test meshes: closed icosphere and torus, open terrain, slivers with zero-area
/// triangles kept (in the source's corner order), a flat floor, the icosphere and terrain with
/// quantized vertices (the answers are brute force's on the decoded triangles), and the Wuson and
/// spider of assimp-testmodels (when installed). Between them they vary what the walks see:
/// leaves of 4, 8 and 16 triangles, a flat axis, quantized vertices, sharp corners, real meshes.
inline const std::vector<std::unique_ptr<BakedMesh>>& queryMeshes() {
    static const std::vector<std::unique_ptr<BakedMesh>> meshes = [] {
        std::vector<std::unique_ptr<BakedMesh>> v;
        v.push_back(bakeMesh("icosphere3", icosphere(3, 2.0f), true, false, 8));
        v.push_back(bakeMesh("torus", torus(32, 16), true, false, 4));
        v.push_back(bakeMesh("terrain", terrain(24, 50.0f), false, false, 16));
        // In the source's corner order, so that the walks meet the slivers' sharp corners at the
        // ends of triangles, which the triangle tests decide the slow way.
        v.push_back(bakeMesh("slivers", slivers(240), false, true, 8, false, true));
        // A flat floor (zero extent in z): the walks take their decoded-box path on a flat axis.
        Mesh floor;
        for (std::uint32_t y = 0; y <= 16; ++y)
            for (std::uint32_t x = 0; x <= 16; ++x)
                floor.positions.push_back(
                    Vec3{static_cast<float>(x) * 0.75f, static_cast<float>(y) * 0.75f, 2.0f});
        for (std::uint32_t y = 0; y < 16; ++y)
            for (std::uint32_t x = 0; x < 16; ++x) {
                const std::uint32_t a = y * 17 + x;
                floor.indices.insert(floor.indices.end(), {a, a + 1, a + 18, a, a + 18, a + 17});
            }
        v.push_back(bakeMesh("floor", floor, false, false, 8));
        Mesh wuson;
        std::string error;
        if (bench::readObj(kWusonObj, wuson, error)) v.push_back(bakeMesh("wuson", wuson, false));
        Mesh spider; // a second real mesh: thin legs, many small triangles
        if (bench::readObj(kSpiderObj, spider, error)) v.push_back(bakeMesh("spider", spider, false));
        v.push_back(bakeMesh("icosphere3-quantized", icosphere(3, 2.0f), true, false, 8, true));
        v.push_back(bakeMesh("terrain-quantized", terrain(24, 50.0f), false, false, 16, true));
        return v;
    }();
    return meshes;
}

/// Query box Q of docs/bench_scenes.md: the mesh box grown to 1.1 times its size about its centre.
inline void randomPointInQ(const BakedMesh& m, SplitMix64& rng, Vec3& out) {
    for (int k = 0; k < 3; ++k) {
        const double c = 0.5 * (double(m.bounds.min[k]) + double(m.bounds.max[k]));
        const double h = 1.1 * 0.5 * (double(m.bounds.max[k]) - double(m.bounds.min[k]));
        out[k] = static_cast<float>(rng.range(c - h, c + h));
    }
}

inline void randomUnit(SplitMix64& rng, Vec3& out) {
    const double z = 2.0 * rng.u() - 1.0, phi = 6.283185307179586 * rng.u(), s = std::sqrt(1.0 - z * z);
    set(static_cast<float>(s * std::cos(phi)), static_cast<float>(s * std::sin(phi)), static_cast<float>(z),
        out);
}

/// The unit direction of `dir` with its component along the unit normal n removed (a direction in
/// the plane of n); for a dir along n, a fixed direction across n.
inline void inPlaneUnit(const Vec3& dir, const Vec3& n, Vec3& out) {
    addScaled(dir, n, -dot(dir, n), out);
    if (!normalize(out, out)) out = Vec3{n.y, n.z, n.x};
}

/// A point on triangle t: a vertex, an edge point or an interior point (adversarial placements).
inline void pointOnTriangle(const BakedMesh& m, std::uint32_t t, SplitMix64& rng, Vec3& out) {
    const auto& v = m.tris[t];
    const std::uint64_t kind = rng.next() % 4;
    if (kind == 0) {
        out = v[rng.next() % 3];
        return;
    }
    double u = rng.u(), w = rng.u();
    if (kind == 1) w = 0.0; // on edge a-b
    if (u + w > 1.0) {
        u = 1.0 - u;
        w = 1.0 - w;
    }
    for (int k = 0; k < 3; ++k)
        out[k] = static_cast<float>(double(v[0][k]) + u * (double(v[1][k]) - double(v[0][k])) +
                                    w * (double(v[2][k]) - double(v[0][k])));
}

inline void faceNormal(const BakedMesh& m, std::uint32_t t, Vec3& out) {
    Vec3 e1, e2, n;
    sub(m.tris[t][1], m.tris[t][0], e1);
    sub(m.tris[t][2], m.tris[t][0], e2);
    cross(e1, e2, n);
    if (!normalize(n, out)) set(0.0f, 0.0f, 1.0f, out);
}

/// A random rigid transform: Shoemake rotation, translation within `reach` per axis.
inline void randomTransform(SplitMix64& rng, float reach, Transform& out) {
    const double u1 = rng.u(), u2 = rng.u(), u3 = rng.u(), pi2 = 6.283185307179586;
    Quat q;
    q.x = static_cast<float>(std::sqrt(1 - u1) * std::sin(pi2 * u2));
    q.y = static_cast<float>(std::sqrt(1 - u1) * std::cos(pi2 * u2));
    q.z = static_cast<float>(std::sqrt(u1) * std::sin(pi2 * u3));
    q.w = static_cast<float>(std::sqrt(u1) * std::cos(pi2 * u3));
    Vec3 t;
    for (int k = 0; k < 3; ++k) t[k] = static_cast<float>((2.0 * rng.u() - 1.0) * reach);
    fromQuatTranslation(q, t, out);
}

} // namespace flak::test
