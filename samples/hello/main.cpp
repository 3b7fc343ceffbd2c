// hello: a small complete flak program. It loads two baked blobs from files (a hull with its
// sphere cluster, and an arena's walls), lays a World out in one host block, spawns every kind of
// body (a level rock, the arena, an enemy, a player, a bullet, a beam), steps, reads the hits,
// applies the wall push-out to the player, steps again, and asks the world a question. Every
// status is checked. The README's frame example is the part between the "readme" markers.
//   flak_hello [HULL_BLOB WALLS_BLOB]   (default: the blobs this sample's build bakes)
#include <flak/flak.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

// The host's allocator: `bytes` at an address aligned to `alignment`, freed with std::free.
void* hostAlloc(std::size_t bytes, std::size_t alignment) {
    return std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
}

// Owns a hostAlloc block and frees it on every way out of its scope.
struct HostFree {
    void operator()(void* p) const { std::free(p); }
};
using HostBlock = std::unique_ptr<void, HostFree>;

// A whole file in 16-byte aligned memory (blobs load in place and must stay alive).
struct BlobFile {
    std::vector<unsigned char> storage;
    const unsigned char* data = nullptr;
    std::size_t size = 0;
};

bool readBlobFile(const char* path, BlobFile& out) {
    std::FILE* f = std::fopen(path, "rb");
    if (f == nullptr) return false;
    std::vector<unsigned char> bytes;
    unsigned char chunk[4096];
    std::size_t n = 0;
    while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
    const bool ok = std::ferror(f) == 0;
    std::fclose(f);
    if (!ok) return false;
    out.storage.assign(bytes.size() + 16, 0);
    const std::size_t offset = (16 - reinterpret_cast<std::uintptr_t>(out.storage.data()) % 16) % 16;
    std::copy(bytes.begin(), bytes.end(), out.storage.begin() + static_cast<std::ptrdiff_t>(offset));
    out.data = out.storage.data() + offset;
    out.size = bytes.size();
    return true;
}

// Reads a blob and opens it (its container checked); says why on failure.
bool openBlobFile(const char* path, BlobFile& file, flak::Blob& out) {
    if (!readBlobFile(path, file)) {
        std::fprintf(stderr, "hello: cannot read %s\n", path);
        return false;
    }
    flak::BlobError error;
    const flak::Status s = flak::openBlob(file.data, file.size, out, &error);
    if (s != flak::Status::Ok) {
        std::fprintf(stderr, "hello: %s does not open: %s (%s)\n", path, flak::statusName(s), error.what);
        return false;
    }
    return true;
}

flak::Transform at(float x, float y) {
    flak::Transform t;
    flak::setIdentity(t);
    t.translation = flak::Vec3{x, y, 0.0f};
    return t;
}

// Prints a hit; the user values name the game's own objects.
void use(const flak::Hit& hit) {
    std::printf("hit: %s, %s (user %llu) -> %s (user %llu) at (%.2f, %.2f, %.2f), t = %.3f, depth = %.3f\n",
                flak::hitKindName(hit.kind), flak::bodyKindName(hit.a.kind),
                static_cast<unsigned long long>(hit.a_user), flak::bodyKindName(hit.b.kind),
                static_cast<unsigned long long>(hit.b_user), static_cast<double>(hit.point.x),
                static_cast<double>(hit.point.y), static_cast<double>(hit.point.z),
                static_cast<double>(hit.t), static_cast<double>(hit.depth));
}

std::uint32_t count(const flak::World& world, flak::HitKind kind) {
    std::uint32_t n = 0;
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) n += world.hits()[i].kind == kind ? 1u : 0u;
    return n;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 1 && argc != 3) {
        std::fprintf(stderr, "usage: flak_hello [HULL_BLOB WALLS_BLOB]\n");
        return 2;
    }
    const char* hull_path = argc == 3 ? argv[1] : FLAK_HELLO_HULL;
    const char* walls_path = argc == 3 ? argv[2] : FLAK_HELLO_WALLS;
    BlobFile hull_file, walls_file;
    flak::Blob hull_blob, arena_blob;
    if (!openBlobFile(hull_path, hull_file, hull_blob) || !openBlobFile(walls_path, walls_file, arena_blob))
        return 1;
    // Each section's view validates that section.
    flak::MeshBlob hull;
    flak::SphereCluster hull_cluster; // baked with --spheres: the player's cluster
    flak::WallSet arena;
    if (flak::loadMeshBlob(hull_blob, hull) != flak::Status::Ok ||
        flak::loadSphereCluster(hull_blob, hull_cluster) != flak::Status::Ok ||
        flak::loadWallSet(arena_blob, arena) != flak::Status::Ok) {
        std::fprintf(stderr, "hello: %s needs a mesh and a sphere cluster and %s walls\n", hull_path,
                     walls_path);
        return 1;
    }
    const flak::Vec3 muzzle{-5.0f, 0.0f, 0.0f};
    const flak::Vec3 velocity{600.0f, 0.0f, 0.0f}; // 10 units a step at 60 Hz
    const flak::Vec3 beam_points[2] = {{0.0f, -5.0f, 0.0f}, {0.0f, -9.5f, 0.0f}};

    // [readme-frame-begin]
    flak::WorldConfig config = flak::smallWorldConfig(); // every capacity is a field
    const std::size_t bytes = flak::World::requiredBytes(config);
    HostBlock block(hostAlloc(bytes, flak::World::kAlignment)); // the host's memory, once
    // The World is declared after its block, so it goes first.
    flak::World world;
    if (block == nullptr || world.init(block.get(), bytes, config) != flak::Status::Ok) return 1;
    // Bodies: the blobs stay the host's; `user` names the game's object in every hit.
    flak::BodyId rock, walls, enemy, player, bullet, beam;
    if (world.spawnLevel({&hull, at(-5.0f, 5.0f), /*user*/ 1}, rock) != flak::Status::Ok ||
        world.spawnWalls({&arena, /*user*/ 2}, walls) != flak::Status::Ok ||
        world.spawnEnemy({&hull, nullptr, at(0.0f, 0.0f), /*team*/ 1, /*user*/ 3}, enemy) !=
            flak::Status::Ok ||
        world.spawnPlayer({nullptr, &hull_cluster, at(8.5f, 0.0f), /*team*/ 0, /*user*/ 4}, player) !=
            flak::Status::Ok ||
        world.spawnBullet({{muzzle, 0.2f}, velocity, /*team*/ 0, /*user*/ 5}, bullet) != flak::Status::Ok ||
        world.spawnBeam({/*team*/ 0, /*user*/ 6}, beam) != flak::Status::Ok ||
        world.setBeamPoints(beam, beam_points, 2) != flak::Status::Ok)
        return 1;
    // Each frame: move ships, spawn and despawn, then step.
    const flak::Status stepped = world.step(1.0f / 60.0f); // Ok, or BufferFull: drops in stats()
    if (stepped != flak::Status::Ok && stepped != flak::Status::BufferFull) return 1;
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) { // sorted, one per contact
        const flak::Hit& hit = world.hits()[i];
        use(hit);
        if (hit.kind == flak::HitKind::ShipWall) { // the world never moves ships: the game does
            flak::Transform ship;
            if (world.getShipTransform(hit.a, ship) != flak::Status::Ok) return 1;
            flak::addScaled(ship.translation, hit.normal, hit.depth, ship.translation);
            if (world.setShipTransform(hit.a, ship) != flak::Status::Ok) return 1;
        }
    }
    // [readme-frame-end]

    const std::uint32_t first_hits = world.hitCount();
    const bool first_ok = count(world, flak::HitKind::Bullet) == 1 &&
                          count(world, flak::HitKind::Beam) == 1 &&
                          count(world, flak::HitKind::ShipWall) == 1;
    // The bullet and the beam go; the pushed-out player no longer touches the walls.
    if (world.despawn(bullet) != flak::Status::Ok || world.despawn(beam) != flak::Status::Ok) return 1;
    const flak::Status again = world.step(1.0f / 60.0f);
    if (again != flak::Status::Ok) return 1;
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) use(world.hits()[i]);
    const bool pushed_out = count(world, flak::HitKind::ShipWall) == 0;

    // A question between steps: what does a line of sight from the player meet first, leaving
    // out the player's own team?
    flak::QueryFilter not_mine;
    not_mine.skip_team = 0;
    flak::QueryHit seen;
    const bool sees = world.castSegment({8.0f, 0.0f, 0.0f}, {-8.0f, 0.0f, 0.0f}, not_mine, seen);
    if (sees)
        std::printf("line of sight: %s (user %llu) at %.2f units\n", flak::bodyKindName(seen.body.kind),
                    static_cast<unsigned long long>(seen.user), static_cast<double>(seen.distance));
    const bool sees_enemy = sees && seen.body == enemy && seen.user == 3;

    std::printf("hello: flak %s, %u triangles, %u cluster spheres, %u wall points; %u hit(s), then %u; "
                "%u dropped\n",
                FLAK_VERSION_STRING, hull.triangle_count, hull_cluster.count, arena.point_count, first_hits,
                world.hitCount(), world.stats().hits_dropped);
    return first_ok && pushed_out && sees_enemy ? 0 : 1;
}
