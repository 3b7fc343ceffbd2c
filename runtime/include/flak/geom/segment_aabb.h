// flak — segment (or ray) vs axis-aligned box: the slab test with a precomputed inverse direction,
// prepared once per query and reused against every box of a BVH walk.
//
// Method: Kay-Kajiya slabs in the form of Williams et al. 2005, "An efficient and robust ray-box
// intersection algorithm" (the sign of each inverse component picks the near and far plane), with
// Ize 2013, "Robust BVH Ray Traversal" conservative rounding of the exit parameter.
//
// Guarantee (documented exception to tolerance.h rule 2, in the conservative direction only): for
// finite input whose direction components are zero or normal floats, the test never misses a box
// that real arithmetic on the same float inputs hits; a BVH walk therefore never skips a subtree
// it should enter. The price is a false hit when the exact entry exceeds the exact exit by less
// than 2^-20 of the exit parameter (an L-inf gap of about 1e-6 * |p1 - p0| at most), well inside
// the band. Direction components that are exactly +0 or -0 give an infinite inverse; the 0 * inf
// NaN that appears when the origin lies exactly on a slab plane is ignored by the comparisons, so
// such a segment counts as inside that (closed) slab.
//
// Decisive distance (rule 3): the signed L-inf gap, i.e. the distance s by which every face of the
// box must move outwards (s > 0) or inwards (s < 0, extents floored at zero) for the segment to
// just touch the box. Scale: the largest absolute coordinate of p0, p1 (or origin, origin +
// t_max * dir) and the box.
#pragma once

#include <flak/math/aabb.h>
#include <flak/math/vec3.h>

namespace flak {

/// A segment p0 -> p1 (or a ray) prepared for slab tests (32 bytes: 28 used, 4 padding). Build
/// with prepareSegment() or prepareRay(); reuse against any number of boxes. Plain value, no
/// ownership; safe to share read-only between threads.
struct SlabSegment {
    Vec3 origin;        ///< p0: the point at t = 0.
    Vec3 inv_delta;     ///< 1 / (p1 - p0) per axis; +-inf where that component is exactly +-0.
    float t_max = 0.0f; ///< End of the tested interval [0, t_max]; a closest-hit walk may lower it.
    bool valid = false; ///< False when the inputs were not finite: every test then misses.
};
static_assert(sizeof(SlabSegment) == 32, "SlabSegment is two Vec3, a float and a flag");

/// Prepares the segment p0 -> p1, parameterised p0 + t (p1 - p0) with t in [0, 1]. A zero-length
/// segment is valid and behaves as the point p0. NaN/Inf in p0 or p1 (or a difference that
/// overflows): out.valid = false.
void prepareSegment(const Vec3& p0, const Vec3& p1, SlabSegment& out);

/// Prepares the ray origin + t dir with t in [0, t_max]. `dir` need not be unit length (t is in
/// units of |dir|); a zero dir is a point. NaN/Inf anywhere, or t_max < 0: out.valid = false.
void prepareRay(const Vec3& origin, const Vec3& dir, float t_max, SlabSegment& out);

/// True when the prepared segment touches or crosses the closed box; then writes the parameters
/// where it enters and leaves the box, clipped to [0, t_max] with 0 <= out_t_enter <= out_t_exit
/// <= t_max (out_t_enter = 0 when it starts inside). Conservative as the header comment says.
/// An invalid segment, NaN/Inf in the box, or an inverted box (min > max on an axis): false, the
/// outputs untouched.
bool segmentAabb(const SlabSegment& segment, const Aabb& box, float& out_t_enter, float& out_t_exit);

/// segmentAabb() without the parameters (the same decision), for BVH walks.
bool segmentAabbOverlap(const SlabSegment& segment, const Aabb& box);

} // namespace flak
