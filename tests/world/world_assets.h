// Test support for the World: the walls, meshes and cluster the random scenes of the oracle and
// query tests share, baked once.
#pragma once

#include "world_fixture.h"

#include "wall_build.h"

#include <flak/shooter/wall_set.h>

#include <memory>
#include <vector>

namespace flak::test {

// A walls-only blob of `polygons`, baked as flak_bake does.
inline std::unique_ptr<AlignedBytes> bakeTestWalls(const std::vector<bake::WallPolygon>& polygons) {
    std::vector<std::uint32_t> words;
    EXPECT_FALSE(bake::buildWallSection(polygons, bake::WallBuildOptions{}, words).failed());
    bake::WriteOptions options;
    options.mesh = false;
    options.walls = words;
    std::vector<unsigned char> bytes;
    EXPECT_FALSE(bake::writeBlob(bake::SourceMesh{}, bake::BuiltTree{}, options, bytes).failed());
    return std::make_unique<AlignedBytes>(bytes);
}

// A 5 x 5 grid of wall polygons over [-40, 40]^2: squares, a concave L and squares with holes.
inline std::unique_ptr<AlignedBytes> makeTestWalls() {
    std::vector<bake::WallPolygon> polygons;
    for (int gy = 0; gy < 5; ++gy) {
        for (int gx = 0; gx < 5; ++gx) {
            const float cx = -32.0f + 16.0f * static_cast<float>(gx),
                        cy = -32.0f + 16.0f * static_cast<float>(gy);
            const float r = 3.0f + static_cast<float>((gx + gy) % 3);
            bake::WallPolygon p;
            const int shape = (gx * 5 + gy) % 3;
            if (shape == 0) {
                p.rings.push_back({{cx - r, cy - r}, {cx + r, cy - r}, {cx + r, cy + r}, {cx - r, cy + r}});
            } else if (shape == 1) {
                p.rings.push_back({{cx - r, cy - r},
                                   {cx + r, cy - r},
                                   {cx + r, cy - 0.3f * r},
                                   {cx - 0.3f * r, cy - 0.3f * r},
                                   {cx - 0.3f * r, cy + r},
                                   {cx - r, cy + r}});
            } else {
                p.rings.push_back({{cx - r, cy - r}, {cx + r, cy - r}, {cx + r, cy + r}, {cx - r, cy + r}});
                p.rings.push_back({{cx - 0.5f * r, cy - 0.5f * r},
                                   {cx - 0.5f * r, cy + 0.5f * r},
                                   {cx + 0.5f * r, cy + 0.5f * r},
                                   {cx + 0.5f * r, cy - 0.5f * r}});
            }
            polygons.push_back(p);
        }
    }
    return bakeTestWalls(polygons);
}

// Meshes, clusters and walls shared by every random scene.
struct Assets {
    std::unique_ptr<TestMesh> enemy_a = makeTestMesh(icosphere(2, 2.0f));
    std::unique_ptr<TestMesh> enemy_b = makeTestMesh(torus(16, 8, 1.6f, 0.5f));
    std::unique_ptr<TestMesh> rock = makeTestMesh(icosphere(1, 5.0f));
    std::unique_ptr<TestCluster> ship = makeTestCluster(29, 2.5f, 77);
    std::unique_ptr<AlignedBytes> wall_bytes = makeTestWalls();
    Blob wall_blob;
    WallSet walls;
    Assets() {
        EXPECT_EQ(openBlob(wall_bytes->data(), wall_bytes->size(), wall_blob), Status::Ok);
        EXPECT_EQ(loadWallSet(wall_blob, walls), Status::Ok);
    }
};

inline Assets& assets() {
    static Assets a;
    return a;
}

} // namespace flak::test
