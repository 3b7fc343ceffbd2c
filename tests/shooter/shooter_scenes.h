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

/// Every ring of the set as its own point list (as stored: oriented).
inline std::vector<std::vector<Vec2>> storedRings(const WallSet& w) {
    std::vector<std::vector<Vec2>> rings;
    for (std::uint32_t r = 0; r < w.ring_count; ++r)
        rings.emplace_back(w.points + w.rings[r].first_point,
                           w.points + w.rings[r].first_point + w.rings[r].point_count);
    return rings;
}

// ---- brute-force oracles (every edge / ring alone) ----------------------------------------------

/// XOR of pointInPolygon over the rings.
inline bool brutePointInWalls(const WallSet& w, const Vec2& p) {
    bool in = false;
    for (const auto& ring : storedRings(w)) in ^= pointInPolygon(p, ring.data(), std::uint32_t(ring.size()));
    return in;
}

/// circleWalls by circlePolygon on every edge alone, in edge id order, oriented as documented.
inline std::vector<WallContact> bruteCircleContacts(const WallSet& w, const Vec2& c, float r,
                                                    bool& out_inside) {
    std::vector<WallContact> out;
    out_inside = brutePointInWalls(w, c);
    for (std::uint32_t e = 0; e < w.point_count; ++e) {
        Vec2 ab[2];
        wallEdgePoints(w, e, ab[0], ab[1]);
        CirclePolygonContact k;
        if (!circlePolygon(c, r, ab, 2, k)) continue;
        WallContact wc;
        wc.point = k.closest;
        Vec2 rel;
        sub(wc.point, c, rel);
        const float d = length(rel);
        if (d > 0.0f && k.depth < r) {
            wc.normal = out_inside ? Vec2{-k.normal.x, -k.normal.y} : k.normal;
            wc.depth = out_inside ? r + d : k.depth;
        } else {
            const Vec2 ed{ab[1].x - ab[0].x, ab[1].y - ab[0].y};
            if (!normalize(Vec2{ed.y, -ed.x}, wc.normal)) wc.normal = Vec2{1.0f, 0.0f};
            wc.depth = out_inside ? r + d : r;
        }
        wc.ring = w.edges[e].ring;
        wc.edge = w.edges[e].index;
        wc.polygon = w.rings[wc.ring].polygon;
        wc.edge_id = e;
        out.push_back(wc);
    }
    return out;
}

/// Segment first hit by segmentPolygon on every edge alone (after the inside-start test).
inline bool bruteSegmentWalls(const WallSet& w, const Vec2& p0, const Vec2& p1, WallRayHit& out,
                              bool& out_inside) {
    out_inside = brutePointInWalls(w, p0);
    if (out_inside) {
        out.t = 0.0f;
        out.edge = kNoEdge;
        return true;
    }
    bool found = false;
    for (std::uint32_t e = 0; e < w.point_count; ++e) {
        Vec2 ab[2];
        wallEdgePoints(w, e, ab[0], ab[1]);
        SegmentPolygonHit h;
        if (!segmentPolygon(p0, p1, ab, 2, h)) continue;
        if (!found || h.t < out.t) {
            out.t = h.t;
            out.point = h.point;
            out.normal = h.normal;
            out.edge_id = e;
            out.edge = w.edges[e].index;
            out.ring = w.edges[e].ring;
            found = true;
        }
    }
    return found;
}

/// The ring a start inside the solid is reported in: the edge whose crossing of the +x ray from p
/// is nearest (pointInWalls' vote, the crossing's x relative to p as the runtime computes it),
/// ties to the lowest edge id, over every edge.
inline std::uint32_t bruteInsideRing(const WallSet& w, const Vec2& p) {
    float best_x = INFINITY;
    std::uint32_t best = 0;
    for (std::uint32_t e = 0; e < w.point_count; ++e) {
        Vec2 a, b;
        wallEdgePoints(w, e, a, b);
        sub(a, p, a);
        sub(b, p, b);
        if (!crossingVote(a, b)) continue;
        const float x = a.x + (0.0f - a.y) * (b.x - a.x) / (b.y - a.y);
        if (x < best_x) best_x = x, best = e;
    }
    return w.edges[best].ring;
}

/// Swept circle first hit by sweptCircleEdge on every edge alone (after the inside-start test).
inline bool bruteSweptWalls(const WallSet& w, const Vec2& c0, const Vec2& c1, float r, WallRayHit& out,
                            bool& out_inside) {
    out_inside = brutePointInWalls(w, c0);
    if (out_inside) {
        out.t = 0.0f;
        out.edge = kNoEdge;
        return true;
    }
    bool found = false;
    float best_gap = 0.0f;
    for (std::uint32_t e = 0; e < w.point_count; ++e) {
        Vec2 a, b;
        wallEdgePoints(w, e, a, b);
        WallRayHit h;
        if (!sweptCircleEdge(c0, c1, r, a, b, h)) continue;
        Vec2 rel;
        sub(h.point, c0, rel);
        const float gap = h.t == 0.0f ? lengthSq(rel) : 0.0f;
        if (!found || h.t < out.t || (h.t == 0.0f && out.t == 0.0f && gap < best_gap)) {
            out = h;
            out.edge_id = e;
            out.edge = w.edges[e].index;
            out.ring = w.edges[e].ring;
            best_gap = gap;
            found = true;
        }
    }
    return found;
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
