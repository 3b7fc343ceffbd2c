// flak — GJK: distance, closest points and intersection of two convex shapes.
#pragma once

#include <flak/geom/convex_shape.h>
#include <flak/math/transform.h>
#include <flak/math/vec3.h>

#include <cstdint>

namespace flak {

/// How a GJK run ended.
enum class GjkExit : std::uint8_t {
    Converged,    ///< upper and lower distance bounds met within the convergence tolerance
    Separated,    ///< intersection test: a separating plane beyond the radii was found
    Overlap,      ///< the cores touch or overlap (origin enclosed or within tolerance), or, for the
                  ///< intersection test, the shapes were proven to overlap
    NoProgress,   ///< float rounding stopped the distance from decreasing; the best result is kept
    IterationCap, ///< kMaxGjkIterations support calls were spent (never on well-formed input)
    Invalid,      ///< non-finite or invalid input: no result
};

/// Cost and outcome of one run, for tests and profiling (8 bytes).
struct GjkInfo {
    int iterations = 0; ///< support-point evaluations
    GjkExit exit = GjkExit::Invalid;
};

/// Result of gjkDistance. World units, world frame.
struct GjkResult {
    /// Closest point on A's surface and on B's. When the shapes overlap but their cores do not
    /// (sphere and capsule radii), the points of A and B reaching deepest into each other along
    /// the core normal. When the cores overlap, a point of each core from GJK's last simplex:
    /// near the overlap, but GJK measures no depth and they need not coincide (use EPA or a SAT
    /// kernel for penetration).
    Vec3 point_a;
    Vec3 point_b;
    /// Unit direction from B towards A between the cores' closest points (move A along it to
    /// separate); zero when the cores overlap.
    Vec3 normal;
    /// Distance between the shapes, >= 0; 0 when they touch or overlap.
    float distance = 0.0f;
    /// True when the shapes touch or overlap (distance == 0).
    bool overlap = false;
    GjkInfo info;
};

/// Distance and closest points between two convex shapes given in world coordinates
/// (Gilbert, Johnson & Keerthi 1988; van den Bergen 2003; Ericson, RTCD 9.5). Returns false with
/// out_result untouched for invalid or non-finite input (isValid fails on either shape), and for
/// shapes so far apart (about 3.4e38) that B's offset from A overflows float. Every GJK query
/// below answers such a pair likewise.
///
/// Method: GJK on the cores with the signed-volumes simplex solver (Montanari et al. 2017), radii
/// added at the end, all in a frame centred on a point of A so results do not depend on where the
/// pair is in the world. Stops when the gap between the upper bound |v| and the lower bound
/// v.w / |v| is within 1e-6 of the scale of the support points (a tenth of the band), when the
/// distance stops decreasing (NoProgress: the best simplex is kept; this is also what prevents
/// cycling), or at kMaxGjkIterations. Cost: a few iterations (at most 12 seen over the oracle
/// suite), each one support call per shape (hulls O(n)); no allocation, thread-safe.
///
/// Precision exception (tolerance.h rule 2): support points are float, but the differences of
/// support points, the simplex sub-algorithm and the search direction are double. In float the
/// direction's error, amplified by the support mapping, grows like eps * size^2 / distance and
/// leaves the band when the shapes are much larger than their gap; in double the result is GJK's
/// exact answer for the float support points. The termination tolerance above is the only
/// tolerance, and it only decides when to stop, never which answer is given.
///
/// Decisive distance: the distance between the shapes (the reported `distance`, compared with
/// the reference within the band; `overlap` may flip only within it). Scale: the largest
/// coordinate of any shape point measured from A's core point (for transformed shapes: the
/// larger of that and the shapes' local coordinates), or a radius if larger.
///
/// Degenerate shapes (zero radius, zero-length capsules, flat boxes, coplanar, collinear or
/// single-point hulls, duplicate points, identical shapes) are valid and handled exactly.
bool gjkDistance(const ConvexShape& a, const ConvexShape& b, GjkResult& out_result);

/// As above, with each shape placed by a rigid transform (shape frame -> world; orthonormal
/// rotation, not checked). A non-finite transform: false.
bool gjkDistance(const ConvexShape& a, const Transform& xa, const ConvexShape& b, const Transform& xb,
                 GjkResult& out_result);

/// True when the two shapes (world coordinates) touch or overlap. Same method, with early exits: a
/// separating plane beyond the radii ends it as false, a point of the difference within the radii
/// as true. Invalid or non-finite input: false. `out_info` may be null.
/// Decisive distance: as gjkDistance.
bool gjkIntersect(const ConvexShape& a, const ConvexShape& b, GjkInfo* out_info = nullptr);

/// As above, with transforms.
bool gjkIntersect(const ConvexShape& a, const Transform& xa, const ConvexShape& b, const Transform& xb,
                  GjkInfo* out_info = nullptr);

} // namespace flak
