// The frame-budget runner's measurements: per-frame phase times, and what they add up to.
#pragma once

#include <flak/world/world.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace flak::framebudget {

constexpr std::size_t kPhaseCount = static_cast<std::size_t>(WorldPhase::Count);

/// One frame: the scene script's time, the step's per-phase times and its total (nanoseconds).
struct FrameTimes {
    std::uint64_t script_ns = 0;
    std::array<std::uint64_t, kPhaseCount> phase_ns{};
    std::uint64_t step_ns = 0;
    std::uint64_t total_ns = 0; ///< script + step: what the frame spent on collision work
    /// The same span on the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID): it leaves out time the
    /// thread was preempted, so on a shared machine it shows the frame's own spikes.
    std::uint64_t total_cpu_ns = 0;
    std::uint32_t hits = 0;
};

/// p50/p95/p99/max of one series, in milliseconds (nearest-rank percentiles).
struct Percentiles {
    double p50_ms = 0, p95_ms = 0, p99_ms = 0, max_ms = 0, mean_ms = 0;
};
Percentiles percentiles(std::vector<std::uint64_t> ns);

/// Pool use of one body kind at the end of the run.
struct PoolLine {
    std::string name;
    PoolUsage usage;
};

/// Where a run was made: the build (commit, compiler, flags) and the machine's CPU.
struct RunMeta {
    std::string commit, compiler, flags, cpu, flak_version;
};

/// An earlier run's report (--baseline OLD.json), and how this run compares with it.
struct Baseline {
    std::string path;
    std::string scene;
    std::uint32_t frames = 0;
    std::uint32_t workers = 0;
    Percentiles total, total_cpu;
    std::array<Percentiles, kPhaseCount> phases{};
    std::vector<double> total_ms; ///< per frame, when the old report has them (for the picture)
    double threshold_pct = 10.0;  ///< a regression: p50 or p99 of the verdict clock above old * (1 + this)
    bool regressed = false;
    std::string regression; ///< which measure, when regressed
};

/// Everything the report prints.
struct RunReport {
    RunMeta meta;
    bool verdict_cpu = false; ///< --verdict-clock cpu: over-budget frames by the thread's CPU clock
    bool has_baseline = false;
    Baseline baseline;
    std::string scene;
    std::uint64_t seed = 0;
    std::uint32_t frames = 0;
    double budget_ms = 0;
    std::vector<FrameTimes> frame_times;
    Percentiles total;
    Percentiles total_cpu; ///< total on the thread's CPU clock
    std::array<Percentiles, kPhaseCount> phases{};
    Percentiles script;
    std::uint64_t allocations = 0;
    bool allocations_counted = true; ///< false where malloc cannot be interposed (sanitizers)
    std::uint64_t dropped_hits = 0;
    std::uint64_t dropped_pairs = 0;
    std::uint64_t dropped_contacts = 0;
    std::uint64_t total_hits = 0;
    std::uint64_t hit_stream_hash = 0;
    std::vector<PoolLine> pools;
    std::size_t scratch_high_water = 0, scratch_capacity = 0;
    std::size_t world_bytes = 0;
    std::string mesh_mesh_backend = "cpu"; ///< "gpu" with --gpu
    std::string gpu_device;                ///< with --gpu: the device's name
    std::string gpu_status;                ///< with --gpu: the collider's deviceStatus at the end
    bool gpu_on_device = false;            ///< with --gpu: that status is Ok (the run ended on the device)
    std::uint64_t gpu_submitted_steps = 0; ///< steps whose enemy pairs ran on the collider
    std::uint64_t gpu_declined_steps = 0;  ///< steps the back end declined (CPU answered)
    std::uint64_t gpu_tested_pairs = 0;    ///< triangle pairs the device tested
    std::uint64_t gpu_host_pairs = 0;      ///< of those, the pairs it left to the host
    bool gpu_timed = false;                ///< --gpu-timestamps: batches timed on the device
    double gpu_device_ms = 0.0;            ///< the device's time for all its batches (timed runs)
    std::uint32_t workers = 1;             ///< the step's workers (--threads)
    std::vector<double> worker_busy_ms;    ///< per worker: mean ms per frame spent running work items
    std::size_t critical_phase = 0;        ///< the phase with the largest mean time (WorldPhase)
    /// With more than one worker: the same scene on one worker in the same run.
    bool compared = false;
    std::vector<FrameTimes> one_worker_frame_times;
    Percentiles one_worker_total;
    std::uint64_t one_worker_hash = 0;
    double speedup_p50 = 0; ///< one worker's p50 / this run's p50
    bool hashes_match = true;
    std::uint32_t frames_over_budget = 0;
    bool pass = false;
};

/// Fills the percentiles, counts and the verdict from frame_times and the counters. PASS: every
/// frame within the budget (on the verdict clock), no hit, pair or contact dropped, no allocation
/// during frames, (when compared) the same hit stream as one worker, and (with a baseline) no
/// regression beyond its threshold.
void summarize(RunReport& report);

/// Reads an earlier report written with --json (the fields this file writes); false and a reason
/// when the file is not one.
bool readBaseline(const std::string& path, Baseline& out, std::string& error);

/// The human report (stdout).
std::string textReport(const RunReport& report);
/// The same as one JSON object.
std::string jsonReport(const RunReport& report);
/// A frame-time timeline with the budget line, and a histogram, as one SVG document.
std::string svgReport(const RunReport& report);

} // namespace flak::framebudget
