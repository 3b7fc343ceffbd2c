// Bad input for the baked-blob room (flak/bvh): the loader and byte swapper on null, short,
// misaligned and garbage bytes, and every mesh query on a normal mesh, an empty mesh (a baked
// blob with no triangles, and the default MeshBlob{}), an all-degenerate mesh (zero-area
// triangles kept by the baker), with NaN / Inf / huge queries, negative and zero radii, zero-length
// segments, non-finite and non-orthonormal transforms, and capacity-0 result buffers.
// Every walk is one forward loop over the node array that moves by skip links read from the blob
// (never from a float comparison), so none can hang on NaN; the grid conversions clamp before
// converting (query_walk.h), so none converts NaN or an out-of-range float to an integer.
#include "bad_input.h"

#include <flak/bvh/box_query.h>
#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_leaf_pairs.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/bvh/query_batch.h>
#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>
#include <flak/geom/triangle_normal.h>

#include <gtest/gtest.h>

namespace flak::test {
namespace {

struct Meshes {
    std::unique_ptr<BadInputMesh> good = goodMesh();
    std::unique_ptr<BadInputMesh> degenerate = degenerateMesh();
    std::unique_ptr<BadInputMesh> empty_baked = loadBaked(bakeBytes(Mesh{}));
    MeshBlob default_blob; // MeshBlob{}: no nodes, no triangles, null arrays
    std::vector<const MeshBlob*> all() const {
        return {&good->blob, &degenerate->blob, &empty_baked->blob, &default_blob};
    }
};

TEST(BadInputBvh, LoaderRefusesBadBytes) {
    MeshBlob blob;
    BlobError err;
    blob.triangle_count = 9;
    EXPECT_EQ(loadMeshBlob(nullptr, 0, blob, &err), Status::NullMemory);
    EXPECT_EQ(err.status, Status::NullMemory);
    EXPECT_EQ(blob.triangle_count, 0u); // out_blob left empty
    EXPECT_EQ(loadMeshBlob(nullptr, 4096, blob), Status::NullMemory);
    alignas(16) unsigned char bytes[256] = {};
    EXPECT_EQ(loadMeshBlob(bytes, 0, blob), Status::BlobTruncated);
    EXPECT_EQ(loadMeshBlob(bytes + 1, 64, blob), Status::BlobMisaligned);
    EXPECT_EQ(loadMeshBlob(bytes, sizeof(bytes), blob, &err), Status::BlobBadMagic);
    EXPECT_EQ(swapBlobByteOrder(nullptr, 0), Status::NullMemory);
    EXPECT_EQ(swapBlobByteOrder(bytes, 3), Status::BlobTruncated);
    EXPECT_EQ(swapBlobByteOrder(bytes, sizeof(bytes)), Status::BlobBadMagic);
    // The checksum of nothing is defined and null with 0 bytes is never read.
    EXPECT_EQ(blobChecksum(nullptr, 0), blobChecksum(bytes, 0));
    // A real blob cut short at every length below its size: refused, never read past the end.
    Meshes m;
    const std::size_t size = m.good->bytes->size();
    for (std::size_t cut = 0; cut < size; cut += 7) {
        EXPECT_NE(loadMeshBlob(m.good->bytes->data(), cut, blob), Status::Ok) << cut;
    }
}

TEST(BadInputBvh, EmptyAndDegenerateMeshesLoad) {
    Meshes m;
    EXPECT_EQ(m.empty_baked->blob.triangle_count, 0u);
    EXPECT_EQ(m.empty_baked->blob.wide_node_count, 0u);
    EXPECT_TRUE(isEmpty(m.empty_baked->blob.bounds));
    EXPECT_EQ(m.degenerate->blob.triangle_count, 24u); // all kept, all zero-area
    // The decoders on every triangle and every node's child of the degenerate mesh: finite, each
    // decoded box holding its triangles (ids below triangle_count and nodes below wide_node_count
    // are their precondition; there is no bad input to give them beyond that).
    const MeshBlob& d = m.degenerate->blob;
    for (std::uint32_t i = 0; i < d.wide_node_count; ++i)
        for (std::uint32_t c = 0; c < wideCount(d.wide_nodes[i]); ++c) {
            const BvhNode n = wideChildNode(d.wide_nodes[i], c);
            Aabb node_box;
            nodeBounds(d, n, node_box);
            EXPECT_TRUE(isFinite(node_box.min) && isFinite(node_box.max));
            if (!isLeaf(n)) continue;
            for (std::uint32_t t = leafFirst(n); t < leafFirst(n) + leafCount(n); ++t) {
                Vec3 a, b, c3;
                triangleVertices(d, t, a, b, c3);
                EXPECT_TRUE(contains(node_box, a) && contains(node_box, b) && contains(node_box, c3)) << t;
                Vec3 normal;
                EXPECT_FALSE(computeTriangleNormal(a, b, c3, normal)) << t; // zero area, every one
            }
        }
}

TEST(BadInputBvh, SphereQueries) {
    Meshes m;
    const Transform id = identityTransform();
    std::vector<MeshContact> storage(64);
    for (const MeshBlob* blob : m.all()) {
        SCOPED_TRACE(blob->triangle_count);
        Sphere s;
        set(0, 0, 0, s.center);
        s.radius = 3.0f;
        for (float v : nonFiniteValues()) {
            for (int k = 0; k < 3; ++k) {
                Sphere bad = s;
                bad.center[k] = v;
                EXPECT_FALSE(sphereAnyHit(*blob, bad));
                EXPECT_FALSE(sphereAnyHit(*blob, id, bad));
                OutBuffer<MeshContact> buf{storage.data(), 64, 0, 0};
                EXPECT_EQ(sphereAllHits(*blob, bad, buf), Status::Ok);
                EXPECT_EQ(sphereAllHits(*blob, id, bad, buf), Status::Ok);
                EXPECT_EQ(buf.count + buf.dropped, 0u);
                MeshContact deepest;
                EXPECT_FALSE(sphereDeepestHit(*blob, bad, deepest));
                EXPECT_FALSE(sphereDeepestHit(*blob, id, bad, deepest));
            }
            Sphere bad = s;
            bad.radius = v;
            EXPECT_FALSE(sphereAnyHit(*blob, bad));
            OutBuffer<MeshContact> buf{storage.data(), 64, 0, 0};
            EXPECT_EQ(sphereAllHits(*blob, bad, buf), Status::Ok);
            EXPECT_EQ(buf.count, 0u);
        }
        Sphere neg = s;
        neg.radius = -1.0f;
        EXPECT_FALSE(sphereAnyHit(*blob, neg));
        OutBuffer<MeshContact> buf{storage.data(), 64, 0, 0};
        EXPECT_EQ(sphereAllHits(*blob, id, neg, buf), Status::Ok);
        EXPECT_EQ(buf.count, 0u);
        // Non-finite transforms: the query taken into mesh space is NaN: nothing.
        MeshContact deepest;
        EXPECT_FALSE(sphereDeepestHit(*blob, neg, deepest));
        for (const Transform& t : nonFiniteTransforms()) {
            EXPECT_FALSE(sphereDeepestHit(*blob, t, s, deepest));
            EXPECT_FALSE(sphereAnyHit(*blob, t, s));
            EXPECT_EQ(sphereAllHits(*blob, t, s, buf), Status::Ok);
            EXPECT_EQ(buf.count, 0u);
        }
        // Huge spheres and odd transforms: bounded walks; every contact written is in the buffer.
        for (float h : hugeValues()) {
            Sphere big = s;
            big.radius = std::fabs(h);
            (void)sphereAnyHit(*blob, big);
            OutBuffer<MeshContact> b2{storage.data(), 64, 0, 0};
            (void)sphereAllHits(*blob, big, b2);
            EXPECT_LE(b2.count, 64u);
            // The deepest contact exists exactly when some contact does.
            EXPECT_EQ(sphereDeepestHit(*blob, big, deepest), b2.count + b2.dropped > 0);
            big.radius = 1.0f;
            big.center.x = h;
            EXPECT_FALSE(sphereAnyHit(*blob, big)); // far away from a mesh at the origin
        }
        for (const Transform& t : oddFiniteTransforms()) {
            OutBuffer<MeshContact> b2{storage.data(), 64, 0, 0};
            (void)sphereAnyHit(*blob, t, s);
            (void)sphereAllHits(*blob, t, s, b2);
            EXPECT_LE(b2.count, 64u);
            EXPECT_EQ(sphereDeepestHit(*blob, t, s, deepest), b2.count + b2.dropped > 0);
        }
        // A capacity-0 buffer (null items): every hit counted, none written.
        OutBuffer<MeshContact> none{nullptr, 0, 0, 0};
        const Status st = sphereAllHits(*blob, s, none);
        EXPECT_EQ(none.count, 0u);
        EXPECT_EQ(st, none.dropped > 0 ? Status::BufferFull : Status::Ok);
        if (blob == &m.good->blob) {
            EXPECT_GT(none.dropped, 0u);
        }
    }
    // An empty mesh never hits, whatever the query.
    Sphere everything;
    set(0, 0, 0, everything.center);
    everything.radius = FLT_MAX;
    EXPECT_FALSE(sphereAnyHit(m.empty_baked->blob, everything));
    EXPECT_FALSE(sphereAnyHit(m.default_blob, everything));
}

TEST(BadInputBvh, SegmentAndSweptQueries) {
    Meshes m;
    const Transform id = identityTransform();
    const Vec3 p0 = vec3(0.1f, 0.2f, -10), p1 = vec3(0.1f, 0.2f, 10);
    for (const MeshBlob* blob : m.all()) {
        SCOPED_TRACE(blob->triangle_count);
        MeshRayHit h;
        for (SegmentTest test : {SegmentTest::Watertight, SegmentTest::Fast}) {
            for (float v : nonFiniteValues())
                for (int k = 0; k < 3; ++k) {
                    const Vec3 bad = withComponent(p0, k, v);
                    poison(h);
                    EXPECT_FALSE(segmentClosestHit(*blob, bad, p1, h, test));
                    EXPECT_FALSE(segmentClosestHit(*blob, p0, bad, h, test));
                    EXPECT_FALSE(segmentAnyHit(*blob, bad, p1, h, test));
                    EXPECT_FALSE(segmentClosestHit(*blob, id, bad, p1, h, test));
                    EXPECT_FALSE(segmentAnyHit(*blob, id, p0, bad, h, test));
                    EXPECT_FALSE(sweptSphereFirstHit(*blob, bad, p1, 0.5f, h));
                    EXPECT_FALSE(sweptSphereFirstHit(*blob, id, p0, bad, 0.5f, h));
                    EXPECT_TRUE(isPoisoned(h));
                }
            poison(h);
            // Zero-length segments: no hit, even through the surface.
            const Vec3 on_surface = vec3(0, 0, 2.0f);
            EXPECT_FALSE(segmentClosestHit(*blob, on_surface, on_surface, h, test));
            EXPECT_FALSE(segmentAnyHit(*blob, id, on_surface, on_surface, h, test));
            for (const Transform& t : nonFiniteTransforms()) {
                EXPECT_FALSE(segmentClosestHit(*blob, t, p0, p1, h, test));
                EXPECT_FALSE(segmentAnyHit(*blob, t, p0, p1, h, test));
                EXPECT_FALSE(sweptSphereFirstHit(*blob, t, p0, p1, 0.5f, h));
            }
            EXPECT_TRUE(isPoisoned(h));
            for (float big : hugeValues()) {
                (void)segmentClosestHit(*blob, vec3(0.1f, 0.2f, -big), vec3(0.1f, 0.2f, big), h, test);
                (void)segmentAnyHit(*blob, vec3(-big, 0.2f, 0.1f), vec3(big, 0.1f, 0.3f), h, test);
            }
            for (const Transform& t : oddFiniteTransforms()) {
                (void)segmentClosestHit(*blob, t, p0, p1, h, test);
                (void)segmentAnyHit(*blob, t, p0, p1, h, test);
            }
        }
        for (float r : {-1.0f, kNaN, kInf, -kInf}) {
            poison(h);
            EXPECT_FALSE(sweptSphereFirstHit(*blob, p0, p1, r, h)) << r;
            EXPECT_FALSE(sweptSphereFirstHit(*blob, id, p0, p1, r, h)) << r;
            EXPECT_TRUE(isPoisoned(h));
        }
        for (float big : hugeValues()) {
            (void)sweptSphereFirstHit(*blob, p0, p1, std::fabs(big), h);
            (void)sweptSphereFirstHit(*blob, vec3(0, 0, -big), vec3(0, 0, big), 0.1f, h);
        }
        for (const Transform& t : oddFiniteTransforms()) (void)sweptSphereFirstHit(*blob, t, p0, p1, 0.5f, h);
    }
    // Through the good mesh, a zero-radius sweep and a segment agree that it is hit.
    MeshRayHit h;
    EXPECT_TRUE(segmentClosestHit(m.good->blob, p0, p1, h));
    EXPECT_TRUE(sweptSphereFirstHit(m.good->blob, p0, p1, 0.0f, h));
}

TEST(BadInputBvh, BoxQueries) {
    Meshes m;
    std::vector<std::uint32_t> storage(256);
    Obb obb;
    set(0, 0, 0, obb.center);
    set(3, 3, 3, obb.halfExtents);
    Aabb aabb;
    set(-3, -3, -3, aabb.min);
    set(3, 3, 3, aabb.max);
    for (const MeshBlob* blob : m.all()) {
        SCOPED_TRACE(blob->triangle_count);
        auto expectNothing = [&](auto&& query) {
            OutBuffer<std::uint32_t> buf{storage.data(), 256, 0, 0};
            EXPECT_EQ(query(buf), Status::Ok);
            EXPECT_EQ(buf.count + buf.dropped, 0u);
        };
        for (float v : nonFiniteValues())
            for (int k = 0; k < 3; ++k) {
                Aabb bad = aabb;
                bad.max[k] = v;
                expectNothing(
                    [&](OutBuffer<std::uint32_t>& b) { return aabbOverlapTriangles(*blob, bad, b); });
                Obb bo = obb;
                bo.center[k] = v;
                expectNothing([&](OutBuffer<std::uint32_t>& b) { return obbOverlapTriangles(*blob, bo, b); });
                bo = obb;
                bo.halfExtents[k] = v;
                expectNothing([&](OutBuffer<std::uint32_t>& b) { return obbOverlapTriangles(*blob, bo, b); });
                bo = obb;
                bo.rotation.c0[k] = v;
                expectNothing([&](OutBuffer<std::uint32_t>& b) {
                    return obbOverlapTriangles(*blob, identityTransform(), bo, b);
                });
                EXPECT_FALSE(triangleObbOverlap(vec3(v, 0, 0), vec3(1, 0, 0), vec3(0, 1, 0), obb));
                EXPECT_FALSE(triangleObbOverlap(vec3(0, 0, 0), vec3(1, 0, 0), vec3(0, 1, 0), bo));
            }
        Aabb inverted = aabb;
        inverted.min.x = 5.0f;
        expectNothing([&](OutBuffer<std::uint32_t>& b) { return aabbOverlapTriangles(*blob, inverted, b); });
        Obb neg = obb;
        neg.halfExtents.z = -1.0f;
        expectNothing([&](OutBuffer<std::uint32_t>& b) { return obbOverlapTriangles(*blob, neg, b); });
        EXPECT_FALSE(triangleObbOverlap(vec3(0, 0, 0), vec3(1, 0, 0), vec3(0, 1, 0), neg));
        for (const Transform& t : nonFiniteTransforms())
            expectNothing([&](OutBuffer<std::uint32_t>& b) { return obbOverlapTriangles(*blob, t, obb, b); });
        for (const Transform& t : oddFiniteTransforms()) {
            OutBuffer<std::uint32_t> buf{storage.data(), 256, 0, 0};
            (void)obbOverlapTriangles(*blob, t, obb, buf);
            EXPECT_LE(buf.count, 256u);
        }
        for (float big : hugeValues()) {
            Aabb huge_box;
            set(-std::fabs(big), -std::fabs(big), -std::fabs(big), huge_box.min);
            set(std::fabs(big), std::fabs(big), std::fabs(big), huge_box.max);
            OutBuffer<std::uint32_t> buf{storage.data(), 256, 0, 0};
            EXPECT_EQ(aabbOverlapTriangles(*blob, huge_box, buf), Status::Ok);
            EXPECT_EQ(buf.count, blob->triangle_count); // the whole mesh, exactly once each
            Obb huge_obb = obb;
            set(std::fabs(big), std::fabs(big), std::fabs(big), huge_obb.halfExtents);
            OutBuffer<std::uint32_t> b2{storage.data(), 256, 0, 0};
            (void)obbOverlapTriangles(*blob, huge_obb, b2);
            EXPECT_LE(b2.count, blob->triangle_count);
        }
        // Capacity 0: counted, not written; as many as a roomy buffer gets.
        OutBuffer<std::uint32_t> roomy{storage.data(), 256, 0, 0};
        ASSERT_EQ(aabbOverlapTriangles(*blob, aabb, roomy), Status::Ok);
        OutBuffer<std::uint32_t> none{nullptr, 0, 0, 0};
        const Status st = aabbOverlapTriangles(*blob, aabb, none);
        EXPECT_EQ(none.count, 0u);
        EXPECT_EQ(st, none.dropped > 0 ? Status::BufferFull : Status::Ok);
        EXPECT_EQ(none.dropped, roomy.count);
    }
}

TEST(BadInputBvh, MeshMesh) {
    Meshes m;
    const Transform id = identityTransform();
    std::vector<TrianglePair> pairs(4096);
    std::vector<MeshLeafPair> leaves(1024);
    MeshContactSummary summary;
    for (const MeshBlob* a : m.all())
        for (const MeshBlob* b : m.all()) {
            SCOPED_TRACE(testing::Message() << a->triangle_count << " vs " << b->triangle_count);
            for (const Transform& t : nonFiniteTransforms()) {
                EXPECT_FALSE(meshMeshAnyContact(*a, *b, t));
                OutBuffer<TrianglePair> pb{pairs.data(), 4096, 0, 0};
                EXPECT_EQ(meshMeshPairs(*a, *b, t, pb), Status::Ok);
                EXPECT_EQ(pb.count + pb.dropped, 0u);
                OutBuffer<MeshLeafPair> lb{leaves.data(), 1024, 0, 0};
                EXPECT_EQ(meshMeshLeafPairs(*a, *b, t, lb), Status::Ok);
                EXPECT_EQ(lb.count + lb.dropped, 0u);
                poison(summary);
                EXPECT_FALSE(meshMeshSummary(*a, *b, t, summary));
                EXPECT_EQ(summary.pair_count, 0u); // zeroed on false
                EXPECT_EQ(lengthSq(summary.point), 0.0f);
            }
            const bool either_empty = a->triangle_count == 0 || b->triangle_count == 0;
            if (either_empty) {
                EXPECT_FALSE(meshMeshAnyContact(*a, *b, id));
                OutBuffer<TrianglePair> pb{pairs.data(), 4096, 0, 0};
                EXPECT_EQ(meshMeshPairs(*a, *b, id, pb), Status::Ok);
                EXPECT_EQ(pb.count, 0u);
                EXPECT_FALSE(meshMeshSummary(*a, *b, id, summary));
            }
            for (const Transform& t : oddFiniteTransforms()) {
                OutBuffer<TrianglePair> pb{pairs.data(), 4096, 0, 0};
                (void)meshMeshAnyContact(*a, *b, t);
                (void)meshMeshPairs(*a, *b, t, pb);
                EXPECT_LE(pb.count, 4096u);
                OutBuffer<MeshLeafPair> lb{leaves.data(), 1024, 0, 0};
                (void)meshMeshLeafPairs(*a, *b, t, lb);
                EXPECT_LE(lb.count, 1024u);
                (void)meshMeshSummary(*a, *b, t, summary);
            }
            // Capacity-0 buffers: all counted, nothing written.
            OutBuffer<TrianglePair> none{nullptr, 0, 0, 0};
            const Status st = meshMeshPairs(*a, *b, id, none);
            EXPECT_EQ(none.count, 0u);
            EXPECT_EQ(st, none.dropped > 0 ? Status::BufferFull : Status::Ok);
            OutBuffer<MeshLeafPair> lnone{nullptr, 0, 0, 0};
            const Status ls = meshMeshLeafPairs(*a, *b, id, lnone);
            EXPECT_EQ(lnone.count, 0u);
            EXPECT_EQ(ls, lnone.dropped > 0 ? Status::BufferFull : Status::Ok);
        }
    // The good mesh against itself overlaps; with a degenerate mesh the summary adds no normal.
    EXPECT_TRUE(meshMeshAnyContact(m.good->blob, m.good->blob, id));
}

TEST(BadInputBvh, Batches) {
    Meshes m;
    const Transform id = identityTransform();
    Sphere spheres[3];
    set(0, 0, 0, spheres[0].center);
    spheres[0].radius = 3;
    spheres[1] = spheres[0];
    spheres[1].center.y = kNaN;
    spheres[2] = spheres[0];
    spheres[2].radius = -1;
    const Vec3 p0[3] = {vec3(0, 0, -9), vec3(kInf, 0, 0), vec3(0, 0, 0)};
    const Vec3 p1[3] = {vec3(0, 0, 9), vec3(0, 0, 0), vec3(0, 0, 0)};
    for (const MeshBlob* blob : m.all()) {
        bool hit[3] = {true, true, true};
        // The sphere at the origin touches the good mesh and the degenerate strip (from x = 0).
        EXPECT_EQ(sphereAnyHitBatch(*blob, id, spheres, 3, hit), blob->triangle_count > 0 ? 1u : 0u);
        EXPECT_FALSE(hit[1]);
        EXPECT_FALSE(hit[2]);
        MeshRayHit hits[3];
        poison(hits[1]);
        poison(hits[2]);
        (void)segmentClosestHitBatch(*blob, id, p0, p1, 3, hits, hit);
        EXPECT_FALSE(hit[1]); // Inf
        EXPECT_FALSE(hit[2]); // zero length
        EXPECT_TRUE(isPoisoned(hits[1]));
        EXPECT_TRUE(isPoisoned(hits[2]));
        // Null arrays with count 0: nothing read, nothing written.
        EXPECT_EQ(sphereAnyHitBatch(*blob, id, nullptr, 0, nullptr), 0u);
        EXPECT_EQ(segmentClosestHitBatch(*blob, id, nullptr, nullptr, 0, nullptr, nullptr), 0u);
        for (const Transform& t : nonFiniteTransforms()) {
            EXPECT_EQ(sphereAnyHitBatch(*blob, t, spheres, 3, hit), 0u);
            EXPECT_EQ(segmentClosestHitBatch(*blob, t, p0, p1, 3, hits, hit, SegmentTest::Fast), 0u);
        }
    }
    // Many meshes: null arrays with count 0, non-finite queries, non-finite placements.
    std::uint32_t mesh = 77;
    MeshRayHit h;
    poison(h);
    EXPECT_FALSE(sphereAnyHitMeshes(nullptr, nullptr, 0, spheres[0], mesh));
    EXPECT_FALSE(segmentClosestHitMeshes(nullptr, nullptr, 0, p0[0], p1[0], h, mesh));
    const MeshBlob blobs[4] = {m.default_blob, m.empty_baked->blob, m.degenerate->blob, m.good->blob};
    Transform places[4] = {id, id, id, id};
    EXPECT_FALSE(sphereAnyHitMeshes(blobs, places, 4, spheres[1], mesh));
    EXPECT_FALSE(sphereAnyHitMeshes(blobs, places, 4, spheres[2], mesh));
    EXPECT_FALSE(segmentClosestHitMeshes(blobs, places, 4, p0[1], p1[1], h, mesh));
    EXPECT_FALSE(segmentClosestHitMeshes(blobs, places, 4, p0[2], p1[2], h, mesh));
    EXPECT_EQ(mesh, 77u);
    EXPECT_TRUE(isPoisoned(h));
    // A sphere on the good mesh's bottom, clear of the degenerate strip (z >= 0, from x = 0).
    Sphere bottom;
    set(0, 0, -2, bottom.center);
    bottom.radius = 0.5f;
    const Vec3 down0 = vec3(0, 0, -1), down1 = vec3(0, 0, -9);
    places[3] = nonFiniteTransforms()[0]; // the only mesh that could be hit is placed at NaN
    EXPECT_FALSE(sphereAnyHitMeshes(blobs, places, 4, bottom, mesh));
    EXPECT_FALSE(segmentClosestHitMeshes(blobs, places, 4, down0, down1, h, mesh));
    EXPECT_EQ(mesh, 77u);
    places[3] = id;
    EXPECT_TRUE(segmentClosestHitMeshes(blobs, places, 4, down0, down1, h, mesh));
    EXPECT_EQ(mesh, 3u);
    EXPECT_TRUE(sphereAnyHitMeshes(blobs, places, 4, bottom, mesh));
    EXPECT_EQ(mesh, 3u);
}

} // namespace
} // namespace flak::test
