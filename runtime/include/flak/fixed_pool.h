// flak — fixed-capacity object pool over caller memory, with generation-checked handles.
#pragma once

#include <flak/align.h>
#include <flak/assert.h>
#include <flak/handle.h>
#include <flak/status.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <utility>

namespace flak {

/// Pool of up to `capacity` objects of type T in memory the caller hands in (see requiredBytes).
/// Objects are addressed by Handle<T>; a freed slot bumps its generation, so handles issued before
/// the free are detected as stale and never dereferenced.
///
/// Generation wrap: a slot whose generation counter (GenT) would wrap is retired instead of reused,
/// so a stale handle can never alias a newer object. With the default 32-bit counter a slot retires
/// after 4,294,967,295 reuses; retiredSlots() counts them and capacity shrinks by that many.
/// At capacity: create() returns PoolFull and a null handle; nothing grows.
/// Not thread-safe.
template <typename T, typename GenT = std::uint32_t> class FixedPool {
    static_assert(std::numeric_limits<GenT>::is_integer && !std::numeric_limits<GenT>::is_signed,
                  "generation counter must be an unsigned integer");
    static_assert(sizeof(GenT) <= sizeof(std::uint32_t), "generation must fit in a Handle");

public:
    static constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;

    /// Alignment of the memory block init() expects (at least kMinAlignment).
    static constexpr std::size_t kAlignment = effectiveAlignment(alignof(T));

    /// Bytes of memory a pool of `capacity` objects needs, aligned to kAlignment.
    static constexpr std::size_t requiredBytes(std::uint32_t capacity) {
        return alignUp(sizeof(T) * capacity, kMinAlignment) +
               alignUp(sizeof(GenT) * capacity, kMinAlignment) +
               alignUp(sizeof(std::uint32_t) * capacity, kMinAlignment);
    }

    FixedPool() = default;
    FixedPool(const FixedPool&) = delete;
    FixedPool& operator=(const FixedPool&) = delete;
    ~FixedPool() { clear(); }

    /// Lays the pool out in [memory, memory + bytes). `memory` must be aligned to kAlignment and
    /// `bytes >= requiredBytes(capacity)`. capacity must be below 0xFFFFFFFD. Objects still
    /// alive from an earlier init are destroyed first (their memory must still be valid).
    [[nodiscard]] Status init(void* memory, std::size_t bytes, std::uint32_t capacity) {
        clear();
        m_capacity = 0;
        if (memory == nullptr) return Status::NullMemory;
        if (!isAligned(memory, kAlignment)) return Status::Misaligned;
        if (capacity >= kRetired) return Status::InvalidArgument;
        if (bytes < requiredBytes(capacity)) return Status::TooSmall;
        unsigned char* bytes_ptr = static_cast<unsigned char*>(memory);
        m_objects = reinterpret_cast<T*>(bytes_ptr);
        bytes_ptr += alignUp(sizeof(T) * capacity, kMinAlignment);
        m_generations = reinterpret_cast<GenT*>(bytes_ptr);
        bytes_ptr += alignUp(sizeof(GenT) * capacity, kMinAlignment);
        m_next = reinterpret_cast<std::uint32_t*>(bytes_ptr);
        m_capacity = capacity;
        m_live = 0;
        m_high_water = 0;
        m_retired = 0;
        // Free list in index order, so fresh pools hand out 0, 1, 2, ... (deterministic).
        for (std::uint32_t i = 0; i < capacity; ++i) {
            m_generations[i] = 1; // 0 is reserved for the null handle
            m_next[i] = i + 1 < capacity ? i + 1 : kNoSlot;
        }
        m_free_head = capacity > 0 ? 0 : kNoSlot;
        return Status::Ok;
    }

    /// Constructs a T from `args` in a free slot and writes its handle. PoolFull (and a null
    /// handle) when no slot is free.
    template <typename... Args> [[nodiscard]] Status create(Handle<T>& out_handle, Args&&... args) {
        out_handle = Handle<T>{};
        if (m_free_head == kNoSlot) return Status::PoolFull;
        const std::uint32_t index = m_free_head;
        m_free_head = m_next[index];
        m_next[index] = kAlive;
        ::new (static_cast<void*>(m_objects + index)) T(std::forward<Args>(args)...);
        ++m_live;
        if (m_live > m_high_water) m_high_water = m_live;
        out_handle.index = index;
        out_handle.generation = m_generations[index];
        return Status::Ok;
    }

    /// Destroys the object and frees its slot. NullHandle / StaleHandle for handles that do not
    /// name a live object (nothing is touched then).
    [[nodiscard]] Status destroy(const Handle<T>& handle) {
        const Status status = check(handle);
        if (status != Status::Ok) return status;
        const std::uint32_t index = handle.index;
        m_objects[index].~T();
        --m_live;
        if (m_generations[index] == std::numeric_limits<GenT>::max()) {
            // Wrap would make old handles valid again: retire the slot for good.
            m_generations[index] = 0;
            m_next[index] = kRetired;
            ++m_retired;
            return Status::Ok;
        }
        ++m_generations[index];
        m_next[index] = m_free_head;
        m_free_head = index;
        return Status::Ok;
    }

    /// Pointer to the live object named by `handle`, or nullptr for a null or stale handle.
    T* get(const Handle<T>& handle) {
        return check(handle) == Status::Ok ? m_objects + handle.index : nullptr;
    }
    const T* get(const Handle<T>& handle) const {
        return check(handle) == Status::Ok ? m_objects + handle.index : nullptr;
    }

    /// Ok, NullHandle or StaleHandle.
    Status check(const Handle<T>& handle) const {
        if (handle.isNull()) return Status::NullHandle;
        if (handle.index >= m_capacity || m_next[handle.index] != kAlive ||
            m_generations[handle.index] != handle.generation)
            return Status::StaleHandle;
        return Status::Ok;
    }

    /// Handle of the live object in slot `index`, or a null handle if the slot is free or retired.
    /// Lets callers iterate live objects in slot order (deterministic).
    Handle<T> handleAt(std::uint32_t index) const {
        if (index >= m_capacity || m_next[index] != kAlive) return Handle<T>{};
        return Handle<T>{index, m_generations[index]};
    }

    /// Destroys every live object; all outstanding handles become stale.
    void clear() {
        for (std::uint32_t i = 0; i < m_capacity; ++i) {
            if (m_next[i] == kAlive) {
                Handle<T> handle{i, m_generations[i]};
                (void)destroy(handle);
            }
        }
    }

    std::uint32_t capacity() const { return m_capacity; }    ///< slots handed in at init
    std::uint32_t size() const { return m_live; }            ///< live objects now
    std::uint32_t highWater() const { return m_high_water; } ///< most live objects ever
    std::uint32_t retiredSlots() const { return m_retired; } ///< slots lost to generation wrap

private:
    static constexpr std::uint32_t kAlive = 0xFFFFFFFEu;
    static constexpr std::uint32_t kRetired = 0xFFFFFFFDu;

    T* m_objects = nullptr;
    GenT* m_generations = nullptr;
    std::uint32_t* m_next = nullptr; // free-list link, or kAlive / kRetired
    std::uint32_t m_capacity = 0;
    std::uint32_t m_free_head = kNoSlot;
    std::uint32_t m_live = 0;
    std::uint32_t m_high_water = 0;
    std::uint32_t m_retired = 0;
};

} // namespace flak
