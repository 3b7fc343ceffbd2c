#include <flak/bvh/sphere_query.h>

#include "bvh/query_walk.h"

#include <flak/geom/sphere_aabb.h>
#include <flak/geom/sphere_triangle.h>

namespace flak {

namespace {

bool validSphere(const Sphere& s) { return isFinite(s.center) && std::isfinite(s.radius) && s.radius >= 0.0f; }

// The query's box, grown by the margin, in the quantized grid (integer node tests); each
// triangle's exact box is then tested with Arvo's distance against the grown radius before the
// kernel runs. Both filters are conservative beyond rounding, so the kernel sees every triangle
// it could accept.
struct PreparedSphere {
    detail::QuantBox qbox;
    float grown_radius_sq;
};

void prepareSphere(const MeshBlob& blob, const Sphere& s, PreparedSphere& out) {
    const float margin = detail::walkMargin(blob, detail::maxOf(detail::maxAbs(s.center), s.radius));
    const float r = s.radius + margin;
    Aabb box;
    set(s.center.x - r, s.center.y - r, s.center.z - r, box.min);
    set(s.center.x + r, s.center.y + r, s.center.z + r, box.max);
    detail::quantizeBox(blob, box, out.qbox);
    out.grown_radius_sq = r * r;
}

bool triangleNear(const Sphere& s, const PreparedSphere& p, const Vec3& a, const Vec3& b, const Vec3& c) {
    Aabb box;
    min(a, b, box.min);
    min(box.min, c, box.min);
    max(a, b, box.max);
    max(box.max, c, box.max);
    return distanceSq(s.center, box) <= p.grown_radius_sq;
}

void sphereToMesh(const Transform& mesh_to_world, const Sphere& world, Sphere& out) {
    inverseTransformPoint(mesh_to_world, world.center, out.center);
    out.radius = world.radius;
}

} // namespace

bool sphereAnyHit(const MeshBlob& blob, const Sphere& sphere) {
    if (blob.node_count == 0 || !validSphere(sphere)) return false;
    PreparedSphere prep;
    prepareSphere(blob, sphere, prep);
    const bool walked_all = detail::walkLeafTriangles(
        blob, [&](const BvhNode& n) { return detail::nodeOverlaps(n, prep.qbox); },
        [&](std::uint32_t t) {
            Vec3 a, b, c;
            triangleVertices(blob, t, a, b, c);
            if (!triangleNear(sphere, prep, a, b, c)) return true;
            Contact contact;
            return !sphereTriangle(sphere, a, b, c, contact);
        });
    return !walked_all;
}

bool sphereAnyHit(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere& sphere) {
    Sphere local;
    sphereToMesh(mesh_to_world, sphere, local);
    return sphereAnyHit(blob, local);
}

Status sphereAllHits(const MeshBlob& blob, const Sphere& sphere, ContactBuffer& inout_hits) {
    if (blob.node_count == 0 || !validSphere(sphere)) return Status::Ok;
    PreparedSphere prep;
    prepareSphere(blob, sphere, prep);
    bool full = false;
    detail::walkLeafTriangles(
        blob, [&](const BvhNode& n) { return detail::nodeOverlaps(n, prep.qbox); },
        [&](std::uint32_t t) {
            Vec3 a, b, c;
            triangleVertices(blob, t, a, b, c);
            if (!triangleNear(sphere, prep, a, b, c)) return true;
            Contact contact;
            if (!sphereTriangle(sphere, a, b, c, contact)) return true;
            if (inout_hits.count < inout_hits.capacity) {
                MeshContact& out = inout_hits.items[inout_hits.count++];
                out.contact = contact;
                out.triangle = t;
            } else {
                ++inout_hits.overflow;
                full = true;
            }
            return true;
        });
    return full ? Status::BufferFull : Status::Ok;
}

Status sphereAllHits(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere& sphere,
                     ContactBuffer& inout_hits) {
    Sphere local;
    sphereToMesh(mesh_to_world, sphere, local);
    const std::uint32_t first = inout_hits.count;
    const Status s = sphereAllHits(blob, local, inout_hits);
    for (std::uint32_t k = first; k < inout_hits.count; ++k) {
        Contact& c = inout_hits.items[k].contact;
        transformPoint(mesh_to_world, c.point, c.point);
        transformVector(mesh_to_world, c.normal, c.normal);
    }
    return s;
}

} // namespace flak
