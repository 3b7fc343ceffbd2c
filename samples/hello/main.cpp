// hello: the smallest complete flak program. It loads a baked blob from a file, lays a World out
// in one host block, spawns an enemy ship and a bullet aimed at it, steps, and prints the hits.
// Every status is checked. The README's frame example is the part between the "readme" markers.
//   flak_hello [BLOB]   (default: the hull baked by this sample's build)
#include <flak/bvh/mesh_blob.h>
#include <flak/world/world.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// The host's allocator: `bytes` at an address aligned to `alignment`, freed with std::free.
void* hostAlloc(std::size_t bytes, std::size_t alignment) {
    return std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
}

// Reads a whole file into 16-byte aligned memory (blobs load in place and must stay alive).
bool readBlobFile(const char* path, std::vector<unsigned char>& out_bytes, std::size_t& out_offset,
                  std::size_t& out_size) {
    std::FILE* f = std::fopen(path, "rb");
    if (f == nullptr) return false;
    std::vector<unsigned char> bytes;
    unsigned char chunk[4096];
    std::size_t n = 0;
    while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
    const bool ok = std::ferror(f) == 0;
    std::fclose(f);
    if (!ok) return false;
    out_bytes.assign(bytes.size() + 16, 0);
    out_offset = (16 - reinterpret_cast<std::uintptr_t>(out_bytes.data()) % 16) % 16;
    std::copy(bytes.begin(), bytes.end(), out_bytes.begin() + static_cast<std::ptrdiff_t>(out_offset));
    out_size = bytes.size();
    return true;
}

void use(const flak::Hit& hit) {
    std::printf("hit: %s, %s %u -> %s %u at (%.3f, %.3f, %.3f), t = %.3f\n", flak::hitKindName(hit.kind),
                flak::bodyKindName(hit.a.kind), hit.a.index, flak::bodyKindName(hit.b.kind), hit.b.index,
                static_cast<double>(hit.point.x), static_cast<double>(hit.point.y),
                static_cast<double>(hit.point.z), static_cast<double>(hit.t));
}

} // namespace

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : FLAK_HELLO_BLOB;
    std::vector<unsigned char> file;
    std::size_t offset = 0, size = 0;
    if (!readBlobFile(path, file, offset, size)) {
        std::fprintf(stderr, "hello: cannot read %s\n", path);
        return 1;
    }
    flak::MeshBlob enemy_blob;
    flak::BlobError error;
    if (const flak::Status s = flak::loadMeshBlob(file.data() + offset, size, enemy_blob, &error);
        s != flak::Status::Ok) {
        std::fprintf(stderr, "hello: %s does not load: %s (%s)\n", path, flak::statusName(s), error.what);
        return 1;
    }
    flak::Transform enemy_to_world;
    flak::setIdentity(enemy_to_world);
    const flak::Vec3 muzzle{-5.0f, 0.0f, 0.0f};
    const flak::Vec3 velocity{600.0f, 0.0f, 0.0f}; // 10 units a step at 60 Hz

    // [readme-frame-begin]
    flak::WorldConfig config; // max_enemies, max_bullets, max_hits, ...
    const std::size_t bytes = flak::World::requiredBytes(config);
    void* block = hostAlloc(bytes, flak::World::kAlignment); // the host's memory, once
    flak::World world;
    if (block == nullptr || world.init(block, bytes, config) != flak::Status::Ok) return 1;
    flak::BodyId enemy_id, bullet_id;
    if (world.spawnEnemy({&enemy_blob, nullptr, enemy_to_world, /*team*/ 1}, enemy_id) != flak::Status::Ok ||
        world.spawnBullet({{muzzle, 0.2f}, velocity, /*team*/ 0}, bullet_id) != flak::Status::Ok)
        return 1;
    // each frame: move ships, spawn/despawn, then
    const flak::Status stepped = world.step(1.0f / 60.0f); // Ok, or BufferFull: drops in stats()
    if (stepped != flak::Status::Ok && stepped != flak::Status::BufferFull) return 1;
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) use(world.hits()[i]); // sorted, one per contact
    // [readme-frame-end]

    const std::uint32_t hits = world.hitCount();
    std::printf("hello: %u triangles loaded, %u hit(s), %u dropped\n", enemy_blob.triangle_count, hits,
                world.stats().hits_dropped);
    const bool expected = hits == 1 && world.hits()[0].kind == flak::HitKind::Bullet;
    std::free(block); // after the world's last use
    return expected ? 0 : 1;
}
