// Runs every math operation with a SIMD path (and its neighbours) over seeded random inputs,
// NaN/Inf/denormal inputs included, and writes the raw result bytes to argv[1].
#include <flak/math.h>

#include "flak_support/split_mix.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace {

std::vector<unsigned char> g_bytes;

// Every emitted type is a plain aggregate of floats. NaNs are written as one canonical pattern:
// IEEE 754 leaves the payload and sign of a NaN result unspecified (x86 picks the first operand's,
// and a compiler may commute a + b), so only "is NaN" is part of the contract, not its bits.
template <typename T> void emit(const T& value) {
    static_assert(sizeof(T) % sizeof(float) == 0, "float aggregates only");
    constexpr std::size_t kFloats = sizeof(T) / sizeof(float);
    float floats[kFloats];
    std::memcpy(floats, &value, sizeof(T));
    for (float& x : floats)
        if (std::isnan(x)) x = std::numeric_limits<float>::quiet_NaN();
    const unsigned char* p = reinterpret_cast<const unsigned char*>(floats);
    g_bytes.insert(g_bytes.end(), p, p + sizeof(T));
}

float special(flak::test::SplitMix64& rng) {
    switch (rng.next() % 12) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    case 2: return -std::numeric_limits<float>::infinity();
    case 3: return std::numeric_limits<float>::denorm_min() * 7.0f;
    case 4: return -0.0f;
    case 5: return 1e30f;
    default: return rng.rangef(-100.0, 100.0);
    }
}

} // namespace

int main(int argc, char** argv) {
    using namespace flak;
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT.bin\n", argv[0]);
        return 2;
    }
    test::SplitMix64 rng(0xD16E57u);
    for (int i = 0; i < 200000; ++i) {
        const bool odd = (i % 16) == 0;
        auto f = [&] { return odd ? special(rng) : rng.rangef(-100.0, 100.0); };
        Vec3 a{f(), f(), f()}, b{f(), f(), f()};
        Quat q{f(), f(), f(), f()};
        normalize(q, q);
        Transform t;
        fromQuatTranslation(q, b, t);
        Mat33 m{{f(), f(), f()}, {f(), f(), f()}, {f(), f(), f()}};

        Vec3 r;
        mul(m, a, r);
        emit(r);
        mulTransposed(m, a, r);
        emit(r);
        Mat33 mm;
        mul(m, t.rotation, mm);
        emit(mm);
        mulTransposed(m, t.rotation, mm);
        emit(mm);
        transformPoint(t, a, r);
        emit(r);
        inverseTransformPoint(t, a, r);
        emit(r);
        Transform c;
        compose(t, t, c);
        emit(c);
        inverse(t, c);
        emit(c);
        Vec3 pts[5] = {a, b, r, {f(), f(), f()}, {f(), f(), f()}};
        transformPoints(t, pts, 5, pts);
        for (const Vec3& p : pts) emit(p);
        Aabb box;
        fromPoints(pts, 5, box);
        emit(box);
        transformAabb(t, box, box);
        emit(box);
        Vec4 v4a{f(), f(), f(), f()}, v4b{f(), f(), f(), f()}, v4;
        add(v4a, v4b, v4);
        emit(v4);
        sub(v4a, v4b, v4);
        emit(v4);
        mul(v4a, v4b, v4);
        emit(v4);
        min(v4a, v4b, v4);
        emit(v4);
        max(v4a, v4b, v4);
        emit(v4);
        scale(v4a, f(), v4);
        emit(v4);
        emit(dot(v4a, v4b));
        rotate(q, a, r);
        emit(r);
    }
    std::FILE* out = std::fopen(argv[1], "wb");
    if (!out || std::fwrite(g_bytes.data(), 1, g_bytes.size(), out) != g_bytes.size()) {
        std::fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    std::fclose(out);
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char byte : g_bytes) h = (h ^ byte) * 1099511628211ull;
    std::printf("backend=%s bytes=%zu fnv1a=%016llx\n", simdBackendName(), g_bytes.size(),
                static_cast<unsigned long long>(h));
    return 0;
}
