// The peer libraries' static mesh structures for the query scenes, built from the same triangles
// (only when the peer is built in: FLAK_BENCH_EMBREE, FLAK_BENCH_BULLET).
#pragma once

#include "flak_support/mesh_gen.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#if defined(FLAK_BENCH_EMBREE)
#include <embree3/rtcore.h>
#endif
#if defined(FLAK_BENCH_BULLET)
#include <btBulletCollisionCommon.h>
#endif

namespace flak::bench {

#if defined(FLAK_BENCH_EMBREE)
/// An Embree scene of the mesh on one thread (default build quality), released by the destructor.
/// commit_seconds is the time of the BVH build itself (rtcCommitScene), for the build scene.
struct EmbreeMesh {
    RTCDevice device = nullptr;
    RTCScene scene = nullptr;
    double commit_seconds = 0.0;
    explicit EmbreeMesh(const test::Mesh& mesh) {
        device = rtcNewDevice("threads=1,set_affinity=0");
        scene = rtcNewScene(device);
        RTCGeometry geom = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
        float* v = static_cast<float*>(rtcSetNewGeometryBuffer(
            geom, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), mesh.positions.size()));
        for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
            v[3 * i] = mesh.positions[i].x;
            v[3 * i + 1] = mesh.positions[i].y;
            v[3 * i + 2] = mesh.positions[i].z;
        }
        unsigned* idx = static_cast<unsigned*>(rtcSetNewGeometryBuffer(
            geom, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(unsigned), mesh.triangleCount()));
        std::copy(mesh.indices.begin(), mesh.indices.end(), idx);
        rtcCommitGeometry(geom);
        rtcAttachGeometry(scene, geom);
        rtcReleaseGeometry(geom);
        const auto t0 = std::chrono::steady_clock::now();
        rtcCommitScene(scene);
        commit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    ~EmbreeMesh() {
        rtcReleaseScene(scene);
        rtcReleaseDevice(device);
    }
    EmbreeMesh(const EmbreeMesh&) = delete;
    EmbreeMesh& operator=(const EmbreeMesh&) = delete;
};
#endif

#if defined(FLAK_BENCH_BULLET)
/// A Bullet collision world holding the mesh as a btBvhTriangleMeshShape (quantized AABB tree).
struct BulletMesh {
    std::vector<int> indices;
    std::vector<btScalar> vertices;
    std::unique_ptr<btTriangleIndexVertexArray> array;
    std::unique_ptr<btBvhTriangleMeshShape> shape;
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};
    btCollisionObject object;
    explicit BulletMesh(const test::Mesh& mesh) {
        indices.assign(mesh.indices.begin(), mesh.indices.end());
        for (const Vec3& p : mesh.positions) vertices.insert(vertices.end(), {p.x, p.y, p.z});
        array = std::make_unique<btTriangleIndexVertexArray>(
            static_cast<int>(mesh.triangleCount()), indices.data(), 3 * static_cast<int>(sizeof(int)),
            static_cast<int>(mesh.positions.size()), vertices.data(), 3 * static_cast<int>(sizeof(btScalar)));
        shape = std::make_unique<btBvhTriangleMeshShape>(array.get(), true);
        object.setCollisionShape(shape.get());
        world.addCollisionObject(&object);
        world.updateAabbs();
    }
    ~BulletMesh() { world.removeCollisionObject(&object); }
    BulletMesh(const BulletMesh&) = delete;
    BulletMesh& operator=(const BulletMesh&) = delete;
};
#endif

} // namespace flak::bench
