// Every blob query between armed allocation traps (the trap is tests/no_alloc's): sphere any/all,
// segment closest/any, swept sphere, AABB/OBB lists, mesh vs mesh (any, pairs, summary), batches.
#include "flak_support/allocation_trap.h"
#include "query_meshes.h"

#include <flak/bvh/box_query.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/bvh/query_batch.h>
#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>

namespace flak::test {
namespace {

TEST(BvhQueryNoAlloc, EveryQueryKindAllocatesNothing) {
    const auto& meshes = queryMeshes(); // baked (and allocated) before arming
    static MeshContact contacts[256];
    static std::uint32_t ids[256];
    static TrianglePair pairs[256];
    static Sphere spheres[64];
    static Vec3 p0[64], p1[64];
    static MeshRayHit hits[64];
    static bool hit_flags[64];
    Transform xf;
    setIdentity(xf);
    std::uint64_t work = 0;
    armAllocationTrap();
    for (const auto& mp : meshes) {
        const BakedMesh& m = *mp;
        for (std::uint32_t k = 0; k < 64; ++k) {
            const float f = static_cast<float>(k) / 64.0f;
            lerp(m.bounds.min, m.bounds.max, f, spheres[k].center);
            spheres[k].radius = m.diag * 0.05f;
            p0[k] = spheres[k].center;
            lerp(m.bounds.max, m.bounds.min, f, p1[k]);
        }
        for (std::uint32_t k = 0; k < 64; ++k) {
            work += sphereAnyHit(m.blob, xf, spheres[k]) ? 1u : 0u;
            OutBuffer<MeshContact> cb{contacts, 256, 0, 0};
            work += sphereAllHits(m.blob, xf, spheres[k], cb) == Status::Ok ? cb.count : cb.dropped;
            MeshContact deepest;
            work += sphereDeepestHit(m.blob, xf, spheres[k], deepest) ? deepest.triangle : 0u;
            MeshRayHit h;
            work += segmentClosestHit(m.blob, xf, p0[k], p1[k], h) ? 1u : 0u;
            work += segmentAnyHit(m.blob, p0[k], p1[k], h, SegmentTest::Fast) ? 1u : 0u;
            work += sweptSphereFirstHit(m.blob, xf, p0[k], p1[k], spheres[k].radius, h) ? 1u : 0u;
            Obb box;
            box.center = spheres[k].center;
            set(spheres[k].radius, spheres[k].radius, spheres[k].radius, box.halfExtents);
            OutBuffer<std::uint32_t> tb{ids, 256, 0, 0};
            (void)obbOverlapTriangles(m.blob, xf, box, tb);
            Aabb aabb;
            boundingAabb(box, aabb);
            (void)aabbOverlapTriangles(m.blob, aabb, tb);
            work += tb.count + tb.dropped;
        }
        work += sphereAnyHitBatch(m.blob, xf, spheres, 64, hit_flags);
        work += segmentClosestHitBatch(m.blob, xf, p0, p1, 64, hits, hit_flags);
        float radii[64];
        for (int k = 0; k < 64; ++k) radii[k] = spheres[k].radius;
        work += sweptSphereFirstHitBatch(m.blob, xf, p0, p1, radii, 64, hits, hit_flags);
        std::uint32_t mesh_index = 0;
        MeshRayHit first;
        work +=
            sweptSphereFirstHitMeshes(&m.blob, &xf, 1, p0[0], p1[0], radii[0], first, mesh_index) ? 1u : 0u;
        work += segmentClosestHitMeshes(&m.blob, &xf, 1, p0[0], p1[0], first, mesh_index) ? 1u : 0u;
        work += sphereAnyHitMeshes(&m.blob, &xf, 1, spheres[0], mesh_index) ? 1u : 0u;
        Transform shifted = xf;
        shifted.translation.x = m.diag * 0.1f;
        OutBuffer<TrianglePair> pb{pairs, 256, 0, 0};
        (void)meshMeshPairs(m.blob, m.blob, shifted, pb);
        work += pb.count + pb.dropped;
        work += meshMeshAnyContact(m.blob, m.blob, shifted) ? 1u : 0u;
        MeshContactSummary summary;
        work += meshMeshSummary(m.blob, m.blob, shifted, summary) ? summary.pair_count : 0u;
    }
    const std::size_t seen = disarmAllocationTrap();
    EXPECT_GT(work, 0u);
    EXPECT_EQ(seen, 0u) << "a blob query allocated";
}

} // namespace
} // namespace flak::test
