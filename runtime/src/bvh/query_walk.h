// flak — private helpers shared by the blob queries: the margin that makes node tests conservative
// beyond float rounding, node boxes decoded with that margin, and the query forms the node tests
// take (a box or a segment in the mesh grid). The walks themselves: wide_walk.h.
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_hit.h>
#include <flak/geom/segment_aabb.h>
#include <flak/geom/tolerance.h>
#include <flak/math/aabb.h>
#include <flak/math/simd.h>
#include <flak/math/vec3.h>

#include "math/magnitude.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace flak::detail {

/// The growth of node boxes that keeps a walk exact: four tolerance bands (tolerance.h rule 3) at
/// the larger of the mesh's and the query's scale. The kernels' float decisions can accept a
/// triangle at most about one band outside its exact set; the blob's boxes already contain the
/// exact triangles, so boxes grown by this margin contain everything a kernel can accept.
inline float walkMargin(const MeshBlob& blob, float query_scale) {
    const float s = maxOf(maxOf(maxAbs(blob.bounds.min), maxAbs(blob.bounds.max)), query_scale);
    return 4.0f * kToleranceRelative * s;
}

/// Node box decoding with a growth folded into the origins: lo = (origin - grow) + q * scale, hi =
/// (origin + grow) + q * scale. Float addition is monotone, so these contain nodeBounds() grown by
/// about `grow` on every side.
struct NodeDecoder {
    Vec3 lo_origin;
    Vec3 hi_origin;
    Vec3 scale;
};

inline void makeNodeDecoder(const MeshBlob& blob, float grow, NodeDecoder& out) {
    set(blob.quant_origin.x - grow, blob.quant_origin.y - grow, blob.quant_origin.z - grow, out.lo_origin);
    set(blob.quant_origin.x + grow, blob.quant_origin.y + grow, blob.quant_origin.z + grow, out.hi_origin);
    out.scale = blob.quant_scale;
}

inline void decodeNode(const NodeDecoder& d, const BvhNode& n, Aabb& out) {
    set(d.lo_origin.x + static_cast<float>(n.lo[0]) * d.scale.x,
        d.lo_origin.y + static_cast<float>(n.lo[1]) * d.scale.y,
        d.lo_origin.z + static_cast<float>(n.lo[2]) * d.scale.z, out.min);
    set(d.hi_origin.x + static_cast<float>(n.hi[0]) * d.scale.x,
        d.hi_origin.y + static_cast<float>(n.hi[1]) * d.scale.y,
        d.hi_origin.z + static_cast<float>(n.hi[2]) * d.scale.z, out.max);
}

/// A query box in the blob's 16-bit quantized grid: a node overlaps the box when
/// node.hi >= lo and node.lo <= hi on every axis (integer compares, no decoding). Built
/// conservatively (at least one grid step of slack each side), so it never rejects a
/// node whose decoded box overlaps the float query box.
struct QuantBox {
    std::int32_t lo[3];
    std::int32_t hi[3];
};

/// The blob's grid prepared for quantizing many query boxes (reciprocal steps computed once).
struct QuantGrid {
    float origin[3];
    float inv_step[3]; ///< 0 on a flat axis (zero step)
};

inline void makeQuantGrid(const MeshBlob& blob, QuantGrid& out) {
    for (int k = 0; k < 3; ++k) {
        const float step = blob.quant_scale[k];
        out.origin[k] = blob.quant_origin[k];
        out.inv_step[k] = step > 0.0f && std::isfinite(step) ? 1.0f / step : 0.0f;
    }
}

inline void quantizeBox(const QuantGrid& grid, const Aabb& box, QuantBox& out) {
    for (int k = 0; k < 3; ++k) {
        const float origin = grid.origin[k];
        const float qmin = box.min[k], qmax = box.max[k];
        if (!(qmin <= qmax)) { // empty or NaN: nothing overlaps
            out.lo[k] = 1;
            out.hi[k] = 0;
            continue;
        }
        if (grid.inv_step[k] == 0.0f) { // a flat axis: every node sits at the origin
            const bool in = qmin <= origin && origin <= qmax;
            out.lo[k] = in ? -1 : 1;
            out.hi[k] = in ? 70000 : 0;
            continue;
        }
        // Grid coordinates in float: their rounding is far below the two steps of slack. Clamped
        // before the conversion; truncation is within one step of floor/ceil, also covered.
        float lo = (qmin - origin) * grid.inv_step[k], hi = (qmax - origin) * grid.inv_step[k];
        // NaN-safe clamps (a NaN bound widens the box to the whole grid, never converts).
        lo = lo > -2.0f ? (lo < 70000.0f ? lo : 70000.0f) : -2.0f;
        hi = hi < 70000.0f ? (hi > -2.0f ? hi : -2.0f) : 70000.0f;
        out.lo[k] = static_cast<std::int32_t>(lo) - 2;
        out.hi[k] = static_cast<std::int32_t>(hi) + 2;
    }
}

#if defined(FLAK_SIMD_SSE2)
/// quantizeBox's grid coordinates on (x, y, z) lanes, clamped, for a box with qmin <= qmax on every
/// axis (not empty, not NaN) in a grid with no flat axis (inv_step non-zero); lane 3 is ignored.
/// The clamps are the scalar ones, NaN included: SSE max/min return their second operand on NaN,
/// so max(x, -2) then min(.., 70000) is `x > -2 ? min(x, 70000) : -2`, and likewise for hi. Branch
/// free: the scalar clamps mispredict on queries near the grid's ends.
inline void gridCoordLanes(__m128 qmin, __m128 qmax, __m128 origin, __m128 inv_step, __m128& out_glo,
                           __m128& out_ghi) {
    const __m128 low = _mm_set1_ps(-2.0f), high = _mm_set1_ps(70000.0f);
    out_glo = _mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_sub_ps(qmin, origin), inv_step), low), high);
    out_ghi = _mm_max_ps(_mm_min_ps(_mm_mul_ps(_mm_sub_ps(qmax, origin), inv_step), high), low);
}

/// The clamped grid coordinates truncated with two cells of slack, as quantizeBox does.
inline void storeQuantLanes(__m128 glo, __m128 ghi, QuantBox& out) {
    alignas(16) std::int32_t ilo[4], ihi[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(ilo), _mm_sub_epi32(_mm_cvttps_epi32(glo), _mm_set1_epi32(2)));
    _mm_store_si128(reinterpret_cast<__m128i*>(ihi), _mm_add_epi32(_mm_cvttps_epi32(ghi), _mm_set1_epi32(2)));
    for (int k = 0; k < 3; ++k) {
        out.lo[k] = ilo[k];
        out.hi[k] = ihi[k];
    }
}

/// quantizeBox on (x, y, z) lanes: gridCoordLanes, then storeQuantLanes.
inline void quantizeLanes(__m128 qmin, __m128 qmax, __m128 origin, __m128 inv_step, QuantBox& out) {
    __m128 glo, ghi;
    gridCoordLanes(qmin, qmax, origin, inv_step, glo, ghi);
    storeQuantLanes(glo, ghi, out);
}

/// The cube [centre - r, centre + r] in the blob's grid, in lanes (x, y, z; lane 3: step 1, origin
/// and centre 0): the grid's step and origin, the centre, and the cube's clamped grid
/// coordinates (gridCoordLanes). False where quantizeBox must decide instead (the lanes are then
/// set but mean nothing): a flat or non-finite step, or a cube that is empty or NaN.
struct CubeLanes {
    __m128 step, origin, centre, glo, ghi;
};

inline bool cubeLanes(const MeshBlob& blob, const Vec3& centre, float r, CubeLanes& out) {
    const __m128 step = _mm_setr_ps(blob.quant_scale.x, blob.quant_scale.y, blob.quant_scale.z, 1.0f);
    const __m128 usable = _mm_and_ps(_mm_cmpgt_ps(step, _mm_setzero_ps()),
                                     _mm_cmplt_ps(step, _mm_set1_ps(std::numeric_limits<float>::infinity())));
    const __m128 c4 = _mm_setr_ps(centre.x, centre.y, centre.z, 0.0f), r4 = _mm_setr_ps(r, r, r, 0.0f);
    const __m128 qmin = _mm_sub_ps(c4, r4), qmax = _mm_add_ps(c4, r4); // quantizeCube's box
    out.step = step;
    out.origin = _mm_setr_ps(blob.quant_origin.x, blob.quant_origin.y, blob.quant_origin.z, 0.0f);
    out.centre = c4;
    gridCoordLanes(qmin, qmax, out.origin, _mm_div_ps(_mm_set1_ps(1.0f), step), out.glo, out.ghi);
    return _mm_movemask_ps(_mm_and_ps(usable, _mm_cmple_ps(qmin, qmax))) == 15;
}
#endif

inline void quantizeBox(const MeshBlob& blob, const Aabb& box, QuantBox& out) {
    QuantGrid grid;
    makeQuantGrid(blob, grid);
    quantizeBox(grid, box, out);
}

/// The cube of half-size r around `center` in the blob's grid: quantizeBox of [center - r,
/// center + r] (the same QuantBox), with the grid's reciprocal steps in one SSE division and the
/// lanes of cubeLanes where the grid has no flat axis and the cube is not empty or NaN.
inline void quantizeCube(const MeshBlob& blob, const Vec3& center, float r, QuantBox& out) {
#if defined(FLAK_SIMD_SSE2)
    CubeLanes lanes;
    if (cubeLanes(blob, center, r, lanes)) {
        storeQuantLanes(lanes.glo, lanes.ghi, out);
        return;
    }
#endif
    Aabb box;
    set(center.x - r, center.y - r, center.z - r, box.min);
    set(center.x + r, center.y + r, center.z + r, box.max);
    quantizeBox(blob, box, out);
}

inline bool nodeOverlaps(const BvhNode& n, const QuantBox& q) {
    return static_cast<std::int32_t>(n.hi[0]) >= q.lo[0] && static_cast<std::int32_t>(n.lo[0]) <= q.hi[0] &&
           static_cast<std::int32_t>(n.hi[1]) >= q.lo[1] && static_cast<std::int32_t>(n.lo[1]) <= q.hi[1] &&
           static_cast<std::int32_t>(n.hi[2]) >= q.lo[2] && static_cast<std::int32_t>(n.lo[2]) <= q.hi[2];
}

/// A segment in the blob's quantized grid as the wide node tests take it (wide_walk.h): the slab
/// test of segment_aabb.h (Williams et al. 2005 with Ize 2013's rounded-up exit) on the children's
/// boxes in grid cells (decoded from their steps, never to the mesh's coordinates), each grown by
/// a slack of cells per axis. The parameter t is the segment's own (the grid map is affine per
/// axis), so a closest-hit walk lowers t_max as it does with a SlabSegment. Conservative: the
/// slack covers the growth the caller asks for plus two cells for the rounding of the grid
/// coordinates and of the parameters.
///
/// Per axis, with g0 and g1 the ends in grid cells and `slack` the cells added on both sides: the
/// reciprocal span 1 / (g1 - g0) clamped to +-2^100 (an axis the segment does not move along gets
/// 2^100, not infinity, so no 0 * inf makes a NaN, and a far child is still rejected), and the
/// slab parameter of a child's near and far bound as t = g * inv + near (or far), g the decoded
/// grid coordinate: ((g -+ slack) - g0) * inv with its products taken apart. The near bound is a
/// child's upper one on an axis the segment runs down; the SSE test reads its steps at near_byte
/// (the offset of WideNode::lo or ::hi for the axis) and adds the last step's end where near_high
/// (or, for the far bound, its complement) says, so it never branches on the direction.
struct WideSegment {
    float inv[4]; ///< lane 3 unused (0)
    float near[4];
    float far[4];
    std::uint32_t near_byte[4]; ///< lane 3 unused
    std::uint32_t far_byte[4];  ///< lane 3 unused
    float t_max;
#if defined(FLAK_SIMD_SSE2)
    __m128i near_high[3]; ///< all ones in every u16 lane on an axis the segment runs down
#endif
};

/// The byte offsets of a wide node's step counts: lower bounds, then upper ones, eight per axis.
constexpr std::uint32_t kWideLoByte = offsetof(WideNode, lo);
constexpr std::uint32_t kWideHiByte = offsetof(WideNode, hi);

/// Whether the segment runs down axis k (its near bound is a child's upper one).
inline bool runsDown(const WideSegment& s, int k) { return s.near_byte[k] >= kWideHiByte; }

/// The bound offsets and masks of WideSegment from the axes the segment runs down (bit k of
/// down_bits), as arithmetic.
inline void setWideSegmentSides(unsigned down_bits, WideSegment& out) {
    for (std::uint32_t k = 0; k < 4; ++k) {
        const std::uint32_t down = (down_bits >> k) & 1u;
        out.near_byte[k] = kWideLoByte + kWideChildren * k + (kWideHiByte - kWideLoByte) * down;
        out.far_byte[k] = kWideLoByte + kWideChildren * k + (kWideHiByte - kWideLoByte) * (down ^ 1u);
#if defined(FLAK_SIMD_SSE2)
        if (k < 3) out.near_high[k] = _mm_set1_epi16(static_cast<short>(-static_cast<int>(down)));
#endif
    }
}

#if defined(FLAK_SIMD_SSE2)
/// setWideSegmentSides in lanes, from `down`: all ones in lane k where the segment runs down axis
/// k (lane 3 clear).
inline void setWideSegmentSides(__m128i down, WideSegment& out) {
    constexpr int kLo = static_cast<int>(kWideLoByte), kAxis = static_cast<int>(kWideChildren);
    const __m128i lo = _mm_setr_epi32(kLo, kLo + kAxis, kLo + 2 * kAxis, kLo + 3 * kAxis);
    const __m128i flip = _mm_set1_epi32(static_cast<int>(kWideHiByte - kWideLoByte));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out.near_byte), _mm_add_epi32(lo, _mm_and_si128(down, flip)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out.far_byte),
                     _mm_add_epi32(lo, _mm_andnot_si128(down, flip)));
    // A lane of all ones (or zeros) is eight u16 lanes of them once copied to every lane.
    out.near_high[0] = _mm_shuffle_epi32(down, 0x00);
    out.near_high[1] = _mm_shuffle_epi32(down, 0x55);
    out.near_high[2] = _mm_shuffle_epi32(down, 0xAA);
}
#endif

/// The reciprocal spans' clamp.
constexpr float kWideInvLimit = 1.2676506e30f; // 2^100

/// False when an axis of the blob's grid is flat (zero quantization step) or the segment is not
/// finite in grid cells (its ends, or the span between them, which overflows for a long segment
/// over a grid of tiny steps): the caller then uses decoded boxes and a SlabSegment instead.
inline bool makeWideSegmentScalar(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, float grow,
                                  WideSegment& out) {
    unsigned down_bits = 0;
    for (int k = 0; k < 3; ++k) {
        const float step = blob.quant_scale[k];
        if (!(step > 0.0f) || !std::isfinite(step)) return false;
        const float inv_step = 1.0f / step;
        const float g0 = (p0[k] - blob.quant_origin[k]) * inv_step;
        const float g1 = (p1[k] - blob.quant_origin[k]) * inv_step;
        const float slack = 2.0f + grow * inv_step;
        // The span g1 - g0 must be finite too: ends near +-FLT_MAX cells apart (a long segment
        // over a grid of tiny steps) overflow it, and 1 / inf = 0 would close the slab.
        if (!std::isfinite(g0) || !std::isfinite(g1) || !std::isfinite(g1 - g0) || !std::isfinite(slack))
            return false;
        const float inv = 1.0f / (g1 - g0);
        const bool down = inv < 0.0f;
        const float clamped =
            inv > kWideInvLimit ? kWideInvLimit : (inv < -kWideInvLimit ? -kWideInvLimit : inv);
        const float near_slack = down ? slack : -slack;
        out.inv[k] = clamped;
        out.near[k] = (near_slack - g0) * clamped;
        out.far[k] = (-near_slack - g0) * clamped;
        down_bits |= down ? 1u << k : 0u;
    }
    out.inv[3] = out.near[3] = out.far[3] = 0.0f;
    out.t_max = 1.0f;
    setWideSegmentSides(down_bits, out);
    return true;
}

/// makeWideSegmentScalar; the SSE form runs the three axes in lanes with the same operations (two
/// divisions instead of six; the clamp as max(inv, -2^100) then min(, 2^100), which is the scalar
/// selects for every value but NaN, and a span's reciprocal is never NaN; the slack's sign
/// flipped by a mask), so both give the same answer and the same bits, with no branch on the
/// segment's direction.
inline bool makeWideSegment(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, float grow,
                            WideSegment& out) {
#if defined(FLAK_SIMD_SSE2)
    // Lane 3 is made harmless (step 1, both ends 0) and then cleared as the scalar form leaves it.
    const __m128 step = _mm_setr_ps(blob.quant_scale.x, blob.quant_scale.y, blob.quant_scale.z, 1.0f);
    const __m128 origin = _mm_setr_ps(blob.quant_origin.x, blob.quant_origin.y, blob.quant_origin.z, 0.0f);
    const __m128 inf = _mm_set1_ps(std::numeric_limits<float>::infinity());
    const __m128 zero = _mm_setzero_ps(), sign = _mm_set1_ps(-0.0f);
    const __m128 inv_step = _mm_div_ps(_mm_set1_ps(1.0f), step);
    const __m128 g0 = _mm_mul_ps(_mm_sub_ps(_mm_setr_ps(p0.x, p0.y, p0.z, 0.0f), origin), inv_step);
    const __m128 g1 = _mm_mul_ps(_mm_sub_ps(_mm_setr_ps(p1.x, p1.y, p1.z, 0.0f), origin), inv_step);
    const __m128 slack = _mm_add_ps(_mm_set1_ps(2.0f), _mm_mul_ps(_mm_set1_ps(grow), inv_step));
    const auto finite = [&](__m128 v) { return _mm_cmplt_ps(_mm_andnot_ps(sign, v), inf); };
    const __m128 span = _mm_sub_ps(g1, g0);
    const __m128 ok =
        _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(step, zero), _mm_cmplt_ps(step, inf)),
                   _mm_and_ps(_mm_and_ps(finite(g0), finite(g1)), _mm_and_ps(finite(span), finite(slack))));
    if (_mm_movemask_ps(ok) != 15) return false;
    const __m128 inv_delta = _mm_div_ps(_mm_set1_ps(1.0f), span);
    const __m128 lanes012 = _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)); // lane 3 left 0
    const __m128 down = _mm_cmplt_ps(inv_delta, zero);
    const __m128 limit = _mm_set1_ps(kWideInvLimit);
    const __m128 inv =
        _mm_and_ps(_mm_min_ps(_mm_max_ps(inv_delta, _mm_xor_ps(limit, sign)), limit), lanes012);
    const __m128 near_slack = _mm_xor_ps(slack, _mm_andnot_ps(down, sign));
    _mm_storeu_ps(out.inv, inv);
    _mm_storeu_ps(out.near, _mm_and_ps(_mm_mul_ps(_mm_sub_ps(near_slack, g0), inv), lanes012));
    _mm_storeu_ps(out.far,
                  _mm_and_ps(_mm_mul_ps(_mm_sub_ps(_mm_xor_ps(near_slack, sign), g0), inv), lanes012));
    out.t_max = 1.0f;
    setWideSegmentSides(_mm_and_si128(_mm_castps_si128(down), _mm_castps_si128(lanes012)), out);
    return true;
#else
    return makeWideSegmentScalar(blob, p0, p1, grow, out);
#endif
}

#if defined(FLAK_SIMD_SSE2)
/// A node's 16-bit bounds as floats in lanes 0..2: out_lo = (lo[0..2], hi[0]), out_hi = (hi[0..2],
/// info's low half). Lane 3 is not a bound; callers never use it.
inline void nodeBoundLanes(const BvhNode& n, __m128& out_lo, __m128& out_hi) {
    const __m128i zero = _mm_setzero_si128();
    out_lo =
        _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(n.lo)), zero));
    out_hi =
        _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(n.hi)), zero));
}
#endif

/// The exit parameter's rounding allowance of the slab test (segment_aabb.cpp explains it).
constexpr float kGridExitRoundUp = 1.0f + 1.0f / 1048576.0f;

/// The node test of segment-shaped walks (segments, swept spheres): the grid form (WideSegment,
/// eight children at once) where the grid allows it, else each child's box decoded (grown by the
/// walk's margin) against the slab form. shorten() lowers both forms' t_max together as a
/// closest-hit walk finds hits.
struct SegmentNodeTest {
    WideSegment wide; ///< with use_grid
    SlabSegment slab; ///< without use_grid, with the decoder
    NodeDecoder decoder;
    bool use_grid = false;

    /// The decoded form's decision on one box (without use_grid).
    bool operator()(const BvhNode& n) const {
        Aabb box;
        decodeNode(decoder, n, box);
        return segmentAabbOverlap(slab, box);
    }
    /// The same decision, with the parameter where the segment enters the (grown) node box.
    bool enters(const BvhNode& n, float& out_t_enter) const {
        Aabb box;
        decodeNode(decoder, n, box);
        float t_exit;
        return segmentAabb(slab, box, out_t_enter, t_exit);
    }
    /// Whether a node entered at t_enter may still hold a hit once the segment ends at t_max
    /// (the exit's rounding allowance included, so a node the test would take is never dropped).
    bool reaches(float t_enter) const {
        return t_enter <= (use_grid ? wide.t_max : slab.t_max) * kGridExitRoundUp;
    }
    void shorten(float t) {
        slab.t_max = t;
        wide.t_max = t;
    }
};

/// The order of first-hit answers: the lower t, and of equal t the lower triangle id. The
/// nearest-first walk visits leaves out of id order, so the id is compared, never implied.
inline bool closerHit(const RayHit& hit, std::uint32_t triangle, const MeshRayHit& best) {
    return hit.t < best.hit.t || (hit.t == best.hit.t && triangle < best.triangle);
}

/// Prepares the node test for the segment p0 -> p1 with node boxes grown by `grow`; false when the
/// segment has no valid slab form (non-finite input). The slab form and the decoder are made only
/// when the grid form cannot be used.
inline bool makeSegmentNodeTest(const MeshBlob& blob, const Vec3& p0, const Vec3& p1, float grow,
                                SegmentNodeTest& out) {
    Vec3 delta;
    sub(p1, p0, delta);
    if (!isFinite(p0) || !isFinite(delta)) return false; // prepareSegment's validity
    out.use_grid = makeWideSegment(blob, p0, p1, grow, out.wide);
    if (!out.use_grid) {
        prepareSegment(p0, p1, out.slab);
        makeNodeDecoder(blob, grow, out.decoder);
    }
    return true;
}

} // namespace flak::detail
