// flak — boxes vs baked mesh: the triangles an AABB or an OBB overlaps.
//
// One forward walk of the blob (see sphere_query.h for the walk, margin and spaces). Answers are
// exactly those of triangleAabbOverlap() (AABB) and triangleObbOverlap() (OBB) applied to every
// triangle.
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_hit.h>
#include <flak/math/aabb.h>
#include <flak/math/obb.h>
#include <flak/math/transform.h>
#include <flak/status.h>

namespace flak {

/// True when the closed triangle (a, b, c) touches the closed oriented box: the triangle is taken
/// into the box's frame (rotation^T (v - center), in float) and decided by triangleAabbOverlap
/// against [-halfExtents, halfExtents] (tolerance as that kernel, scale in the box frame).
/// NaN/Inf anywhere or a negative half extent: false.
bool triangleObbOverlap(const Vec3& a, const Vec3& b, const Vec3& c, const Obb& box);

/// Ids of every triangle that touches the closed box (mesh space), appended to inout_ids in
/// increasing id. Returns Ok, or BufferFull when some did not fit (counted in dropped, never
/// written). NaN/Inf or an inverted box: nothing, Ok.
[[nodiscard]] Status aabbOverlapTriangles(const MeshBlob& blob, const Aabb& box,
                                          OutBuffer<std::uint32_t>& inout_ids);

/// Ids of every triangle that touches the closed oriented box (mesh space), as
/// aabbOverlapTriangles. Rotation orthonormal to within 1e-6.
[[nodiscard]] Status obbOverlapTriangles(const MeshBlob& blob, const Obb& box,
                                         OutBuffer<std::uint32_t>& inout_ids);

/// obbOverlapTriangles for a world-space box against the mesh placed by `mesh_to_world` (the box
/// is taken into mesh space once). A world AABB is an Obb with the identity rotation.
[[nodiscard]] Status obbOverlapTriangles(const MeshBlob& blob, const Transform& mesh_to_world, const Obb& box,
                                         OutBuffer<std::uint32_t>& inout_ids);

} // namespace flak
