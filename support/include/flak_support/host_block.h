// HostBlock: the memory a host hands the runtime, as tests, tools and samples allocate it: `bytes`
// bytes at an address aligned to `alignment` (a power of two), zero-filled, owned by the block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace flak::support {

class HostBlock {
public:
    HostBlock() = default;
    HostBlock(std::size_t bytes, std::size_t alignment) { reset(bytes, alignment); }

    /// Replaces the block with a new zero-filled one of `bytes` bytes aligned to `alignment`.
    void reset(std::size_t bytes, std::size_t alignment) {
        m_storage.assign(bytes + alignment, 0);
        const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(m_storage.data());
        m_data = m_storage.data() + (alignment - p % alignment) % alignment;
        m_bytes = bytes;
    }

    unsigned char* data() { return m_data; }
    std::size_t size() const { return m_bytes; }

private:
    std::vector<unsigned char> m_storage;
    unsigned char* m_data = nullptr;
    std::size_t m_bytes = 0;
};

} // namespace flak::support
