// A string as a JSON string literal, for the tools' and samples' JSON output.
#pragma once

#include <cstdio>
#include <string>

namespace flak::support {

/// `text` quoted, with '"', '\' and control characters escaped.
inline std::string jsonText(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

} // namespace flak::support
