// Wall grids (wall_grid.h): the build's refusals and layout, and answers equal to the plain
// set's at the places the grid's proof leans on: points on cell boundaries and a rounding either
// side, tiny coordinates outside the exact window, and sets whose edges cover the grid many times.
#include "shooter/shooter_scenes.h"

#include <cstring>

namespace flak::test {
namespace {

// The float a cell boundary maps from: origin + k / inv, and its two neighbours.
std::vector<float> boundaryCoordinates(float origin, float inv, std::uint32_t n) {
    std::vector<float> out;
    if (!(inv > 0.0f)) return {origin};
    for (std::uint32_t k = 0; k <= n; ++k) {
        const float v = origin + float(k) / inv;
        out.push_back(std::nextafter(v, -INFINITY));
        out.push_back(v);
        out.push_back(std::nextafter(v, INFINITY));
    }
    return out;
}

// Every answer of the gridded view equals the plain set's at `p` (inside test; circles and sweeps
// of a few radii leaving p in eight directions).
void expectSameAnswers(const WallSet& plain, const WallSet& gridded, const Vec2& p, float reach,
                       int& failures) {
    if (pointInWalls(plain, p) != pointInWalls(gridded, p)) {
        ++failures;
        ADD_FAILURE() << "pointInWalls differs at " << hex2(p);
    }
    const float radii[] = {0.0f, 0.01f * reach, 0.2f * reach};
    for (const float r : radii) {
        for (int d = 0; d < 8; ++d) {
            const float a = 0.785398f * float(d);
            const Vec2 q{p.x + reach * std::cos(a), p.y + reach * std::sin(a)};
            WallRayHit h0, h1;
            const bool g0 = sweptCircleWallsFirstHit(plain, p, q, r, h0);
            const bool g1 = sweptCircleWallsFirstHit(gridded, p, q, r, h1);
            if (g0 != g1 || (g0 && std::memcmp(&h0, &h1, sizeof h0) != 0)) {
                ++failures;
                ADD_FAILURE() << "swept circle differs from " << hex2(p) << " to " << hex2(q);
            }
            const bool s0 = segmentWallsFirstHit(plain, p, q, h0);
            const bool s1 = segmentWallsFirstHit(gridded, p, q, h1);
            if (s0 != s1 || (s0 && std::memcmp(&h0, &h1, sizeof h0) != 0)) {
                ++failures;
                ADD_FAILURE() << "segment differs from " << hex2(p) << " to " << hex2(q);
            }
        }
        WallContact c0[64], c1[64];
        OutBuffer<WallContact> b0{c0, 64, 0, 0}, b1{c1, 64, 0, 0};
        WallPush push0, push1;
        (void)circleWalls(plain, p, r, b0, push0);
        (void)circleWalls(gridded, p, r, b1, push1);
        if (b0.count != b1.count || std::memcmp(c0, c1, sizeof(WallContact) * b0.count) != 0 ||
            std::memcmp(&push0, &push1, sizeof push0) != 0) {
            ++failures;
            ADD_FAILURE() << "circle contacts differ at " << hex2(p);
        }
    }
}

bake::WallPolygon polygonOf(std::vector<std::vector<Vec2>> rings) {
    bake::WallPolygon p;
    p.rings = std::move(rings);
    return p;
}

TEST(WallGrid, BuildRefusesWhatItCannotCover) {
    auto level = bakeLevel({polygonOf({rectRing(0, 0, 4, 2)})});
    ASSERT_NE(level, nullptr);
    std::vector<WallGridCell> memory(64);
    WallGrid grid;
    grid.columns = 7; // emptied on every refusal
    EXPECT_EQ(buildWallGrid(level->walls, 64, nullptr, wallGridBytes(64), grid), Status::InvalidArgument);
    EXPECT_EQ(grid.cells, nullptr);
    EXPECT_EQ(grid.columns, 0u);
    EXPECT_EQ(buildWallGrid(level->walls, 0, memory.data(), wallGridBytes(64), grid),
              Status::InvalidArgument);
    EXPECT_EQ(buildWallGrid(level->walls, 64, memory.data(), wallGridBytes(64) - 1, grid),
              Status::InvalidArgument);
    EXPECT_EQ(buildWallGrid(level->walls, 8, reinterpret_cast<unsigned char*>(memory.data()) + 1,
                            wallGridBytes(63), grid),
              Status::InvalidArgument);
    EXPECT_EQ(buildWallGrid(WallSet{}, 64, memory.data(), wallGridBytes(64), grid), Status::InvalidArgument);
    WallSet far = level->walls;
    far.bounds_max.x = 0x1p61f; // beyond the exact window
    EXPECT_EQ(buildWallGrid(far, 64, memory.data(), wallGridBytes(64), grid), Status::InvalidArgument);
    // A good build: at most max_cells cells, square-ish on a 2:1 set, free cells classified.
    ASSERT_EQ(buildWallGrid(level->walls, 64, memory.data(), wallGridBytes(64), grid), Status::Ok);
    EXPECT_LE(grid.columns * grid.rows, 64u);
    EXPECT_EQ(grid.columns, 11u);
    EXPECT_EQ(grid.rows, 5u);
    int inside = 0, spans = 0;
    for (std::uint32_t i = 0; i < grid.columns * grid.rows; ++i) {
        const WallGridCell& c = grid.cells[i];
        if (c.first == kWallCellFree) {
            inside += c.last == kWallFreeInside;
            EXPECT_NE(c.last, kWallFreeUnknown);
        } else {
            ++spans;
            EXPECT_LE(c.first, c.last);
            EXPECT_LT(c.last, level->walls.node_count);
        }
    }
    EXPECT_GT(inside, 0);
    EXPECT_GT(spans, 0);
}

TEST(WallGrid, CellBoundariesAnswerAsTheTree) {
    const std::uint64_t seed = 0x6121Du + oracleSeedOffset();
    SplitMix64 rng = caseRng(seed, 0);
    auto level = bakeLevel(randomPolygons(rng, 5, 6.0, -13.0), 3);
    ASSERT_NE(level, nullptr);
    int failures = 0;
    for (const WallSet* view : {&level->fine, &level->coarse}) {
        const WallGrid& g = *view->grid;
        const std::vector<float> xs = boundaryCoordinates(g.origin.x, g.inv_cell.x, g.columns);
        const std::vector<float> ys = boundaryCoordinates(g.origin.y, g.inv_cell.y, g.rows);
        // Every boundary row against a sample of boundary columns and back (the fine grid has
        // thousands of each).
        const std::size_t step_x = xs.size() / 97 + 1, step_y = ys.size() / 97 + 1;
        for (std::size_t j = 0; j < ys.size(); j += step_y)
            for (std::size_t i = 0; i < xs.size(); ++i)
                expectSameAnswers(level->walls, *view, Vec2{xs[i], ys[j]}, 1.5f, failures);
        for (std::size_t i = 0; i < xs.size(); i += step_x)
            for (std::size_t j = 0; j < ys.size(); ++j)
                expectSameAnswers(level->walls, *view, Vec2{xs[i], ys[j]}, 1.5f, failures);
        ASSERT_EQ(failures, 0);
    }
}

TEST(WallGrid, TinyCoordinatesWalkTheTree) {
    // A set around the origin: points whose coordinates lie below the exact window (2^-30) take
    // the tree's answer, on both sides of every edge near them.
    std::vector<bake::WallPolygon> polygons;
    polygons.push_back(
        polygonOf({rectRing(-1e-3f, -1e-3f, 1e-3f, 1e-3f), rectRing(-1e-9f, -1e-9f, 1e-9f, 1e-9f)}));
    polygons.push_back(polygonOf({rectRing(2e-3f, -1e-3f, 3e-3f, 1e-3f)}));
    auto level = bakeLevel(polygons, 1);
    ASSERT_NE(level, nullptr);
    int failures = 0;
    const float coords[] = {0.0f,  1e-45f, -1e-45f, 1e-38f, 1e-12f, -1e-12f, 0x1p-30f, -0x1p-30f,
                            1e-9f, 2e-9f,  1e-6f,   -1e-6f, 1e-3f,  1.5e-3f, 2.5e-3f,  -2e-3f};
    for (const WallSet* view : {&level->fine, &level->coarse})
        for (const float x : coords)
            for (const float y : coords) expectSameAnswers(level->walls, *view, Vec2{x, y}, 4e-4f, failures);
    EXPECT_EQ(failures, 0);
}

TEST(WallGrid, LongEdgesSpanTheWholeTreeAndAnswerTheSame) {
    // Thin diagonal bars across the whole set: each edge's box covers most of the grid, so the
    // edges' boxes cover it far more than 16 times over and every cell spans the whole tree.
    std::vector<bake::WallPolygon> polygons;
    for (int i = 0; i < 24; ++i) {
        const float o = float(i) * 3.0f;
        polygons.push_back(
            polygonOf({{Vec2{o, 0}, Vec2{o + 100.0f, 100.0f}, Vec2{o + 100.0f, 101.0f}, Vec2{o, 1}}}));
    }
    auto level = bakeLevel(polygons, 2);
    ASSERT_NE(level, nullptr);
    const WallGrid& g = level->fine_grid;
    for (std::uint32_t i = 0; i < g.columns * g.rows; ++i) {
        ASSERT_EQ(g.cells[i].first, 0u);
        ASSERT_EQ(g.cells[i].last, level->walls.node_count - 1u);
    }
    const std::uint64_t seed = 0x6122Du + oracleSeedOffset();
    int failures = 0;
    for (int k = 0; k < 300; ++k) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(k));
        const Vec2 p{rng.rangef(-5, 180), rng.rangef(-5, 105)};
        expectSameAnswers(level->walls, level->fine, p, 2.0f, failures);
        expectSameAnswers(level->walls, level->coarse, p, 2.0f, failures);
    }
    EXPECT_EQ(failures, 0);
}

} // namespace
} // namespace flak::test
