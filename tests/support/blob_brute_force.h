// Test support: the loader's guarantee (docs/blob_format.md) as a check. Any blob that loads,
// however it was made, must answer every query kind exactly as its kernel applied by brute force
// to every triangle the blob holds. Used by the resealed-corruption test and the blob fuzz target.
#pragma once

#include <flak/bvh/box_query.h>
#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/geom/segment_triangle.h>
#include <flak/geom/sphere_triangle.h>
#include <flak/geom/tri_tri.h>
#include <flak/geom/triangle_aabb.h>
#include <flak/math/transform.h>

#include <cstdint>

namespace flak::test {

/// Triangles up to which blobDisagreement also checks mesh against mesh (brute force is quadratic).
constexpr std::uint32_t kBruteMeshMeshTriangles = 256;

/// Null when every query below agrees with brute force over the blob's own triangles, else the
/// name of the first one that does not. The queries: sphere any-hit (sphere c0, r), segment
/// any-hit with the fast kernel (c0 -> c1: the lowest triangle id it hits), the box overlap
/// (the box spanned by c0 and c1: the ids in increasing order) and, with `mesh_mesh` and for
/// blobs of at most kBruteMeshMeshTriangles triangles, mesh against itself moved by `b_to_a`.
inline const char* blobDisagreement(const MeshBlob& blob, const Vec3& c0, const Vec3& c1, float r,
                                    const Transform& b_to_a, bool mesh_mesh = true) {
    const Sphere sphere{c0, r};
    bool brute_sphere = false;
    std::uint32_t brute_segment = 0xFFFFFFFFu;
    Aabb box;
    min(c0, c1, box.min);
    max(c0, c1, box.max);
    std::uint32_t box_ids[64];
    std::uint32_t box_brute = 0, box_mismatch = 0;
    OutBuffer<std::uint32_t> box_out = OutBuffer<std::uint32_t>::over(box_ids, 64);
    (void)aabbOverlapTriangles(blob, box, box_out);
    for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
        Vec3 a, b, c;
        triangleVertices(blob, t, a, b, c);
        Contact contact;
        brute_sphere = brute_sphere || sphereTriangle(sphere, a, b, c, contact);
        RayHit hit;
        if (brute_segment == 0xFFFFFFFFu && segmentTriangle(c0, c1, a, b, c, hit)) brute_segment = t;
        if (triangleAabbOverlap(a, b, c, box)) {
            if (box_brute < box_out.count && box_ids[box_brute] != t) ++box_mismatch;
            ++box_brute;
        }
    }
    if (sphereAnyHit(blob, sphere) != brute_sphere) return "sphereAnyHit";
    MeshRayHit hit;
    const bool any = segmentAnyHit(blob, c0, c1, hit, SegmentTest::Fast);
    if (any != (brute_segment != 0xFFFFFFFFu) || (any && hit.triangle != brute_segment))
        return "segmentAnyHit";
    if (box_mismatch != 0 || box_out.count + box_out.dropped != box_brute) return "aabbOverlapTriangles";
    if (mesh_mesh && blob.triangle_count <= kBruteMeshMeshTriangles) {
        bool brute_pair = false;
        for (std::uint32_t i = 0; i < blob.triangle_count && !brute_pair; ++i) {
            Vec3 a0, a1, a2;
            triangleVertices(blob, i, a0, a1, a2);
            for (std::uint32_t j = 0; j < blob.triangle_count && !brute_pair; ++j) {
                Vec3 src[3], b[3];
                triangleVertices(blob, j, src[0], src[1], src[2]);
                transformPoints(b_to_a, src, 3, b);
                brute_pair = triTriOverlap(a0, a1, a2, b[0], b[1], b[2]);
            }
        }
        if (meshMeshAnyContact(blob, blob, b_to_a) != brute_pair) return "meshMeshAnyContact";
    }
    return nullptr;
}

} // namespace flak::test
