// flak — a coarse grid over a wall set, so that queries start where their edges are.
//
// A shot walks the set's tree from the root to find the few edges near it, and most shots of a
// shooter fly through open space where there are none. The grid (a uniform grid over the set's
// bounds, built once into caller memory: the World builds one per wall set at spawn, from its
// block) stores for each cell the span of the edge tree's leaves whose edges' boxes reach the
// cell, or, for a cell no edge box reaches, whether it lies inside the solid. A query then
// answers open space from its cells alone, and walks only the span of nodes its cells name
// instead of the whole tree. Attach it to a WallSet (WallSet::grid); pointInWalls and the
// circle, swept-circle and segment queries use it.
//
// Answers are the same with and without the grid, bit for bit:
// - Cells come from one monotone float map per axis (math/grid_index.h) for edge boxes and query
//   boxes alike. So when an edge's box and a query box overlap (closed
//   float boxes), their index ranges overlap: every edge whose box meets the query box lies in a
//   leaf of the span of the query's cells. The walk from the span's first leaf to its last tests
//   every node and edge of the full walk in that span (in the same order), plus nodes whose
//   ancestors it does not test, which only lets more edges reach the edge test. Edges outside the
//   span, and edges those extra tests let through, have boxes that miss the query box, which each
//   query's edge test rejects (the same property that lets a full walk test every edge of a leaf
//   whose box meets the query box).
// - The inside test's crossing vote is exact for every edge whose box misses the point's cell,
//   provided the point's coordinates are within [2^-30, 2^60] in magnitude (the set's bounds within
//   2^60): then every non-zero point-relative coordinate is at least 2^-55 and at most 2^61, so the
//   vote's products are normal floats of the right sign, whether or not the multiply-subtract is
//   fused. Edges above, below or left of the cell never vote; edges right of it vote exactly when
//   they straddle the point's line. Within a row, a point moving up or down flips that vote for the
//   two edges of each point it passes, and both are right of the cell (they hold that point, whose
//   column is right of the cell's, and miss the cell), so the parity is the same at every such
//   point of the cell; and two free cells side by side in a row have the same edges right of them.
//   The build computes one pointInWalls per run of free cells in a row; a query point outside the
//   magnitude window walks the tree as before.
#pragma once

#include <flak/math/grid_index.h>
#include <flak/math/vec2.h>
#include <flak/status.h>

#include <cstddef>
#include <cstdint>

namespace flak {

struct WallSet;

/// One cell: the span [first, last] of edge-tree nodes (first and last are leaves) whose edges'
/// boxes reach it, or, when no edge box reaches it, first = kWallCellFree and `last` one of
/// kWallFreeOutside, kWallFreeInside or kWallFreeUnknown (not classified: walk the inside tree).
struct WallGridCell {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
};

constexpr std::uint32_t kWallCellFree = 0xFFFFFFFFu;
constexpr std::uint32_t kWallFreeOutside = 0;
constexpr std::uint32_t kWallFreeInside = 1;
constexpr std::uint32_t kWallFreeUnknown = 2;

/// The grid (a view of caller memory; not owned). Cheap to copy.
struct WallGrid {
    const WallGridCell* cells = nullptr; ///< row-major, columns * rows
    Vec2 origin;                         ///< the set's bounds_min
    Vec2 inv_cell;                       ///< cells per unit on x and y (0 on an axis of one cell)
    std::uint32_t columns = 0;
    std::uint32_t rows = 0;
};

/// Bytes a grid of at most `max_cells` cells needs (alignment: alignof(WallGridCell)).
inline std::size_t wallGridBytes(std::uint32_t max_cells) {
    return std::size_t{max_cells} * sizeof(WallGridCell);
}

/// Builds the grid of `walls` (whose own grid, if any, is ignored) in `memory` (at least
/// wallGridBytes(max_cells) bytes, aligned for WallGridCell), with at most max_cells square-ish
/// cells over the set's bounds. InvalidArgument (out_grid emptied) for a null or misaligned
/// memory, too few bytes, max_cells of 0, or a set that is empty or lies beyond 2^60 in
/// magnitude. When the edges' boxes together cover the grid more than 16 times over (a set of
/// many long edges), every cell spans the whole tree rather than take longer: the grid is then
/// valid but saves nothing. Work: the edges' cell boxes plus one inside test per run of free
/// cells in a row.
[[nodiscard]] Status buildWallGrid(const WallSet& walls, std::uint32_t max_cells, void* memory,
                                   std::size_t bytes, WallGrid& out_grid);

namespace detail {

/// Whether `v`'s magnitude is in the window where the grid's inside answer is exact.
inline bool wallGridExact(float v) {
    const float a = v < 0.0f ? -v : v;
    return a >= 0x1p-30f && a <= 0x1p60f;
}

/// The grid's answer for pointInWalls at a finite point: kWallFreeOutside, kWallFreeInside, or
/// kWallFreeUnknown (walk the inside tree).
inline std::uint32_t wallGridSide(const WallGrid& g, const Vec2& p) {
    if (!wallGridExact(p.x) || !wallGridExact(p.y)) return kWallFreeUnknown;
    const WallGridCell& c = g.cells[gridIndex(p.y, g.origin.y, g.inv_cell.y, g.rows) * g.columns +
                                    gridIndex(p.x, g.origin.x, g.inv_cell.x, g.columns)];
    return c.first == kWallCellFree ? c.last : kWallFreeUnknown;
}

/// The node span [out_begin, out_end) a walk for the closed box [lo, hi] (ordered, not NaN)
/// needs: false when no edge's box reaches any of its cells (then no edge's box meets the box).
inline bool wallGridSpan(const WallGrid& g, const Vec2& lo, const Vec2& hi, std::uint32_t& out_begin,
                         std::uint32_t& out_end) {
    const GridRange k = gridRange(lo, hi, g.origin, g.inv_cell, g.columns, g.rows);
    std::uint32_t first = kWallCellFree, last = 0;
    for (std::uint32_t r = k.r0; r <= k.r1; ++r) {
        const WallGridCell* row = g.cells + std::size_t{r} * g.columns;
        for (std::uint32_t c = k.c0; c <= k.c1; ++c) {
            if (row[c].first == kWallCellFree) continue;
            first = row[c].first < first ? row[c].first : first;
            last = row[c].last > last ? row[c].last : last;
        }
    }
    out_begin = first;
    out_end = last + 1u;
    return first != kWallCellFree;
}

} // namespace detail

} // namespace flak
