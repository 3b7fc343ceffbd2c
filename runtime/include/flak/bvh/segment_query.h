// flak — segment (bullet ray, beam piece) vs baked mesh: closest hit and any hit.
//
// One forward walk of the blob (see sphere_query.h for the walk, the margin and the spaces). The
// segment is prepared once (a slab form in the blob's quantization grid for the node boxes, or a
// SlabSegment and decoded boxes when an axis of the mesh is flat; a WatertightRay for the
// triangles) and, for the closest hit, the slab's t range shrinks to the best hit so far.
// Answers are exactly those of the chosen kernel applied to every triangle.
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_hit.h>
#include <flak/math/transform.h>

namespace flak {

/// Which segment-triangle kernel decides (segment_triangle.h).
enum class SegmentTest : unsigned char {
    Watertight, ///< rayTriangleWatertight: no ray slips between triangles of a closed mesh (default)
    Fast,       ///< segmentTriangle (Moller-Trumbore with a double settle): not watertight
};

/// Closest hit of the segment p0 -> p1 (t in [0, 1] along p0 + t (p1 - p0)) with the mesh, in
/// mesh space: the smallest kernel t over all triangles; equal t (shared edges and vertices) go
/// to the lowest triangle id. Writes out_hit (t, u, v, point, normal facing against the segment,
/// triangle) and returns true; false (out_hit untouched) when nothing is hit, for an empty mesh,
/// a zero-length segment, or NaN/Inf in p0 or p1.
bool segmentClosestHit(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, MeshRayHit& out_hit,
                       SegmentTest test = SegmentTest::Watertight);

/// segmentClosestHit for a world-space segment against the mesh placed by `mesh_to_world`; t is
/// unchanged by the rigid transform; point and normal come back in world space.
bool segmentClosestHit(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3& p0, const Vec3& p1,
                       MeshRayHit& out_hit, SegmentTest test = SegmentTest::Watertight);

/// Whether the segment hits the mesh at all (mesh space). On true, out_hit is the hit on the
/// lowest triangle id that the segment hits (not necessarily the closest): the walk visits
/// triangles in id order and stops at the first. Same no-hit cases as segmentClosestHit.
bool segmentAnyHit(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, MeshRayHit& out_hit,
                   SegmentTest test = SegmentTest::Watertight);

/// segmentAnyHit for a world-space segment; point and normal in world space.
bool segmentAnyHit(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3& p0, const Vec3& p1,
                   MeshRayHit& out_hit, SegmentTest test = SegmentTest::Watertight);

} // namespace flak
