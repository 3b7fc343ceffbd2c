// The frame-budget runner's comparison with an earlier run: reading the old JSON report, and the
// machine's CPU for the run metadata.
#include "frame_record.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace flak::framebudget {

namespace {

// Where the value of member `key` of the object whose '{' (or whose value start) is at `object`
// begins, or npos: only the object's own members count, not those of objects nested in it.
std::size_t valueAt(const std::string& json, const std::string& key, std::size_t object) {
    if (object == std::string::npos) return object;
    object = json.find('{', object);
    if (object == std::string::npos) return object;
    int depth = 0;
    bool in_string = false;
    std::size_t key_start = std::string::npos;
    for (std::size_t i = object; i < json.size(); ++i) {
        const char c = json[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
                if (depth == 1 && json.compare(key_start + 1, i - key_start - 1, key) == 0 &&
                    i - key_start - 1 == key.size()) {
                    const std::size_t colon = json.find_first_not_of(" \t\r\n", i + 1);
                    if (colon != std::string::npos && json[colon] == ':') return colon + 1;
                }
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
            key_start = i;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) return std::string::npos;
        }
    }
    return std::string::npos;
}

bool number(const std::string& json, std::size_t at, double& out) {
    if (at == std::string::npos) return false;
    const char* begin = json.c_str() + at;
    char* end = nullptr;
    out = std::strtod(begin, &end);
    return end != begin;
}

// The percentiles object that is member `key` of the object at `object`.
bool readPercentiles(const std::string& json, const std::string& key, std::size_t object, Percentiles& out) {
    const std::size_t at = valueAt(json, key, object);
    if (at == std::string::npos) return false;
    return number(json, valueAt(json, "p50_ms", at), out.p50_ms) &&
           number(json, valueAt(json, "p95_ms", at), out.p95_ms) &&
           number(json, valueAt(json, "p99_ms", at), out.p99_ms) &&
           number(json, valueAt(json, "max_ms", at), out.max_ms) &&
           number(json, valueAt(json, "mean_ms", at), out.mean_ms);
}

std::string stringAt(const std::string& json, std::size_t at) {
    if (at == std::string::npos) return "";
    const std::size_t open = json.find('"', at);
    const std::size_t close = open == std::string::npos ? open : json.find('"', open + 1);
    return close == std::string::npos ? "" : json.substr(open + 1, close - open - 1);
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
    out.scene = stringAt(json, valueAt(json, "scene", 0));
    double frames = 0, workers = 1;
    if (out.scene.empty() || !number(json, valueAt(json, "frames", 0), frames) ||
        !readPercentiles(json, "total", 0, out.total) ||
        !readPercentiles(json, "total_thread_cpu", 0, out.total_cpu)) {
        error = path + " is not a flak_framebudget --json report";
        return false;
    }
    (void)number(json, valueAt(json, "workers", 0), workers);
    out.frames = static_cast<std::uint32_t>(frames);
    out.workers = static_cast<std::uint32_t>(workers);
    const std::size_t phases = valueAt(json, "phases", 0);
    for (int ph = 0; ph < kPhaseCount && phases != std::string::npos; ++ph)
        (void)readPercentiles(json, worldPhaseName(static_cast<WorldPhase>(ph)), phases, out.phases[ph]);
    // Per-frame totals, for the picture (reports from before they were written have none).
    const std::size_t series = valueAt(json, "total_ms", valueAt(json, "per_frame", 0));
    if (series != std::string::npos) {
        std::size_t at = json.find('[', series);
        const std::size_t end = at == std::string::npos ? at : json.find(']', at);
        while (at != std::string::npos && at < end) {
            double v = 0;
            if (!number(json, at + 1, v)) break;
            out.total_ms.push_back(v);
            at = json.find(',', at + 1);
            if (at > end) break;
        }
    }
    return true;
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, 10, "model name") != 0) continue;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) break;
        std::size_t start = colon + 1;
        while (start < line.size() && line[start] == ' ') ++start;
        return line.substr(start);
    }
    return "unknown";
}

} // namespace flak::framebudget
