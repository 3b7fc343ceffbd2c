// Every query flak runs over a loaded blob, driven by a few numbers taken from the fuzz input:
// what a fuzz target calls once the loader has accepted the bytes. Nothing here may crash, hang
// or read outside the blob, whatever the blob holds (the loader's validation is what makes the
// queries safe on arbitrary input, and this is its test).
#pragma once

#include <flak/bvh/box_query.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>
#include <flak/shooter/beam.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/swept_bullet.h>
#include <flak/shooter/wall_set.h>

#include "support/blob_brute_force.h"
#include "support/wall_brute_force.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace flak::fuzz {

/// Reads floats from the tail of the input (zero when it runs out), so query placement varies.
class Params {
public:
    Params(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
    float next(float lo, float hi) {
        std::uint32_t bits = 0;
        for (int i = 0; i < 4; ++i) bits = (bits << 8) | (m_pos < m_size ? m_data[m_size - 1 - m_pos++] : 0u);
        return lo + (hi - lo) * static_cast<float>(bits >> 8) / 16777216.0f;
    }

private:
    const std::uint8_t* m_data;
    std::size_t m_size;
    std::size_t m_pos = 0;
};

/// Runs every mesh query over `blob` (already loaded: the mesh of `whole`, or empty when it has
/// none) and every cluster and wall query over the views `whole` gives.
inline void runAllQueries(const Blob& whole, const MeshBlob& blob, Params& p) {
    const Aabb& b = blob.bounds;
    const float lo = isEmpty(b) ? -10.0f : b.min.x - 1.0f, hi = isEmpty(b) ? 10.0f : b.max.x + 1.0f;
    Vec3 c0, c1;
    set(p.next(lo, hi), p.next(lo, hi), p.next(lo, hi), c0);
    set(p.next(lo, hi), p.next(lo, hi), p.next(lo, hi), c1);
    const float r = p.next(0.0f, hi - lo);
    Transform xf;
    setIdentity(xf);
    set(p.next(-1, 1), p.next(-1, 1), p.next(-1, 1), xf.translation);

    MeshContact contacts[8];
    std::uint32_t ids[8];
    TrianglePair pairs[8];
    const Sphere sphere{c0, r};
    (void)sphereAnyHit(blob, sphere);
    OutBuffer<MeshContact> cb{contacts, 8, 0, 0};
    (void)sphereAllHits(blob, xf, sphere, cb);
    MeshContact deepest;
    (void)sphereDeepestHit(blob, xf, sphere, deepest);
    MeshRayHit hit;
    (void)segmentClosestHit(blob, c0, c1, hit);
    (void)segmentAnyHit(blob, xf, c0, c1, hit, SegmentTest::Fast);
    (void)sweptSphereFirstHit(blob, c0, c1, r, hit);
    Aabb box;
    set(c0.x < c1.x ? c0.x : c1.x, c0.y < c1.y ? c0.y : c1.y, c0.z < c1.z ? c0.z : c1.z, box.min);
    set(c0.x < c1.x ? c1.x : c0.x, c0.y < c1.y ? c1.y : c0.y, c0.z < c1.z ? c1.z : c0.z, box.max);
    OutBuffer<std::uint32_t> tb{ids, 8, 0, 0};
    (void)aabbOverlapTriangles(blob, box, tb);
    (void)meshMeshAnyContact(blob, blob, xf);
    OutBuffer<TrianglePair> pb{pairs, 8, 0, 0};
    (void)meshMeshPairs(blob, blob, xf, pb);
    MeshContactSummary summary;
    (void)meshMeshSummary(blob, blob, xf, summary);

    SphereCluster cluster;
    ShotTargets targets;
    MeshTarget mesh_target{&blob, xf, 0};
    if (blob.triangle_count > 0) {
        targets.meshes = &mesh_target;
        targets.mesh_count = 1;
    }
    ClusterTarget cluster_target;
    if (loadSphereCluster(whole, cluster) == Status::Ok) {
        (void)clusterMeshAnyHit(cluster, xf, blob, xf);
        ClusterPair cp[8];
        OutBuffer<ClusterPair> cpb{cp, 8, 0, 0};
        (void)clusterClusterPairs(cluster, xf, cluster, xf, cpb);
        ClusterRayHit crh;
        (void)segmentClusterFirstHit(cluster, xf, c0, c1, crh);
        cluster_target = ClusterTarget{&cluster, xf, 1};
        targets.clusters = &cluster_target;
        targets.cluster_count = 1;
    }
    WallSet walls;
    WallTarget wall_target;
    if (loadWallSet(whole, walls) == Status::Ok) {
        const Vec2 p0{c0.x, c0.y}, p1{c1.x, c1.y};
        (void)pointInWalls(walls, p0);
        WallContact wc[8];
        OutBuffer<WallContact> wcb{wc, 8, 0, 0};
        WallPush push;
        (void)circleWalls(walls, p0, r, wcb, push);
        WallRayHit wrh;
        (void)segmentWallsFirstHit(walls, p0, p1, wrh);
        (void)sweptCircleWallsFirstHit(walls, p0, p1, r, wrh);
        wall_target = WallTarget{&walls, 2};
        targets.walls = &wall_target;
        targets.wall_count = 1;
    }
    ShotHit shot;
    (void)sweptBulletFirstHit(c0, c1, r, targets, shot);
    const Vec3 beam[3] = {c0, c1, c0};
    (void)castBeam(beam, 3, targets, shot);
}

/// The loader's guarantee (docs/blob_format.md) at a placement drawn from the input: the mesh
/// answers as brute force over its own triangles (test::blobDisagreement), else the run aborts
/// with the query's name, so the fuzzer reports it.
inline void checkAgainstBruteForce(const MeshBlob& blob, Params& p) {
    const Aabb& b = blob.bounds;
    const float lo = isEmpty(b) ? -10.0f : b.min.x - 1.0f, hi = isEmpty(b) ? 10.0f : b.max.x + 1.0f;
    Vec3 c0, c1;
    set(p.next(lo, hi), p.next(lo, hi), p.next(lo, hi), c0);
    set(p.next(lo, hi), p.next(lo, hi), p.next(lo, hi), c1);
    Transform xf;
    setIdentity(xf);
    set(p.next(-1, 1), p.next(-1, 1), p.next(-1, 1), xf.translation);
    const char* wrong =
        test::blobDisagreement(blob, c0, c1, p.next(0.0f, hi - lo), xf, test::MeshMeshCheck::EveryPair);
    if (wrong != nullptr) {
        std::fprintf(stderr, "a blob that loads disagrees with brute force: %s\n", wrong);
        std::abort();
    }
}

/// The same for the blob's wall set, when it has one that loads (test::wallDisagreement): the
/// points and the circle's radius drawn from the input, within the set's bounds (the exact box of
/// its points, as the loader proves) and a unit more.
inline void checkWallsAgainstBruteForce(const Blob& whole, Params& p) {
    WallSet walls;
    if (loadWallSet(whole, walls) != Status::Ok) return;
    const Vec2 lo{walls.bounds_min.x - 1.0f, walls.bounds_min.y - 1.0f};
    const Vec2 hi{walls.bounds_max.x + 1.0f, walls.bounds_max.y + 1.0f};
    const Vec2 p0{p.next(lo.x, hi.x), p.next(lo.y, hi.y)}, p1{p.next(lo.x, hi.x), p.next(lo.y, hi.y)};
    const char* wrong = test::wallDisagreement(walls, p0, p1, p.next(0.0f, 0.25f * (hi.x - lo.x)));
    if (wrong != nullptr) {
        std::fprintf(stderr, "a wall set that loads disagrees with brute force: %s\n", wrong);
        std::abort();
    }
}

} // namespace flak::fuzz
