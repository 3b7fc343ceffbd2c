// flak — the cell index of a uniform grid on one axis, as a monotone float map.
//
// index(v) = clamp(floor((v - origin) * inv), 0, n - 1): every step is monotone in v (a float
// subtraction, a multiplication by inv >= 0, the clamp, the truncation of a non-negative float), so
// v <= w gives index(v) <= index(w). That is all the grids built on it rely on: when two closed
// float boxes overlap, their index ranges overlap, whatever the rounding, so a grid that files
// each box under the cells of its index range finds every box overlapping a query box among the
// cells of the query's range.
#pragma once

#include <cstdint>

namespace flak {

/// The index on one axis, clamped to [0, n - 1] (n >= 1); NaN gives 0.
inline std::uint32_t gridIndex(float v, float origin, float inv, std::uint32_t n) {
    const float x = (v - origin) * inv;
    const float last = static_cast<float>(n - 1u);
    return x > 0.0f ? static_cast<std::uint32_t>(x < last ? x : last) : 0u;
}

} // namespace flak
