#include "sphere_scene.h"

#include "scene_mesh.h"
#include "scene_peers.h"
#include "scene_queries.h"

#include <flak/bvh/sphere_query.h>
#include <flak/geom/sphere_triangle.h>

namespace flak::bench {

namespace {

#if defined(FLAK_BENCH_EMBREE)
// Embree has no sphere-triangle query: rtcPointQuery walks its BVH for the ball and calls this for
// each candidate triangle, which decides with flak's kernel (the same question on the same floats).
struct EmbreeSphereUser {
    const test::Mesh* mesh;
    const Sphere* sphere;
    bool hit;
};

bool embreeSphereCallback(RTCPointQueryFunctionArguments* args) {
    auto* user = static_cast<EmbreeSphereUser*>(args->userPtr);
    if (user->hit) return false;
    const std::uint32_t* idx = &user->mesh->indices[3 * static_cast<std::size_t>(args->primID)];
    Contact c;
    if (sphereTriangle(*user->sphere, user->mesh->positions[idx[0]], user->mesh->positions[idx[1]],
                       user->mesh->positions[idx[2]], c)) {
        user->hit = true;
        args->query->radius = 0.0f; // shrink the walk: Embree has no early exit for point queries
        return true;
    }
    return false;
}
#endif

#if defined(FLAK_BENCH_BULLET)
struct BulletContact : btCollisionWorld::ContactResultCallback {
    bool hit = false;
    btScalar addSingleResult(btManifoldPoint& cp, const btCollisionObjectWrapper*, int, int,
                             const btCollisionObjectWrapper*, int, int) override {
        if (cp.getDistance() <= 0) hit = true;
        return 0;
    }
};
#endif

} // namespace

int runSphereScene(const std::string& name, const test::Mesh& mesh, const SceneBake& how, long count,
                   int rounds, bool json) {
    const SceneMesh s = sceneMesh(mesh);
    BakedScene baked;
    if (!bakeScene(mesh, how, baked)) return 1;
    [[maybe_unused]] const test::Mesh peer = peerMesh(mesh, how, baked.blob);
    const std::vector<Sphere> spheres = makeSpheres(s, count);
    std::vector<PeerResult> rows(3);
    rows[0].name = "flak";
    rows[1].name = "embree";
    rows[2].name = "bullet";
    auto run_flak = [&] {
        long hits = 0;
        for (const Sphere& q : spheres) hits += sphereAnyHit(baked.blob, q) ? 1 : 0;
        return hits;
    };
#if defined(FLAK_BENCH_EMBREE)
    EmbreeMesh em(peer);
    auto run_embree = [&] {
        long hits = 0;
        for (const Sphere& q : spheres) {
            RTCPointQuery pq;
            pq.x = q.center.x;
            pq.y = q.center.y;
            pq.z = q.center.z;
            pq.time = 0.0f;
            pq.radius = q.radius;
            RTCPointQueryContext ctx;
            rtcInitPointQueryContext(&ctx);
            EmbreeSphereUser user{&peer, &q, false};
            rtcPointQuery(em.scene, &pq, &ctx, embreeSphereCallback, &user);
            hits += user.hit ? 1 : 0;
        }
        return hits;
    };
#endif
#if defined(FLAK_BENCH_BULLET)
    BulletMesh bm(peer);
    btSphereShape ball(1.0f);
    btCollisionObject obj;
    obj.setCollisionShape(&ball);
    auto run_bullet = [&] {
        long hits = 0;
        for (const Sphere& q : spheres) {
            ball.setUnscaledRadius(q.radius);
            obj.setWorldTransform(
                btTransform(btQuaternion::getIdentity(), btVector3(q.center.x, q.center.y, q.center.z)));
            BulletContact cb;
            bm.world.contactTest(&obj, cb);
            hits += cb.hit ? 1 : 0;
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
    printQueryScene("sphere", name, mesh.triangleCount(), count, rounds, "queries", rows, json);
    return 0;
}

} // namespace flak::bench
