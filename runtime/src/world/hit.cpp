// flak — the hit sort key and the hit-stream hash.
#include <flak/world/hit.h>

#include <cstring>

namespace flak {

namespace {

// Lexicographic compare of the key fields; -1, 0 or 1.
int compareKeys(const Hit& x, const Hit& y) {
    const std::uint32_t kx[6] = {static_cast<std::uint32_t>(x.kind),
                                 static_cast<std::uint32_t>(x.a.kind),
                                 x.a.index,
                                 static_cast<std::uint32_t>(x.b.kind),
                                 x.b.index,
                                 x.feature};
    const std::uint32_t ky[6] = {static_cast<std::uint32_t>(y.kind),
                                 static_cast<std::uint32_t>(y.a.kind),
                                 y.a.index,
                                 static_cast<std::uint32_t>(y.b.kind),
                                 y.b.index,
                                 y.feature};
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
