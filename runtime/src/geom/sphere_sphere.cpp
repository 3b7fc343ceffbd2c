#include <flak/geom/sphere_sphere.h>

#include <cfloat>
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
    const float r_sq = r * r;
    if (!(dist_sq <= FLT_MAX && r_sq <= FLT_MAX)) {
        // A square past float's range (an offset or radii beyond about 1.8e19): decided in
        // double, where both are finite (inf <= inf took spheres 1e25 apart for a contact).
        const double dd =
            static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y + static_cast<double>(d.z) * d.z;
        const double rd = static_cast<double>(a.radius) + b.radius;
        if (!(dd <= rd * rd)) return false;
        const double dist = std::sqrt(dd);
        Vec3 n{1.0f, 0.0f, 0.0f};
        if (dist > 0.0)
            set(static_cast<float>(d.x / dist), static_cast<float>(d.y / dist),
                static_cast<float>(d.z / dist), n);
        out_contact.normal = n;
        addScaled(b.center, n, b.radius, out_contact.point);
        out_contact.depth =
            static_cast<float>(std::fmax(0.0, std::fmin(rd - dist, static_cast<double>(FLT_MAX))));
        return true;
    }
    if (!(dist_sq <= r_sq)) return false;
    const float dist = std::sqrt(dist_sq);
    Vec3 n{1.0f, 0.0f, 0.0f};
    if (dist > 0.0f) scale(d, 1.0f / dist, n);
    out_contact.normal = n;
    addScaled(b.center, n, b.radius, out_contact.point);
    // sqrt(fl(r * r)) == r for normal r, but not once r * r underflows: keep depth >= 0.
    const float depth = r - dist;
    out_contact.depth = depth > 0.0f ? depth : 0.0f;
    return true;
}

} // namespace flak
