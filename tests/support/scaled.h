// A point times a factor, coordinate by coordinate: the scale tests multiply every input by a
// power of two (exact), so a kernel's answers must scale with it.
#pragma once

#include <flak/math/vec2.h>
#include <flak/math/vec3.h>

namespace flak::test {

inline Vec3 scaled(const Vec3& v, float f) { return Vec3{v.x * f, v.y * f, v.z * f}; }
inline Vec2 scaled(const Vec2& v, float f) { return Vec2{v.x * f, v.y * f}; }

} // namespace flak::test
