// The GPU collider as the World's mesh-mesh back end: piled enemy ships step for step give the
// same hits (and hit-stream hash) with the back end as without, and the back end really ran.
#include "gpu_harness.h"

#include "world/world_fixture.h"

#include "flak_support/host_block.h"

#include <flak/gpu/gpu_world_backend.h>

namespace flak::test {
namespace {

class GpuWorldTest : public GpuTest {
protected:
    /// The adapter over `collider` for up to `max_jobs` jobs and `max_pairs` pairs a step, its
    /// memory held by the fixture.
    GpuWorldBackend& makeAdapter(GpuCollider& collider, std::uint32_t max_jobs, std::uint32_t max_pairs) {
        const std::size_t bytes = GpuWorldBackend::requiredBytes(max_jobs, max_pairs);
        adapter_memory.reset(bytes, 16);
        EXPECT_EQ(adapter.init(collider, max_jobs, max_pairs, adapter_memory.data(), bytes), Status::Ok);
        return adapter;
    }

    flak::support::HostBlock adapter_memory;
    GpuWorldBackend adapter;
};

struct WorldRun {
    std::unique_ptr<HostWorld> host;
    std::vector<BodyId> enemies;
};

// 16 enemies piled into a few units, so many pairs intersect mesh against mesh.
void spawnPile(World& world, const MeshBlob& a, const MeshBlob& b, std::vector<BodyId>& out) {
    SplitMix64 rng(42);
    for (int i = 0; i < 16; ++i) {
        ShipDesc desc;
        desc.mesh = i % 2 ? &a : &b;
        desc.team = 1;
        yawAt(static_cast<float>(rng.u() * 6.28), static_cast<float>(rng.u() * 8.0 - 4.0),
              static_cast<float>(rng.u() * 8.0 - 4.0), static_cast<float>(rng.u() * 2.0 - 1.0),
              desc.ship_to_world);
        BodyId id;
        ASSERT_EQ(world.spawnEnemy(desc, id), Status::Ok);
        out.push_back(id);
    }
}

TEST_F(GpuWorldTest, PiledEnemiesGiveTheSameHitsOnTheGpu) {
    auto mesh_a = makeTestMesh(icosphere(3, 2.0f));
    auto mesh_b = makeTestMesh(torus(24, 12, 1.6f, 0.5f));

    GpuColliderConfig gpu_config;
    gpu_config.max_meshes = 4;
    gpu_config.max_triangles = 1u << 14;
    GpuCollider& collider = makeCollider(gpu_config);
    makeAdapter(collider, 256, 1u << 16);
    ASSERT_EQ(adapter.registerMesh(mesh_a->blob), Status::Ok);
    ASSERT_EQ(adapter.registerMesh(mesh_b->blob), Status::Ok);
    ASSERT_EQ(adapter.registerMesh(mesh_a->blob), Status::Ok); // again: a no-op

    WorldConfig config;
    config.max_enemies = 16;
    config.max_players = 0;
    config.max_bullets = 0;
    config.max_beams = 0;
    config.max_mesh_pairs = 1u << 16;
    HostWorld cpu(config);
    config.mesh_mesh_backend = adapter.backend();
    HostWorld gpu(config);
    ASSERT_EQ(cpu.initStatus(), Status::Ok);
    ASSERT_EQ(gpu.initStatus(), Status::Ok);
    std::vector<BodyId> cpu_ids, gpu_ids;
    spawnPile(cpu.world, mesh_a->blob, mesh_b->blob, cpu_ids);
    spawnPile(gpu.world, mesh_a->blob, mesh_b->blob, gpu_ids);

    std::uint32_t mesh_hits = 0;
    SplitMix64 rng(7);
    for (int f = 0; f < 8; ++f) {
        for (std::size_t i = 0; i < cpu_ids.size(); ++i) { // the same moves in both worlds
            Transform t;
            yawAt(static_cast<float>(rng.u() * 6.28), static_cast<float>(rng.u() * 8.0 - 4.0),
                  static_cast<float>(rng.u() * 8.0 - 4.0), 0.0f, t);
            ASSERT_EQ(cpu.world.setShipTransform(cpu_ids[i], t), Status::Ok);
            ASSERT_EQ(gpu.world.setShipTransform(gpu_ids[i], t), Status::Ok);
        }
        ASSERT_EQ(cpu.world.step(1.0f / 60.0f), Status::Ok);
        ASSERT_EQ(gpu.world.step(1.0f / 60.0f), Status::Ok);
        EXPECT_FALSE(cpu.world.stats().mesh_jobs_on_backend);
        EXPECT_TRUE(gpu.world.stats().mesh_jobs_on_backend) << "frame " << f;
        EXPECT_EQ(cpu.world.stats().mesh_jobs, gpu.world.stats().mesh_jobs);
        ASSERT_EQ(cpu.world.hitCount(), gpu.world.hitCount()) << "frame " << f;
        for (std::uint32_t k = 0; k < cpu.world.hitCount(); ++k) {
            const Hit& x = cpu.world.hits()[k];
            const Hit& y = gpu.world.hits()[k];
            EXPECT_EQ(std::memcmp(&x, &y, sizeof(Hit)), 0) << "frame " << f << " hit " << k;
            mesh_hits += x.kind == HitKind::ShipShip ? 1u : 0u;
        }
    }
    EXPECT_EQ(cpu.world.hitStreamHash(), gpu.world.hitStreamHash());
    EXPECT_GT(mesh_hits, 20u);
    EXPECT_EQ(adapter.submittedSteps(), 8u);
}

TEST_F(GpuWorldTest, UnregisteredMeshFallsBackToTheCpu) {
    auto mesh_a = makeTestMesh(icosphere(2, 2.0f));
    GpuCollider& collider = makeCollider(GpuColliderConfig{});
    makeAdapter(collider, 16, 1024);
    WorldConfig config;
    config.max_enemies = 2;
    config.mesh_mesh_backend = adapter.backend();
    HostWorld host(config);
    ASSERT_EQ(host.initStatus(), Status::Ok);
    ShipDesc desc;
    desc.mesh = &mesh_a->blob;
    setIdentity(desc.ship_to_world);
    BodyId a, b;
    ASSERT_EQ(host.world.spawnEnemy(desc, a), Status::Ok);
    desc.ship_to_world.translation.x = 1.0f;
    ASSERT_EQ(host.world.spawnEnemy(desc, b), Status::Ok);
    ASSERT_EQ(host.world.step(1.0f / 60.0f), Status::Ok);
    EXPECT_FALSE(host.world.stats().mesh_jobs_on_backend);
    EXPECT_EQ(adapter.declinedSteps(), 1u);
    ASSERT_EQ(host.world.hitCount(), 1u);
    EXPECT_EQ(host.world.hits()[0].kind, HitKind::ShipShip);
}

// A caller's pair buffer whose drop count has saturated: the adapter still says BufferFull for
// pairs this step dropped (it compared the count before and after).
TEST_F(GpuWorldTest, DropsAreSeenPastASaturatedDropCount) {
    auto mesh = makeTestMesh(icosphere(2, 2.0f));
    GpuCollider& collider = makeCollider(GpuColliderConfig{});
    makeAdapter(collider, 16, 4096);
    ASSERT_EQ(adapter.registerMesh(mesh->blob), Status::Ok);
    const MeshMeshBackend& backend = *adapter.backend();
    MeshMeshJob job;
    job.a = &mesh->blob;
    job.b = &mesh->blob;
    setIdentity(job.b_to_a);
    job.b_to_a.translation.x = 0.5f; // two spheres of radius 2 half a unit apart: many pairs
    std::vector<MeshMeshPair> room(8);
    for (const std::uint32_t earlier : {0u, 0xFFFFFFFFu}) {
        ASSERT_TRUE(backend.submit(backend.user, &job, 1));
        OutBuffer<MeshMeshPair> pairs = OutBuffer<MeshMeshPair>::over(room.data(), 8);
        pairs.dropped = earlier;
        EXPECT_EQ(backend.collect(backend.user, pairs), Status::BufferFull) << "earlier drops " << earlier;
        EXPECT_EQ(pairs.count, 8u);
        EXPECT_GT(pairs.dropped, earlier == 0 ? 0u : earlier - 1);
    }
}

} // namespace
} // namespace flak::test
