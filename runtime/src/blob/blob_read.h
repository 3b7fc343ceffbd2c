// Internal: reading a blob's fields in either byte order, and the error helper every validator
// shares (the container's open and swap, and each room's section views).
#pragma once

#include <flak/blob/blob.h>

#include <cstring>

namespace flak::detail {

inline std::uint16_t bswap(std::uint16_t v) { return static_cast<std::uint16_t>((v >> 8) | (v << 8)); }
inline std::uint32_t bswap(std::uint32_t v) { return __builtin_bswap32(v); }
inline std::uint64_t bswap(std::uint64_t v) { return __builtin_bswap64(v); }

/// Reads a T at p, converting from the blob's order when `foreign`.
template <typename T> inline T readField(const unsigned char* p, bool foreign) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return foreign ? bswap(v) : v;
}

inline Status fail(BlobError* err, Status status, const char* what, std::uint64_t offset) {
    if (err != nullptr) {
        err->status = status;
        err->what = what;
        err->offset = offset;
    }
    return status;
}

/// True when |v| <= kMaxBlobCoordinate (false for NaN and infinities).
inline bool inBlobRange(float v) { return v >= -kMaxBlobCoordinate && v <= kMaxBlobCoordinate; }

/// Checks the header, table and checksum; `foreign` says whether the blob is in the other byte
/// order (refused unless `allow_foreign`). The table in out_blob is in host order either way.
Status openContainer(const unsigned char* p, std::size_t size, bool allow_foreign, Blob& out_blob,
                     bool& foreign, BlobError* err);

} // namespace flak::detail
