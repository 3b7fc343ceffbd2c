#include <flak/geom/triangle_normal.h>

#include <cmath>

namespace flak {

bool computeTriangleNormal(const Vec3& a, const Vec3& b, const Vec3& c, Vec3& out_normal) {
    // Differences of floats are exact in double for all but extreme exponent gaps, and each
    // product of two of them loses at most one rounding: the direction is good to ~1e-16 of
    // |ab||ac|, so even a 1e-7-thin sliver keeps a float-accurate normal.
    const double abx = static_cast<double>(b.x) - static_cast<double>(a.x);
    const double aby = static_cast<double>(b.y) - static_cast<double>(a.y);
    const double abz = static_cast<double>(b.z) - static_cast<double>(a.z);
    const double acx = static_cast<double>(c.x) - static_cast<double>(a.x);
    const double acy = static_cast<double>(c.y) - static_cast<double>(a.y);
    const double acz = static_cast<double>(c.z) - static_cast<double>(a.z);
    const double nx = aby * acz - abz * acy;
    const double ny = abz * acx - abx * acz;
    const double nz = abx * acy - aby * acx;
    const double len_sq = nx * nx + ny * ny + nz * nz;
    if (!(len_sq > 0.0) || !std::isfinite(len_sq)) {
        set(0.0f, 0.0f, 0.0f, out_normal);
        return false;
    }
    const double inv = 1.0 / std::sqrt(len_sq);
    set(static_cast<float>(nx * inv), static_cast<float>(ny * inv), static_cast<float>(nz * inv), out_normal);
    return true;
}

} // namespace flak
