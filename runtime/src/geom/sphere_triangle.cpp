#include <flak/geom/sphere_triangle.h>

#include "geom/triangle_local.h"

#include <cmath>

namespace flak {

// Closest point (Ericson 5.1.5, see closest_point_triangle.cpp) and a squared-distance compare.
// Everything is decided in the frame of vertex a, so a small triangle far from the world origin
// is decided with its own precision rather than that of its absolute coordinates.
bool sphereTriangle(const Sphere& sphere, const Vec3& a, const Vec3& b, const Vec3& c, Contact& out_contact) {
    if (!isFinite(sphere.center) || !std::isfinite(sphere.radius) || !(sphere.radius >= 0.0f) ||
        !detail::isFiniteTriangle(a, b, c))
        return false;
    Vec3 ab, ac, ap, q;
    sub(b, a, ab);
    sub(c, a, ac);
    sub(sphere.center, a, ap);
    float r = sphere.radius;
    // Farther than r from the triangle's box on some axis: no contact (rounding of the box test
    // is a few ulps of the scale, inside the band). On the way, the largest magnitude of ab, ac
    // and ap: max(hi, -lo, |ap|) per axis.
    float largest = r;
    for (int k = 0; k < 3; ++k) {
        const float lo = ab[k] < ac[k] ? (ab[k] < 0.0f ? ab[k] : 0.0f) : (ac[k] < 0.0f ? ac[k] : 0.0f);
        const float hi = ab[k] > ac[k] ? (ab[k] > 0.0f ? ab[k] : 0.0f) : (ac[k] > 0.0f ? ac[k] : 0.0f);
        if (lo - ap[k] > r || ap[k] - hi > r) return false;
        largest = detail::maxOf(detail::maxOf(largest, std::fabs(ap[k])), detail::maxOf(hi, -lo));
    }
    // Far from unit scale the squared distances below would underflow or overflow: the local
    // frame is rescaled by a power of two, and the point and depth scaled back.
    const float unit = detail::unitScaleFactor(largest);
    if (unit != 1.0f) {
        scale(ab, unit, ab);
        scale(ac, unit, ac);
        scale(ap, unit, ap);
        r *= unit;
    }
    detail::LazyNormal normal(a, b, c);
    normal.compute(); // now: its double sqrt overlaps the vertex-region tests (measured faster)
    float u = 0.0f, v = 0.0f;
    const bool in_face = detail::closestPointLocal(ap, ab, ac, normal, q, u, v);
    Vec3 d;
    sub(ap, q, d);
    const float dist_sq = lengthSq(d);
    if (!(dist_sq <= r * r)) return false;
    const float dist = std::sqrt(dist_sq);
    if (in_face) { // the gap is along n: take n itself, on the centre's side (as wound when on the plane)
        scale(normal.n, dot(ap, normal.n) < 0.0f ? -1.0f : 1.0f, out_contact.normal);
    } else if (!detail::normalizeAccurate(d, out_contact.normal)) { // centre on an edge or vertex
        normal.compute();
        detail::degenerateOrFaceNormal(normal.n, normal.has_area, ab, ac, out_contact.normal);
    }
    addScaled(a, q, 1.0f / unit, out_contact.point);
    out_contact.depth = (r - dist) / unit;
    return true;
}

} // namespace flak
