// flak's frame-budget runner: plays a scripted, seeded scene headless for N frames and reports
// per-phase and total frame times (p50/p95/p99/max), pool high-water marks, dropped work,
// allocations during frames, the hit-stream hash, and PASS or FAIL against a budget.
//
//   flak_framebudget --scene NAME --frames N --budget-ms X [--threads N] [--seed S] [--gpu]
//                    [--json FILE] [--svg FILE] [--verdict-clock wall|cpu]
//                    [--baseline OLD.json [--regression-pct P]]
//
// With --threads N above 1 the World runs on a pool of N workers (support/'s ThreadPool behind
// the TaskSystem), and the same scene also plays on one worker in the same run, frame by frame in
// turn, for the speedup and to check that both give the same hit stream.
#include "frame_record.h"
#include "gpu_backend.h"
#include "scene.h"

#include "flak_support/allocation_trap.h"
#include "flak_support/cli_number.h"
#include "flak_support/cpu_model.h"
#include "flak_support/host_block.h"
#include "flak_support/thread_pool.h"

#include "build_info.h"

#include <flak/version.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
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
        "usage: flak_framebudget --scene NAME --frames N --budget-ms X [--threads N] [--seed S] [--gpu\n"
        "                        [--gpu-timestamps]]\n"
        "                        [--json FILE] [--svg FILE] [--verdict-clock wall|cpu]\n"
        "                        [--baseline OLD.json [--regression-pct P]]\n"
        "  --threads N: workers for the step (default: the machine's hardware threads, %u here); above\n"
        "               1 the scene also plays on one worker in the same run, for the speedup\n"
        "  --gpu: enemy-vs-enemy mesh-mesh on the Vulkan compute back end (its wait is the gpu_wait phase)\n"
        "  --gpu-timestamps: time each batch on the device (timestamp queries; the driver's heap calls\n"
        "               for them count as allocations during frames)\n"
        "  --verdict-clock: the clock frames are held to the budget on (default wall; cpu: the stepping\n"
        "               thread's CPU clock, which leaves out time the OS gave to others, and with more\n"
        "               than one worker the workers' own time too)\n"
        "  --baseline OLD.json: compare with an earlier --json report, print and plot both, and FAIL when\n"
        "               p50 or p99 on the verdict clock is more than P%% slower (--regression-pct, default "
        "10)\n"
        "scenes:",
        std::thread::hardware_concurrency());
    for (const std::string& name : scenes::sceneNames()) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
}

// The most frames a run takes: about 4.6 hours of play at 60 Hz (the per-frame times of a pass
// take about 100 MB).
constexpr unsigned long long kMaxFrames = 1000000;

bool writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

// One World playing the scene: its script, workers, memory and what its frames measured.
struct Pass {
    scenes::Scene scene;
    std::unique_ptr<flak::support::ThreadPool> pool;
    std::unique_ptr<GpuBackendHost> gpu;
    flak::support::HostBlock block;
    World world;
    std::size_t bytes = 0;
    std::vector<FrameTimes> frames;
    std::vector<std::uint64_t> busy_ns; // per worker, summed over the frames
    std::uint64_t dropped_hits = 0, dropped_pairs = 0, dropped_contacts = 0, allocations = 0;
};

bool setupPass(Pass& pass, const std::string& name, const scenes::SceneParams& params, std::uint64_t seed,
               std::uint32_t workers, bool use_gpu, bool gpu_timestamps, std::uint32_t frames,
               std::string& error) {
    if (!pass.scene.build(name, params, seed, error)) {
        error = "cannot build the scene: " + error;
        return false;
    }
    WorldConfig config = pass.scene.worldConfig();
    config.clock = steadyNs;
    if (workers > 1) {
        pass.pool = std::make_unique<flak::support::ThreadPool>(workers);
        config.tasks = pass.pool->tasks();
    }
    if (use_gpu) {
        pass.gpu = std::make_unique<GpuBackendHost>();
        std::vector<const MeshBlob*> meshes;
        for (const auto& blob : pass.scene.assets().enemy_meshes) meshes.push_back(&blob->mesh);
        const std::uint32_t jobs =
            config.max_enemies * (config.max_enemies > 0 ? config.max_enemies - 1 : 0) / 2;
        if (!pass.gpu->create(meshes, jobs > 0 ? jobs : 1, config.max_mesh_pairs, gpu_timestamps, error)) {
            error = "--gpu: " + error;
            return false;
        }
        config.mesh_mesh_backend = pass.gpu->backend();
    }
    pass.bytes = World::requiredBytes(config);
    // The host's one block for the world, allocated before the first frame.
    pass.block.reset(pass.bytes, World::kAlignment);
    const Status init = pass.world.init(pass.block.data(), pass.bytes, config);
    if (init != Status::Ok) {
        error = std::string("World::init: ") + statusName(init);
        return false;
    }
    if (!pass.scene.setup(pass.world, error)) {
        error = "scene setup: " + error;
        return false;
    }
    pass.frames.resize(frames);
    pass.busy_ns.assign(pass.pool ? workers : 0, 0); // one worker: no pool, the calling thread alone
    return true;
}

// One frame of one pass: the script, the step, and their times.
void runFrame(Pass& pass, std::uint32_t f) {
    FrameTimes& times = pass.frames[f];
    flak::test::armAllocationTrap();
    const std::uint64_t c0 = threadCpuNs();
    const std::uint64_t t0 = steadyNs(nullptr);
    if (pass.pool) pass.pool->wake(); // as a game's job system has its workers up during a frame
    pass.scene.update(pass.world, f);
    const std::uint64_t t1 = steadyNs(nullptr);
    const Status status = pass.world.step(pass.scene.dt());
    const std::uint64_t t2 = steadyNs(nullptr);
    const std::uint64_t c1 = threadCpuNs();
    pass.allocations += flak::test::disarmAllocationTrap();
    (void)status; // BufferFull shows in the counters below
    const StepStats& stats = pass.world.stats();
    times.script_ns = t1 - t0;
    for (std::size_t ph = 0; ph < kPhaseCount; ++ph) times.phase_ns[ph] = stats.phase_ns[ph];
    times.step_ns = t2 - t1;
    times.total_ns = t2 - t0;
    times.total_cpu_ns = c1 - c0;
    times.hits = stats.hits;
    pass.dropped_hits += stats.hits_dropped;
    pass.dropped_pairs += stats.pairs_dropped;
    pass.dropped_contacts += stats.contacts_dropped;
    if (pass.pool) {
        std::uint64_t busy[kMaxWorkers];
        pass.pool->takeBusyNs(busy);
        for (std::size_t w = 0; w < pass.busy_ns.size(); ++w) pass.busy_ns[w] += busy[w];
    }
}

} // namespace

int main(int argc, char** argv) {
    std::string scene_name, json_path, svg_path, baseline_path;
    bool verdict_cpu = false;
    double regression_pct = 10.0;
    long frames = -1;
    double budget_ms = -1;
    std::uint64_t seed = 1;
    bool use_gpu = false, gpu_timestamps = false;
    unsigned long threads = std::thread::hardware_concurrency();
    if (threads < 1) threads = 1;
    if (threads > kMaxWorkers) threads = kMaxWorkers;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const char* what) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "flak_framebudget: %s needs a value\n", what);
                std::exit(2);
            }
            return argv[++i];
        };
        unsigned long long whole = 0;
        if (arg == "--scene") {
            scene_name = value("--scene");
        } else if (arg == "--frames") {
            if (!support::parseWhole(value("--frames"), 1, kMaxFrames, whole))
                return usage("--frames must be a whole number from 1 to 1000000");
            frames = static_cast<long>(whole);
        } else if (arg == "--budget-ms") {
            if (!support::parseNumber(value("--budget-ms"), 0.0, 1e6, budget_ms) || !(budget_ms > 0))
                return usage("--budget-ms must be a number above 0 and at most 1000000");
        } else if (arg == "--threads") {
            if (!support::parseWhole(value("--threads"), 1, kMaxWorkers, whole))
                return usage("--threads must be a whole number from 1 to 64");
            threads = static_cast<unsigned long>(whole);
        } else if (arg == "--seed") {
            if (!support::parseWhole(value("--seed"), 0, ~0ull, whole))
                return usage("--seed must be a whole number from 0 to 2^64 - 1");
            seed = whole;
        } else if (arg == "--gpu") {
            use_gpu = true;
        } else if (arg == "--gpu-timestamps") {
            gpu_timestamps = true;
        } else if (arg == "--json") {
            json_path = value("--json");
        } else if (arg == "--svg") {
            svg_path = value("--svg");
        } else if (arg == "--verdict-clock") {
            const std::string clock = value("--verdict-clock");
            if (clock != "wall" && clock != "cpu") return usage("--verdict-clock must be wall or cpu");
            verdict_cpu = clock == "cpu";
        } else if (arg == "--baseline") {
            baseline_path = value("--baseline");
        } else if (arg == "--regression-pct") {
            if (!support::parseNumber(value("--regression-pct"), 0.0, 1000.0, regression_pct))
                return usage("--regression-pct must be a number from 0 to 1000");
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
    if (gpu_timestamps && !use_gpu) return usage("--gpu-timestamps needs --gpu");
    Baseline baseline;
    if (!baseline_path.empty()) {
        std::string why;
        if (!readBaseline(baseline_path, baseline, why)) return usage(("--baseline: " + why).c_str());
        if (baseline.scene != scene_name)
            return usage(("--baseline: " + baseline_path + " is a run of scene " + baseline.scene).c_str());
        baseline.threshold_pct = regression_pct;
    }
    scenes::SceneParams params;
    if (!scenes::sceneParams(scene_name, params)) return usage(("unknown scene " + scene_name).c_str());

    const bool tty = isatty(STDERR_FILENO) != 0;
    const std::uint32_t workers = static_cast<std::uint32_t>(threads);
    const std::uint32_t frame_count = static_cast<std::uint32_t>(frames);
    std::fprintf(stderr, "building scene \"%s\" (baking meshes, fitting the cluster, laying out walls)...\n",
                 scene_name.c_str());
    std::string error;
    Pass main_pass;
    if (!setupPass(main_pass, scene_name, params, seed, workers, use_gpu, gpu_timestamps, frame_count,
                   error)) {
        std::fprintf(stderr, "flak_framebudget: %s\n", error.c_str());
        return 1;
    }
    // The one-worker pass of the same run (on the CPU): the speedup's baseline and a second hit
    // stream that must be the same.
    std::unique_ptr<Pass> one;
    if (workers > 1) {
        one = std::make_unique<Pass>();
        if (!setupPass(*one, scene_name, params, seed, 1, false, false, frame_count, error)) {
            std::fprintf(stderr, "flak_framebudget: %s\n", error.c_str());
            return 1;
        }
    }

    for (std::uint32_t f = 0; f < frame_count; ++f) {
        if (one) runFrame(*one, f);
        runFrame(main_pass, f);
        if (tty && (f % 16 == 0 || f + 1 == frame_count)) {
            std::fprintf(stderr, "\r  frame %u/%u  %.3f ms  hits %u   ", f + 1, frame_count,
                         static_cast<double>(main_pass.frames[f].total_ns) / 1e6, main_pass.frames[f].hits);
        }
    }
    if (tty) std::fprintf(stderr, "\n");

    RunReport report;
    report.meta = RunMeta{FLAK_BUILD_COMMIT, FLAK_BUILD_COMPILER, FLAK_BUILD_FLAGS, support::cpuModel(),
                          FLAK_VERSION_STRING};
    report.verdict_cpu = verdict_cpu;
    report.has_baseline = !baseline_path.empty();
    report.baseline = baseline;
    report.scene = scene_name;
    report.seed = seed;
    report.frames = frame_count;
    report.budget_ms = budget_ms;
    report.workers = workers;
    report.world_bytes = main_pass.bytes;
    report.frame_times = main_pass.frames;
    report.allocations_counted = flak::test::mallocIsTrapped();
    report.allocations = main_pass.allocations + (one ? one->allocations : 0);
    report.dropped_hits = main_pass.dropped_hits;
    report.dropped_pairs = main_pass.dropped_pairs;
    report.dropped_contacts = main_pass.dropped_contacts;
    report.hit_stream_hash = main_pass.world.hitStreamHash();
    for (std::uint64_t ns : main_pass.busy_ns)
        report.worker_busy_ms.push_back(static_cast<double>(ns) / 1e6 / static_cast<double>(frame_count));
    if (one) {
        report.compared = true;
        report.one_worker_frame_times = one->frames;
        report.one_worker_hash = one->world.hitStreamHash();
    }
    const struct {
        const char* name;
        BodyKind kind;
    } kinds[] = {{"levels", BodyKind::Level},   {"walls", BodyKind::Walls},    {"enemies", BodyKind::Enemy},
                 {"players", BodyKind::Player}, {"bullets", BodyKind::Bullet}, {"beams", BodyKind::Beam}};
    for (const auto& k : kinds) report.pools.push_back(PoolLine{k.name, main_pass.world.poolUsage(k.kind)});
    if (use_gpu) {
        const GpuRunInfo info = main_pass.gpu->info();
        report.mesh_mesh_backend = "gpu";
        report.gpu_device = info.device;
        report.gpu_status = info.collider_status;
        report.gpu_on_device = info.on_device;
        report.gpu_submitted_steps = info.submitted_steps;
        report.gpu_declined_steps = info.declined_steps;
        report.gpu_tested_pairs = info.tested_pairs;
        report.gpu_host_pairs = info.host_pairs;
        report.gpu_timed = info.timed;
        report.gpu_device_ms = info.device_ms;
    }
    report.scratch_high_water = main_pass.world.scratchHighWater();
    report.scratch_capacity = main_pass.world.scratchCapacity();
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
