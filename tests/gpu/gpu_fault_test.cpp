// Faults the device cannot be asked to produce, injected through the collider's only door to
// Vulkan: the host's vkGetInstanceProcAddr (GpuDeviceInfo). The wrapper hands out the real entry
// points except the one a test breaks: a device lost at submit or while a batch runs, no compute
// queue, no float controls (SignedZeroInfNanPreserve), and no device memory for the collider's
// buffers. Each gives its status, and the CPU path answers with the same pairs.
#include "gpu_harness.h"

#include "flak_gpu_layout.h"
#include <flak/gpu/gpu_world_backend.h>

#include <cstdint>
#include <cstring>

namespace flak::test {
namespace {

enum class Fault {
    None,
    LostAtSubmit,
    LostWhileRunning,
    NoComputeQueue,
    NoDeviceMemory,
    NoFloatControls,
    SmallStorageRange
};

// The fault in force and the real entry points (one collider at a time in these tests).
Fault g_fault = Fault::None;
PFN_vkGetInstanceProcAddr g_real_gipa = nullptr;
PFN_vkGetDeviceProcAddr g_real_gdpa = nullptr;
PFN_vkGetPhysicalDeviceQueueFamilyProperties g_real_families = nullptr;
PFN_vkQueueSubmit g_real_submit = nullptr;
PFN_vkWaitForFences g_real_wait = nullptr;
PFN_vkGetFenceStatus g_real_fence_status = nullptr;
PFN_vkAllocateMemory g_real_allocate = nullptr;
PFN_vkGetPhysicalDeviceProperties2 g_real_properties2 = nullptr;
PFN_vkGetPhysicalDeviceProperties g_real_properties = nullptr;

// The storage buffer range the SmallStorageRange device reports: 5 MiB.
constexpr std::uint32_t kSmallStorageRange = 5u << 20;

VKAPI_ATTR void VKAPI_CALL noComputeFamilies(VkPhysicalDevice device, std::uint32_t* count,
                                             VkQueueFamilyProperties* families) {
    g_real_families(device, count, families);
    if (families != nullptr)
        for (std::uint32_t k = 0; k < *count; ++k)
            families[k].queueFlags &= ~static_cast<VkQueueFlags>(VK_QUEUE_COMPUTE_BIT);
}

// A device that cannot preserve infinities and NaN in float (the shader declares it does).
VKAPI_ATTR void VKAPI_CALL noFloatControls(VkPhysicalDevice device, VkPhysicalDeviceProperties2* props) {
    g_real_properties2(device, props);
    for (auto* next = static_cast<VkBaseOutStructure*>(props->pNext); next != nullptr; next = next->pNext)
        if (next->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES)
            reinterpret_cast<VkPhysicalDeviceFloatControlsProperties*>(next)
                ->shaderSignedZeroInfNanPreserveFloat32 = VK_FALSE;
}

VKAPI_ATTR void VKAPI_CALL smallStorageRange(VkPhysicalDevice device, VkPhysicalDeviceProperties* props) {
    g_real_properties(device, props);
    props->limits.maxStorageBufferRange = kSmallStorageRange;
}

VKAPI_ATTR VkResult VKAPI_CALL lostSubmit(VkQueue queue, std::uint32_t count, const VkSubmitInfo* submits,
                                          VkFence fence) {
    if (g_fault == Fault::LostAtSubmit) return VK_ERROR_DEVICE_LOST;
    return g_real_submit(queue, count, submits, fence);
}

// The batch was submitted (its fence will signal); the device dies before the host sees it.
VKAPI_ATTR VkResult VKAPI_CALL lostWait(VkDevice device, std::uint32_t count, const VkFence* fences,
                                        VkBool32 all, std::uint64_t timeout) {
    const VkResult r = g_real_wait(device, count, fences, all, timeout);
    return g_fault == Fault::LostWhileRunning ? VK_ERROR_DEVICE_LOST : r;
}
VKAPI_ATTR VkResult VKAPI_CALL lostFenceStatus(VkDevice device, VkFence fence) {
    const VkResult r = g_real_fence_status(device, fence);
    return g_fault == Fault::LostWhileRunning ? VK_ERROR_DEVICE_LOST : r;
}

VKAPI_ATTR VkResult VKAPI_CALL noMemory(VkDevice device, const VkMemoryAllocateInfo* info,
                                        const VkAllocationCallbacks* callbacks, VkDeviceMemory* out) {
    if (g_fault == Fault::NoDeviceMemory) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    return g_real_allocate(device, info, callbacks, out);
}

// When `name` is `wanted`: keeps the real entry point in `real_out` and hands out `wrapper`.
template <class Pfn>
bool hook(const char* name, const char* wanted, PFN_vkVoidFunction real, Pfn& real_out, Pfn wrapper,
          PFN_vkVoidFunction& out) {
    if (std::strcmp(name, wanted) != 0) return false;
    real_out = reinterpret_cast<Pfn>(real);
    out = reinterpret_cast<PFN_vkVoidFunction>(wrapper);
    return true;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL faultyDeviceProc(VkDevice device, const char* name) {
    PFN_vkVoidFunction out = g_real_gdpa(device, name);
    const PFN_vkVoidFunction real = out;
    (void)(hook(name, "vkQueueSubmit", real, g_real_submit, &lostSubmit, out) ||
           hook(name, "vkWaitForFences", real, g_real_wait, &lostWait, out) ||
           hook(name, "vkGetFenceStatus", real, g_real_fence_status, &lostFenceStatus, out) ||
           hook(name, "vkAllocateMemory", real, g_real_allocate, &noMemory, out));
    return out;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL faultyInstanceProc(VkInstance instance, const char* name) {
    PFN_vkVoidFunction out = g_real_gipa(instance, name);
    const PFN_vkVoidFunction real = out;
    (void)(hook(name, "vkGetDeviceProcAddr", real, g_real_gdpa, &faultyDeviceProc, out) ||
           (g_fault == Fault::NoFloatControls &&
            hook(name, "vkGetPhysicalDeviceProperties2", real, g_real_properties2, &noFloatControls, out)) ||
           (g_fault == Fault::NoComputeQueue && hook(name, "vkGetPhysicalDeviceQueueFamilyProperties", real,
                                                     g_real_families, &noComputeFamilies, out)) ||
           (g_fault == Fault::SmallStorageRange &&
            hook(name, "vkGetPhysicalDeviceProperties", real, g_real_properties, &smallStorageRange, out)));
    return out;
}

class GpuFault : public ::testing::Test {
protected:
    void SetUp() override {
        const Status s = vulkan.create(platform::VulkanHeadlessOptions{});
        if (s != Status::Ok) GTEST_SKIP() << vulkan.error();
        pinVulkanDrivers();
        device = vulkan.deviceInfo();
        g_real_gipa = device.get_instance_proc_addr;
        device.get_instance_proc_addr = faultyInstanceProc;
        g_fault = Fault::None;
        for (const auto& m : queryMeshes())
            if (m->tris.size() <= 3000) meshes.push_back(m.get());
        SplitMix64 rng(0xFA017ull);
        for (std::size_t i = 0; i < meshes.size(); ++i) {
            GpuJobDesc job;
            job.a.index = static_cast<std::uint32_t>(i);
            job.b.index = static_cast<std::uint32_t>((i + 1) % meshes.size());
            randomTransform(rng, 1.0f, job.b_to_a);
            jobs.push_back(job);
        }
        for (std::uint32_t j = 0; j < jobs.size(); ++j)
            walkPairs(*meshes[jobs[j].a.index], *meshes[jobs[j].b.index], jobs[j].b_to_a, j, expect);
        std::sort(expect.begin(), expect.end(), pairLess);
    }
    void TearDown() override { g_fault = Fault::None; }

    void upload(GpuCollider& collider) {
        for (const BakedMesh* m : meshes) {
            GpuMeshId id;
            ASSERT_EQ(collider.uploadMesh(m->blob, id), Status::Ok);
        }
    }
    // One batch (candidate mode unless asked): its pairs, sorted (collect sorts them), and collect's
    // status.
    std::vector<GpuPair> batch(GpuCollider& collider, Status& out_collect,
                               GpuBatchMode mode = GpuBatchMode::Candidates) {
        std::vector<GpuPair> items(1u << 20);
        OutBuffer<GpuPair> out =
            OutBuffer<GpuPair>::over(items.data(), static_cast<std::uint32_t>(items.size()));
        GpuTicket ticket;
        const Status submitted = collider.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()),
                                                      mode, GpuQuery::Pairs, ticket);
        EXPECT_TRUE(submitted == Status::Ok || submitted == Status::DeviceLost) << statusName(submitted);
        out_collect = collider.collect(ticket, &out, nullptr);
        items.resize(out.count);
        return items;
    }

    // create() under `fault` says `status`, and the CPU path answers every batch.
    void expectCreateFallsBack(Fault fault, Status status,
                               const GpuColliderConfig& config = GpuColliderConfig{}) {
        g_fault = fault;
        ColliderBox box(config, &device);
        EXPECT_EQ(box.create_status, status);
        EXPECT_EQ(box.collider.backend(), GpuBackend::Cpu);
        upload(box.collider);
        Status collected = Status::Ok;
        EXPECT_EQ(batch(box.collider, collected), expect);
        EXPECT_EQ(collected, Status::Ok);
    }

    platform::VulkanHeadless vulkan;
    GpuDeviceInfo device;
    std::vector<const BakedMesh*> meshes;
    std::vector<GpuJobDesc> jobs;
    std::vector<GpuPair> expect;
};

TEST_F(GpuFault, DeviceLostAtSubmitAnswersOnTheCpu) {
    ColliderBox box(GpuColliderConfig{}, &device);
    ASSERT_EQ(box.create_status, Status::Ok);
    upload(box.collider);
    Status collected = Status::Ok;
    ASSERT_EQ(batch(box.collider, collected), expect); // the device answers first
    EXPECT_EQ(collected, Status::Ok);
    g_fault = Fault::LostAtSubmit;
    EXPECT_EQ(batch(box.collider, collected), expect);
    EXPECT_EQ(box.collider.deviceStatus(), Status::DeviceLost);
    EXPECT_EQ(box.collider.backend(), GpuBackend::Cpu);
    EXPECT_EQ(batch(box.collider, collected), expect); // and stays on the CPU
}

// The submit that meets the loss says DeviceLost and still starts the batch, on the CPU path: its
// ticket collects the same pairs, with Ok.
TEST_F(GpuFault, DeviceLostAtSubmitStillStartsTheBatch) {
    ColliderBox box(GpuColliderConfig{}, &device);
    ASSERT_EQ(box.create_status, Status::Ok);
    upload(box.collider);
    g_fault = Fault::LostAtSubmit;
    GpuTicket ticket;
    EXPECT_EQ(box.collider.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()),
                                       GpuBatchMode::Candidates, GpuQuery::Pairs, ticket),
              Status::DeviceLost);
    std::vector<GpuPair> items(1u << 20);
    OutBuffer<GpuPair> out = OutBuffer<GpuPair>::over(items.data(), static_cast<std::uint32_t>(items.size()));
    EXPECT_EQ(box.collider.collect(ticket, &out, nullptr), Status::Ok);
    items.resize(out.count);
    EXPECT_EQ(items, expect);
}

// An upload that meets the loss says DeviceLost and registers the mesh all the same; later uploads
// say Ok, and the CPU path answers with every mesh.
TEST_F(GpuFault, DeviceLostDuringAnUploadStillRegistersTheMesh) {
    ColliderBox box(GpuColliderConfig{}, &device);
    ASSERT_EQ(box.create_status, Status::Ok);
    g_fault = Fault::LostAtSubmit;
    for (std::size_t k = 0; k < meshes.size(); ++k) {
        GpuMeshId id;
        EXPECT_EQ(box.collider.uploadMesh(meshes[k]->blob, id), k == 0 ? Status::DeviceLost : Status::Ok)
            << k;
        EXPECT_EQ(id.index, k);
    }
    EXPECT_EQ(box.collider.deviceStatus(), Status::DeviceLost);
    Status collected = Status::InvalidArgument;
    EXPECT_EQ(batch(box.collider, collected), expect);
    EXPECT_EQ(collected, Status::Ok);
}

// The World's adapter takes a batch that the loss sent to the CPU path (before, it declined it and
// its buffer was never collected again) and hands over the CPU's pairs.
TEST_F(GpuFault, TheWorldBackendCollectsABatchStartedAsTheDeviceIsLost) {
    ColliderBox box(GpuColliderConfig{}, &device);
    ASSERT_EQ(box.create_status, Status::Ok);
    const std::uint32_t max_jobs = 64, max_pairs = 1u << 20;
    ASSERT_LE(jobs.size(), max_jobs);
    std::vector<unsigned char> memory(GpuWorldBackend::requiredBytes(max_jobs, max_pairs) + 16);
    void* block = memory.data() + (16 - reinterpret_cast<std::uintptr_t>(memory.data()) % 16) % 16;
    GpuWorldBackend adapter;
    ASSERT_EQ(adapter.init(box.collider, max_jobs, max_pairs, block,
                           GpuWorldBackend::requiredBytes(max_jobs, max_pairs)),
              Status::Ok);
    for (const BakedMesh* m : meshes) ASSERT_EQ(adapter.registerMesh(m->blob), Status::Ok);
    std::vector<MeshMeshJob> world_jobs;
    for (const GpuJobDesc& j : jobs)
        world_jobs.push_back(MeshMeshJob{&meshes[j.a.index]->blob, &meshes[j.b.index]->blob, j.b_to_a});
    g_fault = Fault::LostAtSubmit;
    const MeshMeshBackend& backend = *adapter.backend();
    ASSERT_TRUE(
        backend.submit(backend.user, world_jobs.data(), static_cast<std::uint32_t>(world_jobs.size())));
    std::vector<MeshMeshPair> items(max_pairs);
    OutBuffer<MeshMeshPair> out = OutBuffer<MeshMeshPair>::over(items.data(), max_pairs);
    EXPECT_EQ(backend.collect(backend.user, out), Status::Ok);
    std::vector<GpuPair> got;
    for (std::uint32_t k = 0; k < out.count; ++k)
        got.push_back(GpuPair{items[k].job, items[k].a, items[k].b});
    EXPECT_EQ(got, expect);
    EXPECT_EQ(adapter.submittedSteps(), 1u);
    EXPECT_EQ(adapter.declinedSteps(), 0u);
}

TEST_F(GpuFault, DeviceLostWhileABatchRunsIsRecomputedOnTheCpu) {
    ColliderBox box(GpuColliderConfig{}, &device);
    ASSERT_EQ(box.create_status, Status::Ok);
    upload(box.collider);
    g_fault = Fault::LostWhileRunning;
    Status collected = Status::Ok;
    EXPECT_EQ(batch(box.collider, collected), expect);
    EXPECT_EQ(collected, Status::DeviceLost);
    EXPECT_EQ(box.collider.deviceStatus(), Status::DeviceLost);
    EXPECT_EQ(box.collider.backend(), GpuBackend::Cpu);
}

TEST_F(GpuFault, DeviceLostWhileAWalkRunsIsRecomputedOnTheCpu) {
    ColliderBox box(GpuColliderConfig{}, &device);
    ASSERT_EQ(box.create_status, Status::Ok);
    upload(box.collider);
    Status collected = Status::Ok;
    ASSERT_EQ(batch(box.collider, collected, GpuBatchMode::DeviceWalk), expect); // the device walks first
    EXPECT_EQ(collected, Status::Ok);
    g_fault = Fault::LostWhileRunning;
    EXPECT_EQ(batch(box.collider, collected, GpuBatchMode::DeviceWalk), expect);
    EXPECT_EQ(collected, Status::DeviceLost);
    EXPECT_EQ(box.collider.backend(), GpuBackend::Cpu);
}

TEST_F(GpuFault, NoComputeQueueGivesGpuUnsupportedAndCpuAnswers) {
    expectCreateFallsBack(Fault::NoComputeQueue, Status::GpuUnsupported);
}

TEST_F(GpuFault, NoFloatControlsGivesGpuUnsupportedAndCpuAnswers) {
    expectCreateFallsBack(Fault::NoFloatControls, Status::GpuUnsupported);
}

TEST_F(GpuFault, NoDeviceMemoryGivesOutOfMemoryAndCpuAnswers) {
    expectCreateFallsBack(Fault::NoDeviceMemory, Status::OutOfMemory);
}

// Every storage buffer must fit the device's range: here only the walk's jobs (2^16 of 96 bytes,
// 6 MiB) exceed the 5 MiB the device reports, and the collider refuses the device.
TEST_F(GpuFault, ABufferBeyondTheStorageRangeGivesGpuUnsupportedAndCpuAnswers) {
    GpuColliderConfig config;
    config.max_triangles = config.max_nodes = config.max_jobs = config.max_leaf_pairs = config.max_pairs =
        1u << 16;
    static_assert(sizeof(gpu::GpuWalkJob) * (1u << 16) > kSmallStorageRange,
                  "the walk's jobs exceed the range");
    static_assert(sizeof(gpu::GpuJob) * (1u << 16) <= kSmallStorageRange, "the batch's jobs fit it");
    expectCreateFallsBack(Fault::SmallStorageRange, Status::GpuUnsupported, config);
}

} // namespace
} // namespace flak::test
