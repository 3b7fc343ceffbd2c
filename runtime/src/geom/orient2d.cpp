// flak — the exact 2D orientation (orient2d.h), as the exact 3D orientation of the three points
// lifted to z = 0 against a fourth above the first: (d - a) . ((b - a) x (c - a)) with
// d = a + (0, 0, 1) is the z component of the 2D cross product.
#include <flak/geom/orient2d.h>

#include "geom/exact_orient.h"

namespace flak {

int orient2dSign(const Vec2& a, const Vec2& b, const Vec2& c) {
    return detail::exactOrientSign(Vec3{a.x, a.y, 0.0f}, Vec3{b.x, b.y, 0.0f}, Vec3{c.x, c.y, 0.0f},
                                   Vec3{a.x, a.y, 1.0f});
}

} // namespace flak
