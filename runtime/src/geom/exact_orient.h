// flak — private: the exact sign of the orientation determinant of four float points, for the
// triangle kernels' rare inputs where a float sign is within its own rounding error of zero.
#pragma once

#include <flak/math/vec3.h>

namespace flak::detail {

/// The sign (1, -1 or 0) of (d - a) . ((b - a) x (c - a)), computed exactly: positive when d is
/// on the side of plane (a, b, c) its normal (b - a) x (c - a) points to, zero only when the four
/// points are exactly coplanar (or any three collinear). Finite input assumed (a NaN or infinite
/// coordinate gives an unspecified sign, never a crash). The determinant is expanded into 24
/// products of three coordinates, each split into two doubles that hold it exactly, and those
/// are summed exactly as a floating-point expansion (Shewchuk 1997). A repeated point answers 0 at
/// once and a double evaluation beyond its error bound answers the sign, so the expansion (a few
/// thousand operations) runs only for points coplanar or within about 1e-15 of it.
int exactOrientSign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// exactOrientSign without its two filters: the expansion on every input (the tests check it
/// alone, since the filters answer most inputs).
int exactOrientSignExpanded(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

} // namespace flak::detail
