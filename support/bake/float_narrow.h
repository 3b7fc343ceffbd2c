// The baker's narrowing of coordinates read as doubles (an importer's transforms and --scale, a
// level file's numbers) to the floats it stores.
#pragma once

#include <limits>

namespace flak::bake {

/// `v` rounded to float, or +-infinity beyond float's range, where a plain cast is undefined (the
/// baker then refuses the coordinate as infinite, with a message). NaN stays NaN.
inline float narrowToFloat(double v) {
    constexpr double kMax = static_cast<double>(std::numeric_limits<float>::max());
    if (v > kMax) return std::numeric_limits<float>::infinity();
    if (v < -kMax) return -std::numeric_limits<float>::infinity();
    return static_cast<float>(v);
}

} // namespace flak::bake
