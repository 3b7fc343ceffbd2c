// The frame-budget runner's reports: text for people, JSON for machines.
#include "frame_record.h"

#include "flak_support/json_text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <sstream>

namespace flak::framebudget {

namespace {

using flak::support::jsonText;

double ms(std::uint64_t ns) { return static_cast<double>(ns) / 1.0e6; }

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
    char buffer[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buffer, sizeof(buffer), fmt, args);
    va_end(args);
    return buffer;
}

std::string hex(std::uint64_t value) { return format("%016" PRIx64, value); }

// With --gpu-timestamps: the device's time per step that ran on the collider.
double deviceMsPerStep(const RunReport& r) {
    return r.gpu_submitted_steps > 0 ? r.gpu_device_ms / static_cast<double>(r.gpu_submitted_steps) : 0.0;
}

// With --gpu: the collider ended the run off its device (lost it), so later steps' mesh-mesh ran on
// the CPU and the run measured something else than it was asked to.
bool gpuLost(const RunReport& r) { return r.mesh_mesh_backend == "gpu" && !r.gpu_on_device; }

std::string jsonPercentiles(const Percentiles& p) {
    return format(
        "{\"p50_ms\": %.4f, \"p95_ms\": %.4f, \"p99_ms\": %.4f, \"max_ms\": %.4f, \"mean_ms\": %.4f}",
        p.p50_ms, p.p95_ms, p.p99_ms, p.max_ms, p.mean_ms);
}

// p99 / p50: how far the slow frames stand above the typical one (0 for an empty series).
double spikeRatio(const Percentiles& p) { return p.p50_ms > 0.0 ? p.p99_ms / p.p50_ms : 0.0; }

} // namespace

Percentiles percentiles(std::vector<std::uint64_t> ns) {
    Percentiles p;
    if (ns.empty()) return p;
    std::sort(ns.begin(), ns.end());
    auto rank = [&ns](double q) {
        // Nearest rank: the smallest value with at least q of the samples at or below it.
        std::size_t k = static_cast<std::size_t>(q * static_cast<double>(ns.size()) + 0.999999);
        if (k < 1) k = 1;
        if (k > ns.size()) k = ns.size();
        return ms(ns[k - 1]);
    };
    p.p50_ms = rank(0.50);
    p.p95_ms = rank(0.95);
    p.p99_ms = rank(0.99);
    p.max_ms = ms(ns.back());
    double sum = 0;
    for (std::uint64_t v : ns) sum += ms(v);
    p.mean_ms = sum / static_cast<double>(ns.size());
    return p;
}

void summarize(RunReport& r) {
    std::vector<std::uint64_t> series(r.frame_times.size());
    for (std::size_t i = 0; i < series.size(); ++i) series[i] = r.frame_times[i].total_ns;
    r.total = percentiles(series);
    for (std::size_t i = 0; i < series.size(); ++i) series[i] = r.frame_times[i].total_cpu_ns;
    r.total_cpu = percentiles(series);
    for (std::size_t ph = 0; ph < kPhaseCount; ++ph) {
        for (std::size_t i = 0; i < series.size(); ++i) series[i] = r.frame_times[i].phase_ns[ph];
        r.phases[ph] = percentiles(series);
    }
    for (std::size_t i = 0; i < series.size(); ++i) series[i] = r.frame_times[i].script_ns;
    r.script = percentiles(series);
    r.frames_over_budget = 0;
    r.total_hits = 0;
    for (const FrameTimes& f : r.frame_times) {
        if (ms(r.verdict_cpu ? f.total_cpu_ns : f.total_ns) > r.budget_ms) ++r.frames_over_budget;
        r.total_hits += f.hits;
    }
    r.critical_phase = 0;
    for (std::size_t ph = 1; ph < kPhaseCount; ++ph) {
        if (r.phases[ph].mean_ms > r.phases[r.critical_phase].mean_ms) r.critical_phase = ph;
    }
    if (r.compared) {
        for (std::size_t i = 0; i < series.size() && i < r.one_worker_frame_times.size(); ++i)
            series[i] = r.one_worker_frame_times[i].total_ns;
        r.one_worker_total = percentiles(series);
        r.speedup_p50 = r.total.p50_ms > 0.0 ? r.one_worker_total.p50_ms / r.total.p50_ms : 0.0;
        r.hashes_match = r.one_worker_hash == r.hit_stream_hash;
    }
    if (r.has_baseline) {
        // A regression: this run's p50 or p99 on the verdict clock above the old one's by more than
        // the threshold.
        Baseline& b = r.baseline;
        const Percentiles& now = r.verdict_cpu ? r.total_cpu : r.total;
        const Percentiles& old = r.verdict_cpu ? b.total_cpu : b.total;
        const double limit = 1.0 + b.threshold_pct / 100.0;
        b.regressed = false;
        b.regression.clear();
        if (old.p50_ms > 0.0 && now.p50_ms > old.p50_ms * limit) {
            b.regressed = true;
            b.regression = format("p50 %.4f ms against %.4f ms", now.p50_ms, old.p50_ms);
        } else if (old.p99_ms > 0.0 && now.p99_ms > old.p99_ms * limit) {
            b.regressed = true;
            b.regression = format("p99 %.4f ms against %.4f ms", now.p99_ms, old.p99_ms);
        }
    }
    r.pass = !r.frame_times.empty() && r.frames_over_budget == 0 && r.dropped_hits == 0 &&
             r.dropped_pairs == 0 && r.dropped_contacts == 0 && r.allocations == 0 && r.hashes_match &&
             !(r.has_baseline && r.baseline.regressed) && !gpuLost(r);
}

std::string textReport(const RunReport& r) {
    std::ostringstream out;
    out << format(
        "flak frame budget: scene \"%s\", seed %" PRIu64 ", %u frames, budget %.3f ms (verdict on the %s)\n",
        r.scene.c_str(), r.seed, r.frames, r.budget_ms, r.verdict_cpu ? "thread CPU clock" : "wall clock");
    out << "  build: flak " << r.meta.flak_version << ", commit " << r.meta.commit << ", " << r.meta.compiler
        << ", flags " << r.meta.flags << "\n  machine: " << r.meta.cpu
        << format(", %u worker%s\n", r.workers, r.workers == 1 ? "" : "s");
    out << format("  %-10s %9s %9s %9s %9s %9s\n", "phase", "p50 ms", "p95 ms", "p99 ms", "max ms",
                  "mean ms");
    auto line = [&out](const char* name, const Percentiles& p) {
        out << format("  %-10s %9.4f %9.4f %9.4f %9.4f %9.4f\n", name, p.p50_ms, p.p95_ms, p.p99_ms, p.max_ms,
                      p.mean_ms);
    };
    line("script", r.script);
    for (std::size_t ph = 0; ph < kPhaseCount; ++ph)
        line(worldPhaseName(static_cast<WorldPhase>(ph)), r.phases[ph]);
    line("TOTAL", r.total);
    line("TOTAL cpu", r.total_cpu);
    out << format("  spikes, p99 / p50: %.3f wall clock, %.3f thread CPU clock\n", spikeRatio(r.total),
                  spikeRatio(r.total_cpu));
    out << format("  frames over budget: %u of %u\n", r.frames_over_budget, r.frames);
    out << format("  workers: %u; busy ms per frame:", r.workers);
    for (double busy : r.worker_busy_ms) out << format(" %.4f", busy);
    if (r.worker_busy_ms.empty()) out << " (no pool: the calling thread alone)";
    out << format("\n  critical path: %s (mean %.4f ms of %.4f)\n",
                  worldPhaseName(static_cast<WorldPhase>(r.critical_phase)),
                  r.phases[r.critical_phase].mean_ms, r.total.mean_ms);
    if (r.compared) {
        out << format(
            "  one worker, same run: p50 %.4f ms, p99 %.4f ms; speedup at p50 %.3fx (p50 ratio %.3f); "
            "hash %s (%s)\n",
            r.one_worker_total.p50_ms, r.one_worker_total.p99_ms, r.speedup_p50,
            r.one_worker_total.p50_ms > 0.0 ? r.total.p50_ms / r.one_worker_total.p50_ms : 0.0,
            hex(r.one_worker_hash).c_str(), r.hashes_match ? "the same" : "DIFFERENT");
    }
    out << "  pools (high water / capacity):";
    for (const PoolLine& p : r.pools)
        out << format(" %s %u/%u", p.name.c_str(), p.usage.high_water, p.usage.capacity);
    out << format("\n  step scratch: %zu / %zu bytes; world block: %zu bytes\n", r.scratch_high_water,
                  r.scratch_capacity, r.world_bytes);
    out << format("  hits: %" PRIu64 " in all; dropped hits %" PRIu64 ", pairs %" PRIu64 ", contacts %" PRIu64
                  "\n",
                  r.total_hits, r.dropped_hits, r.dropped_pairs, r.dropped_contacts);
    if (r.mesh_mesh_backend == "gpu") {
        out << format("  allocations during frames: %" PRIu64
                      " (with --gpu: the Vulkan driver's own included)\n",
                      r.allocations);
    } else if (r.allocations_counted) {
        out << format("  allocations during frames: %" PRIu64 "\n", r.allocations);
    } else {
        out << format("  allocations during frames: %" PRIu64
                      " (operator new only: malloc not interposed here)\n",
                      r.allocations);
    }
    if (r.mesh_mesh_backend == "gpu") {
        out << format("  mesh-mesh back end: gpu, %s (collider %s): %" PRIu64
                      " steps on the collider, %" PRIu64 " declined; %" PRIu64
                      " triangle pairs tested, %" PRIu64 " left to the host\n",
                      r.gpu_device.c_str(), r.gpu_status.c_str(), r.gpu_submitted_steps, r.gpu_declined_steps,
                      r.gpu_tested_pairs, r.gpu_host_pairs);
        if (r.gpu_timed)
            out << format("  device time (timestamps): %.4f ms a step on the collider, %.3f ms in all\n",
                          deviceMsPerStep(r), r.gpu_device_ms);
    }
    out << "  hit-stream hash: " << hex(r.hit_stream_hash) << "\n";
    if (r.has_baseline) {
        const Baseline& b = r.baseline;
        out << format("  against the baseline %s (%s, %u frames, %u workers; regression above +%.1f%%):\n",
                      b.path.c_str(), b.scene.c_str(), b.frames, b.workers, b.threshold_pct);
        out << format("  %-10s %9s %9s %8s %9s %9s %8s\n", "", "old p50", "new p50", "ratio", "old p99",
                      "new p99", "ratio");
        auto row = [&out](const char* name, const Percentiles& o, const Percentiles& n) {
            out << format("  %-10s %9.4f %9.4f %8.3f %9.4f %9.4f %8.3f\n", name, o.p50_ms, n.p50_ms,
                          o.p50_ms > 0 ? n.p50_ms / o.p50_ms : 0.0, o.p99_ms, n.p99_ms,
                          o.p99_ms > 0 ? n.p99_ms / o.p99_ms : 0.0);
        };
        for (std::size_t ph = 0; ph < kPhaseCount; ++ph)
            row(worldPhaseName(static_cast<WorldPhase>(ph)), b.phases[ph], r.phases[ph]);
        row("TOTAL", b.total, r.total);
        row("TOTAL cpu", b.total_cpu, r.total_cpu);
        out << (b.regressed ? "  REGRESSION: " + b.regression : std::string("  no regression")) << "\n";
    }
    out << (r.pass ? "PASS" : "FAIL");
    if (!r.pass) {
        out << " (";
        const char* sep = "";
        if (r.frames_over_budget > 0) {
            out << sep << r.frames_over_budget << " frames over budget";
            sep = ", ";
        }
        if (r.dropped_hits + r.dropped_pairs + r.dropped_contacts > 0) {
            out << sep << "work dropped at capacity";
            sep = ", ";
        }
        if (r.allocations > 0) {
            out << sep << "allocations during frames";
            sep = ", ";
        }
        if (!r.hashes_match) {
            out << sep << "hit stream differs from one worker's";
            sep = ", ";
        }
        if (r.has_baseline && r.baseline.regressed) {
            out << sep << "slower than the baseline";
            sep = ", ";
        }
        if (r.frame_times.empty()) {
            out << sep << "no frame measured";
            sep = ", ";
        }
        if (gpuLost(r)) out << sep << "the GPU collider ended off its device (" << r.gpu_status << ")";
        out << ")";
    }
    // The maximum on the clock the verdict used.
    out << format(": max %.4f ms against a budget of %.3f ms\n",
                  (r.verdict_cpu ? r.total_cpu : r.total).max_ms, r.budget_ms);
    return out.str();
}

std::string jsonReport(const RunReport& r) {
    std::ostringstream out;
    out << "{\n";
    out << "  \"scene\": \"" << r.scene << "\",\n";
    out << "  \"seed\": " << r.seed << ",\n";
    out << "  \"frames\": " << r.frames << ",\n";
    out << format("  \"budget_ms\": %.4f,\n", r.budget_ms);
    out << "  \"verdict_clock\": \"" << (r.verdict_cpu ? "cpu" : "wall") << "\",\n";
    out << "  \"meta\": {\"flak_version\": " << jsonText(r.meta.flak_version)
        << ", \"commit\": " << jsonText(r.meta.commit) << ", \"compiler\": " << jsonText(r.meta.compiler)
        << ", \"flags\": " << jsonText(r.meta.flags) << ", \"cpu\": " << jsonText(r.meta.cpu)
        << ", \"workers\": " << r.workers << "},\n";
    out << "  \"total\": " << jsonPercentiles(r.total) << ",\n";
    out << "  \"total_thread_cpu\": " << jsonPercentiles(r.total_cpu) << ",\n";
    out << format("  \"p99_over_p50\": {\"wall\": %.4f, \"thread_cpu\": %.4f},\n", spikeRatio(r.total),
                  spikeRatio(r.total_cpu));
    out << "  \"script\": " << jsonPercentiles(r.script) << ",\n";
    out << "  \"phases\": {";
    for (std::size_t ph = 0; ph < kPhaseCount; ++ph) {
        out << (ph ? ",\n" : "\n") << "    \"" << worldPhaseName(static_cast<WorldPhase>(ph))
            << "\": " << jsonPercentiles(r.phases[ph]);
    }
    out << "\n  },\n";
    out << "  \"frames_over_budget\": " << r.frames_over_budget << ",\n";
    out << "  \"workers\": " << r.workers << ",\n";
    out << "  \"worker_busy_ms\": [";
    for (std::size_t i = 0; i < r.worker_busy_ms.size(); ++i)
        out << (i ? ", " : "") << format("%.4f", r.worker_busy_ms[i]);
    out << "],\n";
    out << "  \"critical_phase\": \"" << worldPhaseName(static_cast<WorldPhase>(r.critical_phase)) << "\",\n";
    if (r.compared) {
        out << "  \"one_worker\": {\"total\": " << jsonPercentiles(r.one_worker_total)
            << format(", \"speedup_p50\": %.4f", r.speedup_p50) << ", \"hit_stream_hash\": \""
            << hex(r.one_worker_hash) << "\", \"same_hash\": " << (r.hashes_match ? "true" : "false")
            << "},\n";
    }
    out << "  \"allocations\": " << r.allocations << ",\n";
    out << "  \"allocations_malloc_counted\": " << (r.allocations_counted ? "true" : "false") << ",\n";
    out << "  \"dropped_hits\": " << r.dropped_hits << ",\n";
    out << "  \"dropped_pairs\": " << r.dropped_pairs << ",\n";
    out << "  \"dropped_contacts\": " << r.dropped_contacts << ",\n";
    out << "  \"hits\": " << r.total_hits << ",\n";
    out << "  \"hit_stream_hash\": \"" << hex(r.hit_stream_hash) << "\",\n";
    out << "  \"pools\": {";
    for (std::size_t i = 0; i < r.pools.size(); ++i) {
        const PoolLine& p = r.pools[i];
        out << (i ? ",\n" : "\n")
            << format("    \"%s\": {\"high_water\": %u, \"capacity\": %u}", p.name.c_str(),
                      p.usage.high_water, p.usage.capacity);
    }
    out << "\n  },\n";
    out << format("  \"scratch\": {\"high_water\": %zu, \"capacity\": %zu},\n", r.scratch_high_water,
                  r.scratch_capacity);
    out << "  \"world_bytes\": " << r.world_bytes << ",\n";
    out << "  \"mesh_mesh_backend\": \"" << r.mesh_mesh_backend << "\",\n";
    if (r.mesh_mesh_backend == "gpu") {
        out << "  \"gpu\": {\"device\": " << jsonText(r.gpu_device)
            << ", \"status\": " << jsonText(r.gpu_status)
            << ", \"submitted_steps\": " << r.gpu_submitted_steps
            << ", \"declined_steps\": " << r.gpu_declined_steps
            << ", \"tested_pairs\": " << r.gpu_tested_pairs
            << ", \"host_decided_pairs\": " << r.gpu_host_pairs << ", \"device_ms_per_step\": "
            << (r.gpu_timed ? format("%.6f", deviceMsPerStep(r)) : std::string("null")) << "},\n";
    }
    if (r.has_baseline) {
        const Baseline& b = r.baseline;
        out << "  \"baseline\": {\"path\": " << jsonText(b.path)
            << ", \"total\": " << jsonPercentiles(b.total)
            << ", \"total_thread_cpu\": " << jsonPercentiles(b.total_cpu)
            << format(", \"threshold_pct\": %.2f", b.threshold_pct)
            << ", \"regressed\": " << (b.regressed ? "true" : "false")
            << ", \"regression\": " << jsonText(b.regression) << "},\n";
    }
    // Per frame, in milliseconds: the totals on both clocks, the script and every phase.
    auto series = [&out, &r](const char* name, auto value, bool last) {
        out << "    \"" << name << "\": [";
        for (std::size_t i = 0; i < r.frame_times.size(); ++i)
            out << (i ? ", " : "") << format("%.4f", ms(value(r.frame_times[i])));
        out << (last ? "]\n" : "],\n");
    };
    out << "  \"per_frame\": {\n";
    series(
        "total_ms", [](const FrameTimes& f) { return f.total_ns; }, false);
    series(
        "total_thread_cpu_ms", [](const FrameTimes& f) { return f.total_cpu_ns; }, false);
    series(
        "script_ms", [](const FrameTimes& f) { return f.script_ns; }, false);
    for (std::size_t ph = 0; ph < kPhaseCount; ++ph) {
        const std::string name = std::string(worldPhaseName(static_cast<WorldPhase>(ph))) + "_ms";
        series(
            name.c_str(), [ph](const FrameTimes& f) { return f.phase_ns[ph]; }, ph + 1 == kPhaseCount);
    }
    out << "  },\n";
    out << "  \"pass\": " << (r.pass ? "true" : "false") << "\n";
    out << "}\n";
    return out.str();
}

} // namespace flak::framebudget
