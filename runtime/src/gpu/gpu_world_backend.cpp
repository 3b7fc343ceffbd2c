// flak — the GPU collider behind the World's MeshMeshBackend interface.
#include <flak/gpu/gpu_world_backend.h>

#include <flak/align.h>

namespace flak {

std::size_t GpuWorldBackend::requiredBytes(std::uint32_t max_jobs, std::uint32_t max_pairs) {
    return alignUp(sizeof(GpuJobDesc) * std::size_t{max_jobs}, kMinAlignment) +
           alignUp(sizeof(GpuPair) * std::size_t{max_pairs}, kMinAlignment);
}

Status GpuWorldBackend::init(GpuCollider& collider, std::uint32_t max_jobs, std::uint32_t max_pairs,
                             void* memory, std::size_t bytes) {
    *this = GpuWorldBackend{};
    if (memory == nullptr) return Status::NullMemory;
    if (!isAligned(memory, kMinAlignment)) return Status::Misaligned;
    if (max_jobs == 0 || max_pairs == 0) return Status::InvalidArgument;
    if (bytes < requiredBytes(max_jobs, max_pairs)) return Status::TooSmall;
    unsigned char* p = static_cast<unsigned char*>(memory);
    m_jobs = reinterpret_cast<GpuJobDesc*>(p);
    m_pairs =
        reinterpret_cast<GpuPair*>(p + alignUp(sizeof(GpuJobDesc) * std::size_t{max_jobs}, kMinAlignment));
    m_max_jobs = max_jobs;
    m_max_pairs = max_pairs;
    m_collider = &collider;
    m_backend.user = this;
    m_backend.submit = &GpuWorldBackend::submit;
    m_backend.collect = &GpuWorldBackend::collect;
    m_backend.exact_crossing = true; // the shader's crossing is the CPU's classification
    return Status::Ok;
}

bool GpuWorldBackend::findMesh(const MeshBlob* blob, GpuMeshId& out_id) const {
    for (std::uint32_t i = 0; i < m_mesh_count; ++i) {
        if (m_blobs[i] == blob) {
            out_id = m_ids[i];
            return true;
        }
    }
    return false;
}

Status GpuWorldBackend::registerMesh(const MeshBlob& blob) {
    if (m_collider == nullptr) return Status::InvalidArgument;
    GpuMeshId id;
    if (findMesh(&blob, id)) return Status::Ok;
    if (m_mesh_count == kMaxMeshes) return Status::PoolFull;
    // DeviceLost registers the mesh too (the collider's CPU path answers for it).
    const Status status = m_collider->uploadMesh(blob, id);
    if (status != Status::Ok && status != Status::DeviceLost) return status;
    m_blobs[m_mesh_count] = &blob;
    m_ids[m_mesh_count] = id;
    ++m_mesh_count;
    return status;
}

bool GpuWorldBackend::submit(void* user, const MeshMeshJob* jobs, std::uint32_t count) {
    GpuWorldBackend& self = *static_cast<GpuWorldBackend*>(user);
    if (self.m_in_flight || count > self.m_max_jobs || count == 0) {
        ++self.m_declined_steps;
        return false;
    }
    for (std::uint32_t j = 0; j < count; ++j) {
        GpuJobDesc& desc = self.m_jobs[j];
        if (!self.findMesh(jobs[j].a, desc.a) || !self.findMesh(jobs[j].b, desc.b)) {
            ++self.m_declined_steps;
            return false; // a mesh the GPU does not have: the CPU answers this step
        }
        desc.b_to_a = jobs[j].b_to_a;
    }
    // DeviceLost starts the batch on the collider's CPU path: it is collected as any other.
    const Status submitted = self.m_collider->submitBatch(self.m_jobs, count, GpuBatchMode::DeviceWalk,
                                                          GpuQuery::Pairs, self.m_ticket);
    if (submitted != Status::Ok && submitted != Status::DeviceLost) {
        ++self.m_declined_steps;
        return false;
    }
    self.m_in_flight = true;
    ++self.m_submitted_steps;
    return true;
}

Status GpuWorldBackend::collect(void* user, OutBuffer<MeshMeshPair>& inout_pairs) {
    GpuWorldBackend& self = *static_cast<GpuWorldBackend*>(user);
    if (!self.m_in_flight) return Status::InvalidArgument;
    self.m_in_flight = false;
    OutBuffer<GpuPair> buffer = OutBuffer<GpuPair>::over(self.m_pairs, self.m_max_pairs);
    const Status status = self.m_collider->collect(self.m_ticket, &buffer, nullptr);
    // DeviceLost still hands over the CPU's answer; anything else but Ok / BufferFull is lost.
    if (status != Status::Ok && status != Status::BufferFull && status != Status::DeviceLost) return status;
    // The batch's own buffer was full: which pairs came back is then arbitrary, so the CPU answers.
    if (buffer.dropped > 0) return Status::OutOfMemory;
    bool full = false; // counted here: the caller's `dropped` may already be saturated
    for (std::uint32_t k = 0; k < buffer.count; ++k)
        if (!inout_pairs.append(
                MeshMeshPair{self.m_pairs[k].job, self.m_pairs[k].a, self.m_pairs[k].b,
                             (self.m_pairs[k].flags & kGpuPairCrossing) != 0u ? kMeshMeshPairCrossing : 0u}))
            full = true;
    return full ? Status::BufferFull : Status::Ok;
}

} // namespace flak
