// flak — private: the Vulkan entry points the GPU collider uses, loaded from the host's
// vkGetInstanceProcAddr (flak links no loader: a game without Vulkan still links and runs). The
// GPU report's rate probe (tools/bench) loads the same table.
#pragma once

#include <vulkan/vulkan_core.h>

namespace flak::gpu {

#define FLAK_VK_INSTANCE_FUNCTIONS(X)                                                                        \
    X(vkGetDeviceProcAddr)                                                                                   \
    X(vkGetPhysicalDeviceProperties)                                                                         \
    X(vkGetPhysicalDeviceMemoryProperties)                                                                   \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                                                              \
    X(vkGetPhysicalDeviceProperties2)

#define FLAK_VK_DEVICE_FUNCTIONS(X)                                                                          \
    X(vkGetDeviceQueue)                                                                                      \
    X(vkCreateBuffer)                                                                                        \
    X(vkDestroyBuffer)                                                                                       \
    X(vkGetBufferMemoryRequirements)                                                                         \
    X(vkAllocateMemory)                                                                                      \
    X(vkFreeMemory)                                                                                          \
    X(vkBindBufferMemory)                                                                                    \
    X(vkMapMemory)                                                                                           \
    X(vkUnmapMemory)                                                                                         \
    X(vkCreateShaderModule)                                                                                  \
    X(vkDestroyShaderModule)                                                                                 \
    X(vkCreateDescriptorSetLayout)                                                                           \
    X(vkDestroyDescriptorSetLayout)                                                                          \
    X(vkCreatePipelineLayout)                                                                                \
    X(vkDestroyPipelineLayout)                                                                               \
    X(vkCreateComputePipelines)                                                                              \
    X(vkDestroyPipeline)                                                                                     \
    X(vkCreateDescriptorPool)                                                                                \
    X(vkDestroyDescriptorPool)                                                                               \
    X(vkAllocateDescriptorSets)                                                                              \
    X(vkUpdateDescriptorSets)                                                                                \
    X(vkCreateCommandPool)                                                                                   \
    X(vkDestroyCommandPool)                                                                                  \
    X(vkAllocateCommandBuffers)                                                                              \
    X(vkResetCommandPool)                                                                                    \
    X(vkBeginCommandBuffer)                                                                                  \
    X(vkEndCommandBuffer)                                                                                    \
    X(vkCmdBindPipeline)                                                                                     \
    X(vkCmdBindDescriptorSets)                                                                               \
    X(vkCmdDispatchIndirect)                                                                                 \
    X(vkCmdPipelineBarrier)                                                                                  \
    X(vkCreateQueryPool)                                                                                     \
    X(vkDestroyQueryPool)                                                                                    \
    X(vkCmdResetQueryPool)                                                                                   \
    X(vkCmdWriteTimestamp)                                                                                   \
    X(vkGetQueryPoolResults)                                                                                 \
    X(vkCmdCopyBuffer)                                                                                       \
    X(vkCreateFence)                                                                                         \
    X(vkDestroyFence)                                                                                        \
    X(vkResetFences)                                                                                         \
    X(vkWaitForFences)                                                                                       \
    X(vkGetFenceStatus)                                                                                      \
    X(vkQueueSubmit)

#define FLAK_VK_DECLARE(name) PFN_##name name = nullptr;

/// The loaded entry points (null until loaded).
struct VkFunctions {
    FLAK_VK_INSTANCE_FUNCTIONS(FLAK_VK_DECLARE)
    FLAK_VK_DEVICE_FUNCTIONS(FLAK_VK_DECLARE)
};

#undef FLAK_VK_DECLARE

/// Loads every entry point: the instance's through `gipa`, the device's through the loaded
/// vkGetDeviceProcAddr. False when one is missing.
inline bool loadVkFunctions(VkFunctions& vk, PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                            VkDevice device) {
#define FLAK_VK_LOAD_INSTANCE(name)                                                                          \
    vk.name = reinterpret_cast<PFN_##name>(gipa(instance, #name));                                           \
    if (vk.name == nullptr) return false;
    FLAK_VK_INSTANCE_FUNCTIONS(FLAK_VK_LOAD_INSTANCE)
#undef FLAK_VK_LOAD_INSTANCE
#define FLAK_VK_LOAD_DEVICE(name)                                                                            \
    vk.name = reinterpret_cast<PFN_##name>(vk.vkGetDeviceProcAddr(device, #name));                           \
    if (vk.name == nullptr) return false;
    FLAK_VK_DEVICE_FUNCTIONS(FLAK_VK_LOAD_DEVICE)
#undef FLAK_VK_LOAD_DEVICE
    return true;
}

} // namespace flak::gpu
