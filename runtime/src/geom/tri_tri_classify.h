// flak — private: the classification shared by triTriOverlap and triTriIntersection.
#pragma once

#include <flak/math/vec3.h>

namespace flak::detail {

/// How triTriOverlap decided: disjoint, crossing in 3D (not coplanar), coplanar (2D test), or
/// overlapping through a zero-area triangle's edges.
enum class TriTriKind { Disjoint, Crossing, Coplanar, Degenerate };

/// The Guigue-Devillers decision of tri_tri.cpp, with how it was reached.
TriTriKind classifyTriTri(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                          const Vec3& r2);

} // namespace flak::detail
