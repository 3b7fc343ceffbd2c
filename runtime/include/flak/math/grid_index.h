// flak — the cell index of a uniform grid on one axis, as a monotone float map.
//
// index(v) = clamp(floor((v - origin) * inv), 0, n - 1): every step is monotone in v (a float
// subtraction, a multiplication by inv >= 0, the clamp, the truncation of a non-negative float), so
// v <= w gives index(v) <= index(w). That is all the grids built on it rely on: when two closed
// float boxes overlap, their index ranges overlap, whatever the rounding, so a grid that files
// each box under the cells of its index range finds every box overlapping a query box among the
// cells of the query's range.
#pragma once

#include <flak/math/vec2.h>

#include <cstdint>

namespace flak {

/// The index on one axis, clamped to [0, n - 1] (n >= 1); NaN gives 0. The clamp gives n - 1
/// itself, not float(n - 1) truncated: above 2^24 that float can round up to n.
inline std::uint32_t gridIndex(float v, float origin, float inv, std::uint32_t n) {
    const float x = (v - origin) * inv;
    const float last = static_cast<float>(n - 1u);
    if (!(x > 0.0f)) return 0u;
    return x < last ? static_cast<std::uint32_t>(x) : n - 1u; // x < last <= 2^32: in range
}

/// The cells [c0, c1] x [r0, r1] of a columns x rows grid (origin, cells per unit inv) that the
/// closed box [lo, hi] in the plane maps to: gridIndex of each bound.
struct GridRange {
    std::uint32_t c0, c1, r0, r1;
};

inline GridRange gridRange(const Vec2& lo, const Vec2& hi, const Vec2& origin, const Vec2& inv,
                           std::uint32_t columns, std::uint32_t rows) {
    return GridRange{gridIndex(lo.x, origin.x, inv.x, columns), gridIndex(hi.x, origin.x, inv.x, columns),
                     gridIndex(lo.y, origin.y, inv.y, rows), gridIndex(hi.y, origin.y, inv.y, rows)};
}

} // namespace flak
