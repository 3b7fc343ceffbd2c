#include <flak/gpu/gpu_collider.h>

#include <flak/align.h>
#include <flak/arena.h>
#include <flak/bvh/mesh_leaf_pairs.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/geom/tri_tri.h>
#include <flak/math/transform.h>

#include "bvh/tandem_walk.h"
#include "gpu/device_tree.h"
#include "gpu/pair_sort.h"
#include "gpu/shaders_spirv.h"
#include "gpu/vk_functions.h"
#include <flak/gpu/host_heap.h>

#include "flak_gpu_layout.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace flak {

namespace {

constexpr std::uint32_t kSlots = 2;              // double buffering
constexpr VkDeviceSize kStagingBytes = 1u << 20; // mesh uploads go through this in chunks
// mesh, jobs, rects, out, any flags, params, walk heads, mesh infos, nodes, groups, walk jobs,
// walk result
constexpr std::uint32_t kBindings = 12;
constexpr VkDeviceSize kHeadsBytes = 2 * sizeof(gpu::GpuWalkHead); // a slot's two walk heads

enum class SlotState : std::uint8_t { Free, Gpu, Cpu };

// Offsets of one slot's regions inside the host-visible buffer.
struct SlotRegions {
    VkDeviceSize params, indirect, jobs, rects, out, any, walk_head, walk_jobs;
    VkDeviceSize jobs_size, rects_size, out_size, any_size, walk_jobs_size;
};

struct Slot {
    SlotState state = SlotState::Free;
    GpuQuery query = GpuQuery::Pairs;
    bool dispatched = false; // false: nothing to run (no candidate pairs), empty result
    bool walk = false;       // the device walks the trees (GpuBatchMode::DeviceWalk)
    std::uint64_t serial = 0;
    std::uint32_t job_count = 0;
    SlotRegions regions{};
    VkDescriptorSet set = VK_NULL_HANDLE;      // the pair pass over the host's rectangles
    VkDescriptorSet walk_set = VK_NULL_HANDLE; // both passes over the walk's (device-local)
    VkDeviceSize device_head = 0;              // the walk's two heads in the device block
    VkDeviceSize device_rects = 0;             // the walk's rectangles in the device block
    VkCommandBuffer cmd = VK_NULL_HANDLE;      // the pair pass
    VkCommandBuffer walk_cmd[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE}; // walk then pairs, per head
    std::uint32_t parity = 0; // the walk head the slot's next walk batch counts in
    VkFence fence = VK_NULL_HANDLE;
    // The batch's jobs, kept for the CPU path (fallback and lost device).
    GpuJobDesc* jobs = nullptr;
    // CPU results.
    GpuPair* cpu_pairs = nullptr;
    std::uint32_t cpu_count = 0;
    std::uint32_t cpu_overflow = 0;
    std::uint8_t* cpu_any = nullptr;
};

} // namespace

struct GpuColliderState {
    GpuColliderConfig config;
    Status device_status = Status::NoDevice;
    GpuBackend backend = GpuBackend::Cpu;
    bool warmed_up = false; // the shader has run once (warmUp)
    std::uint64_t next_serial = 1;
    GpuColliderStats stats;

    MeshBlob* meshes = nullptr;
    std::uint32_t* mesh_base = nullptr;   // first triangle in the device mesh buffer
    std::uint32_t* mesh_groups = nullptr; // walk groups of each mesh (device_tree.h)
    std::uint32_t mesh_count = 0;
    std::uint32_t triangle_count = 0;
    std::uint32_t node_count = 0;  // nodes in the device's node region
    std::uint32_t group_count = 0; // groups in the device's group region
    TrianglePair* scratch_pairs = nullptr;
    MeshLeafPair* scratch_leaves = nullptr;
    Slot slots[kSlots];

    // Vulkan.
    gpu::HostHeap heap;
    VkAllocationCallbacks callbacks{};
    gpu::VkFunctions vk;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    VkDeviceMemory mesh_memory = VK_NULL_HANDLE;
    VkDeviceMemory host_memory = VK_NULL_HANDLE;
    VkBuffer mesh_buffer = VK_NULL_HANDLE;
    VkBuffer host_buffer = VK_NULL_HANDLE;
    // The device-local block: the triangles, then the mesh infos, the nodes and the groups.
    VkDeviceSize triangles_size = 0, infos_at = 0, infos_size = 0, nodes_at = 0, nodes_size = 0,
                 groups_at = 0, groups_size = 0;
    unsigned char* mapped = nullptr;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;      // the pair pass
    VkPipeline walk_pipeline = VK_NULL_HANDLE; // the device walk
    VkQueryPool query_pool = VK_NULL_HANDLE;   // two timestamps per slot, where the queue has them
    double ns_per_tick = 0.0;
    std::uint64_t tick_mask = 0;
    VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
    VkCommandPool command_pool = VK_NULL_HANDLE; // the slots' command buffers, recorded once
    VkCommandPool upload_pool = VK_NULL_HANDLE;  // the upload's, reset whole for each copy
    VkCommandBuffer upload_cmd = VK_NULL_HANDLE;
    VkFence upload_fence = VK_NULL_HANDLE;
};

namespace {

// ---- host memory carving (requiredBytes and create use the same sequence) ----
template <class Sink> void carve(const GpuColliderConfig& c, Sink&& take) {
    take(sizeof(GpuColliderState), alignof(GpuColliderState), 0);
    take(sizeof(MeshBlob) * c.max_meshes, alignof(MeshBlob), 1);
    take(sizeof(std::uint32_t) * c.max_meshes, 16, 2);
    take(sizeof(TrianglePair) * c.max_pairs, 16, 3);
    take(sizeof(MeshLeafPair) * c.max_leaf_pairs, 16, 4);
    for (std::uint32_t s = 0; s < kSlots; ++s) {
        take(sizeof(GpuJobDesc) * c.max_jobs, 16, 5 + 3 * s);
        take(sizeof(GpuPair) * c.max_pairs, 16, 6 + 3 * s);
        take(c.max_jobs, 16, 7 + 3 * s);
    }
    take(c.vulkan_host_bytes, 16, 5 + 3 * kSlots);
    take(sizeof(std::uint32_t) * c.max_meshes, 16, 6 + 3 * kSlots);
}

bool validConfig(const GpuColliderConfig& c) {
    return c.max_meshes > 0 && c.max_triangles > 0 && c.max_jobs > 0 && c.max_leaf_pairs > 0 &&
           c.max_pairs > 0 && c.max_nodes > 0;
}

Status vkStatus(VkResult r) {
    switch (r) {
    case VK_SUCCESS: return Status::Ok;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return Status::OutOfMemory;
    case VK_ERROR_DEVICE_LOST: return Status::DeviceLost;
    default: return Status::GpuUnsupported;
    }
}

bool findMemoryType(const VkPhysicalDeviceMemoryProperties& props, std::uint32_t type_bits,
                    VkMemoryPropertyFlags want, std::uint32_t& out_index) {
    for (std::uint32_t i = 0; i < props.memoryTypeCount; ++i)
        if ((type_bits & (1u << i)) != 0u && (props.memoryTypes[i].propertyFlags & want) == want) {
            out_index = i;
            return true;
        }
    return false;
}

// Creates a buffer with one dedicated block of memory (the collider's only two device blocks).
Status makeBuffer(GpuColliderState& st, const VkPhysicalDeviceMemoryProperties& mem_props, VkDeviceSize size,
                  VkBufferUsageFlags usage, const VkMemoryPropertyFlags* prefs, int pref_count,
                  VkBuffer& out_buffer, VkDeviceMemory& out_memory) {
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkResult r = st.vk.vkCreateBuffer(st.device, &info, &st.callbacks, &out_buffer);
    if (r != VK_SUCCESS) return vkStatus(r);
    VkMemoryRequirements req;
    st.vk.vkGetBufferMemoryRequirements(st.device, out_buffer, &req);
    std::uint32_t type = 0;
    bool found = false;
    for (int k = 0; k < pref_count && !found; ++k)
        found = findMemoryType(mem_props, req.memoryTypeBits, prefs[k], type);
    if (!found) return Status::GpuUnsupported;
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type;
    r = st.vk.vkAllocateMemory(st.device, &alloc, &st.callbacks, &out_memory);
    if (r != VK_SUCCESS) return vkStatus(r);
    r = st.vk.vkBindBufferMemory(st.device, out_buffer, out_memory, 0);
    return vkStatus(r);
}

void destroyVulkan(GpuColliderState& st) {
    if (st.device == VK_NULL_HANDLE) return;
    const gpu::VkFunctions& vk = st.vk;
    const VkAllocationCallbacks* cb = &st.callbacks;
    // Wait for what is in flight (a lost device returns at once).
    for (Slot& s : st.slots)
        if (s.fence != VK_NULL_HANDLE && s.state == SlotState::Gpu && s.dispatched)
            (void)vk.vkWaitForFences(st.device, 1, &s.fence, VK_TRUE, UINT64_MAX);
    for (Slot& s : st.slots) {
        if (s.fence != VK_NULL_HANDLE) vk.vkDestroyFence(st.device, s.fence, cb);
        s.fence = VK_NULL_HANDLE;
        s.cmd = s.walk_cmd[0] = s.walk_cmd[1] = VK_NULL_HANDLE;
        s.set = VK_NULL_HANDLE;
    }
    if (st.upload_fence != VK_NULL_HANDLE) vk.vkDestroyFence(st.device, st.upload_fence, cb);
    if (st.command_pool != VK_NULL_HANDLE) vk.vkDestroyCommandPool(st.device, st.command_pool, cb);
    if (st.upload_pool != VK_NULL_HANDLE) vk.vkDestroyCommandPool(st.device, st.upload_pool, cb);
    if (st.descriptor_pool != VK_NULL_HANDLE) vk.vkDestroyDescriptorPool(st.device, st.descriptor_pool, cb);
    if (st.pipeline != VK_NULL_HANDLE) vk.vkDestroyPipeline(st.device, st.pipeline, cb);
    if (st.walk_pipeline != VK_NULL_HANDLE) vk.vkDestroyPipeline(st.device, st.walk_pipeline, cb);
    if (st.query_pool != VK_NULL_HANDLE) vk.vkDestroyQueryPool(st.device, st.query_pool, cb);
    if (st.pipeline_layout != VK_NULL_HANDLE) vk.vkDestroyPipelineLayout(st.device, st.pipeline_layout, cb);
    if (st.set_layout != VK_NULL_HANDLE) vk.vkDestroyDescriptorSetLayout(st.device, st.set_layout, cb);
    if (st.mapped != nullptr) vk.vkUnmapMemory(st.device, st.host_memory);
    if (st.host_buffer != VK_NULL_HANDLE) vk.vkDestroyBuffer(st.device, st.host_buffer, cb);
    if (st.mesh_buffer != VK_NULL_HANDLE) vk.vkDestroyBuffer(st.device, st.mesh_buffer, cb);
    if (st.host_memory != VK_NULL_HANDLE) vk.vkFreeMemory(st.device, st.host_memory, cb);
    if (st.mesh_memory != VK_NULL_HANDLE) vk.vkFreeMemory(st.device, st.mesh_memory, cb);

    st.upload_fence = VK_NULL_HANDLE;
    st.command_pool = VK_NULL_HANDLE;
    st.upload_pool = VK_NULL_HANDLE;
    st.query_pool = VK_NULL_HANDLE;
    st.upload_cmd = VK_NULL_HANDLE;
    st.descriptor_pool = VK_NULL_HANDLE;
    st.pipeline = st.walk_pipeline = VK_NULL_HANDLE;
    st.pipeline_layout = VK_NULL_HANDLE;
    st.set_layout = VK_NULL_HANDLE;
    st.mapped = nullptr;
    st.host_buffer = st.mesh_buffer = VK_NULL_HANDLE;
    st.host_memory = st.mesh_memory = VK_NULL_HANDLE;
    st.device = VK_NULL_HANDLE;
}

// The instance and device entry points the collider calls. GpuUnsupported when one is missing.
Status loadEntryPoints(gpu::VkFunctions& vk, const GpuDeviceInfo& info) {
    return gpu::loadVkFunctions(vk, info.get_instance_proc_addr, info.instance, info.device)
               ? Status::Ok
               : Status::GpuUnsupported;
}

// The sizes of the device's buffers for the collider's config.
struct BufferSizes {
    VkDeviceSize mesh = 0;  // every mesh's triangles, infos, nodes and walk groups (device-local)
    VkDeviceSize out = 0;   // one slot's output header and pair records
    VkDeviceSize rects = 0; // one slot's leaf-pair rectangles (or per-job ones)
    VkDeviceSize align = 0; // storage buffer offset alignment (at least 16)
};

// The device's features, queue and limits against what the collider needs (GpuUnsupported when
// one falls short), and whether its queue can time batches.
Status checkDevice(GpuColliderState& st, const GpuDeviceInfo& info, BufferSizes& out_sizes) {
    const gpu::VkFunctions& vk = st.vk;
    VkPhysicalDeviceProperties props;
    vk.vkGetPhysicalDeviceProperties(info.physical_device, &props);
    if (props.apiVersion < VK_API_VERSION_1_2) return Status::GpuUnsupported;
    // The shader declares SignedZeroInfNanPreserve for 32-bit floats (an overflow to infinity
    // must compare as on the CPU): the device must honour it.
    VkPhysicalDeviceFloatControlsProperties controls{};
    controls.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
    VkPhysicalDeviceProperties2 props2{};
    props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    props2.pNext = &controls;
    vk.vkGetPhysicalDeviceProperties2(info.physical_device, &props2);
    if (controls.shaderSignedZeroInfNanPreserveFloat32 != VK_TRUE) return Status::GpuUnsupported;
    VkQueueFamilyProperties families[32];
    std::uint32_t family_count = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(info.physical_device, &family_count, nullptr);
    family_count = std::min<std::uint32_t>(family_count, 32);
    vk.vkGetPhysicalDeviceQueueFamilyProperties(info.physical_device, &family_count, families);
    if (info.queue_family >= family_count ||
        (families[info.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT) == 0u ||
        info.queue_index >= families[info.queue_family].queueCount)
        return Status::GpuUnsupported;
    // Device time per batch, when asked for and the queue can write timestamps.
    const std::uint32_t bits = families[info.queue_family].timestampValidBits;
    if (st.config.time_batches && bits > 0 && props.limits.timestampPeriod > 0.0f) {
        st.ns_per_tick = static_cast<double>(props.limits.timestampPeriod);
        st.tick_mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1u;
    }
    const GpuColliderConfig& c = st.config;
    st.triangles_size = VkDeviceSize{c.max_triangles} * gpu::kGpuFloatsPerTriangle * sizeof(float);
    out_sizes.align = std::max<VkDeviceSize>(props.limits.minStorageBufferOffsetAlignment, 16);
    out_sizes.out = sizeof(gpu::GpuOutHeader) + VkDeviceSize{c.max_pairs} * sizeof(gpu::GpuPairRecord);
    out_sizes.rects =
        VkDeviceSize{c.max_leaf_pairs > c.max_jobs ? c.max_leaf_pairs : c.max_jobs} * sizeof(gpu::GpuRect);
    // After the triangles: the mesh infos, the nodes (four words each) and the groups (one word).
    const auto aligned = [&](VkDeviceSize at) {
        return static_cast<VkDeviceSize>(
            alignUp(static_cast<std::size_t>(at), static_cast<std::size_t>(out_sizes.align)));
    };
    st.infos_at = aligned(st.triangles_size);
    st.infos_size = VkDeviceSize{c.max_meshes} * sizeof(gpu::GpuMeshInfo);
    st.nodes_at = aligned(st.infos_at + st.infos_size);
    st.nodes_size = VkDeviceSize{c.max_nodes} * 16u;
    st.groups_at = aligned(st.nodes_at + st.nodes_size);
    st.groups_size = VkDeviceSize{c.max_nodes} * sizeof(std::uint32_t);
    // Then per slot the device walk's two heads and its rectangles: only the device reads and
    // writes them (the pair pass copies a batch's counters out to the host block).
    VkDeviceSize end = st.groups_at + st.groups_size;
    for (Slot& slot : st.slots) {
        slot.device_head = aligned(end);
        slot.device_rects = aligned(slot.device_head + kHeadsBytes);
        end = slot.device_rects + out_sizes.rects;
    }
    out_sizes.mesh = end;
    // Every storage buffer binding sized by the config must fit the device's range (the others,
    // the slot's params and heads, are a few dozen bytes).
    const VkDeviceSize limit = props.limits.maxStorageBufferRange;
    const VkDeviceSize bindings[] = {st.triangles_size,
                                     st.infos_size,
                                     st.nodes_size,
                                     st.groups_size,
                                     out_sizes.out,
                                     out_sizes.rects,
                                     VkDeviceSize{c.max_jobs} * sizeof(gpu::GpuJob),
                                     VkDeviceSize{c.max_jobs} * sizeof(gpu::GpuWalkJob),
                                     VkDeviceSize{c.max_jobs} * sizeof(std::uint32_t)};
    for (const VkDeviceSize bytes : bindings)
        if (bytes > limit) return Status::GpuUnsupported;
    return Status::Ok;
}

// Host-visible block: staging, then per slot params, indirect args, jobs, rects, out, flags, the
// walk's head and jobs.
// Sets every slot's regions and returns the block's size.
VkDeviceSize layOutHostBlock(GpuColliderState& st, const BufferSizes& sizes) {
    const GpuColliderConfig& c = st.config;
    VkDeviceSize offset = kStagingBytes;
    const auto place = [&](VkDeviceSize bytes) {
        offset = alignUp(static_cast<std::size_t>(offset), static_cast<std::size_t>(sizes.align));
        const VkDeviceSize at = offset;
        offset += bytes;
        return at;
    };
    for (Slot& s : st.slots) {
        SlotRegions& r = s.regions;
        r.params = place(sizeof(gpu::GpuParams));
        r.indirect = place(sizeof(VkDispatchIndirectCommand));
        r.jobs_size = VkDeviceSize{c.max_jobs} * sizeof(gpu::GpuJob);
        r.jobs = place(r.jobs_size);
        r.rects_size = sizes.rects;
        r.rects = place(r.rects_size);
        r.out_size = sizes.out;
        r.out = place(r.out_size);
        r.any_size = VkDeviceSize{c.max_jobs} * sizeof(std::uint32_t);
        r.any = place(r.any_size);
        r.walk_head = place(kHeadsBytes);
        r.walk_jobs_size = VkDeviceSize{c.max_jobs} * sizeof(gpu::GpuWalkJob);
        r.walk_jobs = place(r.walk_jobs_size);
    }
    return offset;
}

// The two device blocks: the meshes' triangles and trees (device-local where there is such
// memory) and the mapped host-visible block.
Status makeBlocks(GpuColliderState& st, const GpuDeviceInfo& info, VkDeviceSize mesh_bytes,
                  VkDeviceSize host_bytes) {
    const gpu::VkFunctions& vk = st.vk;
    VkPhysicalDeviceMemoryProperties mem_props;
    vk.vkGetPhysicalDeviceMemoryProperties(info.physical_device, &mem_props);
    const VkMemoryPropertyFlags device_prefs[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
    Status s = makeBuffer(st, mem_props, mesh_bytes,
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                          device_prefs, 2, st.mesh_buffer, st.mesh_memory);
    if (s != Status::Ok) return s;
    const VkMemoryPropertyFlags host_prefs[] = {
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
            VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
    s = makeBuffer(st, mem_props, host_bytes,
                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                       VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                   host_prefs, 2, st.host_buffer, st.host_memory);
    if (s != Status::Ok) return s;
    void* mapped = nullptr;
    const VkResult r = vk.vkMapMemory(st.device, st.host_memory, 0, VK_WHOLE_SIZE, 0, &mapped);
    if (r != VK_SUCCESS) return vkStatus(r);
    st.mapped = static_cast<unsigned char*>(mapped);
    return Status::Ok;
}

// A compute pipeline of one embedded shader over the collider's pipeline layout.
Status makeComputePipeline(GpuColliderState& st, const std::uint32_t* words, std::size_t word_count,
                           VkPipeline& out) {
    const gpu::VkFunctions& vk = st.vk;
    VkShaderModuleCreateInfo module_info{};
    module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_info.codeSize = word_count * sizeof(std::uint32_t);
    module_info.pCode = words;
    VkShaderModule module = VK_NULL_HANDLE;
    VkResult r = vk.vkCreateShaderModule(st.device, &module_info, &st.callbacks, &module);
    if (r != VK_SUCCESS) return vkStatus(r);
    VkComputePipelineCreateInfo pipe_info{};
    pipe_info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    pipe_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipe_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipe_info.stage.module = module;
    pipe_info.stage.pName = "main";
    pipe_info.layout = st.pipeline_layout;
    r = vk.vkCreateComputePipelines(st.device, VK_NULL_HANDLE, 1, &pipe_info, &st.callbacks, &out);
    vk.vkDestroyShaderModule(st.device, module, &st.callbacks);
    return vkStatus(r);
}

// The descriptor set layout, the pipeline layout both passes share, and their compute pipelines.
Status makePipeline(GpuColliderState& st) {
    const gpu::VkFunctions& vk = st.vk;
    VkDescriptorSetLayoutBinding bindings[kBindings];
    for (std::uint32_t b = 0; b < kBindings; ++b) {
        bindings[b] = VkDescriptorSetLayoutBinding{};
        bindings[b].binding = b;
        bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        bindings[b].descriptorCount = 1;
        bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo set_info{};
    set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    set_info.bindingCount = kBindings;
    set_info.pBindings = bindings;
    VkResult r = vk.vkCreateDescriptorSetLayout(st.device, &set_info, &st.callbacks, &st.set_layout);
    if (r != VK_SUCCESS) return vkStatus(r);
    VkPipelineLayoutCreateInfo layout_info{};
    layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &st.set_layout;
    r = vk.vkCreatePipelineLayout(st.device, &layout_info, &st.callbacks, &st.pipeline_layout);
    if (r != VK_SUCCESS) return vkStatus(r);
    const Status s = makeComputePipeline(st, gpu::kTriPairsSpirv, gpu::kTriPairsSpirvWords, st.pipeline);
    if (s != Status::Ok) return s;
    return makeComputePipeline(st, gpu::kMeshWalkSpirv, gpu::kMeshWalkSpirvWords, st.walk_pipeline);
}

// Two descriptor sets per slot with the binding numbers of both shaders, over the device-local
// block and the slot's regions of the host block: one with the host's rectangles and head (the
// pair pass alone), one with the walk's, in the device-local block.
Status makeDescriptorSets(GpuColliderState& st) {
    const gpu::VkFunctions& vk = st.vk;
    VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * kBindings * kSlots};
    VkDescriptorPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool_info.maxSets = 2 * kSlots;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &pool_size;
    VkResult r = vk.vkCreateDescriptorPool(st.device, &pool_info, &st.callbacks, &st.descriptor_pool);
    if (r != VK_SUCCESS) return vkStatus(r);
    for (Slot& slot : st.slots)
        for (const bool walk : {false, true}) {
            VkDescriptorSet& set = walk ? slot.walk_set : slot.set;
            VkDescriptorSetAllocateInfo alloc{};
            alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
            alloc.descriptorPool = st.descriptor_pool;
            alloc.descriptorSetCount = 1;
            alloc.pSetLayouts = &st.set_layout;
            r = vk.vkAllocateDescriptorSets(st.device, &alloc, &set);
            if (r != VK_SUCCESS) return vkStatus(r);
            const SlotRegions& g = slot.regions;
            const VkDescriptorBufferInfo rects =
                walk ? VkDescriptorBufferInfo{st.mesh_buffer, slot.device_rects, g.rects_size}
                     : VkDescriptorBufferInfo{st.host_buffer, g.rects, g.rects_size};
            const VkDescriptorBufferInfo host_head{st.host_buffer, g.walk_head, kHeadsBytes};
            const VkDescriptorBufferInfo head =
                walk ? VkDescriptorBufferInfo{st.mesh_buffer, slot.device_head, kHeadsBytes} : host_head;
            const VkDescriptorBufferInfo buffers[kBindings] = {
                {st.mesh_buffer, 0, st.triangles_size},
                {st.host_buffer, g.jobs, g.jobs_size},
                rects,
                {st.host_buffer, g.out, g.out_size},
                {st.host_buffer, g.any, g.any_size},
                {st.host_buffer, g.params, sizeof(gpu::GpuParams)},
                head,
                {st.mesh_buffer, st.infos_at, st.infos_size},
                {st.mesh_buffer, st.nodes_at, st.nodes_size},
                {st.mesh_buffer, st.groups_at, st.groups_size},
                {st.host_buffer, g.walk_jobs, g.walk_jobs_size},
                host_head};
            VkWriteDescriptorSet writes[kBindings];
            for (std::uint32_t b = 0; b < kBindings; ++b) {
                writes[b] = VkWriteDescriptorSet{};
                writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
                writes[b].dstSet = set;
                writes[b].dstBinding = b;
                writes[b].descriptorCount = 1;
                writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
                writes[b].pBufferInfo = &buffers[b];
            }
            vk.vkUpdateDescriptorSets(st.device, kBindings, writes, 0, nullptr);
        }
    return Status::Ok;
}

// The command pool, the upload command buffer and fence, and per slot a fence and two command
// buffers recorded once: the pair pass (an indirect dispatch the host sizes) and a barrier to the
// host; and the same after the walk pass (an indirect dispatch the host sizes) and a barrier, the
// pair pass then sized by the walk.
Status recordSlotCommands(GpuColliderState& st, std::uint32_t queue_family) {
    const gpu::VkFunctions& vk = st.vk;
    VkCommandPoolCreateInfo cmd_pool{};
    cmd_pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    cmd_pool.queueFamilyIndex = queue_family;
    VkResult r = vk.vkCreateCommandPool(st.device, &cmd_pool, &st.callbacks, &st.command_pool);
    if (r == VK_SUCCESS) r = vk.vkCreateCommandPool(st.device, &cmd_pool, &st.callbacks, &st.upload_pool);
    if (r != VK_SUCCESS) return vkStatus(r);
    VkCommandBuffer cmds[3 * kSlots];
    VkCommandBufferAllocateInfo cmd_alloc{};
    cmd_alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    cmd_alloc.commandPool = st.command_pool;
    cmd_alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmd_alloc.commandBufferCount = 3 * kSlots;
    r = vk.vkAllocateCommandBuffers(st.device, &cmd_alloc, cmds);
    if (r != VK_SUCCESS) return vkStatus(r);
    cmd_alloc.commandPool = st.upload_pool;
    cmd_alloc.commandBufferCount = 1;
    r = vk.vkAllocateCommandBuffers(st.device, &cmd_alloc, &st.upload_cmd);
    if (r != VK_SUCCESS) return vkStatus(r);
    VkFenceCreateInfo fence_info{};
    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    r = vk.vkCreateFence(st.device, &fence_info, &st.callbacks, &st.upload_fence);
    if (r != VK_SUCCESS) return vkStatus(r);
    if (st.ns_per_tick > 0.0) {
        VkQueryPoolCreateInfo query{};
        query.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
        query.queryType = VK_QUERY_TYPE_TIMESTAMP;
        query.queryCount = 2 * kSlots;
        r = vk.vkCreateQueryPool(st.device, &query, &st.callbacks, &st.query_pool);
        if (r != VK_SUCCESS) return vkStatus(r);
    }
    // Slot k's command buffers: with the walk pass first or not (a dispatch costs a driver such as
    // lavapipe its own heap calls even when it is empty, so the other modes do not carry it).
    const auto barrier = [&](VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src,
                             VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
        VkMemoryBarrier b{};
        b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
        b.srcAccessMask = src;
        b.dstAccessMask = dst;
        vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, nullptr, 0, nullptr);
    };
    // walk: -1 for the pair pass alone, else the walk head (0, 1) the walk counts in.
    const auto record = [&](std::uint32_t k, int walk, VkCommandBuffer cmd) {
        const Slot& slot = st.slots[k];
        const VkPipelineStageFlags compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        VkCommandBufferBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        VkResult rc = vk.vkBeginCommandBuffer(cmd, &begin);
        if (rc != VK_SUCCESS) return rc;
        if (st.query_pool != VK_NULL_HANDLE) {
            vk.vkCmdResetQueryPool(cmd, st.query_pool, 2 * k, 2);
            vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, st.query_pool, 2 * k);
        }
        vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, walk >= 0 ? st.walk_pipeline : st.pipeline);
        vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, st.pipeline_layout, 0, 1,
                                   walk >= 0 ? &slot.walk_set : &slot.set, 0, nullptr);
        const VkDeviceSize args = offsetof(gpu::GpuWalkHead, pair_groups_x);
        if (walk >= 0) {
            vk.vkCmdDispatchIndirect(cmd, st.host_buffer, slot.regions.indirect);
            barrier(cmd, compute, VK_ACCESS_SHADER_WRITE_BIT, compute | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
            vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, st.pipeline); // same layout: set kept
            const VkDeviceSize head =
                slot.device_head + static_cast<VkDeviceSize>(walk) * sizeof(gpu::GpuWalkHead);
            vk.vkCmdDispatchIndirect(cmd, st.mesh_buffer, head + args);
        } else {
            vk.vkCmdDispatchIndirect(cmd, st.host_buffer, slot.regions.walk_head + args);
        }
        if (st.query_pool != VK_NULL_HANDLE)
            vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, st.query_pool, 2 * k + 1);
        barrier(cmd, compute, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
        return vk.vkEndCommandBuffer(cmd);
    };
    for (std::uint32_t k = 0; k < kSlots; ++k) {
        Slot& slot = st.slots[k];
        slot.cmd = cmds[3 * k];
        slot.walk_cmd[0] = cmds[3 * k + 1];
        slot.walk_cmd[1] = cmds[3 * k + 2];
        r = vk.vkCreateFence(st.device, &fence_info, &st.callbacks, &slot.fence);
        if (r == VK_SUCCESS) r = record(k, -1, slot.cmd);
        if (r == VK_SUCCESS) r = record(k, 0, slot.walk_cmd[0]);
        if (r == VK_SUCCESS) r = record(k, 1, slot.walk_cmd[1]);
        if (r != VK_SUCCESS) return vkStatus(r);
    }
    return Status::Ok;
}

VkResult copyFromStaging(GpuColliderState& st, VkBuffer dst, VkDeviceSize dst_offset, VkDeviceSize bytes);

// Both walk heads of every slot zeroed (the pair pass's dispatch z 1) before the first walk; each
// walk then zeroes the head the slot's next walk uses.
Status clearWalkHeads(GpuColliderState& st) {
    gpu::GpuWalkHead zero{};
    zero.pair_groups_z = 1;
    for (const Slot& slot : st.slots) {
        std::memcpy(st.mapped, &zero, sizeof zero);
        std::memcpy(st.mapped + sizeof zero, &zero, sizeof zero);
        const VkResult r = copyFromStaging(st, st.mesh_buffer, slot.device_head, kHeadsBytes);
        if (r != VK_SUCCESS) return vkStatus(r);
    }
    return Status::Ok;
}

// Everything Vulkan: entry points, feature checks, the two device blocks, the two pipelines, and
// per slot a fence and two descriptor sets and command buffers (recorded here, once: a batch only
// rewrites mapped memory and resubmits).
Status createVulkan(GpuColliderState& st, const GpuDeviceInfo& info) {
    if (info.get_instance_proc_addr == nullptr || info.instance == VK_NULL_HANDLE ||
        info.physical_device == VK_NULL_HANDLE || info.device == VK_NULL_HANDLE)
        return Status::NoDevice;
    Status s = loadEntryPoints(st.vk, info);
    if (s != Status::Ok) return s;
    BufferSizes sizes;
    s = checkDevice(st, info, sizes);
    if (s != Status::Ok) return s;
    st.device = info.device;
    st.vk.vkGetDeviceQueue(st.device, info.queue_family, info.queue_index, &st.queue);
    const VkDeviceSize host_bytes = layOutHostBlock(st, sizes);
    s = makeBlocks(st, info, sizes.mesh, host_bytes);
    if (s == Status::Ok) s = makePipeline(st);
    if (s == Status::Ok) s = makeDescriptorSets(st);
    if (s == Status::Ok) s = recordSlotCommands(st, info.queue_family);
    if (s == Status::Ok) s = clearWalkHeads(st);
    return s;
}

bool validMesh(const GpuColliderState& st, const GpuMeshId& id) { return id.index < st.mesh_count; }

// The CPU answer of a slot's batch (fallback, or a batch whose device was lost).
void runOnCpu(GpuColliderState& st, Slot& slot) {
    slot.cpu_count = 0;
    slot.cpu_overflow = 0;
    for (std::uint32_t j = 0; j < slot.job_count; ++j) {
        const GpuJobDesc& job = slot.jobs[j];
        const MeshBlob& a = st.meshes[job.a.index];
        const MeshBlob& b = st.meshes[job.b.index];
        st.stats.tested_pairs += std::uint64_t{a.triangle_count} * b.triangle_count;
        if (slot.query == GpuQuery::AnyContact) {
            slot.cpu_any[j] = meshMeshAnyContact(a, b, job.b_to_a) ? 1u : 0u;
            continue;
        }
        OutBuffer<TrianglePair> pairs;
        pairs.items = st.scratch_pairs;
        pairs.capacity = st.config.max_pairs - slot.cpu_count;
        (void)meshMeshPairs(a, b, job.b_to_a, pairs);
        for (std::uint32_t k = 0; k < pairs.count; ++k)
            slot.cpu_pairs[slot.cpu_count + k] = GpuPair{j, pairs.items[k].a, pairs.items[k].b};
        slot.cpu_count += pairs.count;
        slot.cpu_overflow += pairs.dropped;
    }
    slot.state = SlotState::Cpu;
}

void markLost(GpuColliderState& st) {
    st.device_status = Status::DeviceLost;
    st.backend = GpuBackend::Cpu;
}

Slot* findSlot(GpuColliderState& st, const GpuTicket& t) {
    for (Slot& s : st.slots)
        if (s.state != SlotState::Free && s.serial == t.serial && t.serial != 0) return &s;
    return nullptr;
}

// The CPU kernel's answer for a pair the shader left to the host (kGpuRecordAsk: a plane side within
// its rounding bound, which triTriOverlap settles with exact signs): triangle `a` of the job's mesh
// A against triangle `b` of mesh B taken into A's frame with transformPoints, as meshMeshPairs
// tests it.
bool askedPairOverlaps(GpuColliderState& st, const Slot& slot, const gpu::GpuPairRecord& rec) {
    ++st.stats.host_decided_pairs;
    const GpuJobDesc& job = slot.jobs[rec.job];
    const MeshBlob& a = st.meshes[job.a.index];
    const MeshBlob& b = st.meshes[job.b.index];
    Vec3 va[3], src[3], vb[3];
    triangleVertices(a, rec.a, va[0], va[1], va[2]);
    triangleVertices(b, rec.b, src[0], src[1], src[2]);
    transformPoints(job.b_to_a, src, 3, vb);
    return triTriOverlap(va[0], va[1], va[2], vb[0], vb[1], vb[2]);
}

} // namespace

std::size_t GpuCollider::requiredBytes(const GpuColliderConfig& config) {
    std::size_t total = 0;
    carve(config, [&](std::size_t bytes, std::size_t align, int) {
        total = alignUp(total, effectiveAlignment(align)) + bytes;
    });
    return alignUp(total, kMinAlignment);
}

Status GpuCollider::create(const GpuColliderConfig& config, const GpuDeviceInfo* device, void* memory,
                           std::size_t bytes) {
    m_state = nullptr;
    if (memory == nullptr) return Status::NullMemory;
    if (!isAligned(memory, kMinAlignment)) return Status::Misaligned;
    if (!validConfig(config)) return Status::InvalidArgument;
    if (bytes < requiredBytes(config)) return Status::TooSmall;
    Arena arena;
    if (arena.init(memory, bytes) != Status::Ok) return Status::TooSmall;
    void* parts[7 + 3 * kSlots] = {};
    carve(config, [&](std::size_t size, std::size_t align, int index) {
        parts[index] = arena.allocate(size, align);
    });
    GpuColliderState* st = new (parts[0]) GpuColliderState();
    st->config = config;
    st->meshes = static_cast<MeshBlob*>(parts[1]);
    for (std::uint32_t k = 0; k < config.max_meshes; ++k) new (&st->meshes[k]) MeshBlob();
    st->mesh_base = static_cast<std::uint32_t*>(parts[2]);
    st->mesh_groups = static_cast<std::uint32_t*>(parts[6 + 3 * kSlots]);
    st->scratch_pairs = static_cast<TrianglePair*>(parts[3]);
    st->scratch_leaves = static_cast<MeshLeafPair*>(parts[4]);
    for (std::uint32_t s = 0; s < kSlots; ++s) {
        st->slots[s].jobs = static_cast<GpuJobDesc*>(parts[5 + 3 * s]);
        st->slots[s].cpu_pairs = static_cast<GpuPair*>(parts[6 + 3 * s]);
        st->slots[s].cpu_any = static_cast<std::uint8_t*>(parts[7 + 3 * s]);
    }
    m_state = st;
    if (device == nullptr) {
        st->device_status = Status::NoDevice;
        return Status::NoDevice;
    }
    if (!st->heap.init(parts[5 + 3 * kSlots], config.vulkan_host_bytes)) {
        st->device_status = Status::OutOfMemory;
        return Status::OutOfMemory;
    }
    st->callbacks = gpu::vulkanCallbacks(st->heap);
    const Status s = createVulkan(*st, *device);
    if (s != Status::Ok) {
        destroyVulkan(*st);
        st->device_status = s;
        st->backend = GpuBackend::Cpu;
        return s;
    }
    st->device_status = Status::Ok;
    st->backend = GpuBackend::Vulkan;
    return Status::Ok;
}

void GpuCollider::destroy() {
    if (m_state == nullptr) return;
    destroyVulkan(*m_state);
    m_state->~GpuColliderState();
    m_state = nullptr;
}

namespace {

void warmUp(GpuColliderState& st, std::uint32_t mesh);

// One copy of `bytes` from the start of the staging area to `dst` at `dst_offset`, waited for;
// the copy lands before any later dispatch reads or writes it.
VkResult copyFromStaging(GpuColliderState& st, VkBuffer dst, VkDeviceSize dst_offset, VkDeviceSize bytes) {
    const gpu::VkFunctions& vk = st.vk;
    VkResult r = vk.vkResetCommandPool(st.device, st.upload_pool, 0);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (r == VK_SUCCESS) r = vk.vkBeginCommandBuffer(st.upload_cmd, &begin);
    if (r == VK_SUCCESS) {
        const VkBufferCopy copy{0, dst_offset, bytes};
        vk.vkCmdCopyBuffer(st.upload_cmd, st.host_buffer, dst, 1, &copy);
        VkMemoryBarrier barrier{};
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vk.vkCmdPipelineBarrier(st.upload_cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
        r = vk.vkEndCommandBuffer(st.upload_cmd);
    }
    if (r == VK_SUCCESS) r = vk.vkResetFences(st.device, 1, &st.upload_fence);
    if (r == VK_SUCCESS) {
        VkSubmitInfo submit{};
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &st.upload_cmd;
        r = vk.vkQueueSubmit(st.queue, 1, &submit, st.upload_fence);
    }
    if (r == VK_SUCCESS) r = vk.vkWaitForFences(st.device, 1, &st.upload_fence, VK_TRUE, UINT64_MAX);
    return r;
}

// Fills the staging area element by element and copies it to `dst` whenever it is full, and at
// finish(). The first failure sticks (later puts do nothing).
struct Stager {
    GpuColliderState& st;
    VkBuffer dst;
    VkDeviceSize dst_offset;
    VkDeviceSize filled = 0;
    VkResult result = VK_SUCCESS;

    void put(const void* data, std::size_t bytes) {
        if (filled + bytes > kStagingBytes) finish();
        if (result != VK_SUCCESS) return;
        std::memcpy(st.mapped + filled, data, bytes);
        filled += bytes;
    }
    VkResult finish() {
        if (filled > 0 && result == VK_SUCCESS) result = copyFromStaging(st, dst, dst_offset, filled);
        dst_offset += filled;
        filled = 0;
        return result;
    }
};

// A mesh's triangles (leaf order, three vertices each), its tree's `node_count` nodes and its walk
// groups (device_tree.h) and its info into the device's blocks, at the collider's current counts.
VkResult uploadToDevice(GpuColliderState& st, const MeshBlob& blob, std::uint32_t index,
                        std::uint32_t node_count) {
    constexpr VkDeviceSize kTriBytes = gpu::kGpuFloatsPerTriangle * sizeof(float);
    Stager tris{st, st.mesh_buffer, VkDeviceSize{st.triangle_count} * kTriBytes};
    for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
        Vec3 v[3];
        triangleVertices(blob, t, v[0], v[1], v[2]);
        const float f[9] = {v[0].x, v[0].y, v[0].z, v[1].x, v[1].y, v[1].z, v[2].x, v[2].y, v[2].z};
        tris.put(f, sizeof f);
    }
    if (tris.finish() != VK_SUCCESS) return tris.result;
    Stager nodes{st, st.mesh_buffer, st.nodes_at + VkDeviceSize{st.node_count} * 16u};
    gpu::forEachDeviceNode(blob, [&](const BvhNode& n, bool) {
        const std::uint32_t w[4] = {n.lo[0] | static_cast<std::uint32_t>(n.lo[1]) << 16,
                                    n.lo[2] | static_cast<std::uint32_t>(n.hi[0]) << 16,
                                    n.hi[1] | static_cast<std::uint32_t>(n.hi[2]) << 16, n.info};
        nodes.put(w, sizeof w);
    });
    if (nodes.finish() != VK_SUCCESS) return nodes.result;
    Stager groups{st, st.mesh_buffer, st.groups_at + VkDeviceSize{st.group_count} * sizeof(std::uint32_t)};
    std::uint32_t node = 0;
    gpu::forEachDeviceNode(blob, [&](const BvhNode&, bool group) {
        if (group) groups.put(&node, sizeof node);
        ++node;
    });
    if (groups.finish() != VK_SUCCESS) return groups.result;
    detail::QuantGrid grid;
    detail::makeQuantGrid(blob, grid);
    const gpu::GpuMeshInfo info{st.node_count,
                                node_count,
                                st.group_count,
                                st.mesh_groups[index],
                                blob.quant_origin.x,
                                blob.quant_origin.y,
                                blob.quant_origin.z,
                                blob.quant_scale.x,
                                blob.quant_scale.y,
                                blob.quant_scale.z,
                                grid.inv_step[0],
                                grid.inv_step[1],
                                grid.inv_step[2],
                                0u,
                                0u,
                                0u};
    Stager infos{st, st.mesh_buffer, st.infos_at + VkDeviceSize{index} * sizeof(gpu::GpuMeshInfo)};
    infos.put(&info, sizeof info);
    return infos.finish();
}

} // namespace

Status GpuCollider::uploadMesh(const MeshBlob& blob, GpuMeshId& out_id) {
    GpuColliderState* st = m_state;
    if (st == nullptr) return Status::InvalidArgument;
    if (st->mesh_count >= st->config.max_meshes) return Status::PoolFull;
    if (blob.triangle_count > st->config.max_triangles - st->triangle_count) return Status::OutOfMemory;
    const std::uint32_t index = st->mesh_count;
    std::uint32_t nodes = 0, groups = 0;
    gpu::forEachDeviceNode(blob, [&](const BvhNode&, bool group) {
        ++nodes;
        groups += group ? 1u : 0u;
    });
    if (nodes > st->config.max_nodes - st->node_count) return Status::OutOfMemory;
    st->mesh_groups[index] = groups;
    const bool lost_before = st->device_status == Status::DeviceLost;
    if (st->backend == GpuBackend::Vulkan) {
        const VkResult r = uploadToDevice(*st, blob, index, nodes);
        if (r == VK_ERROR_DEVICE_LOST)
            markLost(*st);
        else if (r != VK_SUCCESS)
            return vkStatus(r);
    }
    st->meshes[index] = blob;
    st->mesh_base[index] = st->triangle_count;
    st->triangle_count += blob.triangle_count;
    st->node_count += nodes;
    st->group_count += groups;
    out_id.index = st->mesh_count++;
    if (!st->warmed_up && st->backend == GpuBackend::Vulkan && blob.triangle_count > 0) {
        warmUp(*st, out_id.index);
        st->warmed_up = true;
    }
    // Lost in this call: in the copy or in the first upload's warm-up dispatch.
    return !lost_before && st->device_status == Status::DeviceLost ? Status::DeviceLost : Status::Ok;
}

namespace {

// The rectangles of a batch (runs of triangle pairs, each a leaf pair or a whole mesh pair),
// written straight into a slot's mapped memory, with the pair and invocation counts so far.
struct RectWriter {
    gpu::GpuRect* rects;
    std::uint32_t max_rects;
    std::uint32_t count = 0;
    std::uint64_t total = 0;       // triangle pairs
    std::uint64_t invocations = 0; // shader invocations (runs of pairs sharing an A triangle)

    // False when the rectangle does not fit or the invocations outgrow 32 bits.
    bool add(std::uint32_t job, std::uint32_t a_first, std::uint32_t a_count, std::uint32_t b_first,
             std::uint32_t b_count) {
        if (a_count == 0 || b_count == 0) return true;
        if (count >= max_rects) return false;
        rects[count] = gpu::GpuRect{
            job, a_first, a_count, b_first, b_count, static_cast<std::uint32_t>(invocations), 0u, 0u};
        ++count;
        total += std::uint64_t{a_count} * b_count;
        invocations += std::uint64_t{a_count} *
                       ((b_count + gpu::kGpuPairsPerInvocation - 1) / gpu::kGpuPairsPerInvocation);
        return invocations <= 0xFFFFFFFFull;
    }
};

// A free slot, or null when both are in flight.
Slot* freeSlot(GpuColliderState& st) {
    for (Slot& s : st.slots)
        if (s.state == SlotState::Free) return &s;
    return nullptr;
}

// Job j of the slot's device-visible job table: the transform and both meshes' first triangles.
void writeJob(const GpuColliderState& st, const SlotRegions& g, std::uint32_t j, const GpuJobDesc& job) {
    const Mat33& m = job.b_to_a.rotation;
    const Vec3& t = job.b_to_a.translation;
    reinterpret_cast<gpu::GpuJob*>(st.mapped + g.jobs)[j] = gpu::GpuJob{m.c0.x,
                                                                        m.c0.y,
                                                                        m.c0.z,
                                                                        m.c1.x,
                                                                        m.c1.y,
                                                                        m.c1.z,
                                                                        m.c2.x,
                                                                        m.c2.y,
                                                                        m.c2.z,
                                                                        t.x,
                                                                        t.y,
                                                                        t.z,
                                                                        st.mesh_base[job.a.index],
                                                                        st.mesh_base[job.b.index],
                                                                        0u,
                                                                        0u};
}

// Job j's walk record (DeviceWalk): A's frame into B's, the margin and B's root box of the CPU
// walk (prepareTandemWalk), and where its groups start among the walk's invocations. Returns the
// job's group count (none for an empty mesh or a non-finite transform).
std::uint32_t writeWalkJob(const GpuColliderState& st, const SlotRegions& g, std::uint32_t j,
                           const GpuJobDesc& job, std::uint32_t group_begin) {
    detail::TandemSetup setup;
    const bool live =
        detail::prepareTandemWalk(st.meshes[job.a.index], st.meshes[job.b.index], job.b_to_a, setup);
    const Mat33& m = setup.a_to_b.rotation;
    const Vec3& t = setup.a_to_b.translation;
    const detail::QuantBox& q = setup.b_root_q;
    reinterpret_cast<gpu::GpuWalkJob*>(st.mapped + g.walk_jobs)[j] =
        gpu::GpuWalkJob{m.c0.x,  m.c0.y,  m.c0.z,  m.c1.x,      m.c1.y,       m.c1.z,      m.c2.x,  m.c2.y,
                        m.c2.z,  t.x,     t.y,     t.z,         setup.margin, q.lo[0],     q.lo[1], q.lo[2],
                        q.hi[0], q.hi[1], q.hi[2], job.a.index, job.b.index,  group_begin, 0u,      0u};
    return live ? st.mesh_groups[job.a.index] : 0u;
}

// Writes each job (writeJob) and its rectangles: every leaf pair of the tandem walk (Candidates) or
// the whole mesh pair (BruteForce); or, for DeviceWalk, its walk record (the walk's invocations
// summed in out_walk_total). BufferFull when they do not fit.
Status writeBatch(GpuColliderState& st, const SlotRegions& g, const GpuJobDesc* jobs, std::uint32_t job_count,
                  GpuBatchMode mode, RectWriter& out_rects, std::uint32_t& out_walk_total) {
    std::uint64_t walk_total = 0;
    for (std::uint32_t j = 0; j < job_count; ++j) {
        const GpuJobDesc& job = jobs[j];
        const MeshBlob& a = st.meshes[job.a.index];
        const MeshBlob& b = st.meshes[job.b.index];
        writeJob(st, g, j, job);
        if (mode == GpuBatchMode::DeviceWalk) {
            walk_total += writeWalkJob(st, g, j, job, static_cast<std::uint32_t>(walk_total));
            if (walk_total > 0xFFFFFFFFull) return Status::BufferFull;
        } else if (mode == GpuBatchMode::BruteForce) {
            // A non-finite or non-rigid transform gives nothing on the CPU (meshMeshPairs); the
            // shader is not asked about it.
            if (!isFinite(job.b_to_a) || !isRigid(job.b_to_a)) continue;
            if (!out_rects.add(j, 0, a.triangle_count, 0, b.triangle_count)) return Status::BufferFull;
        } else {
            OutBuffer<MeshLeafPair> leaves =
                OutBuffer<MeshLeafPair>::over(st.scratch_leaves, st.config.max_leaf_pairs);
            if (meshMeshLeafPairs(a, b, job.b_to_a, leaves) != Status::Ok) return Status::BufferFull;
            for (std::uint32_t k = 0; k < leaves.count; ++k) {
                const MeshLeafPair& p = leaves.items[k];
                if (!out_rects.add(j, p.a_first, p.a_count, p.b_first, p.b_count)) return Status::BufferFull;
            }
        }
    }
    out_walk_total = static_cast<std::uint32_t>(walk_total);
    return Status::Ok;
}

// A dispatch of `invocations` in rows of kGpuRowGroups groups (both passes index that way).
void dispatchSize(std::uint64_t invocations, std::uint32_t& out_x, std::uint32_t& out_y,
                  std::uint32_t& out_z) {
    const std::uint64_t groups = (invocations + gpu::kGpuLocalSize - 1) / gpu::kGpuLocalSize;
    out_x = static_cast<std::uint32_t>(groups < gpu::kGpuRowGroups ? groups : gpu::kGpuRowGroups);
    out_y = static_cast<std::uint32_t>((groups + gpu::kGpuRowGroups - 1) / gpu::kGpuRowGroups);
    out_z = 1;
}

// The slot's parameters and both passes' dispatch sizes (the walk's: none outside DeviceWalk; the
// pair pass's: the host's, or grown by the walk), its output cleared, and its recorded command
// buffer submitted. A failed submit is answered by the CPU (DeviceLost when the device died).
Status dispatchSlot(GpuColliderState& st, Slot& slot, const RectWriter& rects, std::uint32_t walk_total,
                    std::uint32_t job_count, GpuQuery query) {
    const SlotRegions& g = slot.regions;
    gpu::GpuParams* params = reinterpret_cast<gpu::GpuParams*>(st.mapped + g.params);
    params->rect_count =
        slot.walk ? static_cast<std::uint32_t>(g.rects_size / sizeof(gpu::GpuRect)) : rects.count;
    params->total_pairs = slot.walk ? 0u : static_cast<std::uint32_t>(rects.invocations);
    params->capacity = st.config.max_pairs;
    params->flags = (query == GpuQuery::AnyContact ? gpu::kGpuFlagAnyContact : 0u) |
                    (slot.walk ? gpu::kGpuFlagWalkRects : 0u);
    VkDispatchIndirectCommand* walk_args =
        reinterpret_cast<VkDispatchIndirectCommand*>(st.mapped + g.indirect);
    dispatchSize(slot.walk ? walk_total : 0u, walk_args->x, walk_args->y, walk_args->z);
    params->job_count = job_count;
    params->walk_total = walk_total;
    params->parity = slot.parity;
    // The host's head: the walk's result lands here (zero when it finds nothing); outside the walk
    // it holds the pair pass's dispatch size.
    gpu::GpuWalkHead* head = reinterpret_cast<gpu::GpuWalkHead*>(st.mapped + g.walk_head);
    *head = gpu::GpuWalkHead{};
    if (!slot.walk)
        dispatchSize(rects.invocations, head->pair_groups_x, head->pair_groups_y, head->pair_groups_z);
    std::memset(st.mapped + g.out, 0, sizeof(gpu::GpuOutHeader));
    std::memset(st.mapped + g.any, 0, sizeof(std::uint32_t) * job_count);

    VkResult r = st.vk.vkResetFences(st.device, 1, &slot.fence);
    if (r == VK_SUCCESS) {
        VkSubmitInfo submit{};
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = slot.walk ? &slot.walk_cmd[slot.parity] : &slot.cmd;
        r = st.vk.vkQueueSubmit(st.queue, 1, &submit, slot.fence);
    }
    if (r != VK_SUCCESS) {
        // The batch is answered by the CPU; a lost device stays lost.
        if (r == VK_ERROR_DEVICE_LOST) markLost(st);
        runOnCpu(st, slot);
        return r == VK_ERROR_DEVICE_LOST ? Status::DeviceLost : Status::Ok;
    }
    slot.dispatched = true;
    if (slot.walk) slot.parity ^= 1u; // the walk zeroes the other head for the slot's next one
    return Status::Ok;
}

} // namespace

namespace {

// The first dispatch of a pipeline makes a driver finish the shader it compiles lazily (lavapipe
// compiles it to machine code with LLVM then, with hundreds of allocations from the system heap):
// at the first mesh's upload, so that no frame pays for it, one batch of a single triangle pair
// (the pair pass) and one device walk of the mesh against a copy of itself moved clear of it (the
// walk pass: every invocation tests its group against B's root box and stops). Results are
// dropped; a failure leaves the collider as it was (the batches will report it).
void warmUp(GpuColliderState& st, std::uint32_t mesh) {
    const MeshBlob& blob = st.meshes[mesh];
    for (const bool walk : {false, true}) {
        Slot* slot = freeSlot(st);
        if (slot == nullptr || st.backend != GpuBackend::Vulkan) return;
        GpuJobDesc job;
        job.a.index = job.b.index = mesh;
        setIdentity(job.b_to_a);
        if (walk)
            job.b_to_a.translation.x =
                2.0f * (detail::maxAbs(blob.bounds.min) + detail::maxAbs(blob.bounds.max)) + 1.0f;
        slot->jobs[0] = job;
        slot->job_count = 1;
        slot->query = GpuQuery::Pairs;
        slot->dispatched = false;
        slot->walk = walk;
        slot->cpu_count = 0;
        slot->cpu_overflow = 0;
        const SlotRegions& g = slot->regions;
        RectWriter rects{reinterpret_cast<gpu::GpuRect*>(st.mapped + g.rects),
                         static_cast<std::uint32_t>(g.rects_size / sizeof(gpu::GpuRect))};
        writeJob(st, g, 0, job);
        std::uint32_t walk_total = 0;
        if (walk)
            walk_total = writeWalkJob(st, g, 0, job, 0);
        else
            (void)rects.add(0, 0, 1, 0, 1);
        if (dispatchSlot(st, *slot, rects, walk_total, 1, GpuQuery::Pairs) == Status::Ok &&
            slot->dispatched) {
            const VkResult r = st.vk.vkWaitForFences(st.device, 1, &slot->fence, VK_TRUE, UINT64_MAX);
            if (r == VK_ERROR_DEVICE_LOST) markLost(st);
        }
        slot->dispatched = false;
        slot->walk = false;
        slot->cpu_count = 0;
        slot->state = SlotState::Free;
    }
}

} // namespace

Status GpuCollider::submitBatch(const GpuJobDesc* jobs, std::uint32_t job_count, GpuBatchMode mode,
                                GpuQuery query, GpuTicket& out_ticket) {
    GpuColliderState* st = m_state;
    out_ticket = GpuTicket{};
    if (st == nullptr || jobs == nullptr || job_count == 0 || job_count > st->config.max_jobs)
        return Status::InvalidArgument;
    if ((mode != GpuBatchMode::Candidates && mode != GpuBatchMode::BruteForce &&
         mode != GpuBatchMode::DeviceWalk) ||
        (query != GpuQuery::Pairs && query != GpuQuery::AnyContact))
        return Status::InvalidArgument;
    for (std::uint32_t j = 0; j < job_count; ++j)
        if (!validMesh(*st, jobs[j].a) || !validMesh(*st, jobs[j].b)) return Status::InvalidArgument;
    Slot* slot = freeSlot(*st);
    if (slot == nullptr) return Status::PoolFull;
    std::memcpy(slot->jobs, jobs, sizeof(GpuJobDesc) * job_count);
    slot->job_count = job_count;
    slot->query = query;
    slot->dispatched = false;
    slot->walk = mode == GpuBatchMode::DeviceWalk;
    slot->serial = st->next_serial;

    if (st->backend == GpuBackend::Cpu) {
        runOnCpu(*st, *slot);
        ++st->next_serial;
        ++st->stats.batches;
        out_ticket.serial = slot->serial;
        return Status::Ok;
    }

    const SlotRegions& g = slot->regions;
    RectWriter rects{reinterpret_cast<gpu::GpuRect*>(st->mapped + g.rects),
                     static_cast<std::uint32_t>(g.rects_size / sizeof(gpu::GpuRect))};
    std::uint32_t walk_total = 0;
    const Status written = writeBatch(*st, g, jobs, job_count, mode, rects, walk_total);
    if (written != Status::Ok) return written;
    ++st->next_serial;
    ++st->stats.batches;
    st->stats.tested_pairs += rects.total; // the walk's pairs are counted when collected
    st->stats.upload_bytes += sizeof(gpu::GpuJob) * std::uint64_t{job_count} +
                              sizeof(gpu::GpuRect) * std::uint64_t{rects.count} + sizeof(gpu::GpuParams) +
                              sizeof(VkDispatchIndirectCommand) + sizeof(gpu::GpuOutHeader) +
                              sizeof(gpu::GpuWalkHead) + sizeof(std::uint32_t) * std::uint64_t{job_count} +
                              (slot->walk ? sizeof(gpu::GpuWalkJob) * std::uint64_t{job_count} : 0u);
    out_ticket.serial = slot->serial;
    slot->state = SlotState::Gpu;
    if (slot->walk ? walk_total == 0 : rects.total == 0) return Status::Ok; // nothing to test: no dispatch
    return dispatchSlot(*st, *slot, rects, walk_total, job_count, query);
}

Status GpuCollider::poll(const GpuTicket& ticket) {
    GpuColliderState* st = m_state;
    if (st == nullptr) return Status::InvalidArgument;
    Slot* slot = findSlot(*st, ticket);
    if (slot == nullptr) return Status::InvalidArgument;
    if (slot->state != SlotState::Gpu || !slot->dispatched) return Status::Ok;
    const VkResult r = st->vk.vkGetFenceStatus(st->device, slot->fence);
    if (r == VK_NOT_READY) return Status::NotReady;
    return Status::Ok; // done, or lost (collect answers with the CPU)
}

Status GpuCollider::wait(const GpuTicket& ticket) {
    GpuColliderState* st = m_state;
    if (st == nullptr) return Status::InvalidArgument;
    Slot* slot = findSlot(*st, ticket);
    if (slot == nullptr) return Status::InvalidArgument;
    if (slot->state != SlotState::Gpu || !slot->dispatched) return Status::Ok;
    const VkResult r = st->vk.vkWaitForFences(st->device, 1, &slot->fence, VK_TRUE, UINT64_MAX);
    return r == VK_SUCCESS ? Status::Ok : Status::DeviceLost;
}

Status GpuCollider::collect(const GpuTicket& ticket, OutBuffer<GpuPair>* inout_pairs, std::uint8_t* out_any) {
    GpuColliderState* st = m_state;
    if (st == nullptr) return Status::InvalidArgument;
    Slot* slot = findSlot(*st, ticket);
    if (slot == nullptr) return Status::InvalidArgument;
    if (slot->query == GpuQuery::Pairs ? inout_pairs == nullptr : out_any == nullptr)
        return Status::InvalidArgument;
    // The slot's output header and records and its walk head (read once the fence has signalled).
    const gpu::GpuOutHeader* head =
        reinterpret_cast<const gpu::GpuOutHeader*>(st->mapped + slot->regions.out);
    const gpu::GpuPairRecord* records = reinterpret_cast<const gpu::GpuPairRecord*>(
        st->mapped + slot->regions.out + sizeof(gpu::GpuOutHeader));
    const gpu::GpuWalkHead* walk =
        reinterpret_cast<const gpu::GpuWalkHead*>(st->mapped + slot->regions.walk_head);
    Status result = Status::Ok;
    if (slot->state == SlotState::Gpu && slot->dispatched) {
        const VkResult r = st->vk.vkWaitForFences(st->device, 1, &slot->fence, VK_TRUE, UINT64_MAX);
        if (r != VK_SUCCESS) {
            if (r == VK_ERROR_DEVICE_LOST) markLost(*st);
            runOnCpu(*st, *slot);
            result = Status::DeviceLost;
        } else if (st->query_pool != VK_NULL_HANDLE) {
            std::uint64_t ticks[2] = {0, 0};
            const std::uint32_t first_query = 2 * static_cast<std::uint32_t>(slot - st->slots);
            if (st->vk.vkGetQueryPoolResults(st->device, st->query_pool, first_query, 2, sizeof ticks, ticks,
                                             sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
                const std::uint64_t ns = static_cast<std::uint64_t>(
                    static_cast<double>((ticks[1] - ticks[0]) & st->tick_mask) * st->ns_per_tick);
                st->stats.device_ns += ns;
                st->stats.last_batch_device_ns = ns;
            }
        }
    }
    if (slot->state == SlotState::Gpu && slot->dispatched) {
        // Records past capacity while some pairs were left to the host: whether the unwritten ones
        // overlap is unknown, so the CPU answers the batch (with an exact count of what it drops).
        // Likewise when the device walk found more leaf pairs than the rectangles hold.
        if (slot->walk && walk->overflow != 0u) {
            ++st->stats.walk_overflows;
            runOnCpu(*st, *slot);
        } else if (head->count > st->config.max_pairs && head->asked > 0u) {
            runOnCpu(*st, *slot);
        } else if (slot->walk) {
            st->stats.tested_pairs += walk->tested_pairs;
        }
    }
    const std::uint32_t first = inout_pairs != nullptr ? inout_pairs->count : 0u;
    bool batch_overflow = false; // this batch dropped pairs (the caller's `dropped` may be saturated)
    if (slot->state == SlotState::Cpu) {
        if (slot->query == GpuQuery::AnyContact) {
            std::memcpy(out_any, slot->cpu_any, slot->job_count);
        } else {
            for (std::uint32_t k = 0; k < slot->cpu_count; ++k)
                if (!inout_pairs->append(
                        GpuPair{slot->cpu_pairs[k].job, slot->cpu_pairs[k].a, slot->cpu_pairs[k].b}))
                    batch_overflow = true;
            inout_pairs->drop(slot->cpu_overflow);
            batch_overflow = batch_overflow || slot->cpu_overflow > 0;
        }
    } else if (slot->query == GpuQuery::AnyContact) {
        const std::uint32_t* flags = reinterpret_cast<const std::uint32_t*>(st->mapped + slot->regions.any);
        for (std::uint32_t j = 0; j < slot->job_count; ++j)
            out_any[j] = slot->dispatched && flags[j] != 0u ? 1u : 0u;
        if (slot->dispatched) {
            // The pairs left to the host (every record of this query) decide the jobs the device
            // found no contact for.
            for (std::uint32_t k = 0; k < head->count; ++k) // within capacity (see above)
                if (out_any[records[k].job] == 0u && askedPairOverlaps(*st, *slot, records[k]))
                    out_any[records[k].job] = 1u;
        }
    } else if (slot->dispatched) {
        const std::uint32_t found = head->count;
        const std::uint32_t stored = std::min(found, st->config.max_pairs);
        for (std::uint32_t k = 0; k < stored; ++k) {
            if ((records[k].flags & gpu::kGpuRecordAsk) != 0u && !askedPairOverlaps(*st, *slot, records[k]))
                continue;
            const bool crossing = (records[k].flags & gpu::kGpuRecordCrossing) != 0u;
            if (!inout_pairs->append(
                    GpuPair{records[k].job, records[k].a, records[k].b, crossing ? kGpuPairCrossing : 0u}))
                batch_overflow = true;
        }
        inout_pairs->drop(found - stored); // (none left to the host among them: see above)
        batch_overflow = batch_overflow || found > stored;
    }
    if (slot->query == GpuQuery::Pairs) {
        // At most max_pairs were appended (the device's stored records or the CPU's list), and the
        // slot's CPU list is free scratch now.
        detail::sortPairs(inout_pairs->items + first, inout_pairs->count - first, slot->cpu_pairs);
        if (batch_overflow && result == Status::Ok) result = Status::BufferFull;
    }
    slot->state = SlotState::Free;
    slot->serial = 0;
    return result;
}

GpuBackend GpuCollider::backend() const { return m_state != nullptr ? m_state->backend : GpuBackend::Cpu; }

Status GpuCollider::deviceStatus() const {
    return m_state != nullptr ? m_state->device_status : Status::NoDevice;
}

GpuColliderStats GpuCollider::stats() const {
    if (m_state == nullptr) return GpuColliderStats{};
    GpuColliderStats s = m_state->stats;
    s.host_heap_high_water = m_state->heap.highWater();
    s.host_heap_failures = m_state->heap.failures();
    return s;
}

} // namespace flak
