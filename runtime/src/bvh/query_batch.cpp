#include <flak/bvh/query_batch.h>

#include <flak/bvh/sphere_query.h>

namespace flak {

std::uint32_t sphereAnyHitBatch(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere* spheres,
                                std::uint32_t count, bool* out_hit) {
    std::uint32_t hits = 0;
    for (std::uint32_t k = 0; k < count; ++k) {
        out_hit[k] = sphereAnyHit(blob, mesh_to_world, spheres[k]);
        hits += out_hit[k] ? 1u : 0u;
    }
    return hits;
}

std::uint32_t segmentClosestHitBatch(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3* p0,
                                     const Vec3* p1, std::uint32_t count, MeshRayHit* out_hits, bool* out_hit,
                                     SegmentTest test) {
    std::uint32_t hits = 0;
    for (std::uint32_t k = 0; k < count; ++k) {
        out_hit[k] = segmentClosestHit(blob, mesh_to_world, p0[k], p1[k], out_hits[k], test);
        hits += out_hit[k] ? 1u : 0u;
    }
    return hits;
}

bool sphereAnyHitMeshes(const MeshBlob* blobs, const Transform* mesh_to_world, std::uint32_t mesh_count,
                        const Sphere& sphere, std::uint32_t& out_mesh) {
    for (std::uint32_t k = 0; k < mesh_count; ++k) {
        if (sphereAnyHit(blobs[k], mesh_to_world[k], sphere)) {
            out_mesh = k;
            return true;
        }
    }
    return false;
}

bool segmentClosestHitMeshes(const MeshBlob* blobs, const Transform* mesh_to_world, std::uint32_t mesh_count,
                             const Vec3& p0, const Vec3& p1, MeshRayHit& out_hit, std::uint32_t& out_mesh,
                             SegmentTest test) {
    bool found = false;
    MeshRayHit best;
    std::uint32_t best_mesh = 0;
    for (std::uint32_t k = 0; k < mesh_count; ++k) {
        MeshRayHit hit;
        if (!segmentClosestHit(blobs[k], mesh_to_world[k], p0, p1, hit, test)) continue;
        if (found && !(hit.hit.t < best.hit.t)) continue; // equal t: the lower mesh index stays
        best = hit;
        best_mesh = k;
        found = true;
    }
    if (found) {
        out_hit = best;
        out_mesh = best_mesh;
    }
    return found;
}

} // namespace flak
