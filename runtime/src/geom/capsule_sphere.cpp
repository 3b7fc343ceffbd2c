#include <flak/geom/capsule_sphere.h>

#include <cmath>

namespace flak {
namespace {

// A unit vector perpendicular to d (+x when d is zero or too small to normalise): the direction to
// push a capsule out of a sphere whose centre lies on its axis.
void perpendicularUnit(const Vec3& d, Vec3& out) {
    Vec3 axis{0.0f, 0.0f, 0.0f};
    const float ax = std::fabs(d.x), ay = std::fabs(d.y), az = std::fabs(d.z);
    axis[ax <= ay ? (ax <= az ? 0 : 2) : (ay <= az ? 1 : 2)] = 1.0f;
    Vec3 c;
    cross(d, axis, c);
    if (!normalize(c, out)) set(1.0f, 0.0f, 0.0f, out);
}

} // namespace

bool capsuleSphere(const Capsule& capsule, const Sphere& sphere, Contact& out_contact) {
    if (!isFinite(capsule.p0) || !isFinite(capsule.p1) || !isFinite(sphere.center) ||
        !std::isfinite(capsule.radius) || !std::isfinite(sphere.radius) || !(capsule.radius >= 0.0f) ||
        !(sphere.radius >= 0.0f))
        return false;
    // Ericson, Real-Time Collision Detection 5.1.2: closest point on segment ab to c, with the
    // division deferred until the projection is known to fall strictly inside (0, |ab|^2), so a
    // zero-length segment never divides.
    Vec3 d, w;
    sub(capsule.p1, capsule.p0, d);
    sub(sphere.center, capsule.p0, w);
    const float proj = dot(w, d);
    const float len_sq = lengthSq(d);
    float t = 0.0f;
    if (proj >= len_sq) t = 1.0f;
    if (proj > 0.0f && proj < len_sq) t = proj / len_sq;
    Vec3 closest;
    addScaled(capsule.p0, d, t, closest);
    Vec3 offset;
    sub(closest, sphere.center, offset);
    const float r = capsule.radius + sphere.radius;
    const float dist_sq = lengthSq(offset);
    if (!(dist_sq <= r * r)) return false; // also rejects an overflowed (inf) distance
    const float dist = std::sqrt(dist_sq);
    Vec3 n;
    if (dist > 0.0f)
        scale(offset, 1.0f / dist, n);
    else
        perpendicularUnit(d, n);
    out_contact.normal = n;
    addScaled(sphere.center, n, sphere.radius, out_contact.point);
    // sqrt(fl(r * r)) == r for normal r, but not once r * r underflows: keep depth >= 0.
    const float depth = r - dist;
    out_contact.depth = depth > 0.0f ? depth : 0.0f;
    return true;
}

} // namespace flak
