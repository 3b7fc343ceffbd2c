// Test support: the loader's guarantee (docs/blob_format.md) as a check. Any blob that loads,
// however it was made, must answer every query kind exactly as its kernel applied by brute force
// to every triangle the blob holds. Used by the blob tests and the blob and OBJ fuzz targets.
#pragma once

#include <flak/bvh/box_query.h>
#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>
#include <flak/geom/segment_triangle.h>
#include <flak/geom/sphere_triangle.h>
#include <flak/geom/swept_sphere_triangle.h>
#include <flak/geom/tri_tri.h>
#include <flak/geom/triangle_aabb.h>
#include <flak/math/transform.h>

#include <algorithm>
#include <cstdint>

namespace flak::test {

/// Triangles up to which blobDisagreement also checks mesh against mesh (brute force is quadratic).
constexpr std::uint32_t kBruteMeshMeshTriangles = 256;

/// How much of mesh against itself blobDisagreement checks: whether any pair touches (a brute
/// force that stops at the first pair), or every pair and the summary's count (quadratic in full:
/// for the fuzz targets, too slow for the many blobs of the corruption tests).
enum class MeshMeshCheck { AnyContact, EveryPair };

/// The first hit of a segment by brute force: the lowest t, and of equal t the lowest triangle id
/// (segmentClosestHit's order), and the lowest id hit at all (segmentAnyHit's).
struct BruteSegment {
    std::uint32_t closest = 0xFFFFFFFFu;
    float t = 0.0f;
    std::uint32_t first = 0xFFFFFFFFu;

    void add(std::uint32_t triangle, const RayHit& hit) {
        if (first == 0xFFFFFFFFu) first = triangle;
        if (closest == 0xFFFFFFFFu || hit.t < t)
            closest = triangle, t = hit.t; // ids ascend: ties keep the first
    }
    /// Whether the walk's closest hit is this one (the same triangle and t).
    bool sameClosest(bool found, const MeshRayHit& hit) const {
        return found == (closest != 0xFFFFFFFFu) && (!found || (hit.triangle == closest && hit.hit.t == t));
    }
    /// Whether the walk's any hit is this one (the lowest id).
    bool sameFirst(bool found, const MeshRayHit& hit) const {
        return found == (first != 0xFFFFFFFFu) && (!found || hit.triangle == first);
    }
};

/// Null when every query below agrees with brute force over the blob's own triangles, else the
/// name of the first one that does not. The queries: sphere any-hit, all hits and deepest hit
/// (sphere c0, r: the ids in increasing order; the triangle and depth of the greatest depth),
/// segment closest-hit and any-hit with both kernels (c0 -> c1: the triangle and t of the
/// lowest t, the lowest id hit), the first hit of the sphere of radius r / 8 swept from c0 to c1
/// (the triangle and t of the lowest t), the box overlap (the box spanned by c0 and c1: the ids
/// in increasing order) and, with `mesh_mesh` and for blobs of at most kBruteMeshMeshTriangles
/// triangles, mesh against itself moved by `b_to_a` (MeshMeshCheck).
inline const char* blobDisagreement(const MeshBlob& blob, const Vec3& c0, const Vec3& c1, float r,
                                    const Transform& b_to_a,
                                    MeshMeshCheck mesh_mesh = MeshMeshCheck::AnyContact) {
    const Sphere sphere{c0, r};
    bool brute_sphere = false;
    BruteSegment fast, watertight, swept;
    const float swept_radius = r * 0.125f;
    std::uint32_t deepest = 0xFFFFFFFFu;
    float deepest_depth = 0.0f;
    Aabb box;
    min(c0, c1, box.min);
    max(c0, c1, box.max);
    // Each id list checked as it is filled: the query's ids (at most 64 kept) against brute force's.
    struct Ids {
        std::uint32_t ids[64];
        OutBuffer<std::uint32_t> out = OutBuffer<std::uint32_t>::over(ids, 64);
        std::uint32_t brute = 0, mismatch = 0;
        void add(std::uint32_t t) {
            if (brute < out.count && ids[brute] != t) ++mismatch;
            ++brute;
        }
        bool agrees() const { return mismatch == 0 && out.count + out.dropped == brute; }
    } box_ids, sphere_ids;
    (void)aabbOverlapTriangles(blob, box, box_ids.out);
    MeshContact contacts[64];
    OutBuffer<MeshContact> contact_out = OutBuffer<MeshContact>::over(contacts, 64);
    (void)sphereAllHits(blob, sphere, contact_out);
    for (std::uint32_t i = 0; i < contact_out.count; ++i) sphere_ids.out.append(contacts[i].triangle);
    sphere_ids.out.dropped = contact_out.dropped;
    for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
        Vec3 a, b, c;
        triangleVertices(blob, t, a, b, c);
        Contact contact;
        if (sphereTriangle(sphere, a, b, c, contact)) {
            brute_sphere = true;
            sphere_ids.add(t);
            if (deepest == 0xFFFFFFFFu || contact.depth > deepest_depth)
                deepest = t, deepest_depth = contact.depth;
        }
        RayHit hit;
        if (sweptSphereTriangle(c0, c1, swept_radius, a, b, c, hit)) swept.add(t, hit);
        if (segmentTriangle(c0, c1, a, b, c, hit)) fast.add(t, hit);
        if (segmentTriangleWatertight(c0, c1, a, b, c, hit)) watertight.add(t, hit);
        if (triangleAabbOverlap(a, b, c, box)) box_ids.add(t);
    }
    if (sphereAnyHit(blob, sphere) != brute_sphere) return "sphereAnyHit";
    if (!sphere_ids.agrees()) return "sphereAllHits";
    MeshContact deepest_hit;
    const bool deep = sphereDeepestHit(blob, sphere, deepest_hit);
    if (deep != (deepest != 0xFFFFFFFFu) ||
        (deep && (deepest_hit.triangle != deepest || deepest_hit.contact.depth != deepest_depth)))
        return "sphereDeepestHit";
    MeshRayHit hit;
    if (!swept.sameClosest(sweptSphereFirstHit(blob, c0, c1, swept_radius, hit), hit))
        return "sweptSphereFirstHit";
    if (!fast.sameFirst(segmentAnyHit(blob, c0, c1, hit, SegmentTest::Fast), hit))
        return "segmentAnyHit (fast)";
    if (!watertight.sameFirst(segmentAnyHit(blob, c0, c1, hit, SegmentTest::Watertight), hit))
        return "segmentAnyHit (watertight)";
    if (!fast.sameClosest(segmentClosestHit(blob, c0, c1, hit, SegmentTest::Fast), hit))
        return "segmentClosestHit (fast)";
    if (!watertight.sameClosest(segmentClosestHit(blob, c0, c1, hit, SegmentTest::Watertight), hit))
        return "segmentClosestHit";
    if (!box_ids.agrees()) return "aabbOverlapTriangles";
    if (blob.triangle_count > kBruteMeshMeshTriangles) return nullptr;
    Vec3 moved[kBruteMeshMeshTriangles][3]; // B's triangles in A's frame
    for (std::uint32_t j = 0; j < blob.triangle_count; ++j) {
        Vec3 src[3];
        triangleVertices(blob, j, src[0], src[1], src[2]);
        transformPoints(b_to_a, src, 3, moved[j]);
    }
    if (mesh_mesh == MeshMeshCheck::AnyContact) {
        bool brute_pair = false;
        for (std::uint32_t i = 0; i < blob.triangle_count && !brute_pair; ++i) {
            Vec3 a0, a1, a2;
            triangleVertices(blob, i, a0, a1, a2);
            for (std::uint32_t j = 0; j < blob.triangle_count && !brute_pair; ++j)
                brute_pair = triTriOverlap(a0, a1, a2, moved[j][0], moved[j][1], moved[j][2]);
        }
        return meshMeshAnyContact(blob, blob, b_to_a) != brute_pair ? "meshMeshAnyContact" : nullptr;
    }
    // Every pair (i, j) in ascending order against the walk's pairs sorted the same way (when none
    // was dropped: the walk drops in its own order), their count and the summary's.
    TrianglePair pairs[64];
    OutBuffer<TrianglePair> pair_out = OutBuffer<TrianglePair>::over(pairs, 64);
    (void)meshMeshPairs(blob, blob, b_to_a, pair_out);
    std::sort(pairs, pairs + pair_out.count, [](const TrianglePair& x, const TrianglePair& y) {
        return x.a != y.a ? x.a < y.a : x.b < y.b;
    });
    std::uint32_t brute_pairs = 0, mismatch = 0;
    for (std::uint32_t i = 0; i < blob.triangle_count; ++i) {
        Vec3 a0, a1, a2;
        triangleVertices(blob, i, a0, a1, a2);
        for (std::uint32_t j = 0; j < blob.triangle_count; ++j) {
            if (!triTriOverlap(a0, a1, a2, moved[j][0], moved[j][1], moved[j][2])) continue;
            if (pair_out.dropped == 0 && brute_pairs < pair_out.count &&
                (pairs[brute_pairs].a != i || pairs[brute_pairs].b != j))
                ++mismatch;
            ++brute_pairs;
        }
    }
    if (meshMeshAnyContact(blob, blob, b_to_a) != (brute_pairs > 0)) return "meshMeshAnyContact";
    if (mismatch != 0 || pair_out.count + pair_out.dropped != brute_pairs) return "meshMeshPairs";
    MeshContactSummary summary;
    (void)meshMeshSummary(blob, blob, b_to_a, summary);
    if (summary.pair_count != brute_pairs) return "meshMeshSummary";
    return nullptr;
}

} // namespace flak::test
