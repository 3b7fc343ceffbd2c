// A minimal game: carve a host block, make a pool, move a body, load the blobs its build baked.
#include <flak/bvh/mesh_blob.h>
#include <flak/core.h>
#include <flak/math.h>
#include <flak/version.h>

#include <cstdio>

#if defined(FLAK_CONSUMER_ASSETS)
namespace {

// Reads a baked blob into 16-byte aligned static storage and loads it in place.
bool loadBlob(const char* name, flak::MeshBlob& out) {
    alignas(16) static unsigned char storage[2][4096];
    static int used = 0;
    char path[512];
    std::snprintf(path, sizeof(path), "%s/%s", FLAK_CONSUMER_ASSETS, name);
    std::FILE* f = std::fopen(path, "rb");
    if (f == nullptr || used == 2) return false;
    unsigned char* bytes = storage[used++];
    const std::size_t size = std::fread(bytes, 1, sizeof(storage[0]), f);
    std::fclose(f);
    return flak::loadMeshBlob(bytes, size, out) == flak::Status::Ok;
}

} // namespace
#endif

static_assert(FLAK_VERSION == FLAK_VERSION_MAJOR * 10000 + FLAK_VERSION_MINOR * 100 + FLAK_VERSION_PATCH,
              "flak/version.h");

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
#if defined(FLAK_CONSUMER_ASSETS)
    flak::MeshBlob tetra, tri;
    if (!loadBlob("tetra.blob", tetra) || !loadBlob("tri.blob", tri)) {
        std::printf("consumer: the baked blobs do not load\n");
        return 1;
    }
    std::printf("consumer ok (flak %s, %s, %.1f, tetra %u triangles, tri %u triangle up to x = %.1f)\n",
                FLAK_VERSION_STRING, flak::simdBackendName(), static_cast<double>(p.z), tetra.triangle_count,
                tri.triangle_count, static_cast<double>(tri.bounds.max.x));
    return p.z == 3.0f && tetra.triangle_count == 4 && tri.triangle_count == 1 && tri.bounds.max.x == 2.0f
               ? 0
               : 1;
#else
    std::printf("consumer ok (flak %s, %s, %.1f)\n", FLAK_VERSION_STRING, flak::simdBackendName(),
                static_cast<double>(p.z));
    return p.z == 3.0f ? 0 : 1;
#endif
}
