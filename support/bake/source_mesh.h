// The baker's in-memory mesh: positions and triangles as read, before the BVH is built.
#pragma once

#include <flak/math/vec3.h>

#include <cstdint>
#include <string>
#include <vector>

namespace flak::bake {

struct SourceMesh {
    std::vector<Vec3> positions;
    std::vector<std::uint32_t> indices;   ///< 3 per triangle
    std::vector<std::uint16_t> materials; ///< per triangle; empty when the source has none
    std::uint32_t source_triangles = 0;
    std::uint32_t source_vertices = 0;
    std::uint32_t dropped_degenerate = 0;
    std::uint32_t welded_vertices = 0;

    std::uint32_t triangleCount() const { return static_cast<std::uint32_t>(indices.size() / 3); }
};

/// What went wrong, for a clear message and a non-zero exit.
struct BakeError {
    std::string message;
    bool failed() const { return !message.empty(); }
};

} // namespace flak::bake
