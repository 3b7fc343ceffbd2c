// After create() and the uploads, a batch (submit, wait, collect) allocates nothing in flak: zero
// heap calls on the CPU path; on the Vulkan path whatever remains is the driver's own (counted
// and printed), in every batch mode. The first upload runs both shaders once, so the first batch
// does not pay for a driver's lazy shader compile. Also checks that the candidate leaf pairs of meshMeshLeafPairs,
// expanded with triTriOverlap, are meshMeshPairs.
#include "gpu_harness.h"

#include "flak_support/allocation_trap.h"

#include <flak/bvh/mesh_leaf_pairs.h>

namespace flak::test {
namespace {

std::vector<GpuJobDesc> someJobs(const std::vector<GpuMeshId>& ids) {
    std::vector<GpuJobDesc> jobs;
    SplitMix64 rng(0xA110Cull);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        GpuJobDesc job;
        job.a = ids[i];
        job.b = ids[(i + 2) % ids.size()];
        randomTransform(rng, 1.0f, job.b_to_a);
        jobs.push_back(job);
    }
    return jobs;
}

std::size_t batchAllocations(GpuCollider& collider, const std::vector<GpuJobDesc>& jobs,
                             std::vector<GpuPair>& items) {
    OutBuffer<GpuPair> out;
    out.items = items.data();
    out.capacity = static_cast<std::uint32_t>(items.size());
    std::vector<std::uint8_t> any(jobs.size());
    armAllocationTrap();
    for (int round = 0; round < 4; ++round) {
        GpuTicket t1, t2;
        const GpuBatchMode modes[4] = {GpuBatchMode::DeviceWalk, GpuBatchMode::BruteForce,
                                       GpuBatchMode::Candidates, GpuBatchMode::DeviceWalk};
        EXPECT_EQ(collider.submitBatch(jobs.data(), 2, modes[round], GpuQuery::Pairs, t1), Status::Ok);
        EXPECT_EQ(collider.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()),
                                       round % 2 == 0 ? GpuBatchMode::DeviceWalk : GpuBatchMode::Candidates,
                                       GpuQuery::AnyContact, t2),
                  Status::Ok);
        EXPECT_EQ(collider.wait(t1), Status::Ok);
        out.count = 0;
        EXPECT_EQ(collider.collect(t1, &out, nullptr), Status::Ok);
        EXPECT_EQ(collider.collect(t2, nullptr, any.data()), Status::Ok);
    }
    return disarmAllocationTrap();
}

std::vector<GpuMeshId> uploadSmall(GpuCollider& collider) {
    std::vector<GpuMeshId> ids;
    for (const auto& m : queryMeshes()) {
        if (m->tris.size() > 3000) continue; // brute force rounds stay small
        GpuMeshId id;
        EXPECT_EQ(collider.uploadMesh(m->blob, id), Status::Ok);
        ids.push_back(id);
    }
    return ids;
}

TEST(GpuNoAlloc, CpuPathBatchesAllocateNothing) {
    GpuColliderConfig config;
    ColliderBox box(config, nullptr);
    const std::vector<GpuJobDesc> jobs = someJobs(uploadSmall(box.collider));
    std::vector<GpuPair> items(1u << 20);
    EXPECT_EQ(batchAllocations(box.collider, jobs, items), 0u);
}

TEST_F(GpuTest, VulkanPathBatchesAllocateNothingInFlak) {
    GpuColliderConfig config;
    GpuCollider& collider = makeCollider(config);
    const std::vector<GpuJobDesc> jobs = someJobs(uploadSmall(collider));
    std::vector<GpuPair> items(1u << 20);
    (void)batchAllocations(collider, jobs, items); // warm-up: the driver's first-use caches
    const std::size_t n = batchAllocations(collider, jobs, items);
    std::printf("heap calls during 8 Vulkan batches (driver, %s): %zu; driver calls through flak's heap: "
                "high water %zu bytes\n",
                mallocIsTrapped() ? "malloc trapped" : "operator new only", n,
                collider.stats().host_heap_high_water);
    EXPECT_EQ(collider.stats().host_heap_failures, 0u);
}

// Without the validation layer (whose own bookkeeping allocates), the first rounds of batches
// after the uploads cost the heap no more than the next ones: the driver compiled the shader at
// the first upload. Lavapipe compiles a shader with LLVM at its first dispatch, about 360 heap
// calls; its later batches each take over a thousand (a frame for each of its compute
// coroutines), so the slack is absolute: a blocking fence wait takes one call more or less.
TEST(GpuNoAlloc, FirstBatchesCostNoMoreThanLaterOnes) {
    if (!mallocIsTrapped()) GTEST_SKIP() << "malloc is not interposed in this build";
    platform::VulkanHeadless vulkan;
    if (vulkan.create(platform::VulkanHeadlessOptions{}) != Status::Ok) GTEST_SKIP() << vulkan.error();
    pinVulkanDrivers();
    const GpuDeviceInfo device = vulkan.deviceInfo();
    std::size_t first = 0, second = 0;
    {
        ColliderBox box(GpuColliderConfig{}, &device);
        ASSERT_EQ(box.create_status, Status::Ok);
        const std::vector<GpuJobDesc> jobs = someJobs(uploadSmall(box.collider));
        std::vector<GpuPair> items(1u << 20);
        first = batchAllocations(box.collider, jobs, items);
        second = batchAllocations(box.collider, jobs, items);
    }
    std::printf(
        "heap calls during the first 8 Vulkan batches: %zu, the next 8: %zu; device heap high water %zu "
        "bytes\n",
        first, second, vulkan.deviceHeapHighWater());
    EXPECT_LE(first, second + 16);
    EXPECT_EQ(vulkan.deviceHeapFailures(), 0u);
}

TEST(MeshLeafPairs, ExpandedLeafPairsAreTheWalkPairs) {
    const auto& meshes = queryMeshes();
    SplitMix64 rng(0x1EAFull);
    std::vector<MeshLeafPair> leaves(1u << 20);
    for (std::size_t i = 0; i < meshes.size(); ++i)
        for (std::size_t k = 0; k < meshes.size(); ++k) {
            const BakedMesh& a = *meshes[i];
            const BakedMesh& b = *meshes[k];
            Transform t;
            randomTransform(rng, 0.5f * a.diag, t);
            OutBuffer<MeshLeafPair> buffer;
            buffer.items = leaves.data();
            buffer.capacity = static_cast<std::uint32_t>(leaves.size());
            ASSERT_EQ(meshMeshLeafPairs(a.blob, b.blob, t, buffer), Status::Ok);
            std::vector<GpuPair> expanded, walk;
            for (std::uint32_t n = 0; n < buffer.count; ++n) {
                const MeshLeafPair& p = leaves[n];
                for (std::uint32_t ta = p.a_first; ta < p.a_first + p.a_count; ++ta)
                    for (std::uint32_t tb = p.b_first; tb < p.b_first + p.b_count; ++tb) {
                        Vec3 v[3];
                        for (std::size_t c = 0; c < 3; ++c) transformPoint(t, b.tris[tb][c], v[c]);
                        if (triTriOverlap(a.tris[ta][0], a.tris[ta][1], a.tris[ta][2], v[0], v[1], v[2]))
                            expanded.push_back(GpuPair{0, ta, tb});
                    }
            }
            walkPairs(a, b, t, 0, walk);
            std::sort(expanded.begin(), expanded.end(), pairLess);
            std::sort(walk.begin(), walk.end(), pairLess);
            EXPECT_TRUE(expanded == walk) << a.name << " vs " << b.name;
            // Each leaf pair at most once.
            std::vector<std::pair<std::uint32_t, std::uint32_t>> keys;
            for (std::uint32_t n = 0; n < buffer.count; ++n)
                keys.emplace_back(leaves[n].a_first, leaves[n].b_first);
            std::sort(keys.begin(), keys.end());
            EXPECT_TRUE(std::adjacent_find(keys.begin(), keys.end()) == keys.end());
        }
    // Capacity: the rest is counted, nothing written past it.
    const BakedMesh& m = *meshes[0];
    Transform id;
    setIdentity(id);
    MeshLeafPair two[3];
    two[2].a_first = 0xDEADu;
    OutBuffer<MeshLeafPair> small;
    small.items = two;
    small.capacity = 2;
    EXPECT_EQ(meshMeshLeafPairs(m.blob, m.blob, id, small), Status::BufferFull);
    EXPECT_EQ(small.count, 2u);
    EXPECT_GT(small.dropped, 0u);
    EXPECT_EQ(two[2].a_first, 0xDEADu);
}

} // namespace
} // namespace flak::test
