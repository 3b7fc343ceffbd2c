// flak runtime tour: sizes a host block, carves pools and a frame arena from it, runs a few
// hundred frames of spawning, moving and despawning bodies, and reports memory and timing.
#include <flak/core.h>
#include <flak/math.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Ship {
    flak::Transform transform;
    flak::Aabb bounds;
    float speed;
};

std::uint64_t g_rng = 0x5EED;
float rnd(float lo, float hi) {
    g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * static_cast<float>((g_rng >> 40) & 0xFFFFFF) / 16777216.0f;
}

} // namespace

int main() {
    using namespace flak;
    constexpr std::uint32_t kShips = 4096;
    constexpr std::size_t kScratch = 256 * 1024;
    constexpr int kFrames = 600;

    MemoryRequirements req;
    req.add(FixedPool<Ship>::requiredBytes(kShips), FixedPool<Ship>::kAlignment);
    req.add(Arena::requiredBytes(kScratch));
    std::printf("flak tour (SIMD back-end: %s)\n", simdBackendName());
    std::printf("host block: %zu bytes for %u ships and a %zu-byte frame arena\n", req.bytes, kShips, kScratch);

    // The only heap allocation of the program, made by the host before init.
    std::vector<unsigned char> storage(req.bytes + kMinAlignment);
    void* block = reinterpret_cast<void*>(alignUp(reinterpret_cast<std::uintptr_t>(storage.data()), kMinAlignment));

    Arena root;
    FixedPool<Ship> ships;
    Arena frame;
    if (root.init(block, req.bytes) != Status::Ok ||
        ships.init(root.allocate(FixedPool<Ship>::requiredBytes(kShips), FixedPool<Ship>::kAlignment),
                   FixedPool<Ship>::requiredBytes(kShips), kShips) != Status::Ok ||
        frame.init(root.allocate(Arena::requiredBytes(kScratch)), kScratch) != Status::Ok) {
        std::fprintf(stderr, "init failed\n");
        return 1;
    }

    std::vector<Handle<Ship>> live;
    std::uint32_t pool_full = 0;
    double worst_ms = 0.0, total_ms = 0.0;
    float extent_sum = 0.0f;
    for (int f = 0; f < kFrames; ++f) {
        const auto t0 = std::chrono::steady_clock::now();
        const ArenaMarker start = frame.mark();
        for (int s = 0; s < 64; ++s) { // spawn a wave; the pool caps it
            Handle<Ship> h;
            if (ships.create(h) != Status::Ok) {
                ++pool_full;
                break;
            }
            Ship* ship = ships.get(h);
            Quat q;
            fromAxisAngle(Vec3{0, 0, 1}, rnd(0, 6.2831853f), q);
            fromQuatTranslation(q, Vec3{rnd(-500, 500), rnd(-500, 500), 0}, ship->transform);
            ship->speed = rnd(1, 10);
            live.push_back(h);
        }
        Vec3* centres = frame.allocateArray<Vec3>(live.size());
        for (std::size_t i = 0; i < live.size(); ++i) {
            Ship* ship = ships.get(live[i]);
            Vec3 forward;
            transformVector(ship->transform, Vec3{ship->speed, 0, 0}, forward);
            add(ship->transform.translation, forward, ship->transform.translation);
            transformAabb(ship->transform, Aabb{{-2, -1, -1}, {2, 1, 1}}, ship->bounds);
            center(ship->bounds, centres[i]);
        }
        Aabb world;
        fromPoints(centres, live.size(), world);
        extent_sum += surfaceArea(world) * 1e-6f;
        for (std::size_t i = 0; i < live.size();) { // despawn ships that left the arena
            if (std::abs(ships.get(live[i])->transform.translation.x) > 1000.0f) {
                (void)ships.destroy(live[i]);
                live[i] = live.back();
                live.pop_back();
            } else {
                ++i;
            }
        }
        (void)frame.rewind(start);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        total_ms += ms;
        worst_ms = ms > worst_ms ? ms : worst_ms;
    }
    std::printf("frames: %d   mean %.3f ms   worst %.3f ms\n", kFrames, total_ms / kFrames, worst_ms);
    std::printf("ship pool: %u live, high-water %u / %u, spawns refused at capacity: %u\n", ships.size(),
                ships.highWater(), ships.capacity(), pool_full);
    std::printf("frame arena: high-water %zu / %zu bytes, refused %u\n", frame.highWater(), frame.capacity(),
                frame.failedAllocations());
    std::printf("checksum %.3f\n", static_cast<double>(extent_sum));
    return 0;
}
