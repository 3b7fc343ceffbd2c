#include <flak/assert.h>
#include <flak/geom/tolerance.h>
#include <flak/shooter/sphere_cluster.h>

#include "shooter/blob_sections_check.h"
#include "shooter/shooter_slack.h"

#include <cmath>

namespace flak {

// The bound: centre of the spheres' box, radius the farthest sphere surface from it (in double),
// grown by the slack so member-level float decisions never fall outside it.
Status makeSphereCluster(const Sphere* spheres, std::uint32_t count, SphereCluster& out_cluster) {
    out_cluster = SphereCluster{};
    if (spheres == nullptr || count == 0 || count > kMaxClusterSpheres) return Status::InvalidArgument;
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (std::uint32_t i = 0; i < count; ++i) {
        const Sphere& s = spheres[i];
        if (!isFinite(s.center) || !std::isfinite(s.radius) || !(s.radius >= 0.0f))
            return Status::InvalidArgument;
        for (int a = 0; a < 3; ++a) {
            lo[a] = std::fmin(lo[a], double(s.center[a]));
            hi[a] = std::fmax(hi[a], double(s.center[a]));
        }
    }
    double c[3], scale = 0.0, r = 0.0;
    for (int a = 0; a < 3; ++a) {
        c[a] = 0.5 * (lo[a] + hi[a]);
        scale = std::fmax(scale, std::fmax(std::fabs(lo[a]), std::fabs(hi[a])));
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        const Sphere& s = spheres[i];
        const double dx = s.center.x - c[0], dy = s.center.y - c[1], dz = s.center.z - c[2];
        r = std::fmax(r, std::sqrt(dx * dx + dy * dy + dz * dz) + s.radius);
    }
    scale = std::fmax(scale, r);
    Sphere bound;
    set(static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2]), bound.center);
    bound.radius = static_cast<float>(r + detail::shooterSlack(scale));
    out_cluster.spheres = spheres;
    out_cluster.count = count;
    out_cluster.bound = bound;
    return Status::Ok;
}

bool sphereClusterIsValid(const SphereCluster& cluster) {
    SphereCluster made;
    if (makeSphereCluster(cluster.spheres, cluster.count, made) != Status::Ok) return false;
    const Sphere& b = cluster.bound;
    if (!isFinite(b.center) || !std::isfinite(b.radius)) return false;
    // In double: the rounding is far inside the bound's slack (and a made cluster's own bound
    // is at distance 0).
    const double dx = double(made.bound.center.x) - b.center.x, dy = double(made.bound.center.y) - b.center.y,
                 dz = double(made.bound.center.z) - b.center.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz) + made.bound.radius <= double(b.radius);
}

Status loadSphereCluster(const Blob& blob, SphereCluster& out_cluster, BlobError* out_error) {
    out_cluster = SphereCluster{};
    if (out_error != nullptr) *out_error = BlobError{};
    const BlobSection section = blobSection(blob, SectionKind::SphereCluster);
    if (section.data == nullptr) return Status::InvalidArgument;
    const Sphere* spheres = static_cast<const Sphere*>(section.data);
    const Status checked = detail::checkClusterSection(spheres, section.count, section.offset, out_error);
    if (checked != Status::Ok) return checked;
    return makeSphereCluster(spheres, section.count, out_cluster);
}

void clusterWorldBound(const SphereCluster& cluster, const Transform& cluster_to_world, Sphere& out_bound) {
    Vec3 c;
    transformPoint(cluster_to_world, cluster.bound.center, c);
    const double scale = detail::maxOf(double(detail::maxAbs(c)), double(cluster.bound.radius)) +
                         double(detail::maxAbs(cluster_to_world.translation));
    out_bound.center = c;
    out_bound.radius = static_cast<float>(cluster.bound.radius + detail::shooterSlack(scale));
}

void clusterWorldSphere(const SphereCluster& cluster, const Transform& cluster_to_world, std::uint32_t index,
                        Sphere& out_sphere) {
    FLAK_ASSERT(index < cluster.count, "clusterWorldSphere: sphere index out of range");
    if (index >= cluster.count) { // the assert handler returned (or asserts are off): a defined answer
        out_sphere = Sphere{};
        return;
    }
    const Sphere& s = cluster.spheres[index];
    transformPoint(cluster_to_world, s.center, out_sphere.center);
    out_sphere.radius = s.radius;
}

} // namespace flak
