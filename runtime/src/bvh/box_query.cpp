#include <flak/bvh/box_query.h>

#include "bvh/query_walk.h"
#include "bvh/wide_walk.h"

#include <flak/geom/obb_obb.h>
#include <flak/geom/triangle_aabb.h>

namespace flak {

namespace {

void pushId(std::uint32_t id, OutBuffer<std::uint32_t>& inout, bool& inout_full) {
    if (!inout.append(id)) inout_full = true;
}

bool validObb(const Obb& box) {
    return isFinite(box.center) && isFinite(box.halfExtents) && isFinite(box.rotation) &&
           box.halfExtents.x >= 0.0f && box.halfExtents.y >= 0.0f && box.halfExtents.z >= 0.0f;
}

} // namespace

bool triangleObbOverlap(const Vec3& a, const Vec3& b, const Vec3& c, const Obb& box) {
    if (!validObb(box)) return false;
    Vec3 d, la, lb, lc;
    sub(a, box.center, d);
    mulTransposed(box.rotation, d, la);
    sub(b, box.center, d);
    mulTransposed(box.rotation, d, lb);
    sub(c, box.center, d);
    mulTransposed(box.rotation, d, lc);
    Aabb local;
    negate(box.halfExtents, local.min);
    local.max = box.halfExtents;
    return triangleAabbOverlap(la, lb, lc, local);
}

Status aabbOverlapTriangles(const MeshBlob& blob, const Aabb& box, OutBuffer<std::uint32_t>& inout_ids) {
    if (blob.triangle_count == 0 || !isFinite(box.min) || !isFinite(box.max) || !(box.min.x <= box.max.x) ||
        !(box.min.y <= box.max.y) || !(box.min.z <= box.max.z))
        return Status::Ok;
    const float scale = detail::maxOf(detail::maxAbs(box.min), detail::maxAbs(box.max));
    Aabb grown;
    inflate(box, detail::walkMargin(blob, scale), grown);
    detail::QuantBox q;
    detail::quantizeBox(blob, grown, q);
    bool full = false;
    detail::walkBoxTriangles(blob, q, [&](std::uint32_t t) {
        Vec3 a, b, c;
        triangleVertices(blob, t, a, b, c);
        if (triangleAabbOverlap(a, b, c, box)) pushId(t, inout_ids, full);
        return true;
    });
    return full ? Status::BufferFull : Status::Ok;
}

Status obbOverlapTriangles(const MeshBlob& blob, const Obb& box, OutBuffer<std::uint32_t>& inout_ids) {
    if (blob.triangle_count == 0 || !validObb(box)) return Status::Ok;
    Aabb bounds;
    boundingAabb(box, bounds);
    const float scale = detail::maxAbs(box.center) + detail::maxAbs(box.halfExtents);
    detail::NodeDecoder dec;
    const float margin = detail::walkMargin(blob, scale);
    detail::makeNodeDecoder(blob, margin, dec);
    inflate(bounds, margin, bounds);
    detail::QuantBox q;
    detail::quantizeBox(blob, bounds, q);
    bool full = false;
    const auto node_test = [&](const BvhNode& n) {
        if (!detail::nodeOverlaps(n, q)) return false;
        Aabb node_box;
        detail::decodeNode(dec, n, node_box);
        // The separating-axis test prunes the corners the bounding box lets through.
        Obb node_obb;
        center(node_box, node_obb.center);
        halfExtents(node_box, node_obb.halfExtents);
        return obbObbOverlap(box, node_obb);
    };
    detail::walkNodeTestLeaves(blob, node_test, [&](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t t = first; t < first + count; ++t) {
            Vec3 a, b, c;
            triangleVertices(blob, t, a, b, c);
            if (triangleObbOverlap(a, b, c, box)) pushId(t, inout_ids, full);
        }
        return true;
    });
    return full ? Status::BufferFull : Status::Ok;
}

Status obbOverlapTriangles(const MeshBlob& blob, const Transform& mesh_to_world, const Obb& box,
                           OutBuffer<std::uint32_t>& inout_ids) {
    Obb local;
    inverseTransformPoint(mesh_to_world, box.center, local.center);
    local.halfExtents = box.halfExtents;
    mulTransposed(mesh_to_world.rotation, box.rotation, local.rotation);
    return obbOverlapTriangles(blob, local, inout_ids);
}

} // namespace flak
