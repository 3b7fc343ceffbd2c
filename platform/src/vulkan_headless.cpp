#include <flak/platform/vulkan_headless.h>

#include <dlfcn.h>

#include <cstring>

namespace flak::platform {
namespace {

// Best-practices advice that is known and kept, with docs/gpu.md's reasons: never counted.
constexpr const char* kKnownAdvice[] = {
    // The bring-up enables VK_EXT_debug_utils and VK_EXT_validation_features: debugging is what
    // it turns the layer on for.
    "UNASSIGNED-BestPractices-vkCreateInstance-specialuse-extension-debugging",
    // The collider gives each of its device buffers a memory block of its own, once, at create().
    "UNASSIGNED-BestPractices-vkBindMemory-small-dedicated-allocation",
};

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT type,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    const char* id = data != nullptr && data->pMessageIdName != nullptr ? data->pMessageIdName : "";
    // The loader reports its own configuration (a layer added from VK_INSTANCE_LAYERS, say) as a
    // general message named "Loader Message": it says nothing about how flak uses Vulkan.
    const bool loader =
        type == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT && std::strcmp(id, "Loader Message") == 0;
    bool known = false;
    for (const char* advice : kKnownAdvice) known = known || std::strcmp(id, advice) == 0;
    static_cast<VulkanHeadless*>(user)->record(
        severity, data != nullptr && data->pMessage != nullptr ? data->pMessage : "", loader, known);
    return VK_FALSE;
}

int typeRank(VkPhysicalDeviceType type, bool prefer_cpu) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return prefer_cpu ? 1 : 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return prefer_cpu ? 1 : 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return prefer_cpu ? 5 : 1;
    default: return 0;
    }
}

} // namespace

VulkanHeadless::~VulkanHeadless() { destroy(); }

void VulkanHeadless::record(VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* message,
                            bool from_loader, bool known_advice) {
    if (from_loader || known_advice) {
        (from_loader ? m_loader_messages : m_known_advice).emplace_back(message);
        return;
    }
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
        ++m_errors;
    else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
        ++m_warnings;
    else
        return;
    m_messages.emplace_back(message);
}

Status VulkanHeadless::create(const VulkanHeadlessOptions& options) {
    destroy();
    m_error.clear();
    m_skipped.clear();
    m_loader_messages.clear();
    m_known_advice.clear();
    const char* loader = options.loader != nullptr ? options.loader : "libvulkan.so.1";
    m_library = dlopen(loader, RTLD_NOW | RTLD_LOCAL);
    if (m_library == nullptr) {
        m_error = std::string("cannot open the Vulkan loader ") + loader;
        return Status::NoLoader;
    }
    m_gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(m_library, "vkGetInstanceProcAddr"));
    if (m_gipa == nullptr) {
        m_error = "the loader has no vkGetInstanceProcAddr";
        return Status::NoLoader;
    }
    const auto createInstance =
        reinterpret_cast<PFN_vkCreateInstance>(m_gipa(VK_NULL_HANDLE, "vkCreateInstance"));
    const auto enumerateLayers = reinterpret_cast<PFN_vkEnumerateInstanceLayerProperties>(
        m_gipa(VK_NULL_HANDLE, "vkEnumerateInstanceLayerProperties"));
    if (createInstance == nullptr || enumerateLayers == nullptr) {
        m_error = "the loader lacks vkCreateInstance";
        return Status::NoLoader;
    }
    std::vector<const char*> layers, extensions;
    VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
    messenger_info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messenger_info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = onMessage;
    messenger_info.pUserData = this;
    if (options.validation) {
        std::uint32_t count = 0;
        (void)enumerateLayers(&count, nullptr);
        std::vector<VkLayerProperties> props(count);
        (void)enumerateLayers(&count, props.data());
        bool found = false;
        for (const VkLayerProperties& p : props)
            found = found || std::strcmp(p.layerName, "VK_LAYER_KHRONOS_validation") == 0;
        if (!found) {
            m_error = "VK_LAYER_KHRONOS_validation is not installed (vulkan-validationlayers)";
            return Status::GpuUnsupported;
        }
        layers.push_back("VK_LAYER_KHRONOS_validation");
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    }
    // With the layer: synchronization validation and the best-practices checks too.
    const VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,
        VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT};
    VkValidationFeaturesEXT checks{};
    checks.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
    checks.enabledValidationFeatureCount = 2;
    checks.pEnabledValidationFeatures = enables;
    checks.pNext = &messenger_info;
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "flak";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    if (options.validation) info.pNext = &checks; // the messenger also covers instance creation
    VkResult r = createInstance(&info, nullptr, &m_instance);
    if (r != VK_SUCCESS) {
        m_error = "vkCreateInstance failed (" + std::to_string(r) + ")";
        m_instance = VK_NULL_HANDLE;
        // The loader is there: no driver at all, no memory, or a layer or extension asked for
        // (validation) that is missing.
        if (r == VK_ERROR_INCOMPATIBLE_DRIVER) return Status::NoDevice;
        if (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY)
            return Status::OutOfMemory;
        return Status::GpuUnsupported;
    }
#define FLAK_LOAD(name) const auto name = reinterpret_cast<PFN_##name>(m_gipa(m_instance, #name))
    FLAK_LOAD(vkEnumeratePhysicalDevices);
    FLAK_LOAD(vkGetPhysicalDeviceProperties);
    FLAK_LOAD(vkGetPhysicalDeviceProperties2);
    FLAK_LOAD(vkGetPhysicalDeviceQueueFamilyProperties);
    FLAK_LOAD(vkCreateDevice);
    FLAK_LOAD(vkCreateDebugUtilsMessengerEXT);
#undef FLAK_LOAD
    // Validation asked for: without the messenger no message would be counted, so that is a
    // refusal, not a run that reports zero.
    if (options.validation &&
        (vkCreateDebugUtilsMessengerEXT == nullptr ||
         vkCreateDebugUtilsMessengerEXT(m_instance, &messenger_info, nullptr, &m_messenger) != VK_SUCCESS)) {
        m_error = "validation asked for, but its messenger cannot be made";
        m_messenger = VK_NULL_HANDLE;
        return Status::GpuUnsupported;
    }

    std::uint32_t count = 0;
    (void)vkEnumeratePhysicalDevices(m_instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    (void)vkEnumeratePhysicalDevices(m_instance, &count, devices.data());
    int best_rank = -1;
    for (VkPhysicalDevice d : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(d, &props);
        if (props.apiVersion < VK_API_VERSION_1_2) {
            m_skipped.push_back(std::string(props.deviceName) + ": Vulkan below 1.2");
            continue;
        }
        std::uint32_t fam_count = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(d, &fam_count, nullptr);
        std::vector<VkQueueFamilyProperties> fams(fam_count);
        vkGetPhysicalDeviceQueueFamilyProperties(d, &fam_count, fams.data());
        std::uint32_t family = fam_count;
        for (std::uint32_t f = 0; f < fam_count && family == fam_count; ++f)
            if (fams[f].queueFlags & VK_QUEUE_COMPUTE_BIT) family = f;
        if (family == fam_count) {
            m_skipped.push_back(std::string(props.deviceName) + ": no compute queue");
            continue;
        }
        VkPhysicalDeviceFloatControlsProperties controls{};
        controls.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
        VkPhysicalDeviceProperties2 props2{};
        props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        props2.pNext = &controls;
        vkGetPhysicalDeviceProperties2(d, &props2);
        if (controls.shaderSignedZeroInfNanPreserveFloat32 != VK_TRUE) {
            m_skipped.push_back(std::string(props.deviceName) + ": no SignedZeroInfNanPreserve for float");
            continue;
        }
        const int rank = typeRank(props.deviceType, options.prefer_cpu);
        if (rank > best_rank) {
            best_rank = rank;
            m_physical = d;
            m_family = family;
            m_device_type = props.deviceType;
            m_device_name = props.deviceName;
            m_vendor_id = props.vendorID;
            m_driver_version = props.driverVersion;
            m_api_version = props.apiVersion;
        }
    }
    if (m_physical == VK_NULL_HANDLE) {
        m_error = "no Vulkan 1.2 device with a compute queue and float controls";
        return Status::NoDevice;
    }
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{};
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue.queueFamilyIndex = m_family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo dev{};
    dev.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    dev.queueCreateInfoCount = 1;
    dev.pQueueCreateInfos = &queue;
    m_use_callbacks = false;
    if (options.device_heap_bytes > 0) {
        m_heap_block.assign(options.device_heap_bytes + 16, 0);
        unsigned char* aligned = m_heap_block.data() +
                                 ((16 - (reinterpret_cast<std::uintptr_t>(m_heap_block.data()) & 15u)) & 15u);
        m_use_callbacks = m_heap.init(aligned, options.device_heap_bytes);
        m_callbacks = gpu::vulkanCallbacks(m_heap);
    }
    r = vkCreateDevice(m_physical, &dev, m_use_callbacks ? &m_callbacks : nullptr, &m_device);
    if (r != VK_SUCCESS) {
        m_error = "vkCreateDevice failed (" + std::to_string(r) + ")";
        m_device = VK_NULL_HANDLE;
        // A device was found; it could not be opened.
        if (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY)
            return Status::OutOfMemory;
        return r == VK_ERROR_DEVICE_LOST ? Status::DeviceLost : Status::GpuUnsupported;
    }
    return Status::Ok;
}

void VulkanHeadless::destroy() {
    if (m_instance != VK_NULL_HANDLE) {
        if (m_device != VK_NULL_HANDLE) {
            const auto getDevice =
                reinterpret_cast<PFN_vkGetDeviceProcAddr>(m_gipa(m_instance, "vkGetDeviceProcAddr"));
            const auto waitIdle =
                reinterpret_cast<PFN_vkDeviceWaitIdle>(getDevice(m_device, "vkDeviceWaitIdle"));
            const auto destroyDevice =
                reinterpret_cast<PFN_vkDestroyDevice>(getDevice(m_device, "vkDestroyDevice"));
            (void)waitIdle(m_device);
            destroyDevice(m_device, m_use_callbacks ? &m_callbacks : nullptr);
        }
        if (m_messenger != VK_NULL_HANDLE) {
            const auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                m_gipa(m_instance, "vkDestroyDebugUtilsMessengerEXT"));
            destroyMessenger(m_instance, m_messenger, nullptr);
        }
        const auto destroyInstance =
            reinterpret_cast<PFN_vkDestroyInstance>(m_gipa(m_instance, "vkDestroyInstance"));
        destroyInstance(m_instance, nullptr);
    }
    m_device = VK_NULL_HANDLE;
    m_messenger = VK_NULL_HANDLE;
    m_instance = VK_NULL_HANDLE;
    m_physical = VK_NULL_HANDLE;
    if (m_library != nullptr) dlclose(m_library);
    m_library = nullptr;
    m_gipa = nullptr;
}

GpuDeviceInfo VulkanHeadless::deviceInfo() const {
    GpuDeviceInfo info;
    if (m_device == VK_NULL_HANDLE) return info;
    info.get_instance_proc_addr = m_gipa;
    info.instance = m_instance;
    info.physical_device = m_physical;
    info.device = m_device;
    info.queue_family = m_family;
    info.queue_index = 0;
    return info;
}

} // namespace flak::platform
