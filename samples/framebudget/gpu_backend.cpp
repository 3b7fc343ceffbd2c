// See gpu_backend.h.
#include "gpu_backend.h"

#if FLAK_FRAMEBUDGET_GPU
#include <flak/gpu/gpu_collider.h>
#include <flak/gpu/gpu_world_backend.h>
#include <flak/platform/vulkan_headless.h>
#endif

#include <flak/bvh/mesh_blob.h>

#include <cstdint>

namespace flak::framebudget {

#if FLAK_FRAMEBUDGET_GPU

namespace {

// A 16-byte aligned view into a vector of bytes.
void* aligned16(std::vector<unsigned char>& storage, std::size_t bytes) {
    storage.resize(bytes + 16);
    return storage.data() + ((16 - (reinterpret_cast<std::uintptr_t>(storage.data()) & 15u)) & 15u);
}

} // namespace

struct GpuBackendHost::State {
    platform::VulkanHeadless vulkan;
    GpuDeviceInfo device;
    std::vector<unsigned char> collider_memory;
    GpuCollider collider;
    std::vector<unsigned char> adapter_memory;
    GpuWorldBackend adapter;
    bool timed = false;
    ~State() { collider.destroy(); } // before the device goes (members die after this body)
};

bool gpuBackendAvailable() { return true; }

GpuBackendHost::GpuBackendHost() = default;
GpuBackendHost::~GpuBackendHost() = default;

bool GpuBackendHost::create(const std::vector<const MeshBlob*>& meshes, std::uint32_t max_jobs,
                            std::uint32_t max_pairs, bool time_batches, std::string& error) {
    m_state = std::make_unique<State>();
    State& s = *m_state;
    const Status device_status = s.vulkan.create(platform::VulkanHeadlessOptions{});
    if (device_status != Status::Ok) {
        error = "no Vulkan device: " + s.vulkan.error();
        return false;
    }
    s.device = s.vulkan.deviceInfo();
    GpuColliderConfig config;
    std::uint32_t triangles = 0;
    for (const MeshBlob* m : meshes) triangles += m->triangle_count;
    config.max_meshes = static_cast<std::uint32_t>(meshes.size());
    config.max_triangles = triangles > 0 ? triangles : 1;
    config.max_jobs = max_jobs;
    config.max_leaf_pairs = 1u << 20;
    config.max_pairs = max_pairs;
    config.time_batches = time_batches;
    m_state->timed = time_batches;
    const std::size_t collider_bytes = GpuCollider::requiredBytes(config);
    const Status created =
        s.collider.create(config, &s.device, aligned16(s.collider_memory, collider_bytes), collider_bytes);
    if (created != Status::Ok) {
        error =
            std::string("the GPU collider cannot use ") + s.vulkan.deviceName() + ": " + statusName(created);
        return false;
    }
    const std::size_t adapter_bytes = GpuWorldBackend::requiredBytes(max_jobs, max_pairs);
    const Status adapter_status = s.adapter.init(s.collider, max_jobs, max_pairs,
                                                 aligned16(s.adapter_memory, adapter_bytes), adapter_bytes);
    if (adapter_status != Status::Ok) {
        error = std::string("GpuWorldBackend::init: ") + statusName(adapter_status);
        return false;
    }
    for (const MeshBlob* m : meshes) {
        // DeviceLost registers the mesh too: the collider's CPU path answers, and the report's
        // collider status says so.
        const Status registered = s.adapter.registerMesh(*m);
        if (registered != Status::Ok && registered != Status::DeviceLost) {
            error = std::string("uploading an enemy mesh: ") + statusName(registered);
            return false;
        }
    }
    return true;
}

const MeshMeshBackend* GpuBackendHost::backend() const {
    return m_state ? m_state->adapter.backend() : nullptr;
}

GpuRunInfo GpuBackendHost::info() const {
    GpuRunInfo out;
    if (!m_state) return out;
    out.device = m_state->vulkan.deviceName();
    out.collider_status = statusName(m_state->collider.deviceStatus());
    out.on_device = m_state->collider.deviceStatus() == Status::Ok;
    out.submitted_steps = m_state->adapter.submittedSteps();
    out.declined_steps = m_state->adapter.declinedSteps();
    out.tested_pairs = m_state->collider.stats().tested_pairs;
    out.host_pairs = m_state->collider.stats().host_decided_pairs;
    out.timed = m_state->timed;
    out.device_ms = static_cast<double>(m_state->collider.stats().device_ns) * 1e-6;
    return out;
}

#else // no Vulkan back end in this build

struct GpuBackendHost::State {};

bool gpuBackendAvailable() { return false; }
GpuBackendHost::GpuBackendHost() = default;
GpuBackendHost::~GpuBackendHost() = default;
bool GpuBackendHost::create(const std::vector<const MeshBlob*>&, std::uint32_t, std::uint32_t, bool,
                            std::string& error) {
    error = "this build has no Vulkan back end (FLAK_GPU off or Vulkan not found)";
    return false;
}
const MeshMeshBackend* GpuBackendHost::backend() const { return nullptr; }
GpuRunInfo GpuBackendHost::info() const { return {}; }

#endif

} // namespace flak::framebudget
