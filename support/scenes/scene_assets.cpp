// Baking a scene's assets in memory: generated ship and asteroid meshes through the baker
// library, the player's 29-sphere cluster fitted by the baker, and a wall layout of concave
// polygons (some with holes) built into a walls-only blob.
#include "scene_assets.h"

#include "blob_inspect.h"
#include "blob_write.h"
#include "bvh_build.h"
#include "cluster_fit.h"
#include "flak_support/mesh_gen.h"
#include "prepare.h"
#include "scene.h"

#include <cmath>
#include <cstring>

namespace flak::scenes {

namespace {

constexpr std::uint32_t kPlayerSpheres = 29; // the Xbox 360 field report's ship cluster

test::Mesh scaled(test::Mesh mesh, float sx, float sy, float sz) {
    for (Vec3& p : mesh.positions) set(p.x * sx, p.y * sy, p.z * sz, p);
    return mesh;
}

// An asteroid: an icosphere with a deterministic bumpy radius.
test::Mesh asteroid(float radius) {
    test::Mesh mesh = test::icosphere(3, radius);
    for (Vec3& p : mesh.positions) {
        const float bump = 1.0f +
                           0.12f * std::sin(3.0f * p.x / radius + 1.0f) * std::cos(2.0f * p.y / radius) +
                           0.06f * std::sin(5.0f * p.z / radius);
        scale(p, bump, p);
    }
    return mesh;
}

bool bakeMesh(const test::Mesh& mesh, bake::WriteOptions options, bake::SourceMesh* out_prepared,
              std::vector<unsigned char>& out_bytes, std::string& error) {
    bake::SourceMesh source;
    source.positions = mesh.positions;
    source.indices = mesh.indices;
    bake::BakeError err = bake::prepareMesh(source, bake::PrepareOptions{});
    if (err.failed()) {
        error = err.message;
        return false;
    }
    bake::BuildOptions build;
    const bake::BuiltTree tree = bake::buildBvh(source.positions, source.indices, build);
    options.max_leaf = build.max_leaf;
    err = bake::writeBlob(source, tree, options, out_bytes);
    if (err.failed()) {
        error = err.message;
        return false;
    }
    if (out_prepared != nullptr) *out_prepared = std::move(source);
    return true;
}

std::unique_ptr<BakedBlob> loadBlob(const std::vector<unsigned char>& bytes, std::string& error) {
    auto blob = std::make_unique<BakedBlob>();
    if (!blob->load(bytes, error)) return nullptr;
    return blob;
}

// One wall polygon of kind `shape` centred at (cx, cy), fitting in a disc of radius r.
bake::WallPolygon wallShape(std::uint32_t shape, float cx, float cy, float r, float turn) {
    bake::WallPolygon polygon;
    std::vector<Vec2> ring;
    auto at = [&](float x, float y) {
        const float c = std::cos(turn), s = std::sin(turn);
        ring.push_back(Vec2{cx + c * x - s * y, cy + s * x + c * y});
    };
    switch (shape % 5) {
    case 0: // a bar
        at(-r, -0.3f * r), at(r, -0.3f * r), at(r, 0.3f * r), at(-r, 0.3f * r);
        break;
    case 1: // an L (concave)
        at(-r, -r), at(r, -r), at(r, -0.3f * r), at(-0.3f * r, -0.3f * r), at(-0.3f * r, r), at(-r, r);
        break;
    case 2: { // a six-pointed star (concave)
        for (int k = 0; k < 12; ++k) {
            const float a = 6.2831853f * static_cast<float>(k) / 12.0f;
            const float rr = k % 2 == 0 ? r : 0.45f * r;
            at(rr * std::cos(a), rr * std::sin(a));
        }
        break;
    }
    case 3: { // a heptagon
        for (int k = 0; k < 7; ++k) {
            const float a = 6.2831853f * static_cast<float>(k) / 7.0f;
            at(r * std::cos(a), r * std::sin(a));
        }
        break;
    }
    default: { // a square with a square hole
        at(-r, -r), at(r, -r), at(r, r), at(-r, r);
        polygon.rings.push_back(ring);
        ring.clear();
        at(-0.5f * r, -0.5f * r), at(-0.5f * r, 0.5f * r), at(0.5f * r, 0.5f * r), at(0.5f * r, -0.5f * r);
        break;
    }
    }
    polygon.rings.push_back(ring);
    return polygon;
}

} // namespace

bool BakedBlob::load(const std::vector<unsigned char>& bytes, std::string& error) {
    storage.assign(bytes.size() + 16, 0);
    const std::size_t shift = (16 - (reinterpret_cast<std::uintptr_t>(storage.data()) & 15u)) & 15u;
    data = storage.data() + shift;
    size = bytes.size();
    std::memcpy(data, bytes.data(), bytes.size());
    BlobError why;
    Status status = openBlob(data, size, blob, &why);
    if (status != Status::Ok) {
        error = std::string("openBlob: ") + statusName(status) + ": " + why.what;
        return false;
    }
    status = bake::loadOptionalMesh(blob, mesh, &why);
    if (status != Status::Ok) {
        error = std::string("loadMeshBlob: ") + statusName(status) + ": " + why.what;
        return false;
    }
    return true;
}

bool buildSceneAssets(const SceneParams& params, std::uint64_t seed, SceneAssets& out, std::string& error) {
    (void)seed; // the assets are the same for every seed; the script varies
    std::vector<unsigned char> bytes;
    // Enemy ships: a fighter hull (5,120 triangles) and a ring ship (3,072).
    const test::Mesh enemy_meshes[2] = {scaled(test::icosphere(4, 1.0f), 3.0f, 1.6f, 1.0f),
                                        test::torus(48, 32, 2.2f, 0.8f)};
    for (const test::Mesh& mesh : enemy_meshes) {
        if (!bakeMesh(mesh, bake::WriteOptions{}, nullptr, bytes, error)) return false;
        auto blob = loadBlob(bytes, error);
        if (!blob) return false;
        out.enemy_meshes.push_back(std::move(blob));
    }
    // The player ship and its cluster, fitted by the baker and stored in the ship's blob.
    {
        const test::Mesh hull = scaled(test::icosphere(3, 1.0f), 3.2f, 1.4f, 0.8f);
        bake::SourceMesh prepared;
        if (!bakeMesh(hull, bake::WriteOptions{}, &prepared, bytes, error)) return false;
        auto plain = loadBlob(bytes, error);
        if (!plain) return false;
        bake::ClusterFitOptions fit_options;
        fit_options.spheres = kPlayerSpheres;
        bake::ClusterFit fit;
        const bake::BakeError err = bake::fitSphereCluster(prepared, plain->mesh, fit_options, fit);
        if (err.failed()) {
            error = "cluster fit: " + err.message;
            return false;
        }
        bake::WriteOptions with_cluster;
        with_cluster.cluster = fit.spheres;
        if (!bakeMesh(hull, with_cluster, nullptr, bytes, error)) return false;
        out.player_mesh = loadBlob(bytes, error);
        if (!out.player_mesh) return false;
        BlobError why;
        if (loadSphereCluster(out.player_mesh->blob, out.player_cluster, &why) != Status::Ok) {
            error = blobSection(out.player_mesh->blob, SectionKind::SphereCluster).data == nullptr
                        ? std::string("the player blob carries no cluster")
                        : std::string("the player cluster: ") + why.what;
            return false;
        }
        out.cluster_coverage_percent = fit.coverage_percent;
        out.cluster_max_overshoot = fit.max_overshoot;
    }
    // Asteroids: static level meshes.
    for (std::uint32_t i = 0; i < params.levels; ++i) {
        if (!bakeMesh(asteroid(8.0f + 2.0f * static_cast<float>(i)), bake::WriteOptions{}, nullptr, bytes,
                      error))
            return false;
        auto blob = loadBlob(bytes, error);
        if (!blob) return false;
        out.level_meshes.push_back(std::move(blob));
        Transform placement;
        setIdentity(placement);
        const float side = i % 2 == 0 ? -1.0f : 1.0f;
        set(side * params.arena_half_x * 0.45f,
            (static_cast<float>(i / 2) - 0.5f) * params.arena_half_y * 0.5f, -2.0f, placement.translation);
        out.level_placements.push_back(placement);
    }
    // Walls: one polygon per cell of a grid over the arena, shapes and turns varied, never
    // touching a neighbour (each fits well inside its cell).
    if (params.wall_polygons > 0) {
        const float w = 2.0f * params.arena_half_x, h = 2.0f * params.arena_half_y;
        const std::uint32_t cols = static_cast<std::uint32_t>(
            std::ceil(std::sqrt(static_cast<double>(params.wall_polygons) * static_cast<double>(w / h))));
        const std::uint32_t rows = (params.wall_polygons + cols - 1) / cols;
        const float cw = w / static_cast<float>(cols), ch = h / static_cast<float>(rows);
        const float r = 0.28f * (cw < ch ? cw : ch);
        for (std::uint32_t i = 0; i < params.wall_polygons; ++i) {
            const float cx = -params.arena_half_x + (static_cast<float>(i % cols) + 0.5f) * cw;
            const float cy = -params.arena_half_y + (static_cast<float>(i / cols) + 0.5f) * ch;
            bake::WallPolygon polygon = wallShape(i * 7 + i / cols, cx, cy, r, 0.37f * static_cast<float>(i));
            polygon.name = "wall " + std::to_string(i);
            out.wall_polygons.push_back(polygon);
        }
        std::vector<std::uint32_t> words;
        const bake::BakeError err =
            bake::buildWallSection(out.wall_polygons, bake::WallBuildOptions{}, words);
        if (err.failed()) {
            error = "walls: " + err.message;
            return false;
        }
        bake::WriteOptions walls_only;
        walls_only.mesh = false;
        walls_only.walls = words;
        if (bake::writeBlob(bake::SourceMesh{}, bake::BuiltTree{}, walls_only, bytes).failed()) {
            error = "walls: writeBlob failed";
            return false;
        }
        out.walls_blob = loadBlob(bytes, error);
        if (!out.walls_blob) return false;
        BlobError why;
        if (loadWallSet(out.walls_blob->blob, out.walls, &why) != Status::Ok) {
            error = blobSection(out.walls_blob->blob, SectionKind::Walls).data == nullptr
                        ? std::string("the walls blob carries no wall set")
                        : std::string("the wall set: ") + why.what;
            return false;
        }
    }
    return true;
}

} // namespace flak::scenes
