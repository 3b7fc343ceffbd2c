// flak — mesh-mesh triangle batches on a Vulkan compute queue, with the same answers as the CPU.
//
// The collider runs on the host's own Vulkan device (engines own theirs) or on platform/'s
// headless one. Meshes (triangles and trees) go up once (uploadMesh) and stay on the device; per
// batch only the jobs (mesh pair + relative transforms) go up, and in candidate mode the CPU
// walk's leaf pairs too. The device walk (shaders/mesh_walk.comp) is the CPU tandem walk and the
// pair shader (shaders/tri_pairs.comp) tri_tri.cpp's triTriOverlap, operation for operation, so
// the pair set of a job is exactly meshMeshPairs' (tests/gpu checks it on lavapipe bit for bit).
// The GPU writes pairs in a nondeterministic order (atomic compaction): collect() sorts them by
// (job, a, b) so the output is deterministic whenever nothing overflowed.
// With no device, a device without the needed features, or a lost device, the status says so and
// the same calls answer with the CPU kernels (meshMeshPairs / meshMeshAnyContact).
// Memory: one caller block of requiredBytes(config) for everything on the host, Vulkan's host
// allocations included (VkAllocationCallbacks over it); device memory in two blocks made by
// create(). No allocation after create() except what the driver does inside its own calls.
// Not thread-safe: one thread drives a collider (the driver may call its allocator from others).
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/math/transform.h>
#include <flak/out_buffer.h>
#include <flak/status.h>

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// The host's Vulkan objects a collider runs on. The device must support Vulkan 1.2 and
/// SignedZeroInfNanPreserve for 32-bit floats (VkPhysicalDeviceFloatControlsProperties: the
/// shader declares it); it needs no optional feature enabled (the shader is float only); the
/// queue family must support compute. The host must not use
/// the queue from another thread while the collider submits to it (Vulkan's external sync rule).
struct GpuDeviceInfo {
    PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr; ///< from the host's loader
    VkInstance instance = VK_NULL_HANDLE;                       ///< Vulkan 1.2 or later
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    std::uint32_t queue_family = 0; ///< a family with VK_QUEUE_COMPUTE_BIT
    std::uint32_t queue_index = 0;  ///< queue within the family
};

/// Capacities of a collider, fixed at create().
struct GpuColliderConfig {
    std::uint32_t max_meshes = 64;              ///< uploadMesh calls
    std::uint32_t max_triangles = 1u << 20;     ///< triangles over all uploaded meshes (36 B each on device)
    std::uint32_t max_jobs = 1024;              ///< jobs per batch
    std::uint32_t max_leaf_pairs = 1u << 16;    ///< candidate leaf pairs per batch (over all jobs)
    std::uint32_t max_nodes = 1u << 20;         ///< BVH nodes over all uploaded meshes (20 B each on device)
    std::uint32_t max_pairs = 1u << 16;         ///< triangle pairs a batch can return
    std::uint32_t vulkan_host_bytes = 4u << 20; ///< the driver's host allocations (VkAllocationCallbacks)
    /// Time each batch on the device (timestamp queries, GpuColliderStats::device_ns) where the
    /// queue can. Off by default: a diagnostic, and lavapipe takes five heap calls a batch for it.
    bool time_batches = false;
};

/// Which triangle pairs of a job the GPU tests.
enum class GpuBatchMode : std::uint8_t {
    BruteForce, ///< all n x m pairs (low-poly meshes)
    Candidates, ///< the pairs inside the CPU walk's candidate leaf pairs (meshMeshLeafPairs)
    DeviceWalk  ///< the same leaf pairs, found by the device walking both uploaded trees: the host
                ///< sends each job's transforms only (more leaf pairs than max_leaf_pairs: the
                ///< batch is answered on the CPU when collected)
};

/// What a batch reports.
enum class GpuQuery : std::uint8_t {
    Pairs,     ///< every intersecting triangle pair
    AnyContact ///< one flag per job; threads of a job that already has a contact stop early
};

/// Id of an uploaded mesh (index in upload order).
struct GpuMeshId {
    std::uint32_t index = 0xFFFFFFFFu; ///< 0xFFFFFFFF: none
};

/// One job of a batch (56 bytes): the triangles of mesh `a` against those of mesh `b` mapped
/// into a's space by b_to_a (relative(a_to_world, b_to_world)), as meshMeshPairs(a, b, b_to_a).
struct GpuJobDesc {
    GpuMeshId a;      ///< mesh A
    GpuMeshId b;      ///< mesh B
    Transform b_to_a; ///< B's mesh space to A's
};
static_assert(sizeof(GpuJobDesc) == 56, "GpuJobDesc layout");

/// GpuPair::flags: the device found the pair crossing in 3D, as the CPU's classification would
/// (neither coplanar nor through a zero-area triangle): its intersection is the crossing segment
/// (triTriIntersection4's `crossing` hint). Pairs the host decided, or the CPU answered, do not
/// carry it.
constexpr std::uint32_t kGpuPairCrossing = 1u;

/// One intersecting triangle pair of a batch (16 bytes).
struct GpuPair {
    std::uint32_t job = 0;   ///< index of the job in the submitted array
    std::uint32_t a = 0;     ///< triangle id in mesh A (leaf order)
    std::uint32_t b = 0;     ///< triangle id in mesh B (leaf order)
    std::uint32_t flags = 0; ///< kGpuPairCrossing or 0
};
static_assert(sizeof(GpuPair) == 16, "GpuPair layout");

/// A submitted batch (0 is never a valid ticket).
struct GpuTicket {
    std::uint64_t serial = 0; ///< submission number, from 1
};

/// Where the collider's answers come from.
enum class GpuBackend : std::uint8_t {
    Vulkan, ///< the compute shader
    Cpu     ///< the CPU kernels (no device, unsupported device or lost device)
};

/// Lifetime and diagnostics counters.
struct GpuColliderStats {
    std::uint64_t batches = 0; ///< batches submitted
    std::uint64_t tested_pairs =
        0; ///< pairs handed to the GPU; CPU path: n x m per job (its walk skips most)
    std::uint64_t upload_bytes = 0;         ///< bytes the host wrote into device-visible memory for batches
                                            ///< (jobs, leaf-pair rectangles, parameters, cleared outputs)
    std::uint64_t device_ns = 0;            ///< device time of the batches collected from the GPU
                                            ///< (GpuColliderConfig::time_batches; else 0)
    std::uint64_t last_batch_device_ns = 0; ///< the same for the last one collected
    std::uint64_t host_decided_pairs = 0;   ///< pairs the device left to the host, which the CPU kernel
                                            ///< decides in double or exactly (a sliver's plane, nearly
                                            ///< parallel planes, a plane side within its rounding bound)
    std::uint32_t walk_overflows = 0;       ///< DeviceWalk batches whose leaf pairs outgrew max_leaf_pairs
                                            ///< or whose walk the driver cut short (answered on the CPU)
    std::size_t host_heap_high_water = 0;   ///< most bytes the driver held through the callbacks
    std::uint32_t host_heap_failures = 0;   ///< driver allocations refused (host block too small)
};

/// The collider's internals (in the caller's memory block; defined in runtime/src/gpu).
struct GpuColliderState;

/// The collider. Double-buffered: two batches can be in flight; submit N+1 while N runs, collect
/// each when convenient (a frame never waits for the previous one).
class GpuCollider {
public:
    GpuCollider() = default;
    GpuCollider(const GpuCollider&) = delete;            ///< owns Vulkan objects: not copyable
    GpuCollider& operator=(const GpuCollider&) = delete; ///< owns Vulkan objects: not copyable

    /// Bytes of host memory create() needs for `config` (16-byte aligned block).
    static std::size_t requiredBytes(const GpuColliderConfig& config);

    /// Sets the collider up in [memory, memory + bytes) (destroy() a previous setup first). `device`
    /// null: CPU only (returns NoDevice and the collider works). Returns Ok on the GPU path; NoDevice,
    /// GpuUnsupported (below Vulkan 1.2, no SignedZeroInfNanPreserve, no compute queue, or a
    /// maxStorageBufferRange below one of the config's buffers), OutOfMemory (device memory or the
    /// host block for Vulkan) or DeviceLost when the CPU path will answer instead; TooSmall /
    /// NullMemory / Misaligned / InvalidArgument when the collider is unusable.
    [[nodiscard]] Status create(const GpuColliderConfig& config, const GpuDeviceInfo* device, void* memory,
                                std::size_t bytes);

    /// Waits for the batches in flight and frees every Vulkan object. Safe to call twice.
    void destroy();

    /// Uploads a mesh (its triangles, leaf order) and keeps the blob view for the CPU side (the
    /// blob's bytes must outlive the collider). Waits for the copy. PoolFull / OutOfMemory when the
    /// config's max_meshes / max_triangles would be exceeded (nothing registered). DeviceLost when
    /// the device was lost during this upload: the mesh is registered all the same (out_id is set)
    /// and the CPU path answers from now on; Ok after that.
    [[nodiscard]] Status uploadMesh(const MeshBlob& blob, GpuMeshId& out_id);

    /// Starts a batch of `job_count` jobs and returns at once (the CPU path computes here).
    /// PoolFull when both buffers hold batches not yet collected; InvalidArgument for a bad mesh
    /// id, too many jobs, job_count 0 or a mode or query outside its enum; BufferFull when the
    /// candidate leaf pairs exceed max_leaf_pairs or brute force exceeds 2^32 - 1 pairs (the batch
    /// is not started). DeviceLost when the device was lost at this submit: the batch is started
    /// all the same, on the CPU path (out_ticket is set: collect it).
    [[nodiscard]] Status submitBatch(const GpuJobDesc* jobs, std::uint32_t job_count, GpuBatchMode mode,
                                     GpuQuery query, GpuTicket& out_ticket);

    /// Ok when the batch is done (collect will not wait), NotReady while it runs, InvalidArgument
    /// for an unknown ticket.
    [[nodiscard]] Status poll(const GpuTicket& ticket);

    /// Blocks (on the batch's fence, no spinning) until the batch is done. Ok, DeviceLost (collect
    /// will answer with the CPU) or InvalidArgument for an unknown ticket.
    [[nodiscard]] Status wait(const GpuTicket& ticket);

    /// Waits for the batch if needed, then hands its results over and frees its buffer.
    /// Pairs query: appends the pairs to inout_pairs sorted by (job, a, b); BufferFull when the
    /// batch's max_pairs or the caller's capacity was exceeded by this batch (the rest counted in
    /// dropped, which may hold earlier calls' too; on a full batch which pairs came back is
    /// arbitrary). AnyContact: out_any[job] = 1 or 0 for each job (out_any must hold job_count
    /// bytes; inout_pairs untouched). DeviceLost when the device died: the results are then the
    /// CPU's. InvalidArgument for an unknown ticket.
    [[nodiscard]] Status collect(const GpuTicket& ticket, OutBuffer<GpuPair>* inout_pairs,
                                 std::uint8_t* out_any);

    /// Which back end answers now.
    GpuBackend backend() const;
    /// Ok while the GPU path is in use, else why not (NoDevice, GpuUnsupported, DeviceLost, ...).
    Status deviceStatus() const;
    /// Counters since create().
    GpuColliderStats stats() const;

private:
    GpuColliderState* m_state = nullptr;
};

} // namespace flak
