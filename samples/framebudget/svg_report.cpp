// The frame-budget runner's picture, as plain SVG a browser opens: a timeline of every frame with
// its time stacked by phase (the script, then the step's phases, wall clock), the thread-CPU-clock
// total as a line, the budget, the p50 and p99 of the verdict clock, and an earlier run's totals
// when compared with a baseline; below it, a histogram of frame times.
#include "frame_record.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace flak::framebudget {

namespace {

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof(b), "%.2f", v);
    return b;
}

double ms(std::uint64_t ns) { return static_cast<double>(ns) / 1.0e6; }

// Text as XML character data: the build's and machine's names may hold '&' or '<'.
std::string xml(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '&')
            out += "&amp;";
        else if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else
            out += c;
    }
    return out;
}

// One colour per stacked layer: the script, then each phase in step order.
const char* const kLayerColours[] = {"#7f7f7f", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                     "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf"};
constexpr int kLayers = 1 + static_cast<int>(kPhaseCount);
static_assert(kLayers <= static_cast<int>(sizeof(kLayerColours) / sizeof(kLayerColours[0])),
              "a colour a layer");

const char* layerName(int layer) {
    return layer == 0 ? "script" : worldPhaseName(static_cast<WorldPhase>(layer - 1));
}

double layerMs(const FrameTimes& f, int layer) {
    return ms(layer == 0 ? f.script_ns : f.phase_ns[static_cast<std::size_t>(layer - 1)]);
}

// A horizontal mark across the plot with a label just above its right end, inside the plot.
void mark(std::ostringstream& s, double x0, double x1, double y, const char* colour, const char* dash,
          const std::string& label) {
    s << "<line x1=\"" << num(x0) << "\" x2=\"" << num(x1) << "\" y1=\"" << num(y) << "\" y2=\"" << num(y)
      << "\" stroke=\"" << colour << "\" stroke-dasharray=\"" << dash << "\"/>\n";
    s << "<text x=\"" << num(x1 - 4) << "\" y=\"" << num(y - 4) << "\" text-anchor=\"end\" fill=\"" << colour
      << "\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">" << label << "</text>\n";
}

} // namespace

std::string svgReport(const RunReport& r) {
    const double width = 1160, left = 60, right = 150, top = 56, plot_h = 320, gap = 80, hist_h = 200;
    const double plot_w = width - left - right;
    const double height = top + plot_h + gap + hist_h + 50;
    const std::size_t n = r.frame_times.size();
    std::vector<double> wall(n), cpu(n);
    for (std::size_t i = 0; i < n; ++i) {
        wall[i] = ms(r.frame_times[i].total_ns);
        cpu[i] = ms(r.frame_times[i].total_cpu_ns);
    }
    double top_ms = r.budget_ms * 1.1;
    for (std::size_t i = 0; i < n; ++i) top_ms = std::max(top_ms, std::max(wall[i], cpu[i]) * 1.05);
    // The baseline's frames beside this run's: as many as both played (the same script, frame for
    // frame), so a longer baseline is not drawn past the plot.
    const std::vector<double> baseline(
        r.baseline.total_ms.begin(),
        r.baseline.total_ms.begin() + static_cast<std::ptrdiff_t>(std::min(n, r.baseline.total_ms.size())));
    if (r.has_baseline)
        for (double v : baseline) top_ms = std::max(top_ms, v * 1.05);
    const Percentiles& verdict = r.verdict_cpu ? r.total_cpu : r.total;

    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<text x=\"" << left << "\" y=\"20\" font-size=\"15\">flak frame budget: " << xml(r.scene) << ", "
      << r.frames << " frames, " << r.workers << " worker(s), budget " << num(r.budget_ms) << " ms on the "
      << (r.verdict_cpu ? "thread CPU clock" : "wall clock") << ": p50 " << num(verdict.p50_ms) << " / p99 "
      << num(verdict.p99_ms) << " / max " << num(verdict.max_ms) << " ms, " << (r.pass ? "PASS" : "FAIL")
      << "</text>\n";
    s << "<text x=\"" << left << "\" y=\"38\" fill=\"#555\">flak " << xml(r.meta.flak_version) << ", commit "
      << xml(r.meta.commit) << ", " << xml(r.meta.compiler) << "; " << xml(r.meta.cpu) << "</text>\n";

    // Timeline: per-phase times stacked (wall clock), as one filled band per layer.
    auto x_of = [&](double frame) { return left + frame / static_cast<double>(n > 0 ? n : 1) * plot_w; };
    auto y_of = [&](double v) { return top + plot_h - v / top_ms * plot_h; };
    s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << plot_w << "\" height=\"" << plot_h
      << "\" fill=\"none\" stroke=\"#888\"/>\n";
    std::vector<double> below(n, 0.0), above(n, 0.0);
    for (int layer = 0; layer < kLayers && n > 0; ++layer) {
        for (std::size_t i = 0; i < n; ++i) above[i] = below[i] + layerMs(r.frame_times[i], layer);
        s << "<polygon fill=\"" << kLayerColours[layer]
          << "\" fill-opacity=\"0.85\" stroke=\"none\" points=\"";
        for (std::size_t i = 0; i < n; ++i) {
            s << num(x_of(static_cast<double>(i))) << "," << num(y_of(above[i])) << " "
              << num(x_of(static_cast<double>(i) + 1.0)) << "," << num(y_of(above[i])) << " ";
        }
        for (std::size_t i = n; i-- > 0;) {
            s << num(x_of(static_cast<double>(i) + 1.0)) << "," << num(y_of(below[i])) << " "
              << num(x_of(static_cast<double>(i))) << "," << num(y_of(below[i])) << " ";
        }
        s << "\"/>\n";
        below.swap(above);
    }
    // The thread-CPU-clock total, and an earlier run's totals.
    auto series = [&](const std::vector<double>& v, const char* colour, const char* dash) {
        if (v.empty()) return;
        s << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"1\" stroke-dasharray=\""
          << dash << "\" points=\"";
        for (std::size_t i = 0; i < v.size(); ++i)
            s << num(x_of(static_cast<double>(i) + 0.5)) << "," << num(y_of(v[i])) << " ";
        s << "\"/>\n";
    };
    series(cpu, "#000", "none");
    if (r.has_baseline) series(baseline, "#555", "3 3");
    mark(s, left, left + plot_w, y_of(r.budget_ms), "#d62728", "8 4", "budget " + num(r.budget_ms) + " ms");
    mark(s, left, left + plot_w, y_of(verdict.p50_ms), "#000", "2 3", "p50 " + num(verdict.p50_ms) + " ms");
    mark(s, left, left + plot_w, y_of(verdict.p99_ms), "#000", "6 3", "p99 " + num(verdict.p99_ms) + " ms");
    for (int k = 0; k <= 4; ++k) { // axes: ms and frame numbers
        const double v = top_ms * k / 4.0;
        s << "<text x=\"" << left - 6 << "\" y=\"" << num(y_of(v) + 4) << "\" text-anchor=\"end\">" << num(v)
          << "</text>\n";
        const double frame = static_cast<double>(n) * k / 4.0;
        s << "<text x=\"" << num(x_of(frame)) << "\" y=\"" << top + plot_h + 16
          << "\" text-anchor=\"middle\">" << static_cast<unsigned long long>(frame) << "</text>\n";
    }
    s << "<text x=\"14\" y=\"" << top + plot_h / 2 << "\" transform=\"rotate(-90 14 " << top + plot_h / 2
      << ")\" text-anchor=\"middle\">frame ms</text>\n";
    s << "<text x=\"" << left + plot_w / 2 << "\" y=\"" << top + plot_h + 34
      << "\" text-anchor=\"middle\">frame</text>\n";
    // Legend, right of the plot, top layer first.
    double ly = top + 96;
    for (int layer = kLayers; layer-- > 0; ly += 16) {
        s << "<rect x=\"" << num(left + plot_w + 8) << "\" y=\"" << num(ly - 9)
          << "\" width=\"10\" height=\"10\" fill=\"" << kLayerColours[layer] << "\"/><text x=\""
          << num(left + plot_w + 22) << "\" y=\"" << num(ly) << "\">" << layerName(layer) << "</text>\n";
    }
    s << "<line x1=\"" << num(left + plot_w + 8) << "\" x2=\"" << num(left + plot_w + 18) << "\" y1=\""
      << num(ly - 4) << "\" y2=\"" << num(ly - 4) << "\" stroke=\"#000\"/><text x=\""
      << num(left + plot_w + 22) << "\" y=\"" << num(ly) << "\">total, CPU clock</text>\n";
    if (r.has_baseline) {
        ly += 16;
        s << "<line x1=\"" << num(left + plot_w + 8) << "\" x2=\"" << num(left + plot_w + 18) << "\" y1=\""
          << num(ly - 4) << "\" y2=\"" << num(ly - 4)
          << "\" stroke=\"#555\" stroke-dasharray=\"3 3\"/><text x=\"" << num(left + plot_w + 22) << "\" y=\""
          << num(ly) << "\">baseline total</text>\n";
        if (baseline.size() < r.baseline.total_ms.size()) {
            ly += 16;
            s << "<text x=\"" << num(left + plot_w + 8) << "\" y=\"" << num(ly)
              << "\" fill=\"#555\">(its first " << baseline.size() << " of " << r.baseline.total_ms.size()
              << ")</text>\n";
        }
        ly += 16;
        s << "<text x=\"" << num(left + plot_w + 8) << "\" y=\"" << num(ly) << "\" fill=\""
          << (r.baseline.regressed ? "#d62728" : "#2ca02c") << "\">"
          << (r.baseline.regressed ? "REGRESSION" : "no regression") << "</text>\n";
    }

    // Histogram of the verdict clock's frame times.
    const std::vector<double>& hist_series = r.verdict_cpu ? cpu : wall;
    const double hist_top = top + plot_h + gap;
    const int bins = 40;
    std::vector<int> counts(bins, 0);
    for (double v : hist_series) {
        const int b = static_cast<int>(v / top_ms * bins);
        counts[static_cast<std::size_t>(std::min(std::max(b, 0), bins - 1))]++;
    }
    const int peak = std::max(1, *std::max_element(counts.begin(), counts.end()));
    s << "<rect x=\"" << left << "\" y=\"" << hist_top << "\" width=\"" << plot_w << "\" height=\"" << hist_h
      << "\" fill=\"none\" stroke=\"#888\"/>\n";
    for (int b = 0; b < bins; ++b) {
        const double h = static_cast<double>(counts[static_cast<std::size_t>(b)]) / peak * hist_h;
        const double x = left + static_cast<double>(b) / bins * plot_w;
        s << "<rect x=\"" << num(x + 1) << "\" y=\"" << num(hist_top + hist_h - h) << "\" width=\""
          << num(plot_w / bins - 2) << "\" height=\"" << num(h) << "\" fill=\"#2ca02c\"/>\n";
    }
    const double bx = left + r.budget_ms / top_ms * plot_w;
    s << "<line x1=\"" << num(bx) << "\" x2=\"" << num(bx) << "\" y1=\"" << hist_top << "\" y2=\""
      << hist_top + hist_h << "\" stroke=\"#d62728\" stroke-dasharray=\"8 4\"/>\n";
    s << "<text x=\"" << left << "\" y=\"" << hist_top - 8 << "\">frame times on the "
      << (r.verdict_cpu ? "thread CPU clock" : "wall clock") << " (0 to " << num(top_ms) << " ms, " << bins
      << " bins; tallest bar " << peak << " frames)</text>\n";
    s << "</svg>\n";
    return s.str();
}

} // namespace flak::framebudget
