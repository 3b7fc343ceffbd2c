// The frame-budget runner's comparison with an earlier run: reading the old JSON report.
#include "frame_record.h"

#include "flak_support/json_read.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace flak::framebudget {

namespace {

using support::jsonMember;
using support::jsonNumber;
using support::jsonString;

// The percentiles object that is member `key` of the object at `object`.
bool readPercentiles(const std::string& json, const std::string& key, std::size_t object, Percentiles& out) {
    const std::size_t at = jsonMember(json, key, object);
    if (at == std::string::npos) return false;
    return jsonNumber(json, jsonMember(json, "p50_ms", at), out.p50_ms) &&
           jsonNumber(json, jsonMember(json, "p95_ms", at), out.p95_ms) &&
           jsonNumber(json, jsonMember(json, "p99_ms", at), out.p99_ms) &&
           jsonNumber(json, jsonMember(json, "max_ms", at), out.max_ms) &&
           jsonNumber(json, jsonMember(json, "mean_ms", at), out.mean_ms);
}

} // namespace

bool readBaseline(const std::string& path, Baseline& out, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot read " + path;
        return false;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string json = buffer.str();
    out.path = path;
    out.scene = jsonString(json, jsonMember(json, "scene", 0));
    double frames = 0, workers = 1;
    if (out.scene.empty() || !jsonNumber(json, jsonMember(json, "frames", 0), frames) ||
        !readPercentiles(json, "total", 0, out.total) ||
        !readPercentiles(json, "total_thread_cpu", 0, out.total_cpu)) {
        error = path + " is not a flak_framebudget --json report";
        return false;
    }
    (void)jsonNumber(json, jsonMember(json, "workers", 0), workers);
    // A report this runner could have written: at least one frame, 1 to 64 workers, finite times
    // above 0 (a baseline of 0 or NaN would switch the regression check off without a word).
    const auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
    if (!(frames >= 1.0 && frames <= 4294967295.0) || !(workers >= 1.0 && workers <= 64.0) ||
        !positive(out.total.p50_ms) || !positive(out.total.p99_ms) || !positive(out.total_cpu.p50_ms) ||
        !positive(out.total_cpu.p99_ms)) {
        error = path + ": its frames, workers or total times are out of range (a report of no frame?)";
        return false;
    }
    out.frames = static_cast<std::uint32_t>(frames);
    out.workers = static_cast<std::uint32_t>(workers);
    const std::size_t phases = jsonMember(json, "phases", 0);
    for (std::size_t ph = 0; ph < kPhaseCount && phases != std::string::npos; ++ph)
        (void)readPercentiles(json, worldPhaseName(static_cast<WorldPhase>(ph)), phases, out.phases[ph]);
    // Per-frame totals, for the picture (reports from before they were written have none).
    const std::size_t series = jsonMember(json, "total_ms", jsonMember(json, "per_frame", 0));
    if (series != std::string::npos) {
        std::size_t at = json.find('[', series);
        const std::size_t end = at == std::string::npos ? at : json.find(']', at);
        while (at != std::string::npos && at < end) {
            double v = 0;
            if (!jsonNumber(json, at + 1, v)) break;
            out.total_ms.push_back(v);
            at = json.find(',', at + 1);
            if (at > end) break;
        }
    }
    return true;
}

} // namespace flak::framebudget
