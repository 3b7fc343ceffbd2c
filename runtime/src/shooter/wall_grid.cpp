#include <flak/shooter/wall_grid.h>
#include <flak/shooter/wall_set.h>

#include "shooter/wall_walk.h"

#include <cmath>

namespace flak {

namespace {

constexpr float kGridLimit = 0x1p60f;     // the magnitude window's top (wall_grid.h)
constexpr std::uint64_t kCoverLimit = 16; // edge boxes may cover the grid this many times over

// Columns and rows for about max_cells square-ish cells over extents ex x ey (>= 0, finite).
void gridShape(double ex, double ey, std::uint32_t max_cells, std::uint32_t& out_columns,
               std::uint32_t& out_rows) {
    if (!(ex > 0.0) || !(ey > 0.0)) { // a line (or a point): one row or one column
        const std::uint32_t n = max_cells;
        out_columns = ex > 0.0 ? n : 1u;
        out_rows = ey > 0.0 ? n : 1u;
        return;
    }
    double columns = std::floor(std::sqrt(double(max_cells) * ex / ey));
    columns = columns < 1.0 ? 1.0 : (columns > double(max_cells) ? double(max_cells) : columns);
    out_columns = static_cast<std::uint32_t>(columns);
    out_rows = max_cells / out_columns;
}

// Cells per unit for n cells over extent e (0 for one cell or no extent). The float product may
// put the far edge a rounding past n - 1: the index map clamps.
float inverseCell(double e, std::uint32_t n) { return n > 1u && e > 0.0 ? float(double(n) / e) : 0.0f; }

} // namespace

Status buildWallGrid(const WallSet& walls, std::uint32_t max_cells, void* memory, std::size_t bytes,
                     WallGrid& out_grid) {
    out_grid = WallGrid{};
    if (memory == nullptr || max_cells == 0 || bytes < wallGridBytes(max_cells) || walls.point_count == 0 ||
        walls.node_count == 0 || !isFinite(walls.bounds_min) || !isFinite(walls.bounds_max) ||
        detail::maxAbs(walls.bounds_min) > kGridLimit || detail::maxAbs(walls.bounds_max) > kGridLimit ||
        !(walls.bounds_min.x <= walls.bounds_max.x) || !(walls.bounds_min.y <= walls.bounds_max.y))
        return Status::InvalidArgument;
    WallGrid g;
    g.origin = walls.bounds_min;
    const double ex = double(walls.bounds_max.x) - walls.bounds_min.x;
    const double ey = double(walls.bounds_max.y) - walls.bounds_min.y;
    gridShape(ex, ey, max_cells, g.columns, g.rows);
    set(inverseCell(ex, g.columns), inverseCell(ey, g.rows), g.inv_cell);
    if (reinterpret_cast<std::uintptr_t>(memory) % alignof(WallGridCell) != 0) {
        out_grid = WallGrid{};
        return Status::InvalidArgument;
    }
    WallGridCell* cells = static_cast<WallGridCell*>(memory);
    const std::uint32_t cell_count = g.columns * g.rows;
    g.cells = cells;
    out_grid = g;

    auto cellBox = [&](std::uint32_t e) {
        Vec2 a, b;
        detail::edgePoints(walls, e, a, b);
        return gridRange(Vec2{std::fmin(a.x, b.x), std::fmin(a.y, b.y)},
                         Vec2{std::fmax(a.x, b.x), std::fmax(a.y, b.y)}, g.origin, g.inv_cell, g.columns,
                         g.rows);
    };
    std::uint64_t cover = 0;
    for (std::uint32_t e = 0; e < walls.point_count; ++e) {
        const GridRange k = cellBox(e);
        cover += std::uint64_t{k.c1 - k.c0 + 1u} * (k.r1 - k.r0 + 1u);
    }
    if (cover > kCoverLimit * cell_count + walls.point_count) { // every cell spans the whole tree
        for (std::uint32_t i = 0; i < cell_count; ++i) cells[i] = WallGridCell{0, walls.node_count - 1u};
        return Status::Ok;
    }

    // Each leaf, in node order, widens the span of the cells its edges' boxes reach.
    for (std::uint32_t i = 0; i < cell_count; ++i) cells[i] = WallGridCell{kWallCellFree, kWallFreeUnknown};
    for (std::uint32_t n = 0; n < walls.node_count; ++n) {
        const std::uint32_t info = walls.nodes[n].info;
        if ((info & kLeafBit) == 0) continue;
        const std::uint32_t first = info & 0x03FFFFFFu, count = ((info >> 26) & 0x1Fu) + 1u;
        for (std::uint32_t e = first; e < first + count; ++e) {
            const GridRange k = cellBox(e);
            for (std::uint32_t r = k.r0; r <= k.r1; ++r)
                for (std::uint32_t c = k.c0; c <= k.c1; ++c) {
                    WallGridCell& cell = cells[r * g.columns + c];
                    if (cell.first == kWallCellFree) cell.first = n;
                    cell.last = n;
                }
        }
    }

    // One inside test per run of free cells in a row, at the first cell centre of the run that
    // maps back to its cell and lies in the exact window; a run with none stays unclassified.
    WallSet plain = walls;
    plain.grid = nullptr;
    for (std::uint32_t r = 0; r < g.rows; ++r) {
        const float y =
            static_cast<float>(double(g.origin.y) + (r + 0.5) * (g.rows > 1u ? ey / g.rows : 0.0));
        const bool row_ok = detail::wallGridExact(y) && gridIndex(y, g.origin.y, g.inv_cell.y, g.rows) == r;
        WallGridCell* row = cells + std::size_t{r} * g.columns;
        std::uint32_t c = 0;
        while (c < g.columns) {
            if (row[c].first != kWallCellFree) {
                ++c;
                continue;
            }
            std::uint32_t end = c;
            while (end < g.columns && row[end].first == kWallCellFree) ++end;
            std::uint32_t side = kWallFreeUnknown;
            for (std::uint32_t k = c; row_ok && k < end && side == kWallFreeUnknown; ++k) {
                const float x = static_cast<float>(double(g.origin.x) +
                                                   (k + 0.5) * (g.columns > 1u ? ex / g.columns : 0.0));
                if (!detail::wallGridExact(x) || gridIndex(x, g.origin.x, g.inv_cell.x, g.columns) != k)
                    continue;
                side = pointInWalls(plain, Vec2{x, y}) ? kWallFreeInside : kWallFreeOutside;
            }
            for (std::uint32_t k = c; k < end; ++k) row[k].last = side;
            c = end;
        }
    }
    return Status::Ok;
}

} // namespace flak
