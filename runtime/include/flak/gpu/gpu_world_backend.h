// flak — the GPU collider as the World's mesh-mesh back end (world_config.h: MeshMeshBackend).
//
// The world submits each step's enemy-vs-enemy jobs right after its broad phase; this adapter
// maps them to the collider's uploaded meshes and starts one DeviceWalk batch, and collects
// it when the world reaches its mesh-mesh phase, so the GPU works while the CPU runs the bullet,
// beam, wall and ship phases. The collider's pairs are exactly meshMeshPairs' and come sorted by
// (job, a, b), so the world's hits are the same as without the back end, bit for bit (a step whose
// pairs do not fit WorldConfig::max_mesh_pairs is answered on the CPU, whole). A job that
// names a mesh never registered, more jobs than the buffers hold, or a collider with no room for
// another batch: submit declines and the world answers on the CPU that step.
// Not thread-safe: the world's thread drives it (the collider's rule).
#pragma once

#include <flak/gpu/gpu_collider.h>
#include <flak/world/world_config.h>

#include <cstddef>
#include <cstdint>

namespace flak {

class GpuWorldBackend {
public:
    /// Most meshes the adapter can map (the table is part of the object).
    static constexpr std::uint32_t kMaxMeshes = 64;

    /// Bytes of memory init() needs for `max_jobs` jobs and `max_pairs` triangle pairs per step.
    static std::size_t requiredBytes(std::uint32_t max_jobs, std::uint32_t max_pairs);

    /// Binds to a created collider (not owned; it must outlive the adapter) and lays the job and
    /// pair buffers out in [memory, memory + bytes) (16-byte aligned, requiredBytes()).
    /// NullMemory, Misaligned, TooSmall, InvalidArgument (zero capacities).
    [[nodiscard]] Status init(GpuCollider& collider, std::uint32_t max_jobs, std::uint32_t max_pairs,
                              void* memory, std::size_t bytes);
    /// Uploads `blob` to the collider and remembers it, so jobs naming it run on the GPU. Uploading
    /// the same blob again is a no-op. PoolFull when kMaxMeshes are registered; the collider's
    /// uploadMesh statuses otherwise (after DeviceLost the blob is remembered: the collider's CPU
    /// path answers its jobs).
    [[nodiscard]] Status registerMesh(const MeshBlob& blob);
    /// The back end to put in WorldConfig::mesh_mesh_backend (valid while this object lives).
    const MeshMeshBackend* backend() const { return &m_backend; }
    /// Steps whose jobs went to the collider, and steps it declined.
    std::uint64_t submittedSteps() const { return m_submitted_steps; }
    std::uint64_t declinedSteps() const { return m_declined_steps; }

private:
    static bool submit(void* user, const MeshMeshJob* jobs, std::uint32_t count);
    static Status collect(void* user, OutBuffer<MeshMeshPair>& inout_pairs);
    bool findMesh(const MeshBlob* blob, GpuMeshId& out_id) const;

    GpuCollider* m_collider = nullptr;
    const MeshBlob* m_blobs[kMaxMeshes] = {};
    GpuMeshId m_ids[kMaxMeshes];
    std::uint32_t m_mesh_count = 0;
    GpuJobDesc* m_jobs = nullptr;
    std::uint32_t m_max_jobs = 0;
    GpuPair* m_pairs = nullptr;
    std::uint32_t m_max_pairs = 0;
    GpuTicket m_ticket;
    bool m_in_flight = false;
    MeshMeshBackend m_backend;
    std::uint64_t m_submitted_steps = 0;
    std::uint64_t m_declined_steps = 0;
};

} // namespace flak
