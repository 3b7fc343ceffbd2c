#include <flak/geom/sphere_sphere.h>
#include <flak/shooter/sphere_cluster.h>

#include "shooter/shooter_slack.h"

namespace flak {

namespace {

bool validCluster(const SphereCluster& c, const Transform& t) {
    return c.spheres != nullptr && c.count > 0 && c.count <= kMaxClusterSpheres && isFinite(t);
}

// The pair walk shared by the any-hit and all-pairs forms: B's spheres placed once (stack array of
// kMaxClusterSpheres), each A sphere tested against B's bound, then against B's spheres in order.
// `visit` returns false to stop.
template <typename Visit>
void walkPairs(const SphereCluster& a, const Transform& a_to_world, const SphereCluster& b,
               const Transform& b_to_world, Visit&& visit) {
    if (!validCluster(a, a_to_world) || !validCluster(b, b_to_world)) return;
    Sphere bound_a, bound_b;
    clusterWorldBound(a, a_to_world, bound_a);
    clusterWorldBound(b, b_to_world, bound_b);
    if (!detail::boundsOverlap(bound_a, bound_b)) return;
    Sphere wb[kMaxClusterSpheres];
    for (std::uint32_t j = 0; j < b.count; ++j) clusterWorldSphere(b, b_to_world, j, wb[j]);
    for (std::uint32_t i = 0; i < a.count; ++i) {
        Sphere sa;
        clusterWorldSphere(a, a_to_world, i, sa);
        if (!detail::boundsOverlap(sa, bound_b)) continue;
        for (std::uint32_t j = 0; j < b.count; ++j) {
            ClusterPair pair;
            if (!sphereSphere(sa, wb[j], pair.contact)) continue;
            pair.a = i;
            pair.b = j;
            if (!visit(pair)) return;
        }
    }
}

} // namespace

bool clusterClusterAnyHit(const SphereCluster& a, const Transform& a_to_world, const SphereCluster& b,
                          const Transform& b_to_world, ClusterPair* out_first) {
    bool hit = false;
    walkPairs(a, a_to_world, b, b_to_world, [&](const ClusterPair& pair) {
        hit = true;
        if (out_first != nullptr) *out_first = pair;
        return false;
    });
    return hit;
}

Status clusterClusterPairs(const SphereCluster& a, const Transform& a_to_world, const SphereCluster& b,
                           const Transform& b_to_world, OutBuffer<ClusterPair>& inout_pairs) {
    const std::uint32_t dropped = inout_pairs.dropped;
    walkPairs(a, a_to_world, b, b_to_world, [&](const ClusterPair& pair) {
        (void)inout_pairs.append(pair);
        return true;
    });
    return inout_pairs.dropped == dropped ? Status::Ok : Status::BufferFull;
}

Status clusterBullets(const SphereCluster& cluster, const Transform& cluster_to_world, const Sphere* bullets,
                      std::uint32_t bullet_count, OutBuffer<ClusterPair>& inout_pairs) {
    if (!validCluster(cluster, cluster_to_world) || bullets == nullptr) return Status::Ok;
    const std::uint32_t dropped = inout_pairs.dropped;
    Sphere bound;
    clusterWorldBound(cluster, cluster_to_world, bound);
    Sphere ws[kMaxClusterSpheres];
    for (std::uint32_t i = 0; i < cluster.count; ++i) clusterWorldSphere(cluster, cluster_to_world, i, ws[i]);
    for (std::uint32_t j = 0; j < bullet_count; ++j) {
        const Sphere& bullet = bullets[j];
        if (!detail::validSphere(bullet) || !detail::boundsOverlap(bullet, bound)) continue;
        for (std::uint32_t i = 0; i < cluster.count; ++i) {
            ClusterPair pair;
            if (!sphereSphere(ws[i], bullet, pair.contact)) continue;
            pair.a = i;
            pair.b = j;
            (void)inout_pairs.append(pair);
        }
    }
    return inout_pairs.dropped == dropped ? Status::Ok : Status::BufferFull;
}

} // namespace flak
