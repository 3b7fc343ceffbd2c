// flak — batched blob queries: many spheres, segments or swept spheres against one mesh in one
// call, and one of them against many meshes (the frame's forms).
//
// Each answer is exactly the single-query function's answer (sphere_query.h, segment_query.h,
// swept_query.h);
// the batch forms only save the per-call set-up and keep the frame's loops out of game code.
// Thread-safe on shared blobs; outputs are the caller's arrays.
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_hit.h>
#include <flak/bvh/segment_query.h>
#include <flak/math/sphere.h>
#include <flak/math/transform.h>

#include <cstdint>

namespace flak {

/// sphereAnyHit(blob, mesh_to_world, spheres[k]) for k < count, written to out_hit[k] (arrays of
/// `count`, caller-owned). Returns how many hit.
std::uint32_t sphereAnyHitBatch(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere* spheres,
                                std::uint32_t count, bool* out_hit);

/// segmentClosestHit(blob, mesh_to_world, p0[k], p1[k]) for k < count: out_hit[k] says whether
/// segment k hit, and out_hits[k] holds the hit when it did (untouched otherwise). All arrays
/// hold `count` elements, caller-owned. Returns how many hit.
std::uint32_t segmentClosestHitBatch(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3* p0,
                                     const Vec3* p1, std::uint32_t count, MeshRayHit* out_hits, bool* out_hit,
                                     SegmentTest test = SegmentTest::Watertight);

/// sweptSphereFirstHit(blob, mesh_to_world, c0[k], c1[k], radii[k]) for k < count (fast bullets:
/// a ball of radius radii[k] moving from c0[k] to c1[k] over the frame): out_hit[k] says whether
/// sweep k hit, out_hits[k] holds its first contact when it did (untouched otherwise). All arrays
/// hold `count` elements, caller-owned. Returns how many hit.
std::uint32_t sweptSphereFirstHitBatch(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3* c0,
                                       const Vec3* c1, const float* radii, std::uint32_t count,
                                       MeshRayHit* out_hits, bool* out_hit);

/// One world-space sphere against `mesh_count` meshes (blobs[k] placed by mesh_to_world[k]): true
/// when any is touched; out_mesh = the lowest such index (untouched on false).
bool sphereAnyHitMeshes(const MeshBlob* blobs, const Transform* mesh_to_world, std::uint32_t mesh_count,
                        const Sphere& sphere, std::uint32_t& out_mesh);

/// One world-space segment against `mesh_count` meshes: the closest hit over all of them (t is
/// the same parameter for every mesh: the transforms are rigid), equal t going to the lower mesh
/// index. On true writes out_hit (world space) and out_mesh; on false both are untouched.
bool segmentClosestHitMeshes(const MeshBlob* blobs, const Transform* mesh_to_world, std::uint32_t mesh_count,
                             const Vec3& p0, const Vec3& p1, MeshRayHit& out_hit, std::uint32_t& out_mesh,
                             SegmentTest test = SegmentTest::Watertight);

/// One world-space swept sphere against `mesh_count` meshes: the first contact over all of them
/// (t is the same parameter for every mesh: the transforms are rigid), equal t going to the lower
/// mesh index. On true writes out_hit (world space) and out_mesh; on false both are untouched.
bool sweptSphereFirstHitMeshes(const MeshBlob* blobs, const Transform* mesh_to_world,
                               std::uint32_t mesh_count, const Vec3& c0, const Vec3& c1, float radius,
                               MeshRayHit& out_hit, std::uint32_t& out_mesh);

} // namespace flak
