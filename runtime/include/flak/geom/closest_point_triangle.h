// flak — closest point on a triangle to a point (Ericson, Real-Time Collision Detection 5.1.5).
#pragma once

#include <flak/math/vec3.h>

namespace flak {

/// Closest point on the closed triangle (a, b, c) to p, with its barycentrics: out_point =
/// (1 - out_u - out_v) * a + out_u * b + out_v * c, out_u >= 0, out_v >= 0, out_u + out_v <= 1.
/// Units are the caller's. Works relative to vertex a (the kernel's local origin); tolerance scale:
/// the largest absolute coordinate of b - a, c - a, p - a. Decisive distance: none (no decision);
/// |p - out_point| is within a few float ulps of that scale of the true distance, for slivers too,
/// while that scale lies in [2^-50, 2^50] (tolerance.h rule 7: no rescaling here).
/// Zero-area triangles behave as their longest segment (or point). NaN/Inf in any input: returns
/// false, out_point = p, out_u = out_v = 0. Otherwise returns true.
bool closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Vec3& out_point,
                            float& out_u, float& out_v);

} // namespace flak
