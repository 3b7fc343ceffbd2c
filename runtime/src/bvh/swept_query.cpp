#include <flak/bvh/swept_query.h>

#include "bvh/query_walk.h"
#include "bvh/wide_walk.h"

#include <flak/geom/segment_aabb.h>
#include <flak/geom/swept_sphere_triangle.h>

namespace flak {

bool sweptSphereFirstHit(const MeshBlob& blob, const Vec3& c0, const Vec3& c1, float radius,
                         MeshRayHit& out_hit, float t_limit) {
    if (blob.triangle_count == 0 || !isFinite(c0) || !isFinite(c1) || !std::isfinite(radius) || radius < 0.0f)
        return false;
    // The centre's path against node boxes grown by the radius: a ball touching a triangle has its
    // centre inside the triangle's box grown by the radius (Minkowski sum of a box and a ball).
    const float scale = detail::maxOf(detail::maxOf(detail::maxAbs(c0), detail::maxAbs(c1)), radius);
    detail::SegmentNodeTest nodes;
    if (!detail::makeSegmentNodeTest(blob, c0, c1, radius + detail::walkMargin(blob, scale), nodes))
        return false;
    if (t_limit < 1.0f) nodes.shorten(t_limit); // as if a hit at t_limit had been found
    MeshRayHit best;
    bool found = false;
    // Nearest first (walkSegmentNearestFirst): of equal t the lower id wins, whatever the order.
    detail::walkSegmentNearestFirst(blob, nodes, [&](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t t = first; t < first + count; ++t) {
            Vec3 a, b, c;
            triangleVertices(blob, t, a, b, c);
            RayHit hit;
            if (!sweptSphereTriangle(c0, c1, radius, a, b, c, hit)) continue;
            if (found && !detail::closerHit(hit, t, best)) continue;
            best.hit = hit;
            best.triangle = t;
            found = true;
            nodes.shorten(hit.t);
        }
        return true;
    });
    if (found) out_hit = best;
    return found;
}

bool sweptSphereFirstHit(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3& c0, const Vec3& c1,
                         float radius, MeshRayHit& out_hit, float t_limit) {
    Vec3 l0, l1;
    inverseTransformPoint(mesh_to_world, c0, l0);
    inverseTransformPoint(mesh_to_world, c1, l1);
    MeshRayHit hit;
    if (!sweptSphereFirstHit(blob, l0, l1, radius, hit, t_limit)) return false;
    transformPoint(mesh_to_world, hit.hit.point, hit.hit.point);
    transformVector(mesh_to_world, hit.hit.normal, hit.hit.normal);
    out_hit = hit;
    return true;
}

} // namespace flak
