// flak platform — headless Vulkan bring-up for tools, samples and tests (no window, no surface).
// Loads the Vulkan loader at run time (dlopen), so a machine without one gets Status::NoLoader
// instead of a link error. Picks a discrete GPU, then an integrated one, then a virtual one, then
// a CPU implementation (lavapipe), among those runtime/gpu can use (Vulkan 1.2, a compute queue,
// SignedZeroInfNanPreserve for float), and creates a device with one compute queue. Optionally enables VK_LAYER_KHRONOS_validation, with synchronization
// validation and the best-practices checks, and a debug-utils messenger that counts (and keeps)
// every error and warning. platform/ may use the STL.
#pragma once

#include <flak/gpu/gpu_collider.h>
#include <flak/gpu/host_heap.h>
#include <flak/status.h>

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flak::platform {

/// Options of the headless bring-up.
struct VulkanHeadlessOptions {
    bool validation = false;      ///< enable VK_LAYER_KHRONOS_validation + messenger (fails if missing)
    bool prefer_cpu = false;      ///< pick a CPU implementation (lavapipe) first
    const char* loader = nullptr; ///< loader file to open (null: libvulkan.so.1 / vulkan-1.dll)
    /// Host memory set aside for what the driver allocates through the device's allocator
    /// (VkAllocationCallbacks over a gpu::HostHeap), so that queue submissions allocate nothing
    /// from the system heap; 0: the system allocator.
    std::size_t device_heap_bytes = std::size_t{16} << 20;
};

/// An instance, a physical device, a device and a compute queue, owned; destroyed with the object.
class VulkanHeadless {
public:
    VulkanHeadless() = default;
    ~VulkanHeadless();
    VulkanHeadless(const VulkanHeadless&) = delete;
    VulkanHeadless& operator=(const VulkanHeadless&) = delete;

    /// Brings Vulkan up. NoLoader (no loader library), NoDevice (no driver, or no device with a
    /// compute queue), GpuUnsupported (validation asked for but missing, or an instance or device
    /// the driver refuses), OutOfMemory (the driver's own host or device memory), DeviceLost (the
    /// device was lost as it was opened), or Ok. error() says more on failure; what was made by
    /// then is freed by destroy(), the destructor or the next create().
    [[nodiscard]] Status create(const VulkanHeadlessOptions& options);
    /// Destroys the device, the messenger and the instance (waits for the device to go idle).
    void destroy();

    /// What runtime/gpu's GpuCollider::create takes.
    GpuDeviceInfo deviceInfo() const;
    /// The chosen device's name ("llvmpipe (LLVM 15.0.6, 256 bits)", ...).
    const std::string& deviceName() const { return m_device_name; }
    /// VK_PHYSICAL_DEVICE_TYPE_* of the chosen device.
    VkPhysicalDeviceType deviceType() const { return m_device_type; }
    /// The chosen device's VkPhysicalDeviceProperties: vendor id, driver version (vendor-encoded)
    /// and Vulkan version.
    std::uint32_t vendorId() const { return m_vendor_id; }
    std::uint32_t driverVersion() const { return m_driver_version; }
    std::uint32_t apiVersion() const { return m_api_version; }
    /// Devices create() passed over, each as "name: why" (no Vulkan 1.2, no compute queue, no float controls), so that a tool can say why it did not run on the GPU it expected.
    const std::vector<std::string>& skippedDevices() const { return m_skipped; }
    /// Most bytes the driver held through the device's allocator (0 without device_heap_bytes),
    /// and the allocations it refused for want of room.
    std::size_t deviceHeapHighWater() const { return m_heap.highWater(); }
    std::uint32_t deviceHeapFailures() const { return m_heap.failures(); }
    /// Why create() failed.
    const std::string& error() const { return m_error; }
    /// Validation messages of severity error seen so far.
    std::uint32_t validationErrors() const { return m_errors; }
    /// Validation messages of severity warning seen so far.
    std::uint32_t validationWarnings() const { return m_warnings; }
    /// The text of every counted message.
    const std::vector<std::string>& validationMessages() const { return m_messages; }
    /// The loader's own messages about its configuration ("Loader Message", e.g. layers added from
    /// VK_INSTANCE_LAYERS): kept apart and never counted as validation warnings or errors.
    const std::vector<std::string>& loaderMessages() const { return m_loader_messages; }
    /// Best-practices advice flak knows and keeps (docs/gpu.md lists each with its reason): kept
    /// apart and never counted either.
    const std::vector<std::string>& knownAdvice() const { return m_known_advice; }

    /// Records one messenger callback (used by the messenger; public for the C callback).
    void record(VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* message,
                bool from_loader = false, bool known_advice = false);

private:
    void* m_library = nullptr;
    PFN_vkGetInstanceProcAddr m_gipa = nullptr;
    VkInstance m_instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT m_messenger = VK_NULL_HANDLE;
    VkPhysicalDevice m_physical = VK_NULL_HANDLE;
    VkDevice m_device = VK_NULL_HANDLE;
    std::uint32_t m_family = 0;
    VkPhysicalDeviceType m_device_type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    std::string m_device_name;
    std::string m_error;
    std::vector<std::string> m_loader_messages;
    std::vector<std::string> m_known_advice;
    std::vector<std::string> m_skipped;
    std::vector<unsigned char> m_heap_block; // device_heap_bytes (+ alignment)
    gpu::HostHeap m_heap;
    VkAllocationCallbacks m_callbacks{};
    bool m_use_callbacks = false;
    std::uint32_t m_vendor_id = 0;
    std::uint32_t m_driver_version = 0;
    std::uint32_t m_api_version = 0;
    std::uint32_t m_errors = 0;
    std::uint32_t m_warnings = 0;
    std::vector<std::string> m_messages;
};

} // namespace flak::platform
