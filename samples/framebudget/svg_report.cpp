// The frame-budget runner's picture: a frame-time timeline with the budget line (top) and a
// histogram of frame times (bottom), as plain SVG a browser opens.
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

} // namespace

std::string svgReport(const RunReport& r) {
    const double width = 960, plot_h = 300, hist_h = 220, left = 60, right = 20, top = 40, gap = 70;
    const double plot_w = width - left - right;
    const double height = top + plot_h + gap + hist_h + 40;
    std::vector<double> frame_ms;
    for (const FrameTimes& f : r.frame_times) frame_ms.push_back(static_cast<double>(f.total_ns) / 1e6);
    const double max_ms =
        std::max(r.budget_ms * 1.1,
                 frame_ms.empty() ? 1.0 : *std::max_element(frame_ms.begin(), frame_ms.end()) * 1.05);
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<text x=\"" << left << "\" y=\"20\" font-size=\"15\">flak frame budget: " << r.scene << ", "
      << r.frames << " frames, budget " << num(r.budget_ms) << " ms, p50 " << num(r.total.p50_ms) << " / p99 "
      << num(r.total.p99_ms) << " / max " << num(r.total.max_ms) << " ms: " << (r.pass ? "PASS" : "FAIL")
      << "</text>\n";
    // Timeline.
    auto y_of = [&](double v) { return top + plot_h - v / max_ms * plot_h; };
    s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << plot_w << "\" height=\"" << plot_h
      << "\" fill=\"none\" stroke=\"#888\"/>\n";
    for (int k = 0; k <= 4; ++k) {
        const double v = max_ms * k / 4.0;
        s << "<text x=\"" << left - 6 << "\" y=\"" << num(y_of(v) + 4) << "\" text-anchor=\"end\">" << num(v)
          << "</text>\n";
    }
    s << "<text x=\"14\" y=\"" << top + plot_h / 2 << "\" transform=\"rotate(-90 14 " << top + plot_h / 2
      << ")\" text-anchor=\"middle\">frame ms</text>\n";
    if (!frame_ms.empty()) {
        s << "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1\" points=\"";
        const double n = static_cast<double>(frame_ms.size());
        for (std::size_t i = 0; i < frame_ms.size(); ++i) {
            s << num(left + (static_cast<double>(i) + 0.5) / n * plot_w) << "," << num(y_of(frame_ms[i]))
              << " ";
        }
        s << "\"/>\n";
    }
    s << "<line x1=\"" << left << "\" x2=\"" << left + plot_w << "\" y1=\"" << num(y_of(r.budget_ms))
      << "\" y2=\"" << num(y_of(r.budget_ms)) << "\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\n";
    s << "<text x=\"" << left + plot_w - 4 << "\" y=\"" << num(y_of(r.budget_ms) - 4)
      << "\" text-anchor=\"end\" fill=\"#d62728\">budget " << num(r.budget_ms) << " ms</text>\n";
    s << "<text x=\"" << left + plot_w / 2 << "\" y=\"" << top + plot_h + 18
      << "\" text-anchor=\"middle\">frame</text>\n";
    // Histogram.
    const double hist_top = top + plot_h + gap;
    const int bins = 40;
    std::vector<int> counts(bins, 0);
    for (double v : frame_ms) {
        int b = static_cast<int>(v / max_ms * bins);
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
    const double bx = left + r.budget_ms / max_ms * plot_w;
    s << "<line x1=\"" << num(bx) << "\" x2=\"" << num(bx) << "\" y1=\"" << hist_top << "\" y2=\""
      << hist_top + hist_h << "\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\n";
    s << "<text x=\"" << left << "\" y=\"" << hist_top - 8 << "\">histogram of frame times (0 to "
      << num(max_ms) << " ms, " << bins << " bins; tallest bar " << peak << " frames)</text>\n";
    s << "</svg>\n";
    return s.str();
}

} // namespace flak::framebudget
