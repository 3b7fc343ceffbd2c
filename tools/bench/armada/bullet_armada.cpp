// The armada frame from Bullet calls (see bullet_armada.h for what maps to what).
#include "bullet_armada.h"

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <vector>

namespace flak::bench {

namespace {

// Collision filter bits: what a body is, and which shots may touch it.
constexpr int kPlayerBit = 1 << 0;
constexpr int kEnemyBit = 1 << 1;
constexpr int kLevelBit = 1 << 2;
constexpr int kWallsBit = 1 << 3;
constexpr int kPlayerShotBit = 1 << 4;
constexpr int kEnemyShotBit = 1 << 5;

// userIndex of an object: its kind; userIndex2: its index in Scene::ships() (ships only).
constexpr int kKindLevel = 0;
constexpr int kKindWalls = 1;
constexpr int kKindEnemy = 2;
constexpr int kKindPlayer = 3;

btVector3 toBt(const Vec3& v) { return btVector3(v.x, v.y, v.z); }

btTransform toBt(const Transform& t) {
    const Mat33& r = t.rotation; // columns
    const btMatrix3x3 basis(r.c0.x, r.c1.x, r.c2.x, r.c0.y, r.c1.y, r.c2.y, r.c0.z, r.c1.z, r.c2.z);
    return btTransform(basis, toBt(t.translation));
}

// A triangle mesh in Bullet's striding-array form, with the shapes built over it.
struct BulletMeshData {
    std::vector<int> indices;
    std::vector<btScalar> vertices;
    std::unique_ptr<btTriangleIndexVertexArray> array;
    std::unique_ptr<btBvhTriangleMeshShape> bvh;
    std::unique_ptr<btGImpactMeshShape> gimpact;

    void finish(bool with_gimpact) {
        array = std::make_unique<btTriangleIndexVertexArray>(
            static_cast<int>(indices.size() / 3), indices.data(), 3 * static_cast<int>(sizeof(int)),
            static_cast<int>(vertices.size() / 3), vertices.data(), 3 * static_cast<int>(sizeof(btScalar)));
        bvh = std::make_unique<btBvhTriangleMeshShape>(array.get(), true);
        if (with_gimpact) {
            gimpact = std::make_unique<btGImpactMeshShape>(array.get());
            gimpact->updateBound();
        }
    }
};

// The same triangles as the blob (its vertex array and leaf-order triangles).
std::unique_ptr<BulletMeshData> meshFromBlob(const MeshBlob& blob, bool with_gimpact) {
    auto mesh = std::make_unique<BulletMeshData>();
    for (std::uint32_t i = 0; i < blob.vertex_count; ++i) {
        Vec3 p;
        vertexPosition(blob, i, p); // exact or decoded from the grid
        mesh->vertices.insert(mesh->vertices.end(), {p.x, p.y, p.z});
    }
    for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
        std::uint32_t idx[3];
        triangleIndices(blob, t, idx);
        for (std::uint32_t k : idx) mesh->indices.push_back(static_cast<int>(k));
    }
    mesh->finish(with_gimpact);
    return mesh;
}

// The wall set's edges as vertical quads from -kWallHalfHeight to +kWallHalfHeight.
std::unique_ptr<BulletMeshData> meshFromWalls(const WallSet& walls) {
    auto mesh = std::make_unique<BulletMeshData>();
    for (std::uint32_t r = 0; r < walls.ring_count; ++r) {
        const WallRing& ring = walls.rings[r];
        for (std::uint32_t k = 0; k < ring.point_count; ++k) {
            const Vec2& a = walls.points[ring.first_point + k];
            const Vec2& b = walls.points[ring.first_point + (k + 1) % ring.point_count];
            const int base = static_cast<int>(mesh->vertices.size() / 3);
            mesh->vertices.insert(mesh->vertices.end(),
                                  {a.x, a.y, -kWallHalfHeight, b.x, b.y, -kWallHalfHeight, b.x, b.y,
                                   kWallHalfHeight, a.x, a.y, kWallHalfHeight});
            mesh->indices.insert(mesh->indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
        }
    }
    mesh->finish(false);
    return mesh;
}

// One btCollisionWorld with the default configuration.
struct BulletWorld {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};
};

// Any contact of a probe (touching or penetrating).
struct AnyContact : btCollisionWorld::ContactResultCallback {
    bool hit = false;
    int kind = 0; // userIndex of the (last) object touched
    btScalar addSingleResult(btManifoldPoint& cp, const btCollisionObjectWrapper* a, int, int,
                             const btCollisionObjectWrapper* b, int, int) override {
        if (cp.getDistance() <= 0) {
            hit = true;
            // The probe has userIndex -1; the other side is the body touched.
            kind = a->getCollisionObject()->getUserIndex() >= 0 ? a->getCollisionObject()->getUserIndex()
                                                                : b->getCollisionObject()->getUserIndex();
        }
        return 0;
    }
};

// Object pairs of a dispatcher's manifolds with a penetrating or touching point, as sorted keys
// (lower object key in the high word). Compound children share their parent's object.
void touchingPairs(btCollisionDispatcher& dispatcher, std::vector<std::uint64_t>& out) {
    out.clear();
    auto key = [](const btCollisionObject* o) {
        return static_cast<std::uint64_t>(o->getUserIndex()) * 4096u +
               static_cast<std::uint64_t>(o->getUserIndex2());
    };
    for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
        const btPersistentManifold* manifold = dispatcher.getManifoldByIndexInternal(m);
        bool touching = false;
        for (int p = 0; p < manifold->getNumContacts() && !touching; ++p)
            touching = manifold->getContactPoint(p).getDistance() <= 0;
        if (!touching) continue;
        std::uint64_t a = key(manifold->getBody0()), b = key(manifold->getBody1());
        if (a > b) std::swap(a, b);
        out.push_back(a << 32 | b);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

} // namespace

const char* const kBulletTargetNames[kBulletTargetKinds] = {"level", "walls", "enemy", "player"};

const char* bulletPhaseName(BulletPhase phase) {
    switch (phase) {
    case BulletPhase::Broad: return "broad";
    case BulletPhase::Bullets: return "bullets";
    case BulletPhase::Beams: return "beams";
    case BulletPhase::Ships: return "ships";
    case BulletPhase::MeshMesh: return "mesh-mesh";
    default: return "?";
    }
}

struct BulletArmadaState {
    BulletWorld main;
    BulletWorld mesh_mesh;
    std::vector<std::unique_ptr<BulletMeshData>> enemy_meshes;
    std::vector<std::unique_ptr<BulletMeshData>> level_meshes;
    std::unique_ptr<BulletMeshData> walls;
    std::vector<std::unique_ptr<btSphereShape>> cluster_spheres;
    std::unique_ptr<btCompoundShape> player_shape;
    std::vector<std::unique_ptr<btCollisionObject>> objects;         // in main
    std::vector<std::unique_ptr<btCollisionObject>> gimpact_objects; // in mesh_mesh
    std::vector<btCollisionObject*> ship_objects;                    // Scene::ships() order
    std::vector<btCollisionObject*> gimpact_of_ship;                 // null for players
    btSphereShape sweep_sphere{1.0f};
    btSphereShape probe_sphere{1.0f};
    btCollisionObject probe;
    std::vector<std::uint64_t> pairs;

    ~BulletArmadaState() {
        for (auto& o : objects) main.world.removeCollisionObject(o.get());
        for (auto& o : gimpact_objects) mesh_mesh.world.removeCollisionObject(o.get());
    }

    btCollisionObject* add(BulletWorld& w, std::vector<std::unique_ptr<btCollisionObject>>& list,
                           btCollisionShape* shape, const Transform& placement, int kind, int index,
                           int group, int mask) {
        auto object = std::make_unique<btCollisionObject>();
        object->setCollisionShape(shape);
        object->setWorldTransform(toBt(placement));
        object->setUserIndex(kind);
        object->setUserIndex2(index);
        w.world.addCollisionObject(object.get(), group, mask);
        list.push_back(std::move(object));
        return list.back().get();
    }
};

BulletArmada::BulletArmada(const scenes::Scene& scene) : m_state(std::make_unique<BulletArmadaState>()) {
    BulletArmadaState& s = *m_state;
    const scenes::SceneAssets& assets = scene.assets();
    btGImpactCollisionAlgorithm::registerAlgorithm(&s.mesh_mesh.dispatcher);

    for (const auto& blob : assets.enemy_meshes) s.enemy_meshes.push_back(meshFromBlob(blob->mesh, true));
    for (std::size_t i = 0; i < assets.level_meshes.size(); ++i) {
        s.level_meshes.push_back(meshFromBlob(assets.level_meshes[i]->mesh, false));
        s.add(s.main, s.objects, s.level_meshes.back()->bvh.get(), assets.level_placements[i], kKindLevel,
              static_cast<int>(i), kLevelBit, kPlayerShotBit | kEnemyShotBit);
    }
    Transform identity;
    setIdentity(identity);
    if (assets.walls.point_count > 0) {
        s.walls = meshFromWalls(assets.walls);
        s.add(s.main, s.objects, s.walls->bvh.get(), identity, kKindWalls, 0, kWallsBit,
              kPlayerBit | kPlayerShotBit | kEnemyShotBit);
    }
    const SphereCluster& cluster = assets.player_cluster;
    s.player_shape = std::make_unique<btCompoundShape>(true, static_cast<int>(cluster.count));
    for (std::uint32_t k = 0; k < cluster.count; ++k) {
        s.cluster_spheres.push_back(std::make_unique<btSphereShape>(cluster.spheres[k].radius));
        btTransform local;
        local.setIdentity();
        local.setOrigin(toBt(cluster.spheres[k].center));
        s.player_shape->addChildShape(local, s.cluster_spheres.back().get());
    }

    // Ships in Scene::ships() order (scene.cpp: enemy i uses mesh type i % types).
    const std::vector<scenes::ScriptedShip>& ships = scene.ships();
    std::uint32_t enemy = 0;
    for (std::size_t i = 0; i < ships.size(); ++i) {
        const int index = static_cast<int>(i);
        if (ships[i].player) {
            s.ship_objects.push_back(s.add(s.main, s.objects, s.player_shape.get(), ships[i].transform,
                                           kKindPlayer, index, kPlayerBit,
                                           kPlayerBit | kEnemyBit | kWallsBit | kEnemyShotBit));
            s.gimpact_of_ship.push_back(nullptr);
        } else {
            BulletMeshData& mesh = *s.enemy_meshes[enemy % s.enemy_meshes.size()];
            ++enemy;
            s.ship_objects.push_back(s.add(s.main, s.objects, mesh.bvh.get(), ships[i].transform, kKindEnemy,
                                           index, kEnemyBit, kPlayerBit | kPlayerShotBit));
            s.gimpact_of_ship.push_back(s.add(s.mesh_mesh, s.gimpact_objects, mesh.gimpact.get(),
                                              ships[i].transform, kKindEnemy, index, kEnemyBit, kEnemyBit));
        }
    }
    s.probe.setCollisionShape(&s.probe_sphere);
    s.probe.setUserIndex(-1);
    s.main.world.updateAabbs();
    s.mesh_mesh.world.updateAabbs();
}

BulletArmada::~BulletArmada() = default;

std::uint32_t BulletArmada::wallTriangles() const {
    return m_state->walls ? static_cast<std::uint32_t>(m_state->walls->indices.size() / 3) : 0u;
}

void BulletArmada::runFrame(const ArmadaFrame& frame, float dt, float sweep_radii, bool contact_only,
                            BenchClock clock, BulletFrameResult& out) {
    BulletArmadaState& s = *m_state;
    out = BulletFrameResult{};
    btCollisionWorld& world = s.main.world;
    const std::uint64_t t0 = clock(nullptr);

    // Broad: transforms in, boxes and pairs of both worlds.
    for (std::size_t i = 0; i < frame.ships.size() && i < s.ship_objects.size(); ++i) {
        const btTransform placement = toBt(frame.ships[i]);
        s.ship_objects[i]->setWorldTransform(placement);
        if (s.gimpact_of_ship[i] != nullptr) s.gimpact_of_ship[i]->setWorldTransform(placement);
    }
    world.updateAabbs();
    world.computeOverlappingPairs();
    s.mesh_mesh.world.updateAabbs();
    s.mesh_mesh.world.computeOverlappingPairs();
    const std::uint64_t t1 = clock(nullptr);

    // Bullets: swept sphere (closest hit) or a sphere contact where the step leaves it.
    std::uint32_t bullet_hits = 0;
    std::uint32_t hits_on[kBulletTargetKinds] = {};
    for (const FrameBullet& b : frame.bullets) {
        const btVector3 from = toBt(b.center);
        const btVector3 motion = toBt(b.velocity) * dt;
        const btVector3 to = from + motion;
        const float reach = sweep_radii * b.radius;
        const bool player = b.team == kPlayerTeam;
        const int group = player ? kPlayerShotBit : kEnemyShotBit;
        const int mask = (player ? kEnemyBit : kPlayerBit) | kLevelBit | kWallsBit;
        if (!contact_only && motion.length2() > reach * reach) {
            s.sweep_sphere.setUnscaledRadius(b.radius);
            btTransform tf0, tf1;
            tf0.setIdentity();
            tf0.setOrigin(from);
            tf1.setIdentity();
            tf1.setOrigin(to);
            btCollisionWorld::ClosestConvexResultCallback cb(from, to);
            cb.m_collisionFilterGroup = group;
            cb.m_collisionFilterMask = mask;
            world.convexSweepTest(&s.sweep_sphere, tf0, tf1, cb);
            if (cb.hasHit()) {
                ++bullet_hits;
                ++hits_on[cb.m_hitCollisionObject->getUserIndex()];
            }
        } else {
            s.probe_sphere.setUnscaledRadius(b.radius);
            btTransform tf;
            tf.setIdentity();
            tf.setOrigin(to);
            s.probe.setWorldTransform(tf);
            AnyContact cb;
            cb.m_collisionFilterGroup = group;
            cb.m_collisionFilterMask = mask;
            world.contactTest(&s.probe, cb);
            if (cb.hit) {
                ++bullet_hits;
                ++hits_on[cb.kind];
            }
        }
    }
    const std::uint64_t t2 = clock(nullptr);

    // Beams: segments in order, closest hit of each, stop at the first segment that hits.
    std::uint32_t beam_hits = 0;
    {
        const bool player = frame.beam_team == kPlayerTeam;
        const int group = player ? kPlayerShotBit : kEnemyShotBit;
        const int mask = (player ? kEnemyBit : kPlayerBit) | kLevelBit | kWallsBit;
        for (std::uint32_t k = 0; k < frame.beam_count; ++k) {
            const Vec3* p = frame.beam_points.data() + std::size_t{k} * frame.beam_point_count;
            for (std::uint32_t i = 0; i + 1 < frame.beam_point_count; ++i) {
                const btVector3 a = toBt(p[i]), b = toBt(p[i + 1]);
                btCollisionWorld::ClosestRayResultCallback cb(a, b);
                cb.m_collisionFilterGroup = group;
                cb.m_collisionFilterMask = mask;
                world.rayTest(a, b, cb);
                if (cb.hasHit()) {
                    ++beam_hits;
                    break;
                }
            }
        }
    }
    const std::uint64_t t3 = clock(nullptr);

    // Ships: the narrow phase of every broad-phase pair (what performDiscreteCollisionDetection
    // does after updateAabbs and computeOverlappingPairs).
    s.main.dispatcher.dispatchAllCollisionPairs(world.getPairCache(), world.getDispatchInfo(),
                                                &s.main.dispatcher);
    const std::uint64_t t4 = clock(nullptr);
    s.mesh_mesh.dispatcher.dispatchAllCollisionPairs(
        s.mesh_mesh.world.getPairCache(), s.mesh_mesh.world.getDispatchInfo(), &s.mesh_mesh.dispatcher);
    const std::uint64_t t5 = clock(nullptr);

    out.phase_ns[static_cast<int>(BulletPhase::Broad)] = t1 - t0;
    out.phase_ns[static_cast<int>(BulletPhase::Bullets)] = t2 - t1;
    out.phase_ns[static_cast<int>(BulletPhase::Beams)] = t3 - t2;
    out.phase_ns[static_cast<int>(BulletPhase::Ships)] = t4 - t3;
    out.phase_ns[static_cast<int>(BulletPhase::MeshMesh)] = t5 - t4;
    out.total_ns = t5 - t0;
    out.bullet_hits = bullet_hits;
    for (int k = 0; k < kBulletTargetKinds; ++k) out.bullet_hits_on[k] = hits_on[k];
    out.beam_hits = beam_hits;

    // Counting the ship contacts is not part of the frame.
    touchingPairs(s.main.dispatcher, s.pairs);
    for (std::uint64_t pair : s.pairs) {
        const bool walls = (pair >> 32) / 4096u == kKindWalls || (pair & 0xFFFFFFFFu) / 4096u == kKindWalls;
        if (walls)
            ++out.ship_wall;
        else
            ++out.ship_ship;
    }
    touchingPairs(s.mesh_mesh.dispatcher, s.pairs);
    out.enemy_enemy = static_cast<std::uint32_t>(s.pairs.size());
}

} // namespace flak::bench
