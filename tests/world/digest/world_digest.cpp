// Prints the hit-stream hash of scripted scenes, for the cross-build determinism test: the same
// scenes must hash the same whatever compiler, optimisation level or architecture built this.
//   flak_world_digest [SCENE:FRAMES ...]   (default: skirmish:300 armada:8)
#include "flak_support/host_block.h"
#include "scene.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::vector<std::string> runs;
    for (int i = 1; i < argc; ++i) runs.push_back(argv[i]);
    if (runs.empty()) runs = {"skirmish:300", "armada:8"};
    for (const std::string& run : runs) {
        const std::size_t colon = run.find(':');
        const std::string name = run.substr(0, colon);
        const long frames =
            colon == std::string::npos ? 100 : std::strtol(run.c_str() + colon + 1, nullptr, 10);
        flak::scenes::SceneParams params;
        if (!flak::scenes::sceneParams(name, params) || frames < 1) {
            std::fprintf(stderr, "world_digest: bad run %s\n", run.c_str());
            return 2;
        }
        flak::scenes::Scene scene;
        std::string error;
        if (!scene.build(name, params, 1, error)) {
            std::fprintf(stderr, "world_digest: %s\n", error.c_str());
            return 1;
        }
        const flak::WorldConfig config = scene.worldConfig();
        const std::size_t bytes = flak::World::requiredBytes(config);
        flak::support::HostBlock block(bytes, flak::World::kAlignment);
        void* memory = block.data();
        flak::World world;
        if (world.init(memory, bytes, config) != flak::Status::Ok || !scene.setup(world, error)) {
            std::fprintf(stderr, "world_digest: cannot set up %s\n", name.c_str());
            return 1;
        }
        std::uint64_t hits = 0;
        for (long f = 0; f < frames; ++f) {
            scene.update(world, static_cast<std::uint32_t>(f));
            (void)world.step(scene.dt());
            hits += world.hitCount();
        }
        std::printf("%s %ld frames: %" PRIu64 " hits, hash %016" PRIx64 "\n", name.c_str(), frames, hits,
                    world.hitStreamHash());
    }
    return 0;
}
