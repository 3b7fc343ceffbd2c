// Internal: the slack of the shooter queries' early-outs (bounds and tree boxes), and small helpers.
#pragma once

#include <flak/geom/tolerance.h>
#include <flak/math/sphere.h>
#include <flak/math/vec2.h>
#include <flak/math/vec3.h>

#include "math/magnitude.h"

#include <cmath>

namespace flak::detail {

/// Growth that keeps a bound or box conservative beyond float rounding: 4 * kToleranceRelative *
/// scale (the margin sphere_query.h grows its node tests by), scale = the magnitudes involved.
inline double shooterSlack(double scale) { return 4.0 * double(kToleranceRelative) * scale; }

/// Sphere validity of the queries: finite centre and radius, radius >= 0.
inline bool validSphere(const Sphere& s) {
    return isFinite(s.center) && std::isfinite(s.radius) && s.radius >= 0.0f;
}

/// Closed-ball overlap in double (for early-outs against slack-grown bounds).
inline bool boundsOverlap(const Sphere& a, const Sphere& b) {
    const double dx = double(a.center.x) - b.center.x, dy = double(a.center.y) - b.center.y,
                 dz = double(a.center.z) - b.center.z, r = double(a.radius) + b.radius;
    return dx * dx + dy * dy + dz * dz <= r * r;
}

} // namespace flak::detail
