// flak — the first hit of one shot over a ShotTargets list, shared by segments (beams) and swept
// bullets: only the per-target cast differs.
#pragma once

#include <flak/shooter/shot_targets.h>

namespace flak::detail {

/// Runs mesh_cast(target, t_limit, MeshRayHit&), wall_cast(target, WallRayHit&) and
/// cluster_cast(target, ClusterRayHit&) (each true on a hit, t along p0 -> p1) over every non-null
/// target and keeps the smallest t; equal t go to meshes, then walls, then clusters, then the
/// lower index. t_limit is the best t so far (1 before any hit): a mesh cast may skip what cannot
/// come before it. Once a hit at t = 0 is held nothing can beat it, and the rest is skipped. A wall hit
/// takes the shot's z at t and the normal (nx, ny, 0) normalised; when that is zero (a vertical
/// shot starting inside) it faces against the shot, or +x when the shot has no length (as a
/// cluster hit does then). distance = t * |p1 - p0|. False (out_hit untouched) when nothing is hit.
template <class MeshCast, class WallCast, class ClusterCast>
bool firstShotHit(const Vec3& p0, const Vec3& p1, const ShotTargets& targets, MeshCast mesh_cast,
                  WallCast wall_cast, ClusterCast cluster_cast, ShotHit& out_hit) {
    bool have = false;
    ShotHit best;
    for (std::uint32_t i = 0; i < targets.mesh_count && targets.meshes != nullptr; ++i) {
        const MeshTarget& m = targets.meshes[i];
        MeshRayHit h;
        if (have && best.t <= 0.0f) break;
        if (m.blob == nullptr || !mesh_cast(m, have ? best.t : 1.0f, h)) continue;
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
        if (have && best.t <= 0.0f) break;
        if (w.walls == nullptr || !wall_cast(w, h)) continue;
        if (have && !(h.t < best.t)) continue;
        best = ShotHit{};
        best.kind = ShotTargetKind::Walls;
        best.target = i;
        best.id = w.id;
        best.feature = h.edge;
        best.polygon = h.polygon;
        best.ring = h.ring;
        best.t = h.t;
        set(h.point.x, h.point.y, p0.z + (p1.z - p0.z) * h.t, best.point);
        set(h.normal.x, h.normal.y, 0.0f, best.normal);
        if (!normalize(best.normal, best.normal)) { // a vertical shot starting inside: face against it
            Vec3 back;
            sub(p0, p1, back);
            if (!normalize(back, best.normal)) set(1.0f, 0.0f, 0.0f, best.normal);
        }
        have = true;
    }
    for (std::uint32_t i = 0; i < targets.cluster_count && targets.clusters != nullptr; ++i) {
        const ClusterTarget& c = targets.clusters[i];
        ClusterRayHit h;
        if (have && best.t <= 0.0f) break;
        if (c.cluster == nullptr || !cluster_cast(c, h)) continue;
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
    sub(p1, p0, d);
    best.distance = best.t * length(d);
    out_hit = best;
    return true;
}

} // namespace flak::detail
