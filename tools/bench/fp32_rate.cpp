// See fp32_rate.h.
#include "fp32_rate.h"

#include "gpu/vk_functions.h"

#include <chrono>
#include <cstdint>
#include <cstring>

namespace flak::gpu {
extern const std::uint32_t kFp32RateSpirv[];
extern const std::size_t kFp32RateSpirvWords;
} // namespace flak::gpu

namespace flak::bench {
namespace {

constexpr std::uint32_t kLocalSize = 64; // fp32_rate.comp's local_size_x
constexpr std::uint32_t kGroups = 8192;  // 524,288 invocations: enough to fill a large GPU
constexpr std::uint32_t kChains = 16;    // fused multiply-adds per iteration
constexpr double kMinSeconds = 0.02;     // the last dispatch takes at least this long
constexpr std::uint32_t kMaxIterations = 1u << 22;

using Vk = gpu::VkFunctions;

// Everything the probe made, destroyed in reverse order (a null handle is skipped).
struct Objects {
    const Vk* vk = nullptr;
    VkDevice device = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkShaderModule module = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkCommandPool commands = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    ~Objects() {
        if (vk == nullptr) return;
        if (fence) vk->vkDestroyFence(device, fence, nullptr);
        if (queries) vk->vkDestroyQueryPool(device, queries, nullptr);
        if (commands) vk->vkDestroyCommandPool(device, commands, nullptr);
        if (pool) vk->vkDestroyDescriptorPool(device, pool, nullptr);
        if (pipeline) vk->vkDestroyPipeline(device, pipeline, nullptr);
        if (pipeline_layout) vk->vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
        if (set_layout) vk->vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
        if (module) vk->vkDestroyShaderModule(device, module, nullptr);
        if (buffer) vk->vkDestroyBuffer(device, buffer, nullptr);
        if (memory) vk->vkFreeMemory(device, memory, nullptr);
    }
};

Fp32Rate failed(const char* what) {
    Fp32Rate r;
    r.error = what;
    return r;
}

} // namespace

Fp32Rate measureFp32Rate(const GpuDeviceInfo& info) {
    if (info.get_instance_proc_addr == nullptr || info.device == VK_NULL_HANDLE) return failed("no device");
    Vk vk;
    if (!gpu::loadVkFunctions(vk, info.get_instance_proc_addr, info.instance, info.device))
        return failed("a Vulkan entry point is missing");
    Objects o;
    o.vk = &vk;
    o.device = info.device;
    const VkDevice dev = info.device;

    // One host-visible buffer: the parameters (16 bytes), one float per invocation, then the
    // dispatch size (the collider's entry points dispatch indirectly).
    const VkDeviceSize args_at = 16 + sizeof(float) * VkDeviceSize{kGroups} * kLocalSize;
    const VkDeviceSize bytes = args_at + sizeof(VkDispatchIndirectCommand);
    VkBufferCreateInfo bi{};
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.size = bytes;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    if (vk.vkCreateBuffer(dev, &bi, nullptr, &o.buffer) != VK_SUCCESS) return failed("vkCreateBuffer");
    VkMemoryRequirements req;
    vk.vkGetBufferMemoryRequirements(dev, o.buffer, &req);
    VkPhysicalDeviceMemoryProperties mem;
    vk.vkGetPhysicalDeviceMemoryProperties(info.physical_device, &mem);
    const VkMemoryPropertyFlags want =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    std::uint32_t type = mem.memoryTypeCount;
    for (std::uint32_t t = 0; t < mem.memoryTypeCount && type == mem.memoryTypeCount; ++t)
        if ((req.memoryTypeBits & (1u << t)) != 0u && (mem.memoryTypes[t].propertyFlags & want) == want)
            type = t;
    if (type == mem.memoryTypeCount) return failed("no host-visible coherent memory");
    VkMemoryAllocateInfo ai{};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    if (vk.vkAllocateMemory(dev, &ai, nullptr, &o.memory) != VK_SUCCESS) return failed("vkAllocateMemory");
    if (vk.vkBindBufferMemory(dev, o.buffer, o.memory, 0) != VK_SUCCESS) return failed("vkBindBufferMemory");
    void* mapped = nullptr;
    if (vk.vkMapMemory(dev, o.memory, 0, VK_WHOLE_SIZE, 0, &mapped) != VK_SUCCESS)
        return failed("vkMapMemory");

    // The pipeline: one storage buffer.
    VkShaderModuleCreateInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    si.codeSize = gpu::kFp32RateSpirvWords * 4;
    si.pCode = gpu::kFp32RateSpirv;
    if (vk.vkCreateShaderModule(dev, &si, nullptr, &o.module) != VK_SUCCESS)
        return failed("vkCreateShaderModule");
    VkDescriptorSetLayoutBinding binding{};
    binding.binding = 0;
    binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    binding.descriptorCount = 1;
    binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    VkDescriptorSetLayoutCreateInfo li{};
    li.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    li.bindingCount = 1;
    li.pBindings = &binding;
    if (vk.vkCreateDescriptorSetLayout(dev, &li, nullptr, &o.set_layout) != VK_SUCCESS)
        return failed("vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo pli{};
    pli.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &o.set_layout;
    if (vk.vkCreatePipelineLayout(dev, &pli, nullptr, &o.pipeline_layout) != VK_SUCCESS)
        return failed("vkCreatePipelineLayout");
    VkComputePipelineCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = o.module;
    ci.stage.pName = "main";
    ci.layout = o.pipeline_layout;
    if (vk.vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &o.pipeline) != VK_SUCCESS)
        return failed("vkCreateComputePipelines");
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo dpi{};
    dpi.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    dpi.maxSets = 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &size;
    if (vk.vkCreateDescriptorPool(dev, &dpi, nullptr, &o.pool) != VK_SUCCESS)
        return failed("vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsi{};
    dsi.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    dsi.descriptorPool = o.pool;
    dsi.descriptorSetCount = 1;
    dsi.pSetLayouts = &o.set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (vk.vkAllocateDescriptorSets(dev, &dsi, &set) != VK_SUCCESS) return failed("vkAllocateDescriptorSets");
    VkDescriptorBufferInfo dbi{o.buffer, 0, args_at};
    VkWriteDescriptorSet write{};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstSet = set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &dbi;
    vk.vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

    // Commands, timestamps (where the queue family writes them) and a fence.
    VkCommandPoolCreateInfo cpi{};
    cpi.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    cpi.queueFamilyIndex = info.queue_family;
    if (vk.vkCreateCommandPool(dev, &cpi, nullptr, &o.commands) != VK_SUCCESS)
        return failed("vkCreateCommandPool");
    VkCommandBufferAllocateInfo cbi{};
    cbi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    cbi.commandPool = o.commands;
    cbi.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbi.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (vk.vkAllocateCommandBuffers(dev, &cbi, &cmd) != VK_SUCCESS) return failed("vkAllocateCommandBuffers");
    std::uint32_t family_count = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(info.physical_device, &family_count, nullptr);
    VkQueueFamilyProperties families[32];
    family_count = family_count < 32 ? family_count : 32;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(info.physical_device, &family_count, families);
    VkPhysicalDeviceProperties props;
    vk.vkGetPhysicalDeviceProperties(info.physical_device, &props);
    const bool timestamps = info.queue_family < family_count &&
                            families[info.queue_family].timestampValidBits > 0 &&
                            props.limits.timestampPeriod > 0.0f;
    if (timestamps) {
        VkQueryPoolCreateInfo qi{};
        qi.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = 2;
        if (vk.vkCreateQueryPool(dev, &qi, nullptr, &o.queries) != VK_SUCCESS)
            return failed("vkCreateQueryPool");
    }
    VkFenceCreateInfo fi{};
    fi.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    if (vk.vkCreateFence(dev, &fi, nullptr, &o.fence) != VK_SUCCESS) return failed("vkCreateFence");
    VkQueue queue = VK_NULL_HANDLE;
    vk.vkGetDeviceQueue(dev, info.queue_family, info.queue_index, &queue);

    // Dispatches with four times the iterations each until one takes kMinSeconds and at least 1.5
    // times the one before (the arithmetic, not the dispatch's fixed cost, sets its time); the rate
    // is that of the difference between the last two, so the fixed cost drops out.
    const VkDispatchIndirectCommand dispatch{kGroups, 1, 1};
    std::memcpy(static_cast<unsigned char*>(mapped) + args_at, &dispatch, sizeof dispatch);
    Fp32Rate out;
    double last_seconds = 0.0;
    for (std::uint32_t iterations = 16;; iterations *= 4) {
        const std::uint32_t params[4] = {iterations, 0, 0, 0};
        const float mul = 0.999999f, add = 1e-3f;
        std::memcpy(mapped, params, sizeof params);
        std::memcpy(static_cast<unsigned char*>(mapped) + 4, &mul, 4);
        std::memcpy(static_cast<unsigned char*>(mapped) + 8, &add, 4);
        if (vk.vkResetCommandPool(dev, o.commands, 0) != VK_SUCCESS) return failed("vkResetCommandPool");
        VkCommandBufferBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        if (vk.vkBeginCommandBuffer(cmd, &begin) != VK_SUCCESS) return failed("vkBeginCommandBuffer");
        vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.pipeline);
        vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.pipeline_layout, 0, 1, &set, 0,
                                   nullptr);
        if (timestamps) {
            vk.vkCmdResetQueryPool(cmd, o.queries, 0, 2);
            vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, o.queries, 0);
        }
        vk.vkCmdDispatchIndirect(cmd, o.buffer, args_at);
        if (timestamps) vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, o.queries, 1);
        if (vk.vkEndCommandBuffer(cmd) != VK_SUCCESS) return failed("vkEndCommandBuffer");
        VkSubmitInfo submit{};
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        if (vk.vkResetFences(dev, 1, &o.fence) != VK_SUCCESS) return failed("vkResetFences");
        const auto t0 = std::chrono::steady_clock::now();
        if (vk.vkQueueSubmit(queue, 1, &submit, o.fence) != VK_SUCCESS) return failed("vkQueueSubmit");
        if (vk.vkWaitForFences(dev, 1, &o.fence, VK_TRUE, 60ull * 1000000000ull) != VK_SUCCESS)
            return failed("vkWaitForFences");
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        out.device_timed = false;
        if (timestamps) {
            std::uint64_t ticks[2] = {0, 0};
            if (vk.vkGetQueryPoolResults(dev, o.queries, 0, 2, sizeof ticks, ticks, sizeof(std::uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS &&
                ticks[1] > ticks[0]) {
                seconds = static_cast<double>(ticks[1] - ticks[0]) * props.limits.timestampPeriod * 1e-9;
                out.device_timed = true;
            }
        }
        const bool grew = last_seconds > 0.0 && seconds >= 1.5 * last_seconds;
        if ((seconds >= kMinSeconds && grew) || iterations >= kMaxIterations) {
            const double per_iteration = 2.0 * kChains * kGroups * kLocalSize;
            const double flops = per_iteration * static_cast<double>(iterations - iterations / 4);
            out.seconds = seconds;
            out.measured = seconds > last_seconds;
            out.gflops = out.measured ? flops / (seconds - last_seconds) * 1e-9 : 0.0;
            if (!out.measured) out.error = "more iterations took no more time";
            return out;
        }
        last_seconds = seconds;
    }
}

} // namespace flak::bench
