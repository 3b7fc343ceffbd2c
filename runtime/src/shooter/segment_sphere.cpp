#include <flak/shooter/segment_sphere.h>

#include <cmath>

namespace flak {

// Ray vs sphere (Ericson, RTCD 5.3.2): with m = p0 - c and d = p1 - p0, the entry is the smaller
// root of |m + t d|^2 = r^2; a start inside (|m| <= r) is t = 0. Solved in double: the float inputs
// are exact there and the quadratic's cancellation stays far below the tolerance band.
bool segmentSphere(const Vec3& p0, const Vec3& p1, const Sphere& sphere, RayHit& out_hit) {
    if (!isFinite(p0) || !isFinite(p1) || !isFinite(sphere.center) || !std::isfinite(sphere.radius) ||
        !(sphere.radius >= 0.0f))
        return false;
    const double mx = double(p0.x) - sphere.center.x, my = double(p0.y) - sphere.center.y,
                 mz = double(p0.z) - sphere.center.z;
    const double dx = double(p1.x) - p0.x, dy = double(p1.y) - p0.y, dz = double(p1.z) - p0.z;
    const double r = sphere.radius;
    const double c = mx * mx + my * my + mz * mz - r * r;
    double t = 0.0;
    if (c > 0.0) {
        const double a = dx * dx + dy * dy + dz * dz;
        const double b = mx * dx + my * dy + mz * dz;
        if (a == 0.0 || b > 0.0) return false; // a point outside, or moving away
        const double disc = b * b - a * c;
        if (disc < 0.0) return false;
        t = (-b - std::sqrt(disc)) / a;
        if (t > 1.0) return false;
        if (t < 0.0) t = 0.0;
    }
    const double px = mx + t * dx, py = my + t * dy, pz = mz + t * dz; // relative to the centre
    double nx = px, ny = py, nz = pz;
    double len = std::sqrt(nx * nx + ny * ny + nz * nz);
    if (!(len > 0.0) || r == 0.0) { // at the centre (radius 0: only rounding apart from it)
        nx = -dx, ny = -dy, nz = -dz;
        len = std::sqrt(nx * nx + ny * ny + nz * nz);
        if (!(len > 0.0)) nx = 1.0, ny = 0.0, nz = 0.0, len = 1.0;
    }
    out_hit.t = static_cast<float>(t);
    out_hit.u = 0.0f;
    out_hit.v = 0.0f;
    if (t == 0.0) {
        out_hit.point = p0;
    } else {
        set(static_cast<float>(double(p0.x) + t * dx), static_cast<float>(double(p0.y) + t * dy),
            static_cast<float>(double(p0.z) + t * dz), out_hit.point);
    }
    set(static_cast<float>(nx / len), static_cast<float>(ny / len), static_cast<float>(nz / len),
        out_hit.normal);
    return true;
}

} // namespace flak
