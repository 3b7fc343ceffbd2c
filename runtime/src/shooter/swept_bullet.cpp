#include <flak/bvh/swept_query.h>
#include <flak/shooter/swept_bullet.h>

#include <cmath>

namespace flak {

bool sweptBulletFirstHit(const Vec3& c0, const Vec3& c1, float radius, const ShotTargets& targets,
                         ShotHit& out_hit) {
    if (!isFinite(c0) || !isFinite(c1) || !std::isfinite(radius) || !(radius >= 0.0f)) return false;
    bool have = false;
    ShotHit best;
    for (std::uint32_t i = 0; i < targets.mesh_count && targets.meshes != nullptr; ++i) {
        const MeshTarget& m = targets.meshes[i];
        MeshRayHit h;
        if (m.blob == nullptr || !sweptSphereFirstHit(*m.blob, m.mesh_to_world, c0, c1, radius, h)) continue;
        if (have && !(h.hit.t < best.t)) continue;
        best = ShotHit{};
        best.kind = ShotTargetKind::Mesh;
        best.target = i;
        best.id = m.id;
        best.feature = h.triangle;
        best.t = h.hit.t;
        best.point = h.hit.point;
        best.normal = h.hit.normal;
        have = true;
    }
    for (std::uint32_t i = 0; i < targets.wall_count && targets.walls != nullptr; ++i) {
        const WallTarget& w = targets.walls[i];
        WallRayHit h;
        if (w.walls == nullptr ||
            !sweptCircleWallsFirstHit(*w.walls, Vec2{c0.x, c0.y}, Vec2{c1.x, c1.y}, radius, h))
            continue;
        if (have && !(h.t < best.t)) continue;
        best = ShotHit{};
        best.kind = ShotTargetKind::Walls;
        best.target = i;
        best.id = w.id;
        best.feature = h.edge;
        best.polygon = h.polygon;
        best.ring = h.ring;
        best.t = h.t;
        set(h.point.x, h.point.y, c0.z + (c1.z - c0.z) * h.t, best.point);
        set(h.normal.x, h.normal.y, 0.0f, best.normal);
        if (!normalize(best.normal, best.normal)) {
            Vec3 back;
            sub(c0, c1, back);
            if (!normalize(back, best.normal)) set(1.0f, 0.0f, 0.0f, best.normal);
        }
        have = true;
    }
    for (std::uint32_t i = 0; i < targets.cluster_count && targets.clusters != nullptr; ++i) {
        const ClusterTarget& c = targets.clusters[i];
        ClusterRayHit h;
        if (c.cluster == nullptr ||
            !sweptSphereClusterFirstHit(*c.cluster, c.cluster_to_world, c0, c1, radius, h))
            continue;
        if (have && !(h.hit.t < best.t)) continue;
        best = ShotHit{};
        best.kind = ShotTargetKind::Cluster;
        best.target = i;
        best.id = c.id;
        best.feature = h.sphere;
        best.t = h.hit.t;
        best.point = h.hit.point;
        best.normal = h.hit.normal;
        have = true;
    }
    if (!have) return false;
    Vec3 d;
    sub(c1, c0, d);
    best.distance = best.t * length(d);
    out_hit = best;
    return true;
}

} // namespace flak
