// flak — four of a baked mesh's triangles in the lanes of a TriangleLanes, read straight from the
// blob, and one lane back as three points. The leaf loops of the queries keep no per-lane Vec3
// copies (a Vec3 zero-fills, so an array of them cost a memset per group of four).
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/geom/segment_triangle.h>

#include <cstdint>

namespace flak::detail {

/// Triangle `t`'s vertices into lane `lane` (setTriangleLane's layout).
inline void loadTriangleLane(const MeshBlob& blob, std::uint32_t t, std::uint32_t lane,
                             TriangleLanes& inout) {
    std::uint32_t idx[3];
    triangleIndices(blob, t, idx);
    for (int i = 0; i < 3; ++i) {
        Vec3 p;
        vertexPosition(blob, idx[i], p);
        for (int k = 0; k < 3; ++k) inout.v[i][k][lane] = p[k];
    }
}

/// Triangles first .. first + n - 1 (n 1..4) into lanes 0..n-1; the lanes past n repeat the
/// first triangle, so every lane holds real vertices.
inline void loadTriangleQuad(const MeshBlob& blob, std::uint32_t first, std::uint32_t n, TriangleLanes& out) {
    for (std::uint32_t l = 0; l < 4; ++l) loadTriangleLane(blob, l < n ? first + l : first, l, out);
}

/// The triangle in lane `lane`.
inline void laneTriangle(const TriangleLanes& lanes, std::uint32_t lane, Vec3& out_a, Vec3& out_b,
                         Vec3& out_c) {
    Vec3* out[3] = {&out_a, &out_b, &out_c};
    for (int i = 0; i < 3; ++i) set(lanes.v[i][0][lane], lanes.v[i][1][lane], lanes.v[i][2][lane], *out[i]);
}

} // namespace flak::detail
