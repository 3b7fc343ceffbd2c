// flak — the hit sort key and the hit-stream hash.
#include <flak/world/hit.h>

#include <cstring>

namespace flak {

namespace {

// The key fields of a hit, in sort order.
void sortKey(const Hit& h, std::uint32_t out_key[6]) {
    out_key[0] = static_cast<std::uint32_t>(h.kind);
    out_key[1] = static_cast<std::uint32_t>(h.a.kind);
    out_key[2] = h.a.index;
    out_key[3] = static_cast<std::uint32_t>(h.b.kind);
    out_key[4] = h.b.index;
    out_key[5] = h.feature;
}

// Lexicographic compare of the key fields; -1, 0 or 1.
int compareKeys(const Hit& x, const Hit& y) {
    std::uint32_t kx[6], ky[6];
    sortKey(x, kx);
    sortKey(y, ky);
    for (int i = 0; i < 6; ++i) {
        if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
    }
    return 0;
}

// One 64-bit word into the hash: xor, then multiply by an odd constant (2^64 / golden ratio).
std::uint64_t mixWord(std::uint64_t hash, std::uint64_t word) {
    return (hash ^ word) * 0x9E3779B97F4A7C15ull;
}

std::uint64_t words(std::uint32_t low, std::uint32_t high) {
    return static_cast<std::uint64_t>(low) | static_cast<std::uint64_t>(high) << 32;
}

std::uint32_t bitsOf(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
}

} // namespace

bool hitLess(const Hit& x, const Hit& y) {
    const int c = compareKeys(x, y);
    if (c != 0) return c < 0;
    return x.t < y.t;
}

std::uint64_t hashHit(const Hit& hit, std::uint64_t hash) {
    hash = mixWord(hash, static_cast<std::uint64_t>(hit.kind) | static_cast<std::uint64_t>(hit.a.kind) << 8 |
                             static_cast<std::uint64_t>(hit.b.kind) << 16);
    hash = mixWord(hash, words(hit.a.index, hit.a.generation));
    hash = mixWord(hash, words(hit.b.index, hit.b.generation));
    hash = mixWord(hash, words(hit.feature, bitsOf(hit.t)));
    hash = mixWord(hash, words(bitsOf(hit.point.x), bitsOf(hit.point.y)));
    hash = mixWord(hash, words(bitsOf(hit.point.z), bitsOf(hit.normal.x)));
    hash = mixWord(hash, words(bitsOf(hit.normal.y), bitsOf(hit.normal.z)));
    hash = mixWord(hash, bitsOf(hit.depth));
    return hash ^ (hash >> 32);
}

std::uint64_t hashStepEnd(std::uint32_t hit_count, std::uint64_t hash) {
    hash = mixWord(hash, hit_count);
    return hash ^ (hash >> 32);
}

} // namespace flak
