// flak — private: the larger of two values and a vector's largest magnitude, as the runtime's
// margins, tolerances and kernel rescaling measure the scale of a query or a mesh.
#pragma once

#include <flak/math/vec2.h>
#include <flak/math/vec3.h>

#include <cmath>

namespace flak::detail {

/// The larger of a and b as SSE's maxss writes it: a > b ? a : b, no branch. Of a number and a
/// NaN, the later operand.
inline float maxOf(float a, float b) { return a > b ? a : b; }
inline double maxOf(double a, double b) { return a > b ? a : b; }

/// The largest of |x|, |y|, |z| as two maxOf (no branch: a nested ternary compiles to branches that
/// mispredict on random queries). Never -0. A NaN in z comes out; one in x or y alone may not, so
/// callers check finiteness themselves.
inline float maxAbs(const Vec3& v) { return maxOf(maxOf(std::fabs(v.x), std::fabs(v.y)), std::fabs(v.z)); }
inline float maxAbs(const Vec2& v) { return maxOf(std::fabs(v.x), std::fabs(v.y)); }

} // namespace flak::detail
