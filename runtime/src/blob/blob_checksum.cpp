#include <flak/blob/blob.h>

#include <cstring>

namespace flak {

// Covers the whole blob, header included, with the checksum field itself read as zero.
// Multiply-rotate hash over little-endian 64-bit words. Each step h -> rotl(h ^ w, 29) * K is a
// bijection of h for a fixed word and of w for a fixed h, so changing any one word (any single
// byte) always changes the result. Not cryptographic: it guards against damage, not attackers.
std::uint64_t blobChecksum(const void* data, std::size_t bytes) {
    constexpr std::size_t kChecksumField = offsetof(BlobHeader, checksum); // hashed as zero
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
    const unsigned char* p = static_cast<const unsigned char*>(data);
    std::uint64_t h = 0xF1A4B10Bull ^ static_cast<std::uint64_t>(bytes);
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        std::uint64_t w = 0;
        if (i != kChecksumField)
            for (int b = 0; b < 8; ++b)
                w |= static_cast<std::uint64_t>(p[i + static_cast<std::size_t>(b)]) << (8 * b);
        h ^= w;
        h = ((h << 29) | (h >> 35)) * kMul;
    }
    std::uint64_t tail = 0;
    for (int b = 0; i < bytes; ++i, ++b) tail |= static_cast<std::uint64_t>(p[i]) << (8 * b);
    h ^= tail;
    h = ((h << 29) | (h >> 35)) * kMul;
    return h ^ (h >> 31);
}

} // namespace flak
