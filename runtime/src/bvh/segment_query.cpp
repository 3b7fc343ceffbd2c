#include <flak/bvh/segment_query.h>

#include "bvh/query_walk.h"

#include <flak/geom/segment_aabb.h>
#include <flak/geom/segment_triangle.h>

namespace flak {

namespace {

// Everything a segment walk prepares once: the slab form for node boxes, the watertight ray for
// triangles, the decoder with the margin folded in.
struct PreparedSegment {
    detail::SegmentNodeTest nodes;
    WatertightRay ray;
    Vec3 p0;
    Vec3 p1;
};

bool prepare(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, SegmentTest test, PreparedSegment& out) {
    if (blob.node_count == 0 || !isFinite(p0) || !isFinite(p1)) return false;
    Vec3 d;
    sub(p1, p0, d);
    if (!isFinite(d) || lengthSq(d) == 0.0f) return false;
    const float scale = detail::maxOf(detail::maxOf(detail::maxAbs(p0), detail::maxAbs(p1)), detail::maxAbs(d));
    if (!detail::makeSegmentNodeTest(blob, p0, p1, detail::walkMargin(blob, scale), out.nodes)) return false;
    if (test == SegmentTest::Watertight && !makeWatertightRay(p0, d, 1.0f, out.ray)) return false;
    out.p0 = p0;
    out.p1 = p1;
    return true;
}

bool testTriangle(const MeshBlob& blob, const PreparedSegment& s, SegmentTest test, std::uint32_t tri, RayHit& out) {
    Vec3 a, b, c;
    triangleVertices(blob, tri, a, b, c);
    return test == SegmentTest::Watertight ? rayTriangleWatertight(s.ray, a, b, c, out)
                                           : segmentTriangle(s.p0, s.p1, a, b, c, out);
}

// One walk for both forms: `closest` shrinks the slab to the best t and keeps walking; otherwise
// the first hit (lowest id, the walk is in id order) ends it.
bool walk(const MeshBlob& blob, PreparedSegment& s, SegmentTest test, bool closest, MeshRayHit& out_hit) {
    bool found = false;
    detail::walkLeafTriangles(blob, s.nodes, [&](std::uint32_t t) {
        RayHit hit;
        if (!testTriangle(blob, s, test, t, hit)) return true;
        if (found && !(hit.t < out_hit.hit.t)) return true; // equal t: the lower id stays
        out_hit.hit = hit;
        out_hit.triangle = t;
        found = true;
        if (!closest || hit.t <= 0.0f) return false;
        s.nodes.shorten(hit.t);
        return true;
    });
    return found;
}

void hitToWorld(const Transform& mesh_to_world, MeshRayHit& inout) {
    transformPoint(mesh_to_world, inout.hit.point, inout.hit.point);
    transformVector(mesh_to_world, inout.hit.normal, inout.hit.normal);
}

bool transformed(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3& p0, const Vec3& p1,
                 MeshRayHit& out_hit, SegmentTest test, bool closest) {
    Vec3 l0, l1;
    inverseTransformPoint(mesh_to_world, p0, l0);
    inverseTransformPoint(mesh_to_world, p1, l1);
    PreparedSegment s;
    if (!prepare(blob, l0, l1, test, s)) return false;
    MeshRayHit hit;
    if (!walk(blob, s, test, closest, hit)) return false;
    hitToWorld(mesh_to_world, hit);
    out_hit = hit;
    return true;
}

} // namespace

bool segmentClosestHit(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, MeshRayHit& out_hit, SegmentTest test) {
    PreparedSegment s;
    if (!prepare(blob, p0, p1, test, s)) return false;
    MeshRayHit hit;
    if (!walk(blob, s, test, true, hit)) return false;
    out_hit = hit;
    return true;
}

bool segmentClosestHit(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3& p0, const Vec3& p1,
                       MeshRayHit& out_hit, SegmentTest test) {
    return transformed(blob, mesh_to_world, p0, p1, out_hit, test, true);
}

bool segmentAnyHit(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, MeshRayHit& out_hit, SegmentTest test) {
    PreparedSegment s;
    if (!prepare(blob, p0, p1, test, s)) return false;
    MeshRayHit hit;
    if (!walk(blob, s, test, false, hit)) return false;
    out_hit = hit;
    return true;
}

bool segmentAnyHit(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3& p0, const Vec3& p1,
                   MeshRayHit& out_hit, SegmentTest test) {
    return transformed(blob, mesh_to_world, p0, p1, out_hit, test, false);
}

} // namespace flak
