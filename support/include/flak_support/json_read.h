// Reading values back from the tools' and samples' own JSON reports (flak_framebudget --json):
// members found by key within one object, numbers and strings read where they start. Not a
// general JSON parser: enough for reports these programs wrote.
#pragma once

#include <cstdlib>
#include <string>

namespace flak::support {

/// Where the value of member `key` of the object whose '{' is at or after `object` begins, or
/// npos: only the object's own members count, not those of objects nested in it.
inline std::size_t jsonMember(const std::string& json, const std::string& key, std::size_t object = 0) {
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

/// The number that starts at `at` (a jsonMember answer); false when there is none.
inline bool jsonNumber(const std::string& json, std::size_t at, double& out) {
    if (at == std::string::npos) return false;
    const char* begin = json.c_str() + at;
    char* end = nullptr;
    out = std::strtod(begin, &end);
    return end != begin;
}

/// The string that starts at `at` (a jsonMember answer), without escapes undone; "" when none.
inline std::string jsonString(const std::string& json, std::size_t at) {
    if (at == std::string::npos) return "";
    const std::size_t open = json.find('"', at);
    const std::size_t close = open == std::string::npos ? open : json.find('"', open + 1);
    return close == std::string::npos ? "" : json.substr(open + 1, close - open - 1);
}

} // namespace flak::support
