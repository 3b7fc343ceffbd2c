#include <flak/gpu/host_heap.h>

#include <cstring>

namespace flak::gpu {
namespace {

constexpr std::size_t kGrain = 16;

// Written just before every pointer handed out: where its block starts and how big it is.
struct Header {
    std::size_t block_offset;
    std::size_t block_size;
};
static_assert(sizeof(Header) == kGrain, "the header fills one grain");

std::size_t roundUp(std::size_t v, std::size_t a) { return (v + a - 1) & ~(a - 1); }

} // namespace

void HostHeap::lock() const {
    while (m_locked.exchange(true, std::memory_order_acquire)) {
    }
}
void HostHeap::unlock() const { m_locked.store(false, std::memory_order_release); }

template <typename T> T HostHeap::locked(const T& field) const {
    lock();
    const T v = field;
    unlock();
    return v;
}
std::size_t HostHeap::used() const { return locked(m_used); }
std::size_t HostHeap::highWater() const { return locked(m_high_water); }
std::uint32_t HostHeap::failures() const { return locked(m_failures); }

bool HostHeap::init(void* memory, std::size_t bytes) {
    m_base = static_cast<unsigned char*>(memory);
    m_bytes = bytes & ~(kGrain - 1);
    m_used = m_high_water = 0;
    m_failures = 0;
    if (m_base == nullptr || m_bytes < 4 * kGrain) {
        m_free = nullptr;
        return false;
    }
    m_free = reinterpret_cast<FreeBlock*>(m_base);
    m_free->size = m_bytes;
    m_free->next = nullptr;
    return true;
}

void* HostHeap::allocate(std::size_t size, std::size_t alignment) {
    if (alignment < kGrain) alignment = kGrain;
    if ((alignment & (alignment - 1)) != 0 || size > m_bytes) { // refused without a search
        lock();
        ++m_failures;
        unlock();
        return nullptr;
    }
    size = roundUp(size == 0 ? 1 : size, kGrain);
    lock();
    FreeBlock* prev = nullptr;
    for (FreeBlock* b = m_free; b != nullptr; prev = b, b = b->next) {
        const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(b);
        const std::uintptr_t user = roundUp(start + sizeof(Header), alignment);
        const std::size_t need = (user - start) + size;
        if (need > b->size) continue;
        std::size_t take = need;
        // Split when the rest can hold a free block; else hand out the whole block.
        FreeBlock* rest = b->next;
        if (b->size - need >= 2 * kGrain) {
            rest = reinterpret_cast<FreeBlock*>(start + need);
            rest->size = b->size - need;
            rest->next = b->next;
        } else {
            take = b->size;
        }
        if (prev != nullptr)
            prev->next = rest;
        else
            m_free = rest;
        Header* h = reinterpret_cast<Header*>(user - sizeof(Header));
        h->block_offset = static_cast<std::size_t>(start - reinterpret_cast<std::uintptr_t>(m_base));
        h->block_size = take;
        m_used += take;
        if (m_used > m_high_water) m_high_water = m_used;
        unlock();
        return reinterpret_cast<void*>(user);
    }
    ++m_failures;
    unlock();
    return nullptr;
}

void HostHeap::release(void* p) {
    if (p == nullptr) return;
    const Header* h = reinterpret_cast<const Header*>(static_cast<unsigned char*>(p) - sizeof(Header));
    FreeBlock* block = reinterpret_cast<FreeBlock*>(m_base + h->block_offset);
    const std::size_t size = h->block_size;
    lock();
    m_used -= size;
    block->size = size;
    FreeBlock* prev = nullptr;
    FreeBlock* next = m_free;
    while (next != nullptr && next < block) {
        prev = next;
        next = next->next;
    }
    block->next = next;
    if (next != nullptr &&
        reinterpret_cast<unsigned char*>(block) + block->size == reinterpret_cast<unsigned char*>(next)) {
        block->size += next->size;
        block->next = next->next;
    }
    if (prev != nullptr) {
        prev->next = block;
        if (reinterpret_cast<unsigned char*>(prev) + prev->size == reinterpret_cast<unsigned char*>(block)) {
            prev->size += block->size;
            prev->next = block->next;
        }
    } else {
        m_free = block;
    }
    unlock();
}

void* HostHeap::reallocate(void* old, std::size_t size, std::size_t alignment) {
    if (old == nullptr) return allocate(size, alignment);
    if (size == 0) {
        release(old);
        return nullptr;
    }
    const Header* h = reinterpret_cast<const Header*>(static_cast<unsigned char*>(old) - sizeof(Header));
    const std::size_t old_room = h->block_size - static_cast<std::size_t>(static_cast<unsigned char*>(old) -
                                                                          (m_base + h->block_offset));
    void* p = allocate(size, alignment);
    if (p == nullptr) return nullptr;
    std::memcpy(p, old, old_room < size ? old_room : size);
    release(old);
    return p;
}

namespace {
void* VKAPI_PTR hostAlloc(void* user, std::size_t size, std::size_t alignment, VkSystemAllocationScope) {
    return static_cast<HostHeap*>(user)->allocate(size, alignment);
}
void* VKAPI_PTR hostRealloc(void* user, void* original, std::size_t size, std::size_t alignment,
                            VkSystemAllocationScope) {
    return static_cast<HostHeap*>(user)->reallocate(original, size, alignment);
}
void VKAPI_PTR hostFree(void* user, void* memory) { static_cast<HostHeap*>(user)->release(memory); }
} // namespace

VkAllocationCallbacks vulkanCallbacks(HostHeap& heap) {
    VkAllocationCallbacks out{};
    out.pUserData = &heap;
    out.pfnAllocation = hostAlloc;
    out.pfnReallocation = hostRealloc;
    out.pfnFree = hostFree;
    return out;
}

} // namespace flak::gpu
