// flak — the exact orientation of three points in the plane.
#pragma once

#include <flak/math/vec2.h>

namespace flak {

/// The sign (1, -1 or 0) of (b - a) x (c - a): 1 when c lies left of the line a -> b, -1 right of
/// it, 0 only when the three points are exactly collinear (or two coincide). Exact for any finite
/// floats, whatever their magnitudes (a double evaluation rounds when they differ widely: a point
/// exactly on an edge can come out off it). Non-finite input: an unspecified sign, never a crash.
int orient2dSign(const Vec2& a, const Vec2& b, const Vec2& c);

} // namespace flak
