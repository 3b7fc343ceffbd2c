// A minimal game: carve a host block, make a pool, move a body.
#include <flak/core.h>
#include <flak/math.h>

#include <cstdio>

int main() {
    alignas(16) static unsigned char block[4096];
    flak::Arena arena;
    if (arena.init(block, sizeof(block)) != flak::Status::Ok) return 1;
    flak::FixedPool<flak::Transform> pool;
    const std::size_t bytes = flak::FixedPool<flak::Transform>::requiredBytes(8);
    if (pool.init(arena.allocate(bytes, pool.kAlignment), bytes, 8) != flak::Status::Ok) return 1;
    flak::Handle<flak::Transform> h;
    if (pool.create(h) != flak::Status::Ok) return 1;
    flak::Vec3 p;
    flak::transformPoint(*pool.get(h), flak::Vec3{1.0f, 2.0f, 3.0f}, p);
    std::printf("consumer ok (%s, %.1f)\n", flak::simdBackendName(), static_cast<double>(p.z));
    return p.z == 3.0f ? 0 : 1;
}
