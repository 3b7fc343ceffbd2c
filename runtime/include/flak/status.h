// flak — status codes for expected conditions (bad input, full pools, bad blobs).
#pragma once

#include <cstdint>

namespace flak {

/// Result of an operation that can fail for expected reasons. Programmer errors go through
/// FLAK_ASSERT instead. Every value has a stable name (statusName) for logs and tests.
enum class Status : std::uint8_t {
    Ok = 0,
    NullMemory,             ///< a memory pointer was null
    Misaligned,             ///< memory or a requested alignment did not meet the requirement
    TooSmall,               ///< the memory handed in is smaller than requiredBytes() said
    OutOfMemory,            ///< an arena had no room left for the request
    PoolFull,               ///< a fixed pool had no free slot
    NullHandle,             ///< the handle was the null handle
    StaleHandle,            ///< the handle's slot was freed (and maybe reused) since it was issued
    BadMarker,              ///< an arena marker was rewound out of LIFO order
    InvalidArgument,        ///< an argument was out of its documented range (NaN, negative size, ...)
    BlobBadMagic,           ///< the bytes are not a flak blob
    BlobUnsupportedVersion, ///< a flak blob of a format version this build does not read
    BlobLayoutMismatch,     ///< written by a build with other struct layouts (layout hash differs)
    BlobWrongEndian,        ///< a valid blob in the other byte order (swap it in place first)
    BlobTruncated,          ///< fewer bytes than the blob says it has
    BlobBadChecksum,        ///< payload bytes changed since baking
    BlobMisaligned,         ///< the blob's address is not 16-byte aligned
    BlobCorrupt,            ///< checksum fine but the structure is inconsistent (see BlobError::what)
    BufferFull,             ///< a caller's output buffer had no room left; the rest was counted, not written
    NoLoader,               ///< no Vulkan loader (libvulkan) could be opened; the CPU path answers
    NoDevice,               ///< no usable Vulkan device (none given, none found); the CPU path answers
    GpuUnsupported, ///< the device lacks a feature the GPU path needs (float controls, ...); CPU answers
    DeviceLost,     ///< the Vulkan device was lost; this and later batches are answered by the CPU
    NotReady,       ///< an asynchronous batch has not finished yet (poll again later)
    Count           ///< number of values; not a status
};

/// Stable, human-readable name of a status ("Ok", "PoolFull", ...). Never null.
const char* statusName(Status status);

} // namespace flak
