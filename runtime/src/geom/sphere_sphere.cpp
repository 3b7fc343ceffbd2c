#include <flak/geom/sphere_sphere.h>

#include <cmath>

namespace flak {

bool sphereSphere(const Sphere& a, const Sphere& b, Contact& out_contact) {
    if (!isFinite(a.center) || !isFinite(b.center) || !std::isfinite(a.radius) || !std::isfinite(b.radius) ||
        !(a.radius >= 0.0f) || !(b.radius >= 0.0f))
        return false;
    Vec3 d;
    sub(a.center, b.center, d);
    const float r = a.radius + b.radius;
    const float dist_sq = lengthSq(d);
    if (!(dist_sq <= r * r)) return false; // also rejects an overflowed (inf) distance
    const float dist = std::sqrt(dist_sq);
    Vec3 n{1.0f, 0.0f, 0.0f};
    if (dist > 0.0f) scale(d, 1.0f / dist, n);
    out_contact.normal = n;
    addScaled(b.center, n, b.radius, out_contact.point);
    out_contact.depth = r - dist;
    return true;
}

} // namespace flak
