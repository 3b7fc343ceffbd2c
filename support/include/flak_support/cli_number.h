// Numbers on the command lines of the tools and samples: the whole argument or nothing, in range,
// so that a typo ("4x", "", "1e400", "-1" for a count) is refused instead of read as something
// else.
#pragma once

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace flak::support {

/// `text` as a whole number in [lo, hi]: decimal digits only (no sign, no space, not empty) and
/// no overflow. `out` is written only on success.
inline bool parseWhole(const char* text, unsigned long long lo, unsigned long long hi,
                       unsigned long long& out) {
    if (text == nullptr || *text < '0' || *text > '9') return false;
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < lo || v > hi) return false;
    out = v;
    return true;
}

/// `text` as a finite number in [lo, hi]: the whole text (no leading space, nothing after it), not
/// NaN or infinite, and within double's range (no overflow or underflow). `out` is written only on
/// success.
inline bool parseNumber(const char* text, double lo, double hi, double& out) {
    if (text == nullptr || *text == '\0' || std::isspace(static_cast<unsigned char>(*text))) return false;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !std::isfinite(v) || v < lo || v > hi) return false;
    out = v;
    return true;
}

} // namespace flak::support
