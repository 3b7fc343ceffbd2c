// The heap behind the GPU collider's VkAllocationCallbacks: refusals are counted whatever their
// reason, and memory comes back whole.
#include <flak/gpu/host_heap.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace flak::gpu {
namespace {

TEST(HostHeap, EveryRefusalIsCountedAndMemoryComesBack) {
    alignas(16) static unsigned char block[4096];
    HostHeap heap;
    ASSERT_TRUE(heap.init(block, sizeof block));
    EXPECT_EQ(heap.failures(), 0u);
    EXPECT_EQ(heap.allocate(sizeof block + 1, 16), nullptr); // larger than the block
    EXPECT_EQ(heap.failures(), 1u);
    EXPECT_EQ(heap.allocate(64, 24), nullptr); // not a power of two
    EXPECT_EQ(heap.failures(), 2u);
    std::vector<void*> taken;
    for (void* p = heap.allocate(512, 64); p != nullptr; p = heap.allocate(512, 64)) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
        taken.push_back(p);
    }
    EXPECT_GE(taken.size(), 5u);
    EXPECT_EQ(heap.failures(), 3u); // no room left
    EXPECT_GT(heap.used(), 0u);
    EXPECT_EQ(heap.highWater(), heap.used());
    for (void* p : taken) heap.release(p);
    EXPECT_EQ(heap.used(), 0u);
    void* whole = heap.allocate(sizeof block - 64, 16); // merged back into one block
    EXPECT_NE(whole, nullptr);
    heap.release(whole);
    EXPECT_EQ(heap.failures(), 3u);
}

} // namespace
} // namespace flak::gpu
