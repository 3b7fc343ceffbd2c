#include "meshmesh_scene.h"

#include "scene_mesh.h"
#include "scene_peers.h"
#include "scene_queries.h"

#include <flak/bvh/mesh_mesh.h>

#if defined(FLAK_BENCH_BULLET)
#include <BulletCollision/Gimpact/btGImpactShape.h>
#endif
#if defined(FLAK_BENCH_FCL)
#include <fcl/fcl.h>
#endif

namespace flak::bench {

int runMeshMeshScene(const std::string& name, const test::Mesh& mesh, const SceneBake& how, long count,
                     int rounds, bool json) {
    const SceneMesh s = sceneMesh(mesh);
    BakedScene baked;
    if (!bakeScene(mesh, how, baked)) return 1;
    [[maybe_unused]] const test::Mesh peer = peerMesh(mesh, how, baked.blob);
    const std::vector<Pose> poses = makePoses(s, count);
    std::vector<PeerResult> pairs_rows(3), any_rows(2);
    pairs_rows[0].name = "flak";
    pairs_rows[1].name = "gimpact";
    pairs_rows[2].name = "fcl";
    any_rows[0].name = "flak";
    any_rows[1].name = "fcl";
    std::vector<TrianglePair> buffer(1u << 22);
    auto run_pairs = [&] {
        long pairs = 0;
        for (const Pose& p : poses) {
            OutBuffer<TrianglePair> out{buffer.data(), static_cast<std::uint32_t>(buffer.size()), 0, 0};
            (void)meshMeshPairs(baked.blob, baked.blob, p.b_to_a, out); // an overflow is counted below
            pairs += out.count + out.dropped;
        }
        return pairs;
    };
    auto run_any = [&] {
        long contacts = 0;
        for (const Pose& p : poses) contacts += meshMeshAnyContact(baked.blob, baked.blob, p.b_to_a) ? 1 : 0;
        return contacts;
    };
#if defined(FLAK_BENCH_BULLET)
    // GImpact's own path for two trimeshes (btGImpactCollisionAlgorithm::collide_sat_triangles):
    // quantized box-tree pairs, then per pair the conservative plane test and the clip method.
    // Margin 0, so that it answers the same question (touching = contact).
    BulletMesh bm(peer);
    btGImpactMeshShapePart part(bm.array.get(), 0);
    part.setMargin(0.0f);
    part.updateBound();
    part.lockChildShapes();
    btTransform identity;
    identity.setIdentity();
    auto run_gimpact = [&] {
        long pairs = 0;
        for (const Pose& p : poses) {
            const btMatrix3x3 r(btScalar(p.r[0][0]), btScalar(p.r[0][1]), btScalar(p.r[0][2]),
                                btScalar(p.r[1][0]), btScalar(p.r[1][1]), btScalar(p.r[1][2]),
                                btScalar(p.r[2][0]), btScalar(p.r[2][1]), btScalar(p.r[2][2]));
            const btTransform tb(r, btVector3(btScalar(p.t[0]), btScalar(p.t[1]), btScalar(p.t[2])));
            btPairSet candidates;
            btGImpactQuantizedBvh::find_collision(part.getBoxSet(), identity, part.getBoxSet(), tb,
                                                  candidates);
            for (int k = 0; k < candidates.size(); ++k) {
                btPrimitiveTriangle ta, tri_b;
                part.getPrimitiveTriangle(candidates[k].m_index1, ta);
                part.getPrimitiveTriangle(candidates[k].m_index2, tri_b);
                tri_b.applyTransform(tb);
                ta.buildTriPlane();
                tri_b.buildTriPlane();
                GIM_TRIANGLE_CONTACT contact;
                if (ta.overlap_test_conservative(tri_b) &&
                    ta.find_triangle_collision_clip_method(tri_b, contact))
                    ++pairs;
            }
        }
        return pairs;
    };
#endif
#if defined(FLAK_BENCH_FCL)
    // FCL: both copies as BVHModel<OBBRSS> (double, FCL's usual instantiation; the float vertices
    // convert exactly), collide() with contacts off: all pairs with an unbounded contact count,
    // any contact with a count of 1.
    using FclModel = fcl::BVHModel<fcl::OBBRSSd>;
    auto model = std::make_shared<FclModel>();
    {
        std::vector<fcl::Vector3d> points;
        std::vector<fcl::Triangle> tris;
        for (const Vec3& v : peer.positions) points.emplace_back(v.x, v.y, v.z);
        for (std::size_t t = 0; t < peer.indices.size(); t += 3)
            tris.emplace_back(peer.indices[t], peer.indices[t + 1], peer.indices[t + 2]);
        model->beginModel();
        model->addSubModel(points, tris);
        model->endModel();
    }
    std::vector<fcl::Transform3d> fcl_poses(poses.size());
    for (std::size_t k = 0; k < poses.size(); ++k) {
        fcl::Matrix3d r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) r(i, j) = poses[k].r[i][j];
        fcl_poses[k].setIdentity();
        fcl_poses[k].linear() = r;
        fcl_poses[k].translation() = fcl::Vector3d(poses[k].t[0], poses[k].t[1], poses[k].t[2]);
    }
    auto run_fcl = [&](std::size_t max_contacts) {
        long total = 0;
        fcl::CollisionObjectd obj_a(model, fcl::Transform3d::Identity());
        fcl::CollisionObjectd obj_b(model, fcl::Transform3d::Identity());
        for (const fcl::Transform3d& tf : fcl_poses) {
            obj_b.setTransform(tf);
            obj_b.computeAABB();
            fcl::CollisionRequestd request(max_contacts, false);
            fcl::CollisionResultd result;
            fcl::collide(&obj_a, &obj_b, request, result);
            total +=
                max_contacts == 1 ? (result.isCollision() ? 1 : 0) : static_cast<long>(result.numContacts());
        }
        return total;
    };
    auto run_fcl_pairs = [&] { return run_fcl(100000000); };
    auto run_fcl_any = [&] { return run_fcl(1); };
#endif
    for (int r = 0; r < rounds; ++r) {
        timeRound(pairs_rows[0], run_pairs);
#if defined(FLAK_BENCH_FCL)
        timeRound(pairs_rows[2], run_fcl_pairs);
        timeRound(any_rows[1], run_fcl_any);
#endif
        timeRound(any_rows[0], run_any);
#if defined(FLAK_BENCH_BULLET)
        timeRound(pairs_rows[1], run_gimpact);
#endif
    }
#if defined(FLAK_BENCH_BULLET)
    part.unlockChildShapes();
#endif
    printQueryScene("meshmesh-pairs", name, mesh.triangleCount(), count, rounds, "poses", pairs_rows, json);
    printQueryScene("meshmesh-any", name, mesh.triangleCount(), count, rounds, "poses", any_rows, json);
    return 0;
}

} // namespace flak::bench
