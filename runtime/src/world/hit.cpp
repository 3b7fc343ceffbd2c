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

std::uint64_t mixByte(std::uint64_t hash, std::uint8_t byte) {
    return (hash ^ byte) * 0x100000001B3ull; // FNV-1a prime
}

std::uint64_t mixU32(std::uint64_t hash, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) hash = mixByte(hash, static_cast<std::uint8_t>(value >> (8 * i)));
    return hash;
}

std::uint64_t mixFloat(std::uint64_t hash, float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof(bits));
    return mixU32(hash, bits);
}

std::uint64_t mixBody(std::uint64_t hash, const BodyId& id) {
    hash = mixByte(hash, static_cast<std::uint8_t>(id.kind));
    hash = mixU32(hash, id.index);
    return mixU32(hash, id.generation);
}

} // namespace

bool hitLess(const Hit& x, const Hit& y) {
    const int c = compareKeys(x, y);
    if (c != 0) return c < 0;
    return x.t < y.t;
}

std::uint64_t hashHit(const Hit& hit, std::uint64_t hash) {
    hash = mixByte(hash, static_cast<std::uint8_t>(hit.kind));
    hash = mixBody(hash, hit.a);
    hash = mixBody(hash, hit.b);
    hash = mixU32(hash, hit.feature);
    hash = mixFloat(hash, hit.point.x);
    hash = mixFloat(hash, hit.point.y);
    hash = mixFloat(hash, hit.point.z);
    hash = mixFloat(hash, hit.normal.x);
    hash = mixFloat(hash, hit.normal.y);
    hash = mixFloat(hash, hit.normal.z);
    hash = mixFloat(hash, hit.t);
    return mixFloat(hash, hit.depth);
}

} // namespace flak
