#include <flak/geom/triangle_aabb.h>

#include "geom/triangle_local.h"

#include <cmath>

namespace flak {
namespace {

// sin^2 of the angle between two edges below which the triangle counts as degenerate for its
// normal axis (see the header).
constexpr double kDegenerateSinSq = 1e-18;

bool isValidBox(const Aabb& box) {
    return isFinite(box.min) && isFinite(box.max) && box.min.x <= box.max.x && box.min.y <= box.max.y &&
           box.min.z <= box.max.z;
}

float min3(float a, float b, float c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }
float max3(float a, float b, float c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

// One edge axis: the triangle projects to [min(p, q), max(p, q)] (the third vertex projects onto
// one of them, Akenine-Moeller's saving), the box to [-r, r].
bool separates(float p, float q, float r) {
    const float lo = p < q ? p : q;
    const float hi = p > q ? p : q;
    return lo > r || hi < -r;
}

} // namespace

bool triangleAabbOverlap(const Vec3& v0, const Vec3& v1, const Vec3& v2, const Aabb& box) {
    if (!isFinite(v0) || !isFinite(v1) || !isFinite(v2) || !isValidBox(box)) return false;

    // Akenine-Moeller 2001. Box normals first, on the raw coordinates: exact, and the cheapest
    // rejection.
    for (int axis = 0; axis < 3; ++axis) {
        if (min3(v0[axis], v1[axis], v2[axis]) > box.max[axis]) return false;
        if (max3(v0[axis], v1[axis], v2[axis]) < box.min[axis]) return false;
    }

    Vec3 c, h, a, b, d;
    center(box, c);
    halfExtents(box, h);
    sub(v0, c, a);
    sub(v1, c, b);
    sub(v2, c, d);
    // Far from unit scale the products below would underflow or overflow: the frame around the
    // box centre is rescaled by a power of two (the signs of the tests do not change).
    const float unit =
        detail::unitScaleFactor(detail::maxOf(detail::maxOf(detail::maxAbs(a), detail::maxAbs(b)),
                                              detail::maxOf(detail::maxAbs(d), detail::maxAbs(h))));
    if (unit != 1.0f) {
        scale(a, unit, a);
        scale(b, unit, b);
        scale(d, unit, d);
        scale(h, unit, h);
    }

    // Nine edge axes e_k x f. Each axis is a permutation of f's components with one sign flip, so
    // it is exact; the projections are dot products with no cancellation in the axis.
    Vec3 f[3];
    sub(b, a, f[0]);
    sub(d, b, f[1]);
    sub(a, d, f[2]);
    // For edge f[0] (a -> b) vertices a and b project alike, so a and d suffice; likewise below.
    const Vec3* first[3] = {&a, &a, &a};
    const Vec3* second[3] = {&d, &b, &b};
    for (int e = 0; e < 3; ++e) {
        const Vec3& fe = f[e];
        const Vec3& p = *first[e];
        const Vec3& q = *second[e];
        const float fx = std::fabs(fe.x), fy = std::fabs(fe.y), fz = std::fabs(fe.z);
        // e_x x f = (0, -fz, fy)
        if (separates(fe.y * p.z - fe.z * p.y, fe.y * q.z - fe.z * q.y, h.y * fz + h.z * fy)) return false;
        // e_y x f = (fz, 0, -fx)
        if (separates(fe.z * p.x - fe.x * p.z, fe.z * q.x - fe.x * q.z, h.x * fz + h.z * fx)) return false;
        // e_z x f = (-fy, fx, 0)
        if (separates(fe.x * p.y - fe.y * p.x, fe.x * q.y - fe.y * q.x, h.x * fy + h.y * fx)) return false;
    }

    // Triangle normal in double (see the header): float vertices give exact double differences.
    const double e0x = double(v1.x) - double(v0.x), e0y = double(v1.y) - double(v0.y),
                 e0z = double(v1.z) - double(v0.z);
    const double e1x = double(v2.x) - double(v1.x), e1y = double(v2.y) - double(v1.y),
                 e1z = double(v2.z) - double(v1.z);
    const double nx = e0y * e1z - e0z * e1y, ny = e0z * e1x - e0x * e1z, nz = e0x * e1y - e0y * e1x;
    const double n_sq = nx * nx + ny * ny + nz * nz;
    const double e_sq = (e0x * e0x + e0y * e0y + e0z * e0z) * (e1x * e1x + e1y * e1y + e1z * e1z);
    if (n_sq > kDegenerateSinSq * e_sq) {
        const double cx = 0.5 * (double(box.min.x) + double(box.max.x));
        const double cy = 0.5 * (double(box.min.y) + double(box.max.y));
        const double cz = 0.5 * (double(box.min.z) + double(box.max.z));
        const double s = nx * (double(v0.x) - cx) + ny * (double(v0.y) - cy) + nz * (double(v0.z) - cz);
        const double r = 0.5 * (std::fabs(nx) * (double(box.max.x) - double(box.min.x)) +
                                std::fabs(ny) * (double(box.max.y) - double(box.min.y)) +
                                std::fabs(nz) * (double(box.max.z) - double(box.min.z)));
        if (std::fabs(s) > r) return false;
    }
    return true;
}

} // namespace flak
