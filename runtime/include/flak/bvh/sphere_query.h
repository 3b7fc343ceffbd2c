// flak — sphere (bullet) vs baked mesh: any hit and all hits, one walk of the blob's tree.
//
// Every query here walks the blob's tree (blob_format.h): the eight children of a node tested at
// once, the entered ones kept on a bounded stack, no recursion, no allocation. The node test
// compares the blob's 16-bit child boxes (conservative: min rounded down, max up) with the query's
// bounds taken into the blob's quantization grid once per query (integer compares, two cells of
// slack), after growing the query by a margin of 4 * kToleranceRelative * scale (scale: the largest
// absolute coordinate of the mesh bounds and of the query, and the radius); the children that
// pass are then tested against the grown ball itself (the distance from the centre to each one's
// box, decoded with the margin). Segments and sweeps use the slab test of segment_aabb.h in grid
// coordinates, with the same margin. Triangles are filtered
// by their exact box against the grown query before the kernel runs. Every filter is conservative
// beyond float rounding, so the walk never skips a triangle the kernel would accept: answers are
// exactly those of the kernel (here sphereTriangle()) applied to every triangle, the brute-force
// oracle of the tests. Triangles are visited in increasing id.
//
// Spaces: the plain forms take the query in the mesh's own space. The forms with a
// `mesh_to_world` transform take the query in world space, transform it into mesh space once
// (inverseTransformPoint) and transform results back (points with transformPoint, normals with
// transformVector). All functions are thread-safe on a shared blob (they only read it).
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_hit.h>
#include <flak/math/sphere.h>
#include <flak/math/transform.h>
#include <flak/status.h>

namespace flak {

/// True when the closed ball touches any triangle of the mesh (sphereTriangle's decision: squared
/// distance <= radius^2). Query in mesh space. NaN/Inf in the sphere or a negative radius: false.
/// An empty mesh: false.
bool sphereAnyHit(const MeshBlob& blob, const Sphere& sphere);

/// sphereAnyHit for a sphere in world space against the mesh placed by `mesh_to_world`.
bool sphereAnyHit(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere& sphere);

/// Every triangle the closed ball touches, appended to inout_hits in increasing triangle id:
/// the contact of sphereTriangle (point on the triangle, unit normal towards the centre, depth =
/// radius - distance) with the triangle id. Query and results in mesh space. Returns Ok, or
/// BufferFull when some hits did not fit (they are counted in inout_hits.dropped, never
/// written). NaN/Inf in the sphere or a negative radius: no hits, Ok.
[[nodiscard]] Status sphereAllHits(const MeshBlob& blob, const Sphere& sphere,
                                   OutBuffer<MeshContact>& inout_hits);

/// sphereAllHits for a sphere in world space; points and normals come back in world space.
[[nodiscard]] Status sphereAllHits(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere& sphere,
                                   OutBuffer<MeshContact>& inout_hits);

/// The deepest contact of the closed ball with the mesh: of the contacts sphereAllHits would
/// report, the one with the greatest depth, ties to the lowest triangle id. The very same contact,
/// bit for bit, with no buffer (so nothing is ever dropped) and usually far fewer kernel calls:
/// once a contact is found, triangles and nodes farther from the centre than its distance plus
/// two walk margins (far beyond the kernel's rounding) are skipped, since their depth is lower.
/// False (out_hit untouched) when the ball touches nothing, for NaN/Inf or a negative radius,
/// and for an empty mesh. Query and result in mesh space.
bool sphereDeepestHit(const MeshBlob& blob, const Sphere& sphere, MeshContact& out_hit);

/// sphereDeepestHit for a sphere in world space; point and normal come back in world space.
bool sphereDeepestHit(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere& sphere,
                      MeshContact& out_hit);

} // namespace flak
