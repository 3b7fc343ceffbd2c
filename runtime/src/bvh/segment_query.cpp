#include <flak/bvh/segment_query.h>

#include "bvh/query_walk.h"
#include "bvh/triangle_lanes.h"
#include "bvh/wide_walk.h"

#include <flak/geom/segment_aabb.h>
#include <flak/geom/segment_triangle.h>

namespace flak {

namespace {

// Everything a segment walk prepares once: the slab form for node boxes, the watertight ray for
// triangles (made when the walk enters its first leaf: most segments never reach one), the
// decoder with the margin folded in.
struct PreparedSegment {
    detail::SegmentNodeTest nodes;
    WatertightRay ray;
    bool ray_ready = false;
    Vec3 p0;
    Vec3 p1;
};

bool prepare(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, PreparedSegment& out) {
    if (blob.triangle_count == 0 || !isFinite(p0) || !isFinite(p1)) return false;
    Vec3 d;
    sub(p1, p0, d);
    // Zero length: every component zero, as the kernels see it (lengthSq(d) underflows to 0 for
    // segments shorter than about 1e-23, which the kernels still test).
    const float length = detail::maxAbs(d);
    if (!isFinite(d) || length == 0.0f) return false;
    const float scale = detail::maxOf(detail::maxOf(detail::maxAbs(p0), detail::maxAbs(p1)), length);
    if (!detail::makeSegmentNodeTest(blob, p0, p1, detail::walkMargin(blob, scale), out.nodes)) return false;
    // makeWatertightRay(p0, d, 1) cannot fail from here: p0 and d are finite and d is not zero.
    out.p0 = p0;
    out.p1 = p1;
    return true;
}

// One walk for both forms. `closest` walks nearest first (walkSegmentNearestFirst), shrinks the
// segment to the best t and keeps walking; of equal t the lower id wins, whatever the visiting
// order. Otherwise the walk is in id order and its first hit (the lowest id) ends it. The
// watertight form first drops, four triangles at a time, those whose edge functions already say
// no (watertightCandidates): the triangles it keeps are tested in id order within their leaf, so
// the answers do not change.
bool walk(const MeshBlob& blob, PreparedSegment& s, SegmentTest test, bool closest, MeshRayHit& out_hit) {
    bool found = false;
    // Returns false when the walk may end.
    auto consider = [&](std::uint32_t t, const Vec3& a, const Vec3& b, const Vec3& c) {
        RayHit hit;
        const bool touched = test == SegmentTest::Watertight ? rayTriangleWatertight(s.ray, a, b, c, hit)
                                                             : segmentTriangle(s.p0, s.p1, a, b, c, hit);
        if (!touched) return true;
        if (found && !detail::closerHit(hit, t, out_hit)) return true;
        out_hit.hit = hit;
        out_hit.triangle = t;
        found = true;
        if (!closest) return false;
        s.nodes.shorten(hit.t);
        return true;
    };
    const auto visit_leaf = [&](std::uint32_t first, std::uint32_t count) {
        if (test != SegmentTest::Watertight) {
            for (std::uint32_t t = first; t < first + count; ++t) {
                Vec3 a, b, c;
                triangleVertices(blob, t, a, b, c);
                if (!consider(t, a, b, c)) return false;
            }
            return true;
        }
        if (!s.ray_ready) {
            Vec3 d;
            sub(s.p1, s.p0, d);
            s.ray_ready = makeWatertightRay(s.p0, d, 1.0f, s.ray);
        }
        for (std::uint32_t group = first; group < first + count; group += 4) {
            const std::uint32_t n = first + count - group < 4 ? first + count - group : 4;
            TriangleLanes lanes;
            detail::loadTriangleQuad(blob, group, n, lanes);
            const unsigned keep = watertightCandidates(s.ray, lanes, (1u << n) - 1u);
            for (std::uint32_t l = 0; l < n; ++l) {
                if (((keep >> l) & 1u) == 0u) continue;
                Vec3 a, b, c;
                detail::laneTriangle(lanes, l, a, b, c);
                if (!consider(group + l, a, b, c)) return false;
            }
        }
        return true;
    };
    if (closest)
        detail::walkSegmentNearestFirst(blob, s.nodes, visit_leaf);
    else
        detail::walkSegmentLeaves(blob, s.nodes, visit_leaf);
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
    if (!prepare(blob, l0, l1, s)) return false;
    MeshRayHit hit;
    if (!walk(blob, s, test, closest, hit)) return false;
    hitToWorld(mesh_to_world, hit);
    out_hit = hit;
    return true;
}

} // namespace

bool segmentClosestHit(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, MeshRayHit& out_hit,
                       SegmentTest test) {
    PreparedSegment s;
    if (!prepare(blob, p0, p1, s)) return false;
    MeshRayHit hit;
    if (!walk(blob, s, test, true, hit)) return false;
    out_hit = hit;
    return true;
}

bool segmentClosestHit(const MeshBlob& blob, const Transform& mesh_to_world, const Vec3& p0, const Vec3& p1,
                       MeshRayHit& out_hit, SegmentTest test) {
    return transformed(blob, mesh_to_world, p0, p1, out_hit, test, true);
}

bool segmentAnyHit(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, MeshRayHit& out_hit,
                   SegmentTest test) {
    PreparedSegment s;
    if (!prepare(blob, p0, p1, s)) return false;
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
