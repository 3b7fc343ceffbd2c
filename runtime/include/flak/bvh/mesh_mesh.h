// flak — baked mesh vs baked mesh: any contact, all intersecting triangle pairs, a contact summary.
//
// Both trees are walked in the relative frame (Tandem walk by groups), with no recursion:
//   1. Walk A's tree; skip every A child whose box misses B's root box taken into A's frame.
//   2. At an A node whose leaves hold at most 512 triangles in at most 64 leaves (a "group"), or
//      at a leaf above every such node, take the group's box into B's frame and walk B with it,
//      entering a B child when its box overlaps that box and also when, taken into A's frame, it
//      reaches the group's box there (both meshes' axes separate).
//   3. At every B leaf that box overlaps, take the B leaf's box into A's frame and test it against
//      the group's leaves, four at a time (the leaves' boxes are filed once per group; since every
//      box contains the boxes below it, these are exactly the leaves a walk of the group would
//      reach, in its order); at each A leaf it overlaps, test the A leaf's triangles against the
//      B leaf's triangles (transformed into A's frame once per B leaf and group, and tested four
//      at a time with triTriOverlapLanes after box filters: the A leaf's box, then each A
//      triangle's box, against each B triangle's box). Then go on after the group.
// Extra state is fixed: two stacks of walk frames (A's and B's walks, a node and its children
// still to take per level: kMaxTreeDepth frames, 512 bytes each), the group's leaves (at most 64,
// 1.8 KB), one B leaf's triangles in A's frame (at most kMaxLeafTriangles, as 4 TriangleBatch4
// with a box per triangle, 1216 bytes) and the A leaf's triangles that pass the box filter (704
// bytes), b_to_a and the group's box for the test in A's frame (176 bytes), plus for the summary
// its sums, a small cache of triangle normals and four pairs waiting for triTriIntersection4: at
// most 8.3 KB on the call stack (GCC 12 -O3, -fstack-usage along the deepest calls: 6.9 KB for
// the pair walks, 8.3 KB for the summary), whatever the meshes' sizes. Every pair of triangles is
// tested at most once.
// Boxes are grown by the margin of sphere_query.h (at the scale of both meshes in A's frame), so
// the pairs are exactly those of triTriOverlap(A triangle, B triangle mapped by b_to_a with
// transformPoint) over all pairs (the brute-force oracle), argument order included.
// Thread-safe on shared blobs (read only).
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_hit.h>
#include <flak/math/transform.h>
#include <flak/status.h>

#include <cstdint>

namespace flak {

/// What a mesh-mesh contact looks like as a whole, in A's mesh space (40 bytes), after the first
/// field report: an averaged point and a normal per body.
struct MeshContactSummary {
    std::uint32_t pair_count = 0; ///< intersecting triangle pairs found (saturates at 0xFFFFFFFF)
    Vec3 point;                   ///< mean of the midpoints of the pairs' intersection segments
    Vec3 normal_a; ///< unit mean of A's triangle normals over the pairs (as wound); zero if they cancel
    /// Unit mean of B's triangle normals over the pairs (as wound), carried into A's space: on
    /// B's own side also when b_to_a mirrors (a negative determinant); zero if they cancel.
    Vec3 normal_b;
};
static_assert(sizeof(MeshContactSummary) == 40, "MeshContactSummary layout");

/// True when some triangle of A intersects some triangle of B; `b_to_a` maps B's mesh space into
/// A's (relative(a_to_world, b_to_world)). Stops at the first pair. Empty meshes, or a transform
/// that is not finite or not rigid (isRigid: the walk inverts it by transposing): false.
bool meshMeshAnyContact(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a);

/// Every intersecting triangle pair, appended to inout_pairs in walk order (deterministic; by A
/// group, then B leaf, then A triangle, then B triangle: sort by (a, b) if a total order is
/// needed). Returns Ok, or BufferFull when some pairs did not fit (counted in dropped, never
/// written). Empty meshes, or a transform that is not finite or not rigid: nothing, Ok.
[[nodiscard]] Status meshMeshPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a,
                                   OutBuffer<TrianglePair>& inout_pairs);

/// The contact summary over every intersecting pair (no buffer needed, so no capacity limit);
/// returns true when there is at least one pair. On false, out_summary is zeroed. The
/// intersection segments come from triTriIntersection, the normals from computeTriangleNormal
/// (zero-area triangles add no normal). The sums are exact, so the summary does not depend on
/// the order of the pairs: each term is truncated once to fixed point with 2^32 steps per unit
/// (a normal's component; for the midpoints, its offset from the centre of A's bounds in units
/// of the smallest power of two at least A's largest half extent) and the terms are added as
/// 64-bit integers; the means are formed in double from the sums. The sums take the first
/// 2^31 - 1 pairs' terms (as many as 64 bits hold); beyond, pairs are counted and not summed.
bool meshMeshSummary(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a,
                     MeshContactSummary& out_summary);

} // namespace flak
