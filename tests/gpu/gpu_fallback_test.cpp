// Without a device the collider still answers, with the CPU kernels, through the same calls.
#include "gpu_harness.h"

namespace flak::test {
namespace {

TEST(GpuFallback, NullDeviceGivesNoDeviceAndCpuAnswers) {
    GpuColliderConfig config;
    config.max_meshes = 16;
    config.max_triangles = 1u << 18;
    ColliderBox box(config, nullptr);
    EXPECT_EQ(box.create_status, Status::NoDevice);
    GpuCollider& collider = box.collider;
    EXPECT_EQ(collider.backend(), GpuBackend::Cpu);
    EXPECT_EQ(collider.deviceStatus(), Status::NoDevice);
    const auto& meshes = queryMeshes();
    std::vector<GpuMeshId> ids;
    for (const auto& m : meshes) {
        GpuMeshId id;
        ASSERT_EQ(collider.uploadMesh(m->blob, id), Status::Ok);
        ids.push_back(id);
    }
    std::vector<GpuJobDesc> jobs;
    SplitMix64 rng(0xFA11BAC4ull);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        GpuJobDesc job;
        job.a = ids[i];
        job.b = ids[(i + 1) % ids.size()];
        randomTransform(rng, 1.0f, job.b_to_a);
        jobs.push_back(job);
    }
    std::vector<GpuPair> expect;
    for (std::uint32_t j = 0; j < jobs.size(); ++j)
        walkPairs(*meshes[jobs[j].a.index], *meshes[jobs[j].b.index], jobs[j].b_to_a, j, expect);
    std::sort(expect.begin(), expect.end(), pairLess);
    ASSERT_FALSE(expect.empty());
    for (GpuBatchMode mode : {GpuBatchMode::Candidates, GpuBatchMode::BruteForce})
        EXPECT_TRUE(runBatch(collider, jobs, mode) == expect);
    GpuTicket ticket;
    ASSERT_EQ(collider.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()),
                                   GpuBatchMode::Candidates, GpuQuery::AnyContact, ticket),
              Status::Ok);
    EXPECT_EQ(collider.poll(ticket), Status::Ok);
    std::vector<std::uint8_t> any(jobs.size());
    ASSERT_EQ(collider.collect(ticket, nullptr, any.data()), Status::Ok);
    for (std::size_t j = 0; j < jobs.size(); ++j)
        EXPECT_EQ(any[j], meshMeshAnyContact(meshes[jobs[j].a.index]->blob, meshes[jobs[j].b.index]->blob,
                                             jobs[j].b_to_a)
                              ? 1u
                              : 0u);
}

TEST(GpuFallback, IncompleteDeviceInfoGivesNoDevice) {
    GpuDeviceInfo info; // no entry point, no handles
    GpuColliderConfig config;
    ColliderBox box(config, &info);
    EXPECT_EQ(box.create_status, Status::NoDevice);
    EXPECT_EQ(box.collider.backend(), GpuBackend::Cpu);
}

TEST(GpuFallback, MissingLoaderGivesNoLoader) {
    platform::VulkanHeadless vulkan;
    platform::VulkanHeadlessOptions options;
    options.loader = "libflak-no-such-vulkan-loader.so.1";
    EXPECT_EQ(vulkan.create(options), Status::NoLoader);
    EXPECT_EQ(vulkan.deviceInfo().device, VK_NULL_HANDLE);
}

TEST(GpuFallback, CreateChecksItsMemory) {
    GpuColliderConfig config;
    GpuCollider collider;
    EXPECT_EQ(collider.create(config, nullptr, nullptr, 0), Status::NullMemory);
    alignas(16) static unsigned char small[64];
    EXPECT_EQ(collider.create(config, nullptr, small, sizeof(small)), Status::TooSmall);
    config.max_jobs = 0;
    EXPECT_EQ(collider.create(config, nullptr, small, sizeof(small)), Status::InvalidArgument);
}

} // namespace
} // namespace flak::test
