// Every shooter query between armed allocation traps (the trap is tests/no_alloc's), and every
// query's answer to non-finite input (no hit, no crash).
#include "shooter/shooter_scenes.h"

#include "flak_support/allocation_trap.h"

#include <flak/shooter/beam.h>
#include <flak/shooter/swept_bullet.h>

namespace flak::test {
namespace {

struct Fixture {
    std::unique_ptr<AlignedBytes> mesh_bytes;
    MeshBlob mesh;
    std::unique_ptr<Level> level;
    std::vector<Sphere> spheres;
    SphereCluster cluster;
    Transform place;
};

std::unique_ptr<Fixture> fixture() {
    auto f = std::make_unique<Fixture>();
    f->mesh_bytes = std::make_unique<AlignedBytes>(bakeBytes(icosphere(3, 2.0f)));
    EXPECT_EQ(loadMeshBlob(f->mesh_bytes->data(), f->mesh_bytes->size(), f->mesh), Status::Ok);
    SplitMix64 rng(99);
    f->level = bakeLevel(randomPolygons(rng, 4, 6.0, -12.0));
    f->spheres = randomSpheres(rng, 29, 1.0, 0.1, 0.5);
    EXPECT_EQ(makeSphereCluster(f->spheres.data(), 29, f->cluster), Status::Ok);
    f->place = randomTransform(rng, 1.0);
    return f;
}

TEST(ShooterNoAlloc, EveryQueryAllocatesNothing) {
    auto f = fixture(); // built (and allocated) before arming
    Transform id;
    setIdentity(id);
    MeshContact mc[256];
    std::uint32_t ids[256];
    ClusterPair pairs[1024];
    WallContact wc[256];
    Vec3 beam[17];
    const Vec3 ctrl[3] = {{-8, -8, 0}, {0, 3, 1}, {8, -8, 0}};
    const MeshTarget mt{&f->mesh, id, 1};
    const WallTarget wt{&f->level->walls, 2};
    const ClusterTarget ct{&f->cluster, f->place, 3};
    const ShotTargets targets{&mt, 1, &wt, 1, &ct, 1};
    long answers = 0;
    armAllocationTrap();
    for (int k = 0; k < 50; ++k) {
        const float x = -10.0f + 0.4f * float(k);
        Transform t = f->place;
        t.translation.x += x;
        answers += clusterMeshAnyHit(f->cluster, t, f->mesh, id) ? 1 : 0;
        ClusterMeshBuffer cmb{OutBuffer<MeshContact>{mc, 256, 0, 0}, ids};
        answers += clusterMeshContacts(f->cluster, t, f->mesh, id, cmb) == Status::Ok ? 1 : 0;
        OutBuffer<ClusterPair> pb{pairs, 1024, 0, 0};
        answers += clusterClusterPairs(f->cluster, t, f->cluster, f->place, pb) == Status::Ok ? 1 : 0;
        answers += clusterClusterAnyHit(f->cluster, t, f->cluster, f->place) ? 1 : 0;
        answers += clusterBullets(f->cluster, t, f->spheres.data(), 29, pb) == Status::Ok ? 1 : 0;
        ClusterRayHit crh;
        answers += segmentClusterFirstHit(f->cluster, t, Vec3{-20, 0, 0}, Vec3{20, 0.1f, 0}, crh) ? 1 : 0;
        answers +=
            sweptSphereClusterFirstHit(f->cluster, t, Vec3{-20, 0, 0}, Vec3{20, 0.1f, 0}, 0.2f, crh) ? 1 : 0;
        OutBuffer<WallContact> wb{wc, 256, 0, 0};
        WallPush push;
        answers += circleWalls(f->level->walls, Vec2{x, 0.5f * x}, 1.5f, wb, push) == Status::Ok ? 1 : 0;
        answers += clusterWalls(f->level->walls, f->cluster, t, wb, push) == Status::Ok ? 1 : 0;
        answers += pointInWalls(f->level->walls, Vec2{x, -x}) ? 1 : 0;
        WallRayHit wh;
        answers += segmentWallsFirstHit(f->level->walls, Vec2{x, -12}, Vec2{-x, 12}, wh) ? 1 : 0;
        answers += sweptCircleWallsFirstHit(f->level->walls, Vec2{x, -12}, Vec2{-x, 12}, 0.3f, wh) ? 1 : 0;
        answers += sampleBeam(ctrl, 3, BeamCurve::Bezier, 16, beam, 17) == Status::Ok ? 1 : 0;
        ShotHit sh;
        answers += castBeam(beam, 17, targets, sh) ? 1 : 0;
        answers += sweptBulletFirstHit(Vec3{x, -12, 0}, Vec3{-x, 12, 0}, 0.2f, targets, sh) ? 1 : 0;
    }
    const std::size_t seen = disarmAllocationTrap();
    EXPECT_EQ(seen, 0u) << "allocations during shooter queries";
    EXPECT_GT(answers, 0);
}

TEST(ShooterQueries, NonFiniteInputHitsNothing) {
    auto f = fixture();
    Transform id, bad;
    setIdentity(id);
    bad = id;
    bad.translation.y = NAN;
    const Vec3 nan3{NAN, 0, 0}, p{0, 0, 0}, q{1, 1, 1};
    ClusterRayHit crh;
    EXPECT_FALSE(clusterMeshAnyHit(f->cluster, bad, f->mesh, id));
    EXPECT_FALSE(clusterMeshAnyHit(f->cluster, id, f->mesh, bad));
    EXPECT_FALSE(clusterClusterAnyHit(f->cluster, bad, f->cluster, id));
    EXPECT_FALSE(segmentClusterFirstHit(f->cluster, id, nan3, q, crh));
    EXPECT_FALSE(segmentClusterFirstHit(f->cluster, bad, p, q, crh));
    EXPECT_FALSE(sweptSphereClusterFirstHit(f->cluster, id, p, q, NAN, crh));
    EXPECT_FALSE(sweptSphereClusterFirstHit(f->cluster, id, p, q, -1.0f, crh));
    RayHit rh;
    EXPECT_FALSE(segmentSphere(p, q, Sphere{p, -1.0f}, rh));
    EXPECT_FALSE(segmentSphere(p, nan3, Sphere{p, 1.0f}, rh));
    WallRayHit wh;
    EXPECT_FALSE(sweptCircleEdge(Vec2{0, 0}, Vec2{1, 0}, INFINITY, Vec2{0, 1}, Vec2{1, 1}, wh));
    EXPECT_FALSE(sweptCircleWallsFirstHit(f->level->walls, Vec2{NAN, 0}, Vec2{1, 0}, 0.1f, wh));
    const MeshTarget mt{&f->mesh, id, 1};
    const ShotTargets targets{&mt, 1, nullptr, 0, nullptr, 0};
    ShotHit sh;
    EXPECT_FALSE(sweptBulletFirstHit(p, q, NAN, targets, sh));
    const Vec3 beam[3] = {nan3, nan3, nan3};
    EXPECT_FALSE(castBeam(beam, 3, targets, sh));
    EXPECT_FALSE(castBeam(beam, 1, targets, sh));
    EXPECT_FALSE(castBeam(nullptr, 3, targets, sh));
    // An empty target list and null entries hit nothing.
    const MeshTarget null_mesh{nullptr, id, 0};
    const ShotTargets nulls{&null_mesh, 1, nullptr, 0, nullptr, 0};
    EXPECT_FALSE(sweptBulletFirstHit(Vec3{-9, 0, 0}, Vec3{9, 0, 0}, 0.1f, nulls, sh));
    EXPECT_FALSE(segmentTargetsFirstHit(Vec3{-9, 0, 0}, Vec3{9, 0, 0}, ShotTargets{}, sh));
}

} // namespace
} // namespace flak::test
