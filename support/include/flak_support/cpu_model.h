// The machine's CPU model for reports ("model name" of /proc/cpuinfo; "unknown" elsewhere).
#pragma once

#include <fstream>
#include <string>

namespace flak::support {

inline std::string cpuModel() {
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

} // namespace flak::support
