// Test helpers for the shooter queries: random and adversarial wall levels baked through the
// baker library, random clusters and placements, and the brute-force oracles that run the kernels
// on every edge / sphere / segment alone.
#pragma once

#include "blob_inspect.h"
#include "blob_write.h"
#include "bvh/bake_helpers.h"
#include "wall_build.h"

#include <flak/geom/circle_polygon.h>
#include <flak/geom/point_in_polygon.h>
#include <flak/geom/segment_polygon.h>
#include <flak/shooter/segment_sphere.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/swept_bullet.h>
#include <flak/shooter/wall_set.h>

#include "flak_support/split_mix.h"
#include "support/oracle.h"
#include "support/wall_brute_force.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace flak::test {

/// A baked wall set held in aligned bytes, with its view.
struct Level {
    std::vector<bake::WallPolygon> polygons;
    std::unique_ptr<AlignedBytes> bytes;
    Blob blob;     // the opened wall-only blob
    WallSet walls; // as loaded: no grid
    // The same set with an occupancy grid (wall_grid.h): a fine one and a coarse one of a few
    // cells, each of which spans several polygons. Queries must answer the same on all three.
    std::vector<WallGridCell> fine_cells, coarse_cells;
    WallGrid fine_grid, coarse_grid;
    WallSet fine, coarse;
    /// The three views, for the oracle loops.
    std::vector<const WallSet*> views() const { return {&walls, &fine, &coarse}; }
};

/// Gives `level` its two gridded views; fails the test on any error.
inline void attachGrids(Level& level) {
    auto build = [&](std::uint32_t cells, std::vector<WallGridCell>& memory, WallGrid& grid, WallSet& view) {
        memory.assign(cells, WallGridCell{});
        EXPECT_EQ(buildWallGrid(level.walls, cells, memory.data(), wallGridBytes(cells), grid), Status::Ok);
        view = level.walls;
        view.grid = &grid;
    };
    build(4096, level.fine_cells, level.fine_grid, level.fine);
    build(7, level.coarse_cells, level.coarse_grid, level.coarse);
}

/// Bakes polygons into a wall-only blob and loads it; fails the test on any error.
/// The resealed bytes (bake_helpers.h) loaded as the tools load a blob (bake::loadAnyOrder: the
/// container and mesh, then the shooter sections' own loads): the first status that is not Ok, and
/// in out_error what it said.
inline Status loadResealedSections(const unsigned char* bytes, std::size_t count, std::size_t offset,
                                   const void* value, std::size_t size, BlobError& out_error) {
    std::vector<unsigned char> storage;
    Blob blob;
    bool foreign = false;
    return bake::loadAnyOrder(resealed(bytes, count, offset, value, size), storage, blob, out_error, foreign);
}

inline std::unique_ptr<Level> bakeLevel(std::vector<bake::WallPolygon> polygons, std::uint32_t max_leaf = 4) {
    auto level = std::make_unique<Level>();
    level->polygons = std::move(polygons);
    bake::WallBuildOptions options;
    options.max_leaf = max_leaf;
    bake::WriteOptions write;
    write.mesh = false;
    const bake::BakeError e = bake::buildWallSection(level->polygons, options, write.walls);
    EXPECT_FALSE(e.failed()) << e.message;
    if (e.failed()) return nullptr;
    std::vector<unsigned char> raw;
    const bake::BakeError w = bake::writeBlob(bake::SourceMesh{}, bake::BuiltTree{}, write, raw);
    EXPECT_FALSE(w.failed()) << w.message;
    level->bytes = std::make_unique<AlignedBytes>(raw);
    BlobError err;
    EXPECT_EQ(openBlob(level->bytes->data(), level->bytes->size(), level->blob, &err), Status::Ok)
        << err.what;
    EXPECT_EQ(loadWallSet(level->blob, level->walls), Status::Ok);
    attachGrids(*level);
    return level;
}

/// Star-shaped ring around (cx, cy): n points at jittered angles, radii in [inner, outer].
inline std::vector<Vec2> starRing(SplitMix64& rng, int n, double cx, double cy, double inner, double outer) {
    std::vector<Vec2> ring;
    const double step = 2.0 * 3.14159265358979323846 / n;
    for (int k = 0; k < n; ++k) {
        const double a = step * (k + rng.range(-0.4, 0.4));
        const double r = rng.range(inner, outer);
        ring.push_back(Vec2{float(cx + r * std::cos(a)), float(cy + r * std::sin(a))});
    }
    return ring;
}

/// A grid of cells x cells concave star polygons of size `cell` around `origin`; about half carry a
/// hole (a smaller star inside the star's kernel).
inline std::vector<bake::WallPolygon> randomPolygons(SplitMix64& rng, int cells, double cell, double origin,
                                                     bool holes = true) {
    std::vector<bake::WallPolygon> out;
    for (int i = 0; i < cells; ++i)
        for (int j = 0; j < cells; ++j) {
            if (rng.u() < 0.2) continue; // some empty cells
            bake::WallPolygon p;
            const double cx = origin + (i + 0.5) * cell, cy = origin + (j + 0.5) * cell;
            const int n = 6 + int(rng.u() * 14);
            p.rings.push_back(starRing(rng, n, cx, cy, 0.2 * cell, 0.45 * cell));
            if (holes && rng.u() < 0.5)
                p.rings.push_back(starRing(rng, 5 + int(rng.u() * 5), cx, cy, 0.04 * cell, 0.1 * cell));
            out.push_back(std::move(p));
        }
    if (out.empty()) {
        bake::WallPolygon p;
        p.rings.push_back(
            starRing(rng, 7, origin + 0.5 * cell, origin + 0.5 * cell, 0.2 * cell, 0.45 * cell));
        out.push_back(std::move(p));
    }
    return out;
}

/// Axis-aligned rectangle ring (counter-clockwise).
inline std::vector<Vec2> rectRing(float x0, float y0, float x1, float y1) {
    return {Vec2{x0, y0}, Vec2{x1, y0}, Vec2{x1, y1}, Vec2{x0, y1}};
}

// ---- clusters -----------------------------------------------------------------------------------

/// A random rigid transform: rotation about a random axis, translation in [-t, t]^3.
inline Transform randomTransform(SplitMix64& rng, double t) {
    Vec3 axis{rng.rangef(-1, 1), rng.rangef(-1, 1), rng.rangef(-1, 1) + 0.01f};
    normalize(axis, axis);
    Quat q;
    fromAxisAngle(axis, rng.rangef(-3.1, 3.1), q);
    Transform out;
    fromQuatTranslation(q, Vec3{rng.rangef(-t, t), rng.rangef(-t, t), rng.rangef(-t, t)}, out);
    return out;
}

/// `n` random spheres in a box of half-size `extent` with radii in [rmin, rmax].
inline std::vector<Sphere> randomSpheres(SplitMix64& rng, std::uint32_t n, double extent, double rmin,
                                         double rmax) {
    std::vector<Sphere> s(n);
    for (Sphere& x : s) {
        set(rng.rangef(-extent, extent), rng.rangef(-extent, extent), rng.rangef(-extent, extent), x.center);
        x.radius = rng.rangef(rmin, rmax);
    }
    return s;
}

inline std::string hex2(const Vec2& v) { return "{" + hexf(v.x) + ", " + hexf(v.y) + "}"; }

} // namespace flak::test
