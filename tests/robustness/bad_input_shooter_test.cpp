// Bad input for the shooter room (flak/shooter): clusters made from bad spheres, queries with NaN
// / Inf / huge positions and radii, negative radii, zero-length segments and sweeps, non-finite
// transforms, empty wall sets and clusters, capacity-0 result buffers, null target arrays, beams
// with too few, too many or non-finite points. Every walk here is the escape-index loop over the
// wall tree or a loop over at most kMaxClusterSpheres spheres: none can hang on NaN.
#include "bad_input.h"
#include "support/assert_recorder.h"

#include <flak/shooter/beam.h>
#include <flak/shooter/segment_sphere.h>
#include <flak/shooter/shot_targets.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/swept_bullet.h>
#include <flak/shooter/wall_set.h>

#include <gtest/gtest.h>

namespace flak::test {
namespace {

TEST(BadInputShooter, MakeAndLoadClusters) {
    SphereCluster c;
    Sphere s[3];
    for (int i = 0; i < 3; ++i) {
        set(static_cast<float>(i), 0, 0, s[i].center);
        s[i].radius = 1;
    }
    auto refused = [&](std::uint32_t count, const Sphere* spheres) {
        c.count = 99;
        EXPECT_EQ(makeSphereCluster(spheres, count, c), Status::InvalidArgument);
        EXPECT_EQ(c.count, 0u); // emptied
        EXPECT_EQ(c.spheres, nullptr);
    };
    refused(0, s);
    refused(3, nullptr);
    refused(0, nullptr);
    refused(kMaxClusterSpheres + 1, s); // count beyond the limit: refused before reading
    for (float v : nonFiniteValues()) {
        Sphere bad[3] = {s[0], s[1], s[2]};
        bad[1].center.z = v;
        refused(3, bad);
        bad[1] = s[1];
        bad[2].radius = v;
        refused(3, bad);
    }
    Sphere neg[3] = {s[0], s[1], s[2]};
    neg[0].radius = -0.5f;
    refused(3, neg);
    // Zero radii are valid (points); huge but finite spheres are valid: the bound may round to
    // infinity, which only makes the early-out pass everything.
    Sphere zero[1] = {s[0]};
    zero[0].radius = 0;
    EXPECT_EQ(makeSphereCluster(zero, 1, c), Status::Ok);
    Sphere huge[2] = {s[0], s[1]};
    set(-FLT_MAX, 0, 0, huge[0].center);
    set(FLT_MAX, 0, 0, huge[1].center);
    huge[0].radius = huge[1].radius = FLT_MAX;
    EXPECT_EQ(makeSphereCluster(huge, 2, c), Status::Ok);
    EXPECT_FALSE(std::isnan(c.bound.radius));
    // loadSphereCluster of a blob without a cluster (and of Blob{}): InvalidArgument.
    auto mesh = goodMesh();
    c.count = 5;
    EXPECT_EQ(loadSphereCluster(mesh->whole, c), Status::InvalidArgument);
    EXPECT_EQ(c.count, 0u);
    EXPECT_EQ(loadSphereCluster(Blob{}, c), Status::InvalidArgument);
    // loadWallSet likewise.
    WallSet w;
    w.point_count = 3;
    EXPECT_EQ(loadWallSet(mesh->whole, w), Status::InvalidArgument);
    EXPECT_EQ(w.point_count, 0u);
    EXPECT_EQ(loadWallSet(Blob{}, w), Status::InvalidArgument);
    // loadMeshBlob of Blob{} (no sections at all): InvalidArgument too.
    MeshBlob none;
    EXPECT_EQ(loadMeshBlob(Blob{}, none), Status::InvalidArgument);
}

TEST(BadInputShooter, ClusterQueries) {
    auto cluster = goodCluster();
    const SphereCluster& c = cluster->cluster;
    const SphereCluster empty{};
    auto mesh = goodMesh();
    auto degenerate = degenerateMesh();
    const Transform id = identityTransform();
    std::vector<MeshContact> contact_items(64);
    std::vector<std::uint32_t> sphere_items(64);
    std::vector<ClusterPair> pair_items(64);
    for (const Transform& bad : nonFiniteTransforms()) {
        EXPECT_FALSE(clusterMeshAnyHit(c, bad, mesh->blob, id));
        EXPECT_FALSE(clusterMeshAnyHit(c, id, mesh->blob, bad));
        ClusterMeshBuffer cm{{contact_items.data(), 64, 0, 0}, sphere_items.data()};
        EXPECT_EQ(clusterMeshContacts(c, bad, mesh->blob, id, cm), Status::Ok);
        EXPECT_EQ(clusterMeshContacts(c, id, mesh->blob, bad, cm), Status::Ok);
        EXPECT_EQ(cm.hits.count + cm.hits.dropped, 0u);
        ClusterPair first;
        poison(first);
        EXPECT_FALSE(clusterClusterAnyHit(c, bad, c, id, &first));
        EXPECT_FALSE(clusterClusterAnyHit(c, id, c, bad));
        EXPECT_TRUE(isPoisoned(first));
        OutBuffer<ClusterPair> pb{pair_items.data(), 64, 0, 0};
        EXPECT_EQ(clusterClusterPairs(c, bad, c, id, pb), Status::Ok);
        Sphere bullet;
        bullet.radius = 1;
        EXPECT_EQ(clusterBullets(c, bad, &bullet, 1, pb), Status::Ok);
        EXPECT_EQ(pb.count + pb.dropped, 0u);
        ClusterRayHit rh;
        poison(rh);
        EXPECT_FALSE(segmentClusterFirstHit(c, bad, vec3(-9, 0, 0), vec3(9, 0, 0), rh));
        EXPECT_FALSE(sweptSphereClusterFirstHit(c, bad, vec3(-9, 0, 0), vec3(9, 0, 0), 0.5f, rh));
        EXPECT_TRUE(isPoisoned(rh));
        Sphere bound;
        clusterWorldBound(c, bad, bound); // returns (a NaN bound: every later test misses)
    }
    for (float v : nonFiniteValues()) {
        const Vec3 bad = vec3(0, v, 0);
        ClusterRayHit rh;
        poison(rh);
        EXPECT_FALSE(segmentClusterFirstHit(c, id, bad, vec3(9, 0, 0), rh));
        EXPECT_FALSE(segmentClusterFirstHit(c, id, vec3(-9, 0, 0), bad, rh));
        EXPECT_FALSE(sweptSphereClusterFirstHit(c, id, bad, vec3(9, 0, 0), 0.5f, rh));
        EXPECT_FALSE(sweptSphereClusterFirstHit(c, id, vec3(-9, 0, 0), vec3(9, 0, 0), v, rh));
        EXPECT_TRUE(isPoisoned(rh));
        Sphere bullets[2];
        bullets[0].center = bad;
        bullets[0].radius = 1;
        bullets[1].radius = v;
        OutBuffer<ClusterPair> pb{pair_items.data(), 64, 0, 0};
        EXPECT_EQ(clusterBullets(c, id, bullets, 2, pb), Status::Ok);
        EXPECT_EQ(pb.count, 0u);
    }
    // Negative radii: no contact.
    ClusterRayHit rh;
    EXPECT_FALSE(sweptSphereClusterFirstHit(c, id, vec3(-9, 0, 0), vec3(9, 0, 0), -1.0f, rh));
    Sphere neg_bullet;
    neg_bullet.radius = -1;
    OutBuffer<ClusterPair> pb{pair_items.data(), 64, 0, 0};
    EXPECT_EQ(clusterBullets(c, id, &neg_bullet, 1, pb), Status::Ok);
    EXPECT_EQ(pb.count, 0u);
    // Empty inputs: the empty cluster, an empty mesh, null bullet arrays.
    EXPECT_FALSE(clusterMeshAnyHit(empty, id, mesh->blob, id));
    EXPECT_FALSE(clusterMeshAnyHit(c, id, MeshBlob{}, id));
    EXPECT_FALSE(clusterClusterAnyHit(empty, id, c, id));
    EXPECT_FALSE(segmentClusterFirstHit(empty, id, vec3(-9, 0, 0), vec3(9, 0, 0), rh));
    EXPECT_EQ(clusterBullets(c, id, nullptr, 0, pb), Status::Ok);
    EXPECT_EQ(pb.count, 0u);
    ClusterMeshBuffer cm{{contact_items.data(), 64, 0, 0}, sphere_items.data()};
    EXPECT_EQ(clusterMeshContacts(c, id, MeshBlob{}, id, cm), Status::Ok);
    EXPECT_EQ(clusterMeshContacts(c, id, degenerate->blob, id, cm), Status::Ok);
    EXPECT_GT(cm.hits.count, 0u); // the cluster reaches the strip's first zero-area triangles
    for (std::uint32_t i = 0; i < cm.hits.count; ++i) {
        EXPECT_NEAR(length(cm.hits.items[i].contact.normal), 1.0f, 1e-5f); // the stand-in normal
    }
    // Capacity-0 buffers (null items): counted, not written.
    ClusterMeshBuffer cm0{{nullptr, 0, 0, 0}, nullptr};
    EXPECT_EQ(clusterMeshContacts(c, id, mesh->blob, id, cm0), Status::BufferFull);
    EXPECT_EQ(cm0.hits.count, 0u);
    EXPECT_GT(cm0.hits.dropped, 0u);
    OutBuffer<ClusterPair> pb0{nullptr, 0, 0, 0};
    EXPECT_EQ(clusterClusterPairs(c, id, c, id, pb0), Status::BufferFull);
    EXPECT_EQ(pb0.count, 0u);
    EXPECT_GT(pb0.dropped, 0u);
    // Zero-length segment inside a sphere: t = 0; outside: no hit.
    ASSERT_TRUE(segmentClusterFirstHit(c, id, c.spheres[0].center, c.spheres[0].center, rh));
    EXPECT_EQ(rh.hit.t, 0.0f);
    EXPECT_FALSE(segmentClusterFirstHit(c, id, vec3(0, 9, 0), vec3(0, 9, 0), rh));
    // Huge and odd placements: bounded (at most kMaxClusterSpheres per cluster).
    for (const Transform& t : oddFiniteTransforms()) {
        (void)clusterMeshAnyHit(c, t, mesh->blob, id);
        ClusterMeshBuffer b{{contact_items.data(), 64, 0, 0}, sphere_items.data()};
        (void)clusterMeshContacts(c, t, mesh->blob, id, b);
        EXPECT_LE(b.hits.count, 64u);
        (void)clusterClusterAnyHit(c, t, c, id);
        (void)segmentClusterFirstHit(c, t, vec3(-9, 0, 0), vec3(9, 0, 0), rh);
        (void)sweptSphereClusterFirstHit(c, t, vec3(-9, 0, 0), vec3(9, 0, 0), FLT_MAX, rh);
    }
    Sphere world_sphere;
    clusterWorldSphere(c, id, 3, world_sphere); // the last valid index
    EXPECT_EQ(world_sphere.radius, 0.5f);
}

TEST(BadInputShooter, SegmentSphere) {
    Sphere s;
    set(0, 0, 0, s.center);
    s.radius = 1;
    RayHit h;
    for (float v : nonFiniteValues()) {
        poison(h);
        EXPECT_FALSE(segmentSphere(vec3(v, 0, 0), vec3(5, 0, 0), s, h));
        EXPECT_FALSE(segmentSphere(vec3(-5, 0, 0), vec3(5, v, 0), s, h));
        Sphere bad = s;
        bad.radius = v;
        EXPECT_FALSE(segmentSphere(vec3(-5, 0, 0), vec3(5, 0, 0), bad, h));
        bad = s;
        bad.center.z = v;
        EXPECT_FALSE(segmentSphere(vec3(-5, 0, 0), vec3(5, 0, 0), bad, h));
        EXPECT_TRUE(isPoisoned(h));
    }
    Sphere neg = s;
    neg.radius = -1;
    EXPECT_FALSE(segmentSphere(vec3(-5, 0, 0), vec3(5, 0, 0), neg, h));
    // A zero-length segment at the centre: t = 0, normal +x (documented).
    ASSERT_TRUE(segmentSphere(s.center, s.center, s, h));
    EXPECT_EQ(h.t, 0.0f);
    EXPECT_EQ(h.normal.x, 1.0f);
    for (float big : hugeValues()) {
        (void)segmentSphere(vec3(-big, 0, 0), vec3(big, 0, 0), s, h);
        Sphere b = s;
        b.radius = std::fabs(big);
        (void)segmentSphere(vec3(-5, 0, 0), vec3(5, 0, 0), b, h);
    }
}

TEST(BadInputShooter, WallQueries) {
    auto level = goodWalls();
    ASSERT_NE(level, nullptr);
    const WallSet& w = level->walls;
    const WallSet empty{};
    std::vector<WallContact> items(64);
    auto cluster = goodCluster();
    for (const WallSet* set_ptr : {&w, &empty}) {
        const WallSet& walls = *set_ptr;
        for (float v : nonFiniteValues()) {
            SCOPED_TRACE(v);
            const Vec2 bad{v, 2.0f};
            EXPECT_FALSE(pointInWalls(walls, bad));
            OutBuffer<WallContact> buf{items.data(), 64, 0, 0};
            WallPush push;
            poison(push);
            EXPECT_EQ(circleWalls(walls, bad, 1.0f, buf, push), Status::Ok);
            EXPECT_EQ(buf.count + buf.dropped, 0u);
            EXPECT_EQ(push.push.x, 0.0f); // zero push, no contacts
            EXPECT_EQ(push.push.y, 0.0f);
            EXPECT_EQ(push.contact_count, 0u);
            EXPECT_EQ(circleWalls(walls, Vec2{1, 1}, v, buf, push), Status::Ok);
            EXPECT_EQ(buf.count, 0u);
            for (const Transform& t : nonFiniteTransforms()) {
                EXPECT_EQ(clusterWalls(walls, cluster->cluster, t, buf, push), Status::Ok);
                EXPECT_EQ(buf.count, 0u);
                EXPECT_EQ(push.contact_count, 0u);
            }
            WallRayHit h;
            poison(h);
            EXPECT_FALSE(segmentWallsFirstHit(walls, bad, Vec2{1, 1}, h));
            EXPECT_FALSE(segmentWallsFirstHit(walls, Vec2{-5, 5}, bad, h));
            EXPECT_FALSE(sweptCircleWallsFirstHit(walls, bad, Vec2{1, 1}, 0.5f, h));
            EXPECT_FALSE(sweptCircleWallsFirstHit(walls, Vec2{-5, 5}, Vec2{5, 5}, v, h));
            EXPECT_FALSE(sweptCircleEdge(bad, Vec2{1, 1}, 0.5f, Vec2{0, 0}, Vec2{0, 10}, h));
            EXPECT_FALSE(sweptCircleEdge(Vec2{-5, 5}, Vec2{5, 5}, 0.5f, Vec2{0, v}, Vec2{0, 10}, h));
            EXPECT_FALSE(sweptCircleEdge(Vec2{-5, 5}, Vec2{5, 5}, v, Vec2{0, 0}, Vec2{0, 10}, h));
            EXPECT_TRUE(isPoisoned(h));
        }
        OutBuffer<WallContact> buf{items.data(), 64, 0, 0};
        WallPush push;
        EXPECT_EQ(circleWalls(walls, Vec2{1, 1}, -1.0f, buf, push), Status::Ok);
        EXPECT_EQ(buf.count, 0u);
        WallRayHit h;
        EXPECT_FALSE(sweptCircleWallsFirstHit(walls, Vec2{-5, 5}, Vec2{5, 5}, -1.0f, h));
        EXPECT_FALSE(sweptCircleEdge(Vec2{-5, 5}, Vec2{5, 5}, -1.0f, Vec2{0, 0}, Vec2{0, 10}, h));
        // Huge radii and positions: bounded walks.
        for (float big : hugeValues()) {
            OutBuffer<WallContact> b{items.data(), 64, 0, 0};
            (void)circleWalls(walls, Vec2{1, 1}, std::fabs(big), b, push);
            EXPECT_LE(b.count, 64u);
            (void)circleWalls(walls, Vec2{big, big}, 1.0f, b, push);
            (void)pointInWalls(walls, Vec2{big, 1});
            (void)segmentWallsFirstHit(walls, Vec2{-big, 5}, Vec2{big, 5}, h);
            (void)sweptCircleWallsFirstHit(walls, Vec2{-5, 5}, Vec2{5, 5}, std::fabs(big), h);
            (void)sweptCircleWallsFirstHit(walls, Vec2{-big, 5}, Vec2{big, 5}, 1.0f, h);
            (void)sweptCircleEdge(Vec2{-big, 5}, Vec2{big, 5}, 1.0f, Vec2{0, 0}, Vec2{0, 10}, h);
        }
        for (const Transform& t : oddFiniteTransforms()) {
            OutBuffer<WallContact> b{items.data(), 64, 0, 0};
            (void)clusterWalls(walls, cluster->cluster, t, b, push);
            EXPECT_LE(b.count, 64u);
        }
    }
    // The empty set: nothing is inside, nothing is hit.
    WallRayHit h;
    EXPECT_FALSE(pointInWalls(empty, Vec2{1, 1}));
    EXPECT_FALSE(segmentWallsFirstHit(empty, Vec2{-5, 5}, Vec2{50, 5}, h));
    EXPECT_FALSE(sweptCircleWallsFirstHit(empty, Vec2{-5, 5}, Vec2{50, 5}, 1.0f, h));
    // Zero-length segment inside the solid: t = 0, kNoEdge, zero normal (documented).
    ASSERT_TRUE(segmentWallsFirstHit(w, Vec2{1, 1}, Vec2{1, 1}, h));
    EXPECT_EQ(h.t, 0.0f);
    EXPECT_EQ(h.edge, kNoEdge);
    EXPECT_EQ(h.normal.x, 0.0f);
    EXPECT_EQ(h.normal.y, 0.0f);
    // Zero-length edge (a point) and a zero-length sweep: valid.
    EXPECT_TRUE(sweptCircleEdge(Vec2{0, 0}, Vec2{0, 0}, 1.0f, Vec2{0.5f, 0}, Vec2{0.5f, 0}, h));
    EXPECT_EQ(h.t, 0.0f);
    // Capacity-0 buffers: counted, the push still uses every contact.
    OutBuffer<WallContact> none{nullptr, 0, 0, 0};
    WallPush push;
    EXPECT_EQ(circleWalls(w, Vec2{-0.5f, 5}, 1.0f, none, push), Status::BufferFull);
    EXPECT_EQ(none.count, 0u);
    EXPECT_GT(none.dropped, 0u);
    EXPECT_GT(push.contact_count, 0u);
    EXPECT_LT(push.push.x, 0.0f); // pushed out to -x
    Vec2 a, b;
    wallEdgePoints(w, w.point_count - 1, a, b); // the last valid edge id
    EXPECT_TRUE(isFinite(a) && isFinite(b));
}

TEST(BadInputShooter, ShotsAndBeams) {
    auto mesh = goodMesh();
    auto level = goodWalls();
    auto cluster = goodCluster();
    const Transform id = identityTransform();
    MeshTarget mt{&mesh->blob, id, 1};
    WallTarget wt{&level->walls, 2};
    ClusterTarget ct{&cluster->cluster, id, 3};
    ShotTargets targets{&mt, 1, &wt, 1, &ct, 1};
    ShotTargets none{};
    // Null entries with non-zero counts are skipped.
    MeshTarget null_mesh{nullptr, id, 4};
    WallTarget null_walls{nullptr, 5};
    ClusterTarget null_cluster{nullptr, id, 6};
    ShotTargets nulls{&null_mesh, 1, &null_walls, 1, &null_cluster, 1};
    // Targets placed at NaN hit nothing.
    MeshTarget nan_mesh{&mesh->blob, nonFiniteTransforms()[0], 7};
    ClusterTarget nan_cluster{&cluster->cluster, nonFiniteTransforms()[2], 8};
    ShotTargets nan_targets{&nan_mesh, 1, nullptr, 0, &nan_cluster, 1};
    ShotHit hit;
    const Vec3 through[2] = {vec3(-40, 1, 0), vec3(40, 1, 0)};
    ASSERT_TRUE(castBeam(through, 2, targets, hit)); // the well-formed reference
    for (const ShotTargets* t : {&none, &nulls, &nan_targets}) {
        poison(hit);
        EXPECT_FALSE(castBeam(through, 2, *t, hit));
        EXPECT_FALSE(segmentTargetsFirstHit(through[0], through[1], *t, hit));
        EXPECT_FALSE(sweptBulletFirstHit(through[0], through[1], 0.5f, *t, hit));
        EXPECT_TRUE(isPoisoned(hit));
    }
    for (float v : nonFiniteValues()) {
        poison(hit);
        const Vec3 bad = vec3(v, 1, 0);
        EXPECT_FALSE(segmentTargetsFirstHit(bad, through[1], targets, hit));
        EXPECT_FALSE(sweptBulletFirstHit(bad, through[1], 0.5f, targets, hit));
        EXPECT_FALSE(sweptBulletFirstHit(through[0], through[1], v, targets, hit));
        const Vec3 nan_beam[2] = {bad, through[1]};
        EXPECT_FALSE(castBeam(nan_beam, 2, targets, hit)); // its only segment is skipped
        EXPECT_TRUE(isPoisoned(hit));
        // A NaN point in the middle: the segments touching it are skipped, later ones still cast.
        const Vec3 mid[4] = {vec3(-40, 50, 0), bad, vec3(-40, 1, 0), vec3(40, 1, 0)};
        ASSERT_TRUE(castBeam(mid, 4, targets, hit));
        EXPECT_EQ(hit.segment, 2u);
    }
    EXPECT_FALSE(sweptBulletFirstHit(through[0], through[1], -1.0f, targets, hit));
    // Fewer than 2 points or null: false.
    EXPECT_FALSE(castBeam(nullptr, 0, targets, hit));
    EXPECT_FALSE(castBeam(nullptr, 5, targets, hit));
    EXPECT_FALSE(castBeam(through, 1, targets, hit));
    // Zero-length shots: a point (inside the mesh sphere's shell it is no segment hit).
    (void)segmentTargetsFirstHit(through[0], through[0], targets, hit);
    EXPECT_TRUE(sweptBulletFirstHit(vec3(1, 1, 0), vec3(1, 1, 0), 0.5f, targets, hit)); // inside walls
    for (float big : hugeValues()) {
        (void)sweptBulletFirstHit(vec3(-big, 1, 0), vec3(big, 1, 0), 0.5f, targets, hit);
        (void)sweptBulletFirstHit(through[0], through[1], std::fabs(big), targets, hit);
        const Vec3 far_beam[3] = {vec3(-big, 1, 0), vec3(big, 1, 0), vec3(0, big, 0)};
        (void)castBeam(far_beam, 3, targets, hit);
    }
}

// An index out of range is a programmer error (FLAK_ASSERT); when the host's handler returns,
// the call writes a defined answer and reads nothing (ASan watches in the sanitize build).
TEST(BadInputShooter, OutOfRangeIndicesReadNothing) {
    AssertRecorder recorder;
    Sphere spheres[2];
    spheres[0].radius = spheres[1].radius = 1.0f;
    SphereCluster cluster;
    ASSERT_EQ(makeSphereCluster(spheres, 2, cluster), Status::Ok);
    Transform t;
    setIdentity(t);
    Sphere out;
    out.radius = 7.0f;
    clusterWorldSphere(cluster, t, 2, out);
    clusterWorldSphere(cluster, t, 0xFFFFFFFFu, out);
    EXPECT_EQ(out.radius, 0.0f);
    WallSet empty;
    Vec2 a{1.0f, 1.0f}, b{1.0f, 1.0f};
    wallEdgePoints(empty, 0, a, b);
    EXPECT_EQ(a.x, 0.0f);
    EXPECT_EQ(b.y, 0.0f);
#if defined(FLAK_ENABLE_ASSERTS)
    EXPECT_EQ(recorder.count(), 3);
#endif
}

TEST(BadInputShooter, SampleBeam) {
    const Vec3 control[3] = {vec3(0, 0, 0), vec3(1, 1, 0), vec3(2, 0, 0)};
    Vec3 out[9];
    for (BeamCurve curve : {BeamCurve::Polyline, BeamCurve::CatmullRom, BeamCurve::Bezier}) {
        poison(out);
        EXPECT_EQ(sampleBeam(nullptr, 3, curve, 8, out, 9), Status::InvalidArgument);
        EXPECT_EQ(sampleBeam(control, 3, curve, 8, nullptr, 9), Status::InvalidArgument);
        EXPECT_EQ(sampleBeam(control, 1, curve, 8, out, 9), Status::InvalidArgument);
        EXPECT_EQ(sampleBeam(control, kMaxBeamControlPoints + 1, curve, 8, out, 9), Status::InvalidArgument);
        EXPECT_EQ(sampleBeam(control, 3, curve, 0, out, 9), Status::InvalidArgument);
        EXPECT_EQ(sampleBeam(control, 3, curve, 8, out, 8), Status::TooSmall);
        EXPECT_EQ(sampleBeam(control, 3, curve, 8, out, 0), Status::TooSmall);
        EXPECT_EQ(sampleBeam(control, 3, curve, 0xFFFFFFFFu, out, 0xFFFFFFFFu), Status::TooSmall); // no wrap
        for (float v : nonFiniteValues()) {
            const Vec3 bad[3] = {control[0], vec3(1, v, 0), control[2]};
            EXPECT_EQ(sampleBeam(bad, 3, curve, 8, out, 9), Status::InvalidArgument);
        }
        EXPECT_TRUE(isPoisoned(out)); // nothing written by any refusal
        // Coincident control points: valid, every sample the same point.
        const Vec3 same[3] = {control[1], control[1], control[1]};
        ASSERT_EQ(sampleBeam(same, 3, curve, 8, out, 9), Status::Ok);
        for (const Vec3& p : out) EXPECT_TRUE(equal(p, control[1]));
    }
    EXPECT_EQ(sampleBeam(control, 3, static_cast<BeamCurve>(7), 8, out, 9), Status::InvalidArgument);
}

} // namespace
} // namespace flak::test
