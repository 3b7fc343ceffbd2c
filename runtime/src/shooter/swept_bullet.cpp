#include <flak/bvh/swept_query.h>
#include <flak/shooter/swept_bullet.h>

#include "shooter/shot_cast.h"

#include <cmath>

namespace flak {

bool sweptBulletFirstHit(const Vec3& c0, const Vec3& c1, float radius, const ShotTargets& targets,
                         ShotHit& out_hit) {
    if (!isFinite(c0) || !isFinite(c1) || !std::isfinite(radius) || !(radius >= 0.0f)) return false;
    return detail::firstShotHit(
        c0, c1, targets,
        [&](const MeshTarget& m, float t_limit, MeshRayHit& h) {
            return sweptSphereFirstHit(*m.blob, m.mesh_to_world, c0, c1, radius, h, t_limit);
        },
        [&](const WallTarget& w, WallRayHit& h) {
            return sweptCircleWallsFirstHit(*w.walls, Vec2{c0.x, c0.y}, Vec2{c1.x, c1.y}, radius, h);
        },
        [&](const ClusterTarget& c, ClusterRayHit& h) {
            return sweptSphereClusterFirstHit(*c.cluster, c.cluster_to_world, c0, c1, radius, h);
        },
        out_hit);
}

} // namespace flak
