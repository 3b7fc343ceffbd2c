// flak — private helpers shared by the triangle kernels (sphere, swept sphere, tri-tri).
// Everything here works in a triangle-local frame whose origin is vertex a.
#pragma once

#include <flak/math/vec3.h>

#include "math/magnitude.h"

#include <cmath>

namespace flak::detail {

inline bool isFiniteTriangle(const Vec3& a, const Vec3& b, const Vec3& c) {
    return isFinite(a) && isFinite(b) && isFinite(c);
}

/// The largest magnitude among a kernel's local inputs' coordinates (and radius) is kept in
/// [2^-20, 2^20] by this power of two: 1 inside that range, else the factor that brings it to
/// [0.5, 1) (within what a float exponent holds). Multiplying every local input by a power of two
/// is exact, so a kernel that rescales decides and measures as it would on the same shapes at
/// unit scale, where its squares, cubes and fourth powers neither underflow nor overflow; inputs
/// already in range are not touched, and give the very same bits as before.
inline float unitScaleFactor(float scale) {
    if (scale >= 0x1p-20f && scale <= 0x1p20f) return 1.0f;
    if (!(scale > 0.0f) || !std::isfinite(scale)) return 1.0f; // all at one point, or non-finite
    int e = 0;
    (void)std::frexp(scale, &e); // scale = m 2^e, m in [0.5, 1)
    return std::ldexp(1.0f, e > 126 ? -126 : (e < -126 ? 126 : -e));
}

/// The unit normal of triangle (a, b, c) from computeTriangleNormal, computed at most once. The
/// closest-point search needs it only past the vertex regions; callers that can afford it start it
/// early anyway, so that its latency overlaps the other work.
struct LazyNormal {
    LazyNormal(const Vec3& va, const Vec3& vb, const Vec3& vc) : a(&va), b(&vb), c(&vc) {}
    /// Wraps a normal computed beforehand.
    LazyNormal(const Vec3& va, const Vec3& vb, const Vec3& vc, const Vec3& normal, bool area)
        : a(&va), b(&vb), c(&vc), n(normal), has_area(area), computed(true) {}

    void compute();

    const Vec3* a;
    const Vec3* b;
    const Vec3* c;
    Vec3 n;
    bool has_area = false;
    bool computed = false;
};

/// Closest point to `ap` on the triangle (0, ab, ac), which is (a, b, c) of `normal` moved to a.
/// out_q is local (relative to a). Returns true when the point is in the face region (ap - out_q
/// is then along normal.n).
bool closestPointLocal(const Vec3& ap, const Vec3& ab, const Vec3& ac, LazyNormal& normal, Vec3& out_q,
                       float& out_u, float& out_v);

/// Unit vector along d, normalised in double so that tiny (even denormal) vectors still give a
/// unit result; false and out = 0 when d is zero.
inline bool normalizeAccurate(const Vec3& d, Vec3& out) {
    const double x = d.x, y = d.y, z = d.z;
    const double len_sq = x * x + y * y + z * z;
    if (!(len_sq > 0.0) || !std::isfinite(len_sq)) {
        set(0.0f, 0.0f, 0.0f, out);
        return false;
    }
    const double inv = 1.0 / std::sqrt(len_sq);
    set(static_cast<float>(x * inv), static_cast<float>(y * inv), static_cast<float>(z * inv), out);
    return true;
}

/// The documented stand-in normal of a zero-area triangle (0, ab, ac): unit, perpendicular to its
/// longest edge (built from the axis that edge is least aligned with); +x for a point triangle.
void degenerateTriangleNormal(const Vec3& ab, const Vec3& ac, Vec3& out_normal);

/// The face normal n when the triangle has area, else the zero-area stand-in.
inline void degenerateOrFaceNormal(const Vec3& n, bool has_area, const Vec3& ab, const Vec3& ac,
                                   Vec3& out_normal) {
    if (has_area)
        out_normal = n;
    else
        degenerateTriangleNormal(ab, ac, out_normal);
}

} // namespace flak::detail
