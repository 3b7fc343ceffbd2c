// flak's frame-budget runner: plays a scripted, seeded scene headless for N frames and reports
// per-phase and total frame times (p50/p95/p99/max), pool high-water marks, dropped work,
// allocations during frames, the hit-stream hash, and PASS or FAIL against a budget.
//
//   flak_framebudget --scene NAME --frames N --budget-ms X [--seed S] [--gpu] [--json FILE] [--svg FILE]
#include "frame_record.h"
#include "gpu_backend.h"
#include "scene.h"

#include "flak_support/allocation_trap.h"
#include "flak_support/host_block.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace flak;
using namespace flak::framebudget;

std::uint64_t steadyNs(void*) {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

// The calling thread's CPU time: the frame's own work, without the time the OS ran something else.
std::uint64_t threadCpuNs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

int usage(const char* message) {
    if (message != nullptr) std::fprintf(stderr, "flak_framebudget: %s\n", message);
    std::fprintf(
        stderr,
        "usage: flak_framebudget --scene NAME --frames N --budget-ms X [--seed S] [--gpu] [--json FILE] "
        "[--svg FILE]\n"
        "  --gpu: enemy-vs-enemy mesh-mesh on the Vulkan compute back end (its wait is the gpu_wait phase)\n"
        "scenes:");
    for (const std::string& name : scenes::sceneNames()) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
}

bool writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

} // namespace

int main(int argc, char** argv) {
    std::string scene_name, json_path, svg_path;
    long frames = -1;
    double budget_ms = -1;
    std::uint64_t seed = 1;
    bool use_gpu = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const char* what) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "flak_framebudget: %s needs a value\n", what);
                std::exit(2);
            }
            return argv[++i];
        };
        char* end = nullptr;
        if (arg == "--scene") {
            scene_name = value("--scene");
        } else if (arg == "--frames") {
            frames = std::strtol(value("--frames"), &end, 10);
            if (*end != '\0' || frames < 1) return usage("--frames must be a positive integer");
        } else if (arg == "--budget-ms") {
            budget_ms = std::strtod(value("--budget-ms"), &end);
            if (*end != '\0' || !(budget_ms > 0)) return usage("--budget-ms must be a positive number");
        } else if (arg == "--seed") {
            seed = std::strtoull(value("--seed"), &end, 10);
            if (*end != '\0') return usage("--seed must be an unsigned integer");
        } else if (arg == "--gpu") {
            use_gpu = true;
        } else if (arg == "--json") {
            json_path = value("--json");
        } else if (arg == "--svg") {
            svg_path = value("--svg");
        } else if (arg == "-h" || arg == "--help") {
            usage(nullptr);
            return 0;
        } else {
            return usage(("unknown argument " + arg).c_str());
        }
    }
    if (scene_name.empty() || frames < 0 || budget_ms < 0)
        return usage("--scene, --frames and --budget-ms are required");
    if (use_gpu && !gpuBackendAvailable()) return usage("--gpu: this build has no Vulkan back end");
    scenes::SceneParams params;
    if (!scenes::sceneParams(scene_name, params)) return usage(("unknown scene " + scene_name).c_str());

    const bool tty = isatty(STDERR_FILENO) != 0;
    std::fprintf(stderr, "building scene \"%s\" (baking meshes, fitting the cluster, laying out walls)...\n",
                 scene_name.c_str());
    scenes::Scene scene;
    std::string error;
    if (!scene.build(scene_name, params, seed, error)) {
        std::fprintf(stderr, "flak_framebudget: cannot build the scene: %s\n", error.c_str());
        return 1;
    }
    WorldConfig config = scene.worldConfig();
    config.clock = steadyNs;
    GpuBackendHost gpu;
    if (use_gpu) {
        std::vector<const MeshBlob*> meshes;
        for (const auto& blob : scene.assets().enemy_meshes) meshes.push_back(&blob->mesh);
        const std::uint32_t jobs =
            config.max_enemies * (config.max_enemies > 0 ? config.max_enemies - 1 : 0) / 2;
        if (!gpu.create(meshes, jobs > 0 ? jobs : 1, config.max_mesh_pairs, error)) {
            std::fprintf(stderr, "flak_framebudget: --gpu: %s\n", error.c_str());
            return 1;
        }
        config.mesh_mesh_backend = gpu.backend();
    }
    const std::size_t bytes = World::requiredBytes(config);
    // The host's one block for the world, allocated before the first frame.
    flak::support::HostBlock block(bytes, World::kAlignment);
    void* memory = block.data();
    World world;
    const Status init = world.init(memory, bytes, config);
    if (init != Status::Ok) {
        std::fprintf(stderr, "flak_framebudget: World::init: %s\n", statusName(init));
        return 1;
    }
    if (!scene.setup(world, error)) {
        std::fprintf(stderr, "flak_framebudget: scene setup: %s\n", error.c_str());
        return 1;
    }

    RunReport report;
    report.scene = scene_name;
    report.seed = seed;
    report.frames = static_cast<std::uint32_t>(frames);
    report.budget_ms = budget_ms;
    report.world_bytes = bytes;
    report.frame_times.resize(static_cast<std::size_t>(frames));
    report.allocations_counted = flak::test::mallocIsTrapped();

    for (std::uint32_t f = 0; f < report.frames; ++f) {
        FrameTimes& times = report.frame_times[f];
        flak::test::armAllocationTrap();
        const std::uint64_t c0 = threadCpuNs();
        const std::uint64_t t0 = steadyNs(nullptr);
        scene.update(world, f);
        const std::uint64_t t1 = steadyNs(nullptr);
        const Status status = world.step(scene.dt());
        const std::uint64_t t2 = steadyNs(nullptr);
        const std::uint64_t c1 = threadCpuNs();
        report.allocations += flak::test::disarmAllocationTrap();
        (void)status; // BufferFull shows in the counters below
        const StepStats& stats = world.stats();
        times.script_ns = t1 - t0;
        for (int ph = 0; ph < kPhaseCount; ++ph)
            times.phase_ns[static_cast<std::size_t>(ph)] = stats.phase_ns[ph];
        times.step_ns = t2 - t1;
        times.total_ns = t2 - t0;
        times.total_cpu_ns = c1 - c0;
        times.hits = stats.hits;
        report.dropped_hits += stats.hits_dropped;
        report.dropped_pairs += stats.pairs_dropped;
        report.dropped_contacts += stats.contacts_dropped;
        if (tty && (f % 16 == 0 || f + 1 == report.frames)) {
            std::fprintf(stderr, "\r  frame %u/%u  %.3f ms  hits %u   ", f + 1, report.frames,
                         static_cast<double>(times.total_ns) / 1e6, stats.hits);
        }
    }
    if (tty) std::fprintf(stderr, "\n");
    report.hit_stream_hash = world.hitStreamHash();
    const struct {
        const char* name;
        BodyKind kind;
    } kinds[] = {{"levels", BodyKind::Level},   {"walls", BodyKind::Walls},    {"enemies", BodyKind::Enemy},
                 {"players", BodyKind::Player}, {"bullets", BodyKind::Bullet}, {"beams", BodyKind::Beam}};
    for (const auto& k : kinds) report.pools.push_back(PoolLine{k.name, world.poolUsage(k.kind)});
    if (use_gpu) {
        const GpuRunInfo info = gpu.info();
        report.mesh_mesh_backend = "gpu";
        report.gpu_device = info.device;
        report.gpu_status = info.collider_status;
        report.gpu_submitted_steps = info.submitted_steps;
        report.gpu_declined_steps = info.declined_steps;
    }
    report.scratch_high_water = world.scratchHighWater();
    report.scratch_capacity = world.scratchCapacity();
    summarize(report);

    std::fputs(textReport(report).c_str(), stdout);
    if (!json_path.empty() && !writeFile(json_path, jsonReport(report))) {
        std::fprintf(stderr, "flak_framebudget: cannot write %s\n", json_path.c_str());
        return 1;
    }
    if (!svg_path.empty() && !writeFile(svg_path, svgReport(report))) {
        std::fprintf(stderr, "flak_framebudget: cannot write %s\n", svg_path.c_str());
        return 1;
    }
    return report.pass ? 0 : 3;
}
