#include "segment_scene.h"

#include "scene_mesh.h"
#include "scene_peers.h"
#include "scene_queries.h"

#include <flak/bvh/segment_query.h>

namespace flak::bench {

int runSegmentScene(const std::string& name, const test::Mesh& mesh, const SceneBake& how, long count,
                    int rounds, bool json) {
    const SceneMesh s = sceneMesh(mesh);
    BakedScene baked;
    if (!bakeScene(mesh, how, baked)) return 1;
    [[maybe_unused]] const test::Mesh peer = peerMesh(mesh, how, baked.blob);
    const std::vector<SceneSegment> segments = makeSegments(s, count);
    std::vector<PeerResult> rows(3);
    rows[0].name = "flak";
    rows[1].name = "embree";
    rows[2].name = "bullet";
    auto run_flak = [&] {
        long hits = 0;
        for (const SceneSegment& q : segments) {
            MeshRayHit hit;
            hits += segmentClosestHit(baked.blob, q.p0, q.p1, hit) ? 1 : 0;
        }
        return hits;
    };
#if defined(FLAK_BENCH_EMBREE)
    EmbreeMesh em(peer);
    auto run_embree = [&] {
        long hits = 0;
        for (const SceneSegment& q : segments) {
            RTCIntersectContext ctx;
            rtcInitIntersectContext(&ctx);
            RTCRayHit rh;
            rh.ray.org_x = q.p0.x;
            rh.ray.org_y = q.p0.y;
            rh.ray.org_z = q.p0.z;
            rh.ray.tnear = 0.0f;
            rh.ray.dir_x = q.dir.x;
            rh.ray.dir_y = q.dir.y;
            rh.ray.dir_z = q.dir.z;
            rh.ray.time = 0.0f;
            rh.ray.tfar = q.len;
            rh.ray.mask = ~0u;
            rh.ray.id = 0;
            rh.ray.flags = 0;
            rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
            rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
            rtcIntersect1(em.scene, &ctx, &rh);
            hits += rh.hit.geomID != RTC_INVALID_GEOMETRY_ID ? 1 : 0;
        }
        return hits;
    };
#endif
#if defined(FLAK_BENCH_BULLET)
    BulletMesh bm(peer);
    auto run_bullet = [&] {
        long hits = 0;
        for (const SceneSegment& q : segments) {
            const btVector3 from(q.p0.x, q.p0.y, q.p0.z), to(q.p1.x, q.p1.y, q.p1.z);
            btCollisionWorld::ClosestRayResultCallback cb(from, to);
            bm.world.rayTest(from, to, cb);
            hits += cb.hasHit() ? 1 : 0;
        }
        return hits;
    };
#endif
    for (int r = 0; r < rounds; ++r) {
        timeRound(rows[0], run_flak);
#if defined(FLAK_BENCH_EMBREE)
        timeRound(rows[1], run_embree);
#endif
#if defined(FLAK_BENCH_BULLET)
        timeRound(rows[2], run_bullet);
#endif
    }
    printQueryScene("segment", name, mesh.triangleCount(), count, rounds, "queries", rows, json);
    return 0;
}

} // namespace flak::bench
