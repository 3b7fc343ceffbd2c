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
    /// Per triangle, its index among the source's triangles (prepareMesh drops degenerate ones and
    /// keeps this map; the SourceIds section holds it). Empty: triangle t is source triangle t.
    std::vector<std::uint32_t> source_triangle;
    std::uint32_t source_triangles = 0;
    std::uint32_t source_vertices = 0;
    std::uint32_t dropped_degenerate = 0;
    std::uint32_t welded_vertices = 0;
    /// The imported meshes in import order: where each one's vertices start in `positions`, and
    /// its name ("" when it has none), so messages can name the mesh a vertex came from. Empty for
    /// meshes not made by the importer.
    std::vector<std::uint32_t> mesh_first_vertex;
    std::vector<std::string> mesh_names;

    std::uint32_t triangleCount() const { return static_cast<std::uint32_t>(indices.size() / 3); }

    /// Vertex v as a message names it: "vertex V", and where the importer recorded its mesh,
    /// " (mesh 'NAME', index M, its vertex K)".
    std::string vertexText(std::size_t v) const {
        std::string text = "vertex " + std::to_string(v);
        std::size_t m = mesh_first_vertex.size();
        while (m > 0 && mesh_first_vertex[m - 1] > v) --m;
        if (m == 0 || mesh_names.size() != mesh_first_vertex.size()) return text;
        --m;
        return text + " (mesh '" + mesh_names[m] + "', index " + std::to_string(m) + ", its vertex " +
               std::to_string(v - mesh_first_vertex[m]) + ")";
    }
};

/// What went wrong, for a clear message and a non-zero exit.
struct BakeError {
    std::string message;
    bool failed() const { return !message.empty(); }
};

} // namespace flak::bake
