// flak — four of a baked mesh's triangles in the lanes of a TriangleLanes, read straight from the
// blob, and one lane back as three points. The leaf loops of the queries keep no per-lane Vec3
// copies (a Vec3 zero-fills, so an array of them cost a memset per group of four).
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/geom/segment_triangle.h>
#include <flak/math/simd.h>

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

#if defined(FLAK_SIMD_SSE2)
/// An exact mesh's vertex as (x, y, z, 0) lanes, its floats loaded as they are stored (eight bytes
/// and four: nothing is read past the vertex).
struct ExactVertexLanes {
    const float* vertices;
    __m128 operator()(std::uint32_t index) const {
        const float* v = vertices + 3u * index;
        const __m128 xy = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(v))); // x y 0 0
        return _mm_movelh_ps(xy, _mm_load_ss(v + 2));
    }
};

/// A quantized mesh's vertex as (x, y, z, 0) lanes: its grid point decoded with decodeGridPoint's
/// operations (origin + q * scale per lane).
struct QuantizedVertexLanes {
    const std::uint16_t* vertices;
    __m128 origin, scale;

    explicit QuantizedVertexLanes(const MeshBlob& blob)
        : vertices(blob.quantized_vertices),
          origin(_mm_setr_ps(blob.quant_origin.x, blob.quant_origin.y, blob.quant_origin.z, 0.0f)),
          scale(_mm_setr_ps(blob.quant_scale.x, blob.quant_scale.y, blob.quant_scale.z, 0.0f)) {}

    __m128 operator()(std::uint32_t index) const {
        const std::uint16_t* q = vertices + 3u * index;
        const __m128i q16 = _mm_setr_epi16(static_cast<short>(q[0]), static_cast<short>(q[1]),
                                           static_cast<short>(q[2]), 0, 0, 0, 0, 0);
        const __m128 qf = _mm_cvtepi32_ps(_mm_unpacklo_epi16(q16, _mm_setzero_si128()));
        return _mm_add_ps(origin, _mm_mul_ps(qf, scale));
    }
};

/// loadTriangleQuad's SSE form with `vertex(index)` reading a vertex as one vector: each
/// corner's four transposed into the x, y and z lanes.
template <typename Vertex>
inline void loadTriangleQuadLanes(const MeshBlob& blob, std::uint32_t first, std::uint32_t n,
                                  const Vertex& vertex, TriangleLanes& out) {
    __m128 corner[3][4];
    for (std::uint32_t l = 0; l < 4; ++l) {
        std::uint32_t idx[3];
        triangleIndices(blob, l < n ? first + l : first, idx);
        for (int i = 0; i < 3; ++i) corner[i][l] = vertex(idx[i]);
    }
    for (int i = 0; i < 3; ++i) {
        const __m128 xy01 = _mm_unpacklo_ps(corner[i][0], corner[i][1]); // x0 x1 y0 y1
        const __m128 xy23 = _mm_unpacklo_ps(corner[i][2], corner[i][3]);
        const __m128 z01 = _mm_unpackhi_ps(corner[i][0], corner[i][1]); // z0 z1 0 0
        const __m128 z23 = _mm_unpackhi_ps(corner[i][2], corner[i][3]);
        _mm_storeu_ps(out.v[i][0], _mm_movelh_ps(xy01, xy23));
        _mm_storeu_ps(out.v[i][1], _mm_movehl_ps(xy23, xy01));
        _mm_storeu_ps(out.v[i][2], _mm_movelh_ps(z01, z23));
    }
}
#endif

/// Triangles first .. first + n - 1 (n 1..4) into lanes 0..n-1; the lanes past n repeat the
/// first triangle, so every lane holds real vertices. The SSE form reads each vertex as one
/// vector (the vertex mode chosen once a call, not once a vertex) and transposes each corner's
/// four into the x, y and z lanes: the same values, with no scalar stores for the queries' vector
/// loads to wait on.
inline void loadTriangleQuad(const MeshBlob& blob, std::uint32_t first, std::uint32_t n, TriangleLanes& out) {
#if defined(FLAK_SIMD_SSE2)
    if (blob.quantized_vertices == nullptr)
        loadTriangleQuadLanes(blob, first, n, ExactVertexLanes{blob.vertices}, out);
    else
        loadTriangleQuadLanes(blob, first, n, QuantizedVertexLanes(blob), out);
#else
    for (std::uint32_t l = 0; l < 4; ++l) loadTriangleLane(blob, l < n ? first + l : first, l, out);
#endif
}

/// The triangle in lane `lane`.
inline void laneTriangle(const TriangleLanes& lanes, std::uint32_t lane, Vec3& out_a, Vec3& out_b,
                         Vec3& out_c) {
    Vec3* out[3] = {&out_a, &out_b, &out_c};
    for (int i = 0; i < 3; ++i) set(lanes.v[i][0][lane], lanes.v[i][1][lane], lanes.v[i][2][lane], *out[i]);
}

} // namespace flak::detail
