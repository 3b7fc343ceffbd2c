#include <flak/shooter/segment_sphere.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/swept_bullet.h>

#include "shooter/shooter_slack.h"

#include <cfloat>
#include <cmath>

namespace flak {

namespace {

// Smallest segmentSphere t over the cluster's world spheres grown by `grow` (0 for a segment, the
// bullet's radius for a sweep), ties to the lower index, after a test against the grown bound.
bool firstSphere(const SphereCluster& cluster, const Transform& cluster_to_world, const Vec3& p0,
                 const Vec3& p1, float grow, ClusterRayHit& out_hit, Sphere& out_sphere) {
    if (cluster.spheres == nullptr || cluster.count == 0 || cluster.count > kMaxClusterSpheres) return false;
    if (!isFinite(cluster_to_world) || !isFinite(p0) || !isFinite(p1)) return false;
    Sphere bound;
    clusterWorldBound(cluster, cluster_to_world, bound);
    // Grown with slack at grow's own scale: where grow dwarfs the cluster, its rounding in the
    // members' s.radius + grow exceeds the bound's slack, which is at the cluster's scale.
    // A bound beyond float's range (grow near FLT_MAX) cannot be tested: the members are.
    const double reach = double(bound.radius) + double(grow) + detail::shooterSlack(double(grow));
    bound.radius = reach < double(FLT_MAX) ? static_cast<float>(reach) : FLT_MAX;
    RayHit probe;
    if (reach < double(FLT_MAX) && !segmentSphere(p0, p1, bound, probe)) return false;
    bool found = false;
    for (std::uint32_t i = 0; i < cluster.count; ++i) {
        Sphere s;
        clusterWorldSphere(cluster, cluster_to_world, i, s);
        const Sphere grown{s.center, s.radius + grow};
        RayHit h;
        if (!segmentSphere(p0, p1, grown, h)) continue;
        if (!found || h.t < out_hit.hit.t) {
            out_hit.hit = h;
            out_hit.sphere = i;
            out_sphere = s;
            found = true;
        }
    }
    return found;
}

} // namespace

bool segmentClusterFirstHit(const SphereCluster& cluster, const Transform& cluster_to_world, const Vec3& p0,
                            const Vec3& p1, ClusterRayHit& out_hit) {
    ClusterRayHit best;
    Sphere s;
    if (!firstSphere(cluster, cluster_to_world, p0, p1, 0.0f, best, s)) return false;
    out_hit = best;
    return true;
}

// The sweep is the centre's segment against each sphere grown by the bullet's radius; the contact
// point is then moved from the grown surface to the cluster sphere's own surface.
bool sweptSphereClusterFirstHit(const SphereCluster& cluster, const Transform& cluster_to_world,
                                const Vec3& c0, const Vec3& c1, float radius, ClusterRayHit& out_hit) {
    if (!std::isfinite(radius) || !(radius >= 0.0f)) return false;
    ClusterRayHit best;
    Sphere s;
    if (!firstSphere(cluster, cluster_to_world, c0, c1, radius, best, s)) return false;
    addScaled(s.center, best.hit.normal, s.radius, best.hit.point);
    out_hit = best;
    return true;
}

} // namespace flak
