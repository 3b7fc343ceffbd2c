#include <flak/bvh/segment_query.h>
#include <flak/shooter/beam.h>

#include "shooter/shot_cast.h"

#include <cmath>

namespace flak {

namespace {

// Uniform Catmull-Rom (Catmull & Rom 1974) on piece p1 -> p2 with neighbours p0, p3, at u in
// [0, 1]: 0.5 * (2 p1 + (-p0 + p2) u + (2 p0 - 5 p1 + 4 p2 - p3) u^2 + (-p0 + 3 p1 - 3 p2 + p3) u^3).
float catmullRom(float p0, float p1, float p2, float p3, float u) {
    const float u2 = u * u, u3 = u2 * u;
    return 0.5f * (2.0f * p1 + (p2 - p0) * u + (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * u2 +
                   (3.0f * p1 - p0 - 3.0f * p2 + p3) * u3);
}

void samplePiecewise(const Vec3* c, std::uint32_t n, BeamCurve curve, float u, Vec3& out) {
    const std::uint32_t pieces = n - 1;
    const float x = u * static_cast<float>(pieces);
    std::uint32_t k = static_cast<std::uint32_t>(x);
    if (k >= pieces) k = pieces - 1;
    const float f = x - static_cast<float>(k);
    if (curve == BeamCurve::Polyline) {
        lerp(c[k], c[k + 1], f, out);
        return;
    }
    const Vec3& p0 = c[k == 0 ? 0 : k - 1];
    const Vec3& p1 = c[k];
    const Vec3& p2 = c[k + 1];
    const Vec3& p3 = c[k + 2 < n ? k + 2 : n - 1];
    set(catmullRom(p0.x, p1.x, p2.x, p3.x, f), catmullRom(p0.y, p1.y, p2.y, p3.y, f),
        catmullRom(p0.z, p1.z, p2.z, p3.z, f), out);
}

// de Casteljau's algorithm on a stack copy of the control points (at most kMaxBeamControlPoints).
void sampleBezier(const Vec3* c, std::uint32_t n, float u, Vec3& out) {
    Vec3 work[kMaxBeamControlPoints];
    for (std::uint32_t i = 0; i < n; ++i) work[i] = c[i];
    for (std::uint32_t level = n - 1; level > 0; --level)
        for (std::uint32_t i = 0; i < level; ++i) lerp(work[i], work[i + 1], u, work[i]);
    out = work[0];
}

// Orders two candidate hits: smaller t wins; equal t keeps the earlier one (kinds are offered in
// the order meshes, walls, clusters, and targets in index order).
} // namespace

Status sampleBeam(const Vec3* control, std::uint32_t control_count, BeamCurve curve, std::uint32_t segments,
                  Vec3* out_points, std::uint32_t capacity) {
    if (control == nullptr || out_points == nullptr || control_count < 2 ||
        control_count > kMaxBeamControlPoints || segments < 1 || static_cast<std::uint32_t>(curve) > 2)
        return Status::InvalidArgument;
    for (std::uint32_t i = 0; i < control_count; ++i)
        if (!isFinite(control[i])) return Status::InvalidArgument;
    if (std::uint64_t{capacity} < std::uint64_t{segments} + 1) return Status::TooSmall;
    for (std::uint32_t k = 0; k <= segments; ++k) {
        const float u = static_cast<float>(static_cast<double>(k) / segments);
        if (curve == BeamCurve::Bezier)
            sampleBezier(control, control_count, u, out_points[k]);
        else
            samplePiecewise(control, control_count, curve, u, out_points[k]);
    }
    out_points[0] = control[0];
    out_points[segments] = control[control_count - 1];
    return Status::Ok;
}

bool segmentTargetsFirstHit(const Vec3& p0, const Vec3& p1, const ShotTargets& targets, ShotHit& out_hit) {
    if (!isFinite(p0) || !isFinite(p1)) return false;
    return detail::firstShotHit(
        p0, p1, targets,
        [&](const MeshTarget& m, float, MeshRayHit& h) {
            return segmentClosestHit(*m.blob, m.mesh_to_world, p0, p1, h);
        },
        [&](const WallTarget& w, WallRayHit& h) {
            return segmentWallsFirstHit(*w.walls, Vec2{p0.x, p0.y}, Vec2{p1.x, p1.y}, h);
        },
        [&](const ClusterTarget& c, ClusterRayHit& h) {
            return segmentClusterFirstHit(*c.cluster, c.cluster_to_world, p0, p1, h);
        },
        out_hit);
}

bool castBeam(const Vec3* points, std::uint32_t point_count, const ShotTargets& targets, ShotHit& out_hit) {
    if (points == nullptr || point_count < 2) return false;
    double travelled = 0.0;
    for (std::uint32_t k = 0; k + 1 < point_count; ++k) {
        const Vec3& p0 = points[k];
        const Vec3& p1 = points[k + 1];
        ShotHit h;
        if (segmentTargetsFirstHit(p0, p1, targets, h)) {
            h.segment = k;
            h.distance = static_cast<float>(travelled + double(h.distance));
            out_hit = h;
            return true;
        }
        if (isFinite(p0) && isFinite(p1)) {
            Vec3 d;
            sub(p1, p0, d);
            travelled += double(length(d));
        }
    }
    return false;
}

} // namespace flak
