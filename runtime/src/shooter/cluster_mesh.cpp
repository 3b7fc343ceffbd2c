#include <flak/bvh/sphere_query.h>
#include <flak/shooter/sphere_cluster.h>

#include "shooter/shooter_slack.h"

#include <cmath>

namespace flak {

namespace {

// Whether the cluster's world bound can touch the mesh at all: the bound taken into mesh space
// against the mesh's exact box, grown by the slack (conservative beyond the rounding of both
// transforms). One cheap test before any tree walk.
bool boundNearMesh(const SphereCluster& cluster, const Transform& cluster_to_world, const MeshBlob& mesh,
                   const Transform& mesh_to_world) {
    if (mesh.triangle_count == 0 || cluster.count == 0 || cluster.spheres == nullptr) return false;
    if (!isFinite(cluster_to_world) || !isFinite(mesh_to_world)) return false;
    Sphere bound;
    clusterWorldBound(cluster, cluster_to_world, bound);
    Vec3 c;
    inverseTransformPoint(mesh_to_world, bound.center, c);
    const double scale = double(detail::maxAbs(c)) + detail::maxAbs(mesh.bounds.min) +
                         detail::maxAbs(mesh.bounds.max) + detail::maxAbs(mesh_to_world.translation) +
                         bound.radius;
    const double grow = detail::shooterSlack(scale);
    double d2 = 0.0;
    for (int a = 0; a < 3; ++a) {
        const double lo = double(mesh.bounds.min[a]) - grow, hi = double(mesh.bounds.max[a]) + grow, v = c[a];
        const double e = v < lo ? lo - v : (v > hi ? v - hi : 0.0);
        d2 += e * e;
    }
    const double r = double(bound.radius) + grow;
    return d2 <= r * r;
}

} // namespace

// Per sphere, the mesh's own query (one walk each, which stops at the first hit). Measured against
// one shared walk that tracks the set of spheres overlapping each node (29 box tests per node), on
// the binary tree blobs held before, the separate walks were about 2-4x faster, because each
// sphere's walk prunes to its own few nodes.
bool clusterMeshAnyHit(const SphereCluster& cluster, const Transform& cluster_to_world, const MeshBlob& mesh,
                       const Transform& mesh_to_world) {
    if (!boundNearMesh(cluster, cluster_to_world, mesh, mesh_to_world)) return false;
    for (std::uint32_t i = 0; i < cluster.count; ++i) {
        Sphere s;
        clusterWorldSphere(cluster, cluster_to_world, i, s);
        if (sphereAnyHit(mesh, mesh_to_world, s)) return true;
    }
    return false;
}

// Each sphere's sphereAllHits appends straight into the caller's OutBuffer<MeshContact>; the parallel
// sphere ids are filled for the records it added.
Status clusterMeshContacts(const SphereCluster& cluster, const Transform& cluster_to_world,
                           const MeshBlob& mesh, const Transform& mesh_to_world,
                           ClusterMeshBuffer& inout_contacts) {
    if (!boundNearMesh(cluster, cluster_to_world, mesh, mesh_to_world)) return Status::Ok;
    Status status = Status::Ok;
    for (std::uint32_t i = 0; i < cluster.count; ++i) {
        Sphere s;
        clusterWorldSphere(cluster, cluster_to_world, i, s);
        const std::uint32_t before = inout_contacts.hits.count;
        if (sphereAllHits(mesh, mesh_to_world, s, inout_contacts.hits) != Status::Ok)
            status = Status::BufferFull;
        if (inout_contacts.spheres != nullptr)
            for (std::uint32_t k = before; k < inout_contacts.hits.count; ++k) inout_contacts.spheres[k] = i;
    }
    return status;
}

} // namespace flak
