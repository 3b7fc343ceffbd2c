// flak — swept sphere (fast bullet over a frame) vs baked mesh: first time of impact.
//
// One forward walk of the blob (see sphere_query.h). The centre's path is prepared once as a
// SlabSegment and tested against node boxes grown by the radius and the margin; the slab's t
// range shrinks to the earliest impact so far.
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_hit.h>
#include <flak/math/transform.h>

namespace flak {

/// First contact of the sphere of `radius` whose centre moves from c0 (t = 0) to c1 (t = 1) with
/// the mesh, in mesh space: the smallest sweptSphereTriangle t over all triangles, equal t going
/// to the lowest triangle id (an initial overlap is t = 0). Writes out_hit (t, contact point on
/// the triangle with barycentrics, unit normal from it towards the centre at t, triangle) and
/// returns true; false (out_hit untouched) on no contact, an empty mesh, NaN/Inf input or a
/// negative radius.
/// `t_limit` (at most 1) lets a caller that already holds a hit at t_limit skip what cannot beat
/// it: the walk leaves out nodes the sweep enters after t_limit. A contact before t_limit is
/// still found exactly as without it; one at or after t_limit may be missed or returned.
bool sweptSphereFirstHit(const MeshBlob& blob, const Vec3& c0, const Vec3& c1, float radius,
                         MeshRayHit& out_hit, float t_limit = 1.0f);

/// sweptSphereFirstHit for a world-space sweep against the mesh placed by `mesh_to_world`; point
/// and normal come back in world space.
bool sweptSphereFirstHit(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3& c0, const Vec3& c1,
                         float radius, MeshRayHit& out_hit, float t_limit = 1.0f);

} // namespace flak
