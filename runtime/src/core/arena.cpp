#include <flak/arena.h>
#include <flak/assert.h>

namespace flak {

Status Arena::init(void* memory, std::size_t bytes) {
    *this = Arena{};
    if (memory == nullptr) return Status::NullMemory;
    if (!isAligned(memory, kMinAlignment)) return Status::Misaligned;
    m_base = static_cast<unsigned char*>(memory);
    m_capacity = bytes;
    return Status::Ok;
}

void* Arena::allocate(std::size_t bytes, std::size_t alignment) {
    if (alignment != 0 && !isPowerOfTwo(alignment)) {
        FLAK_ASSERT(false, "Arena::allocate: alignment must be a power of two");
        ++m_failed;
        return nullptr;
    }
    const std::size_t align = effectiveAlignment(alignment);
    // Align the absolute address, so alignments above the base's alignment are honoured too.
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(m_base);
    const std::uintptr_t start = (base + m_top + (align - 1)) & ~static_cast<std::uintptr_t>(align - 1);
    const std::size_t offset = static_cast<std::size_t>(start - base);
    if (m_base == nullptr || offset > m_capacity || bytes > m_capacity - offset) {
        ++m_failed;
        return nullptr;
    }
    m_top = offset + alignUp(bytes, kMinAlignment) <= m_capacity ? offset + alignUp(bytes, kMinAlignment)
                                                                 : m_capacity;
    if (m_top > m_high_water) m_high_water = m_top;
    return m_base + offset;
}

ArenaMarker Arena::mark() {
    ++m_depth;
    return ArenaMarker{m_top, m_depth};
}

Status Arena::rewind(const ArenaMarker& marker) {
    if (marker.depth == 0 || marker.depth != m_depth || marker.offset > m_top) {
        FLAK_ASSERT(false, "Arena::rewind: marker is not the newest outstanding one");
        return Status::BadMarker;
    }
    m_top = marker.offset;
    --m_depth;
    return Status::Ok;
}

void Arena::reset() {
    m_top = 0;
    m_depth = 0;
}

} // namespace flak
