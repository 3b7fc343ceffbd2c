// flak — the general-purpose heap behind the GPU collider's VkAllocationCallbacks, which a host
// can also give its own instance and device (platform/'s VulkanHeadless does), so that what the
// driver allocates through them comes from memory the host set aside.
// Vulkan drivers allocate, free and reallocate host memory of any size and alignment, from any
// thread (lavapipe's queue thread included), so a bump arena is not enough: this is a first-fit
// free list over one caller-provided block, address ordered, neighbours merged on free, behind a
// spin lock. Never calls malloc; at capacity it returns null (Vulkan then reports
// VK_ERROR_OUT_OF_HOST_MEMORY).
#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace flak::gpu {

/// Thread-safe first-fit heap over caller memory (16-byte granularity).
class HostHeap {
public:
    /// Takes [memory, memory + bytes) (16-byte aligned); false if it is too small to hold anything.
    bool init(void* memory, std::size_t bytes);
    /// `size` bytes aligned to `alignment` (a power of two), or null.
    void* allocate(std::size_t size, std::size_t alignment);
    /// Grows or shrinks `old` (null: allocate), keeping min(old size, size) bytes.
    void* reallocate(void* old, std::size_t size, std::size_t alignment);
    /// Gives `p` back (null is ignored).
    void release(void* p);
    // The counters are read under the lock: the driver may allocate on its own threads meanwhile.
    std::size_t used() const;       ///< bytes in use now (headers included)
    std::size_t highWater() const;  ///< most bytes ever in use
    std::uint32_t failures() const; ///< allocations refused (too large, a bad alignment, or no room)

private:
    struct FreeBlock {
        std::size_t size;
        FreeBlock* next;
    };
    void lock() const;
    void unlock() const;
    template <typename T> T locked(const T& field) const; ///< a counter's value, read under the lock

    unsigned char* m_base = nullptr;
    std::size_t m_bytes = 0;
    FreeBlock* m_free = nullptr;
    std::size_t m_used = 0;
    std::size_t m_high_water = 0;
    std::uint32_t m_failures = 0;
    mutable std::atomic<bool> m_locked{false};
};

/// VkAllocationCallbacks that allocate, reallocate and free in `heap` (which must outlive every
/// Vulkan object created with them).
VkAllocationCallbacks vulkanCallbacks(HostHeap& heap);

} // namespace flak::gpu
