// The runner's optional GPU mesh-mesh back end (--gpu): a headless Vulkan device from platform/,
// a GpuCollider with the scene's enemy meshes uploaded, and the GpuWorldBackend that the World's
// config points at. Only in builds with the Vulkan back end (FLAK_FRAMEBUDGET_GPU).
#pragma once

#include <flak/world/world_config.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace flak {
struct MeshBlob;
} // namespace flak

namespace flak::framebudget {

/// Whether this build can run --gpu.
bool gpuBackendAvailable();

struct GpuRunInfo {
    std::string device;                ///< the device's name
    std::string collider_status;       ///< statusName(deviceStatus()) at the end: "Ok" on the GPU path
    bool on_device = false;            ///< deviceStatus() is Ok at the end
    std::uint64_t submitted_steps = 0; ///< steps whose enemy pairs went to the collider
    std::uint64_t declined_steps = 0;  ///< steps the back end declined (answered on the CPU)
    std::uint64_t tested_pairs = 0;    ///< triangle pairs the device tested
    std::uint64_t host_pairs = 0;      ///< of those, the pairs it left to the host (GpuColliderStats)
    bool timed = false;                ///< batches timed on the device
    double device_ms = 0.0;            ///< the device's time for all batches collected from it
};

class GpuBackendHost {
public:
    GpuBackendHost();
    ~GpuBackendHost();
    GpuBackendHost(const GpuBackendHost&) = delete;
    GpuBackendHost& operator=(const GpuBackendHost&) = delete;

    /// Brings the device up, uploads `meshes` and sizes the adapter for `max_jobs` enemy pairs and
    /// `max_pairs` triangle pairs per step, timing each batch on the device when asked
    /// (GpuColliderConfig::time_batches). False with a message when there is no usable GPU path.
    bool create(const std::vector<const MeshBlob*>& meshes, std::uint32_t max_jobs, std::uint32_t max_pairs,
                bool time_batches, std::string& error);
    /// For WorldConfig::mesh_mesh_backend (valid while this object lives).
    const MeshMeshBackend* backend() const;
    GpuRunInfo info() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace flak::framebudget
