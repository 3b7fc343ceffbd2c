// Beams and swept bullets: sampling, castBeam against every segment alone and every target
// alone, sweptBulletFirstHit against every target alone, and the tunnelling a per-instant test
// misses.
#include "shooter/shooter_scenes.h"

#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>
#include <flak/shooter/beam.h>
#include <flak/shooter/swept_bullet.h>

#include <cstring>

namespace flak::test {
namespace {

struct Scene {
    std::vector<std::unique_ptr<AlignedBytes>> bytes;
    std::vector<MeshBlob> blobs;
    std::unique_ptr<Level> level;
    std::vector<std::vector<Sphere>> cluster_spheres;
    std::vector<SphereCluster> clusters;
    std::vector<MeshTarget> mesh_targets;
    std::vector<WallTarget> wall_targets;
    std::vector<ClusterTarget> cluster_targets;
    ShotTargets targets;
};

std::unique_ptr<Scene> makeScene(std::uint64_t seed) {
    auto s = std::make_unique<Scene>();
    SplitMix64 rng(seed);
    const Mesh meshes[] = {icosphere(2, 1.5f), torus(16, 8, 1.5f, 0.4f), terrain(8, 6.0f)};
    for (const Mesh& m : meshes) {
        s->bytes.push_back(std::make_unique<AlignedBytes>(bakeBytes(m)));
        MeshBlob b;
        EXPECT_EQ(loadMeshBlob(s->bytes.back()->data(), s->bytes.back()->size(), b), Status::Ok);
        s->blobs.push_back(b);
    }
    s->level = bakeLevel(randomPolygons(rng, 3, 8.0, -12.0));
    for (int k = 0; k < 3; ++k) s->cluster_spheres.push_back(randomSpheres(rng, 29, 1.2, 0.1, 0.5));
    for (auto& cs : s->cluster_spheres) {
        SphereCluster c;
        EXPECT_EQ(makeSphereCluster(cs.data(), std::uint32_t(cs.size()), c), Status::Ok);
        s->clusters.push_back(c);
    }
    for (std::size_t k = 0; k < s->blobs.size(); ++k)
        s->mesh_targets.push_back({&s->blobs[k], randomTransform(rng, 8.0), std::uint32_t(100 + k)});
    s->wall_targets.push_back({&s->level->walls, 7});
    for (std::size_t k = 0; k < s->clusters.size(); ++k)
        s->cluster_targets.push_back({&s->clusters[k], randomTransform(rng, 8.0), std::uint32_t(200 + k)});
    s->targets = {s->mesh_targets.data(),    std::uint32_t(s->mesh_targets.size()),
                  s->wall_targets.data(),    1,
                  s->cluster_targets.data(), std::uint32_t(s->cluster_targets.size())};
    return s;
}

// Every target alone for one segment, by the brute-force oracles (walls: every edge alone).
bool bruteSegment(const Scene& s, const Vec3& p0, const Vec3& p1, ShotHit& out) {
    bool have = false;
    for (std::uint32_t i = 0; i < s.mesh_targets.size(); ++i) {
        MeshRayHit h;
        if (segmentClosestHit(*s.mesh_targets[i].blob, s.mesh_targets[i].mesh_to_world, p0, p1, h) &&
            (!have || h.hit.t < out.t))
            out = ShotHit{}, out.kind = ShotTargetKind::Mesh, out.target = i, out.feature = h.triangle,
            out.t = h.hit.t, have = true;
    }
    WallRayHit wh;
    bool inside = false;
    if (bruteSegmentWalls(s.level->walls, Vec2{p0.x, p0.y}, Vec2{p1.x, p1.y}, wh, inside) &&
        (!have || wh.t < out.t))
        out = ShotHit{}, out.kind = ShotTargetKind::Walls, out.target = 0, out.feature = wh.edge,
        out.t = wh.t, have = true;
    for (std::uint32_t i = 0; i < s.cluster_targets.size(); ++i) {
        const SphereCluster& c = *s.cluster_targets[i].cluster;
        for (std::uint32_t k = 0; k < c.count; ++k) {
            Sphere w;
            clusterWorldSphere(c, s.cluster_targets[i].cluster_to_world, k, w);
            RayHit h;
            if (segmentSphere(p0, p1, w, h) && (!have || h.t < out.t))
                out = ShotHit{}, out.kind = ShotTargetKind::Cluster, out.target = i, out.feature = k,
                out.t = h.t, have = true;
        }
    }
    return have;
}

TEST(Beam, SamplingHitsTheControlPoints) {
    const Vec3 ctrl[4] = {{0, 0, 0}, {1, 2, 0}, {3, 2, 1}, {4, 0, 1}};
    Vec3 pts[13];
    ASSERT_EQ(sampleBeam(ctrl, 4, BeamCurve::CatmullRom, 12, pts, 13), Status::Ok);
    for (int k = 0; k < 4; ++k) { // Catmull-Rom passes through every control point
        EXPECT_NEAR(pts[4 * k].x, ctrl[k].x, 1e-5f);
        EXPECT_NEAR(pts[4 * k].y, ctrl[k].y, 1e-5f);
        EXPECT_NEAR(pts[4 * k].z, ctrl[k].z, 1e-5f);
    }
    ASSERT_EQ(sampleBeam(ctrl, 4, BeamCurve::Bezier, 12, pts, 13), Status::Ok);
    EXPECT_TRUE(equal(pts[0], ctrl[0]) && equal(pts[12], ctrl[3]));
    // Cubic Bezier at u = 1/2: (p0 + 3 p1 + 3 p2 + p3) / 8.
    EXPECT_NEAR(pts[6].x, (0 + 3 * 1 + 3 * 3 + 4) / 8.0f, 1e-5f);
    EXPECT_NEAR(pts[6].y, (0 + 3 * 2 + 3 * 2 + 0) / 8.0f, 1e-5f);
    ASSERT_EQ(sampleBeam(ctrl, 4, BeamCurve::Polyline, 3, pts, 4), Status::Ok);
    for (int k = 0; k < 4; ++k) EXPECT_TRUE(equal(pts[k], ctrl[k]));
    EXPECT_EQ(sampleBeam(ctrl, 4, BeamCurve::Bezier, 12, pts, 12), Status::TooSmall);
    EXPECT_EQ(sampleBeam(ctrl, 1, BeamCurve::Bezier, 12, pts, 13), Status::InvalidArgument);
    EXPECT_EQ(sampleBeam(ctrl, 4, BeamCurve::Bezier, 0, pts, 13), Status::InvalidArgument);
    const Vec3 nan_ctrl[2] = {{0, 0, 0}, {NAN, 0, 0}};
    EXPECT_EQ(sampleBeam(nan_ctrl, 2, BeamCurve::Polyline, 4, pts, 13), Status::InvalidArgument);
}

TEST(Beam, CastMatchesEverySegmentAndTargetAlone) {
    const std::uint64_t seed = 0xBEA3u + oracleSeedOffset();
    OracleTally tally("beam cast", seed);
    auto scene = makeScene(seed);
    long kinds[4] = {0, 0, 0, 0};
    for (int i = 0; i < 1500; ++i) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(i));
        Vec3 ctrl[5];
        for (Vec3& c : ctrl) c = Vec3{rng.rangef(-14, 14), rng.rangef(-14, 14), rng.rangef(-6, 6)};
        const BeamCurve curve = BeamCurve(std::uint32_t(rng.u() * 3) % 3);
        const std::uint32_t segments = 1 + std::uint32_t(rng.u() * 24);
        Vec3 pts[32];
        ASSERT_EQ(sampleBeam(ctrl, 5, curve, segments, pts, 32), Status::Ok);
        ShotHit got;
        const bool g = castBeam(pts, segments + 1, scene->targets, got);
        // Brute force: segments in order, every target alone.
        bool b = false;
        ShotHit want;
        double travelled = 0.0;
        for (std::uint32_t k = 0; k < segments && !b; ++k) {
            if (bruteSegment(*scene, pts[k], pts[k + 1], want)) {
                b = true;
                want.segment = k;
                Vec3 d;
                sub(pts[k + 1], pts[k], d);
                want.distance = float(travelled + double(want.t * length(d)));
            } else {
                Vec3 d;
                sub(pts[k + 1], pts[k], d);
                travelled += length(d);
            }
        }
        tally.countOnly(b);
        tally.require(std::uint64_t(i), g == b, "hit/miss", [] { return std::string(); });
        if (g && b) {
            ++kinds[std::uint32_t(got.kind)];
            tally.require(std::uint64_t(i),
                          got.kind == want.kind && got.target == want.target && got.feature == want.feature &&
                              got.segment == want.segment && got.t == want.t && got.distance == want.distance,
                          "first hit", [&] {
                              return "kind " + std::to_string(int(got.kind)) + " vs " +
                                     std::to_string(int(want.kind)) + " t " + hexf(got.t) + " vs " +
                                     hexf(want.t);
                          });
            const std::uint32_t ids[4] = {0, 100, 7, 200};
            tally.require(std::uint64_t(i),
                          got.id == ids[std::uint32_t(got.kind)] +
                                        (got.kind == ShotTargetKind::Walls ? 0 : got.target),
                          "target id", [] { return std::string(); });
        }
    }
    tally.note("mesh", kinds[1]);
    tally.note("walls", kinds[2]);
    tally.note("cluster", kinds[3]);
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GT(kinds[1], 0);
    EXPECT_GT(kinds[2], 0);
    EXPECT_GT(kinds[3], 0);
}

TEST(SweptBullet, FirstImpactMatchesEveryTargetAlone) {
    const std::uint64_t seed = 0xB0113u + oracleSeedOffset();
    OracleTally tally("swept bullet", seed);
    auto scene = makeScene(seed);
    for (int i = 0; i < 3000; ++i) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(i));
        const Vec3 c0{rng.rangef(-14, 14), rng.rangef(-14, 14), rng.rangef(-6, 6)};
        const Vec3 c1{rng.rangef(-14, 14), rng.rangef(-14, 14), rng.rangef(-6, 6)};
        const float r = rng.u() < 0.2 ? 0.0f : rng.rangef(0, 0.4);
        ShotHit got;
        const bool g = sweptBulletFirstHit(c0, c1, r, scene->targets, got);
        bool b = false;
        ShotHit want;
        for (std::uint32_t k = 0; k < scene->mesh_targets.size(); ++k) {
            MeshRayHit h;
            if (sweptSphereFirstHit(*scene->mesh_targets[k].blob, scene->mesh_targets[k].mesh_to_world, c0,
                                    c1, r, h) &&
                (!b || h.hit.t < want.t))
                want.kind = ShotTargetKind::Mesh, want.target = k, want.feature = h.triangle,
                want.t = h.hit.t, b = true;
        }
        WallRayHit wh;
        bool inside = false;
        if (bruteSweptWalls(scene->level->walls, Vec2{c0.x, c0.y}, Vec2{c1.x, c1.y}, r, wh, inside) &&
            (!b || wh.t < want.t))
            want.kind = ShotTargetKind::Walls, want.target = 0, want.feature = wh.edge, want.t = wh.t,
            b = true;
        for (std::uint32_t k = 0; k < scene->cluster_targets.size(); ++k) {
            const SphereCluster& c = *scene->cluster_targets[k].cluster;
            for (std::uint32_t j = 0; j < c.count; ++j) {
                Sphere w;
                clusterWorldSphere(c, scene->cluster_targets[k].cluster_to_world, j, w);
                w.radius += r;
                RayHit h;
                if (segmentSphere(c0, c1, w, h) && (!b || h.t < want.t))
                    want.kind = ShotTargetKind::Cluster, want.target = k, want.feature = j, want.t = h.t,
                    b = true;
            }
        }
        tally.countOnly(b);
        tally.require(std::uint64_t(i), g == b, "hit/miss", [] { return std::string(); });
        if (g && b)
            tally.require(std::uint64_t(i),
                          got.kind == want.kind && got.target == want.target && got.feature == want.feature &&
                              got.t == want.t,
                          "first impact", [] { return std::string(); });
    }
    EXPECT_EQ(tally.failures, 0);
}

// A beam segment of no length inside a wall, or on its edge, hits at t = 0 with a unit normal,
// +x (a cluster hit's and a bullet's fallback): it got (0, 0, 0).
TEST(Beam, ZeroLengthSegmentInsideAWallHasAUnitNormal) {
    bake::WallPolygon square;
    square.rings = {rectRing(0.0f, 0.0f, 10.0f, 10.0f)};
    auto level = bakeLevel({square});
    const WallTarget walls{&level->walls, 2};
    const ShotTargets targets{nullptr, 0, &walls, 1, nullptr, 0};
    for (const Vec3 at : {Vec3{5.0f, 5.0f, 0.0f}, Vec3{10.0f, 5.0f, 0.0f}}) {
        ShotHit hit;
        ASSERT_TRUE(segmentTargetsFirstHit(at, at, targets, hit));
        EXPECT_EQ(hit.t, 0.0f);
        EXPECT_EQ(hit.normal.x, 1.0f);
        EXPECT_EQ(hit.normal.y, 0.0f);
        EXPECT_EQ(hit.normal.z, 0.0f);
        const Vec3 points[2] = {at, at};
        ShotHit beam;
        ASSERT_TRUE(castBeam(points, 2, targets, beam));
        EXPECT_EQ(beam.normal.x, 1.0f);
    }
}

TEST(SweptBullet, CatchesTheBulletAPerInstantTestMisses) {
    // A thin wall (0.1 wide) and a thin mesh plate; a bullet of radius 0.05 crossing 10 units in
    // one frame is clear of both at the frame's two instants.
    bake::WallPolygon thin;
    thin.rings = {rectRing(-0.05f, -5.0f, 0.05f, 5.0f)};
    auto level = bakeLevel({thin});
    Mesh plate;
    plate.positions = {Vec3{20.0f, -5.0f, -5.0f}, Vec3{20.0f, 5.0f, -5.0f}, Vec3{20.0f, 5.0f, 5.0f},
                       Vec3{20.0f, -5.0f, 5.0f}};
    plate.indices = {0, 1, 2, 0, 2, 3};
    AlignedBytes bytes(bakeBytes(plate));
    MeshBlob blob;
    ASSERT_EQ(loadMeshBlob(bytes.data(), bytes.size(), blob), Status::Ok);
    Transform id;
    setIdentity(id);
    const float r = 0.05f;
    for (const float x0 : {-5.0f, 15.0f}) {
        const Vec3 c0{x0, 0.3f, 0.0f}, c1{x0 + 10.0f, 0.3f, 0.0f};
        WallContact items[8];
        OutBuffer<WallContact> buf{items, 8, 0, 0};
        WallPush push;
        for (const Vec3& c : {c0, c1}) { // per-instant tests: nothing
            ASSERT_EQ(circleWalls(level->walls, Vec2{c.x, c.y}, r, buf, push), Status::Ok);
            EXPECT_EQ(buf.count, 0u);
            EXPECT_FALSE(sphereAnyHit(blob, Sphere{c, r}));
        }
        const MeshTarget mesh{&blob, id, 1};
        const WallTarget walls{&level->walls, 2};
        const ShotTargets targets{&mesh, 1, &walls, 1, nullptr, 0};
        ShotHit hit;
        ASSERT_TRUE(sweptBulletFirstHit(c0, c1, r, targets, hit));
        if (x0 < 0.0f) {
            EXPECT_EQ(hit.kind, ShotTargetKind::Walls);
            EXPECT_NEAR(hit.t, 0.49f, 1e-5f); // centre at x = -0.1: the circle touches x = -0.05
            EXPECT_NEAR(hit.normal.x, -1.0f, 1e-6f);
        } else {
            EXPECT_EQ(hit.kind, ShotTargetKind::Mesh);
            EXPECT_NEAR(hit.t, 0.495f, 1e-5f);
        }
        EXPECT_NEAR(hit.distance, hit.t * 10.0f, 1e-4f);
    }
}

} // namespace
} // namespace flak::test
