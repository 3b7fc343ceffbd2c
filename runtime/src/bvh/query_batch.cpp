#include <flak/bvh/query_batch.h>

#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>

namespace flak {

namespace {

// out_hit[k] = query(k) for k < count; returns how many were true.
template <class Query> std::uint32_t batch(std::uint32_t count, bool* out_hit, Query&& query) {
    std::uint32_t hits = 0;
    for (std::uint32_t k = 0; k < count; ++k) {
        out_hit[k] = query(k);
        hits += out_hit[k] ? 1u : 0u;
    }
    return hits;
}

// The hit of smallest t over meshes 0..mesh_count-1 (query(k, hit) answers mesh k), equal t going
// to the lower index; out_hit and out_mesh are written only when some mesh was hit.
template <class Query>
bool firstOverMeshes(std::uint32_t mesh_count, MeshRayHit& out_hit, std::uint32_t& out_mesh, Query&& query) {
    bool found = false;
    MeshRayHit best;
    std::uint32_t best_mesh = 0;
    for (std::uint32_t k = 0; k < mesh_count; ++k) {
        MeshRayHit hit;
        if (!query(k, hit)) continue;
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

} // namespace

std::uint32_t sphereAnyHitBatch(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere* spheres,
                                std::uint32_t count, bool* out_hit) {
    return batch(count, out_hit,
                 [&](std::uint32_t k) { return sphereAnyHit(blob, mesh_to_world, spheres[k]); });
}

std::uint32_t segmentClosestHitBatch(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3* p0,
                                     const Vec3* p1, std::uint32_t count, MeshRayHit* out_hits, bool* out_hit,
                                     SegmentTest test) {
    return batch(count, out_hit, [&](std::uint32_t k) {
        return segmentClosestHit(blob, mesh_to_world, p0[k], p1[k], out_hits[k], test);
    });
}

std::uint32_t sweptSphereFirstHitBatch(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3* c0,
                                       const Vec3* c1, const float* radii, std::uint32_t count,
                                       MeshRayHit* out_hits, bool* out_hit) {
    return batch(count, out_hit, [&](std::uint32_t k) {
        return sweptSphereFirstHit(blob, mesh_to_world, c0[k], c1[k], radii[k], out_hits[k]);
    });
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
    return firstOverMeshes(mesh_count, out_hit, out_mesh, [&](std::uint32_t k, MeshRayHit& hit) {
        return segmentClosestHit(blobs[k], mesh_to_world[k], p0, p1, hit, test);
    });
}

bool sweptSphereFirstHitMeshes(const MeshBlob* blobs, const Transform* mesh_to_world,
                               std::uint32_t mesh_count, const Vec3& c0, const Vec3& c1, float radius,
                               MeshRayHit& out_hit, std::uint32_t& out_mesh) {
    return firstOverMeshes(mesh_count, out_hit, out_mesh, [&](std::uint32_t k, MeshRayHit& hit) {
        return sweptSphereFirstHit(blobs[k], mesh_to_world[k], c0, c1, radius, hit);
    });
}

} // namespace flak
