// A minimal game: carve a host block, make a pool, move a body, load the blobs its build baked.
#include <flak/flak.h> // the World, blobs, clusters, walls, beams, the version

#include <cstdio>
#include <cstdlib>

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

// A World sized by smallWorldConfig and asked a few questions: a cast, and overlaps with filters.
// With `enemy`, one enemy at the origin that the cast must meet and a filter must skip.
bool worldOk(const flak::MeshBlob* enemy) {
    const flak::WorldConfig config = flak::smallWorldConfig();
    flak::WorldMemoryReport report;
    if (!flak::World::explainMemory(config, report) || report.item_count == 0) return false;
    const std::size_t bytes = flak::World::requiredBytes(config);
    void* block = std::aligned_alloc(flak::World::kAlignment, bytes); // bytes is a multiple of it
    flak::World world;
    bool ok = block != nullptr && world.init(block, bytes, config) == flak::Status::Ok;
    flak::BodyId id;
    flak::Transform at_origin;
    flak::setIdentity(at_origin);
    if (ok && enemy != nullptr)
        ok = world.spawnEnemy({enemy, nullptr, at_origin, 1, 42}, id) == flak::Status::Ok;
    const flak::Vec3 from{-10.0f, 0.1f, 0.1f}, to{10.0f, 0.1f, 0.1f};
    flak::QueryHit hit;
    flak::QueryFilter skip_team_1;
    skip_team_1.skip_team = 1;
    flak::BodyId found[4];
    flak::OutBuffer<flak::BodyId> out = flak::OutBuffer<flak::BodyId>::over(found, 4);
    const flak::Aabb box{{-20.0f, -20.0f, -20.0f}, {20.0f, 20.0f, 20.0f}};
    flak::QueryFilter other_groups; // the enemy is in group 1 (the default): a mask without it
    other_groups.filter.mask = ~1u;
    ok = ok && world.castSegment(from, to, flak::QueryFilter{}, hit) == (enemy != nullptr) &&
         (enemy == nullptr || hit.user == 42) && !world.castSegment(from, to, other_groups, hit) &&
         !world.castSegment(from, to, skip_team_1, hit) &&
         world.overlapBox(box, flak::QueryFilter{}, out) == flak::Status::Ok &&
         out.count == (enemy != nullptr ? 1u : 0u);
    std::printf("consumer world: %zu bytes, %u parts, cast %s\n", bytes, report.item_count,
                enemy != nullptr ? flak::bodyKindName(hit.body.kind) : "none");
    std::free(block);
    return ok;
}

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
    if (!worldOk(&tetra)) return 1;
    std::printf("consumer ok (flak %s, %s, %.1f, tetra %u triangles, tri %u triangle up to x = %.1f)\n",
                FLAK_VERSION_STRING, flak::simdBackendName(), static_cast<double>(p.z), tetra.triangle_count,
                tri.triangle_count, static_cast<double>(tri.bounds.max.x));
    return p.z == 3.0f && tetra.triangle_count == 4 && tri.triangle_count == 1 && tri.bounds.max.x == 2.0f
               ? 0
               : 1;
#else
    if (!worldOk(nullptr)) return 1;
    std::printf("consumer ok (flak %s, %s, %.1f)\n", FLAK_VERSION_STRING, flak::simdBackendName(),
                static_cast<double>(p.z));
    return p.z == 3.0f ? 0 : 1;
#endif
}
