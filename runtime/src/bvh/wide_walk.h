// flak — the walks of a blob's tree (WideNodes, bvh/blob_format.h) that every single-mesh query
// makes: the tests of a node's eight children at once, against a quantized query box, a ball or a
// grid segment, and the two walk orders (id order; nearest first). The tests decode the children's
// boxes from the node's 8-bit steps into 16-bit lanes first. The box test then decides each child
// exactly as query_walk.h's nodeOverlaps decides the binary node of the child's decoded box in the
// mesh grid; the ball test adds the distance to each child's box in float lanes; the segment test
// is the grid slab test with its products taken apart, conservative within the same slack.
#pragma once

#include "bvh/query_walk.h"

#include <flak/assert.h>
#include <flak/bvh/mesh_blob.h>
#include <flak/math/simd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace flak::detail {

/// The slots of `n` in use, as bits: those before the first zero reference.
inline unsigned wideSlots(const WideNode& n) {
#if defined(FLAK_SIMD_SSE2)
    const __m128i zero = _mm_setzero_si128();
    const __m128i c0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(n.child));
    const __m128i c1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(n.child + 4));
    const __m128i unused = _mm_packs_epi32(_mm_cmpeq_epi32(c0, zero), _mm_cmpeq_epi32(c1, zero));
    return ~static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(unused, zero))) & 0xFFu;
#else
    return (1u << wideCount(n)) - 1u;
#endif
}

/// The union of the boxes of a wide node's children in the mesh grid's coordinates: the decoded
/// union of their steps (decoding is monotone, so it is the union of the decoded boxes). Unused
/// slots hold empty boxes (lo 255, hi 0), which change no minimum or maximum.
inline void wideUnion(const WideNode& n, std::int32_t out_lo[3], std::int32_t out_hi[3]) {
    std::int32_t lo[3], hi[3];
#if defined(FLAK_SIMD_SSE2)
    // Each 8-byte half folded to its byte 0 (the least or the greatest of its eight).
    const auto fold = [](__m128i v, auto op) {
        v = op(v, _mm_srli_epi64(v, 32));
        v = op(v, _mm_srli_epi64(v, 16));
        return op(v, _mm_srli_epi64(v, 8));
    };
    const auto least = [](__m128i a, __m128i b) { return _mm_min_epu8(a, b); };
    const auto most = [](__m128i a, __m128i b) { return _mm_max_epu8(a, b); };
    const auto low = [](__m128i v) { return _mm_cvtsi128_si32(v) & 0xFF; };     // byte 0
    const auto high = [](__m128i v) { return _mm_extract_epi16(v, 4) & 0xFF; }; // byte 8
    const __m128i lo_xy = fold(_mm_loadu_si128(reinterpret_cast<const __m128i*>(n.lo[0])), least);
    const __m128i lo_z_hi_x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(n.lo[2]));
    const __m128i hi_yz = fold(_mm_loadu_si128(reinterpret_cast<const __m128i*>(n.hi[1])), most);
    lo[0] = low(lo_xy), lo[1] = high(lo_xy), lo[2] = low(fold(lo_z_hi_x, least));
    hi[0] = high(fold(lo_z_hi_x, most)), hi[1] = low(hi_yz), hi[2] = high(hi_yz);
#else
    for (int k = 0; k < 3; ++k) {
        lo[k] = 255, hi[k] = 0;
        for (std::uint32_t c = 0; c < kWideChildren; ++c) {
            lo[k] = n.lo[k][c] < lo[k] ? n.lo[k][c] : lo[k];
            hi[k] = n.hi[k][c] > hi[k] ? n.hi[k][c] : hi[k];
        }
    }
#endif
    for (int k = 0; k < 3; ++k) wideStepsToGrid(n, k, lo[k], hi[k], out_lo[k], out_hi[k]);
}

/// The union of the boxes of a wide node's children as a binary node's box (in the mesh grid's
/// coordinates; info 0).
inline BvhNode wideUnionNode(const WideNode& n) {
    std::int32_t lo[3], hi[3];
    wideUnion(n, lo, hi);
    BvhNode out{};
    for (int k = 0; k < 3; ++k) {
        out.lo[k] = static_cast<std::uint16_t>(lo[k]);
        out.hi[k] = static_cast<std::uint16_t>(hi[k]);
    }
    return out;
}

/// A query box in the mesh grid, clamped to it: a child overlaps it when its decoded hi is at
/// least lo and its decoded lo at most hi on every axis, exactly when its grid box overlaps the
/// QuantBox (a bound beyond the grid is clamped to its end, which changes no decision, except
/// that a box wholly beyond the grid overlaps nothing: `outside`, and then lo is far beyond every
/// box and hi below every box).
struct WideBox {
    std::int32_t lo[3];
    std::int32_t hi[3];
    bool outside;
#if defined(FLAK_SIMD_SSE2)
    __m128i lo_lanes[3]; ///< lo in eight u16 lanes
    __m128i hi_lanes[3]; ///< hi in eight u16 lanes
#endif
};

inline void makeWideBox(const QuantBox& q, WideBox& out) {
    out.outside = false;
    for (int k = 0; k < 3; ++k) {
        const auto clamp = [](std::int32_t v) { return v < 0 ? 0 : (v > 65535 ? 65535 : v); };
        out.outside = out.outside || q.lo[k] > 65535 || q.hi[k] < 0;
        out.lo[k] = clamp(q.lo[k]);
        out.hi[k] = clamp(q.hi[k]);
#if defined(FLAK_SIMD_SSE2)
        out.lo_lanes[k] = _mm_set1_epi16(static_cast<short>(out.lo[k]));
        out.hi_lanes[k] = _mm_set1_epi16(static_cast<short>(out.hi[k]));
#endif
    }
    if (!out.outside) return;
    for (int k = 0; k < 3; ++k) { // overlaps nothing, for a walk that reads a box set during it
        out.lo[k] = 1 << 20;
        out.hi[k] = -1;
    }
}

/// The children of `n` whose decoded boxes overlap the box (nodeOverlaps on each child's box), as
/// bits.
inline unsigned wideOverlapsScalar(const WideNode& n, const WideBox& q) {
    unsigned mask = 0;
    for (std::uint32_t c = 0; c < wideCount(n); ++c) {
        std::int32_t lo[3], hi[3];
        wideChildGrid(n, c, lo, hi);
        bool in = true;
        for (int k = 0; k < 3; ++k) in = in && hi[k] >= q.lo[k] && lo[k] <= q.hi[k];
        mask |= in ? 1u << c : 0u;
    }
    return mask;
}

#if defined(FLAK_SIMD_SSE2)
/// u16 lane K of v in all eight lanes.
template <int K> inline __m128i splatU16(__m128i v) {
    if constexpr (K < 4)
        return _mm_shuffle_epi32(_mm_shufflelo_epi16(v, _MM_SHUFFLE(K, K, K, K)), 0x00);
    else
        return _mm_shuffle_epi32(_mm_shufflehi_epi16(v, _MM_SHUFFLE(K - 4, K - 4, K - 4, K - 4)), 0xAA);
}

/// Axis K of a wide node's eight children decoded (wideChildGrid) in u16 lanes, from the node's
/// first 16 bytes (base, step) and the step counts widened to u16. A step count times the step is
/// at most 255 * 256 and its low bits are zero, so the last step's end is an or, and the maximum
/// saturates at 65,535 with the base added. A used child's minimum is within the grid (the loader
/// proves it), so its sum does not wrap (an unused slot's may: the callers mask those).
template <int K>
inline void wideDecodeAxis(__m128i head, __m128i lo8, __m128i hi8, __m128i& out_lo, __m128i& out_hi) {
    const __m128i base = splatU16<K>(head), step = splatU16<3 + K>(head);
    const __m128i last = _mm_sub_epi16(step, _mm_set1_epi16(1));
    out_lo = _mm_add_epi16(_mm_mullo_epi16(lo8, step), base);
    out_hi = _mm_adds_epu16(base, _mm_or_si128(_mm_mullo_epi16(hi8, step), last));
}

/// A wide node's step counts, widened to u16 lanes: lo[k] and hi[k] per axis.
struct WideSteps {
    __m128i lo[3];
    __m128i hi[3];
};

inline void loadWideSteps(const WideNode& n, WideSteps& out) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i lo_xy = _mm_loadu_si128(reinterpret_cast<const __m128i*>(n.lo[0]));
    const __m128i lo_z_hi_x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(n.lo[2]));
    const __m128i hi_yz = _mm_loadu_si128(reinterpret_cast<const __m128i*>(n.hi[1]));
    out.lo[0] = _mm_unpacklo_epi8(lo_xy, zero);
    out.lo[1] = _mm_unpackhi_epi8(lo_xy, zero);
    out.lo[2] = _mm_unpacklo_epi8(lo_z_hi_x, zero);
    out.hi[0] = _mm_unpackhi_epi8(lo_z_hi_x, zero);
    out.hi[1] = _mm_unpacklo_epi8(hi_yz, zero);
    out.hi[2] = _mm_unpackhi_epi8(hi_yz, zero);
}

/// wideOverlaps' lanes: the eight children decoded per axis (u16 lanes, out_lo and out_hi) and the
/// bits of those in the box (a saturated difference is zero where the bound is on the right side).
inline unsigned wideDecodeOverlaps(const WideNode& n, const WideBox& q, __m128i out_lo[3],
                                   __m128i out_hi[3]) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i head = _mm_loadu_si128(reinterpret_cast<const __m128i*>(n.base)); // base, step
    WideSteps steps;
    loadWideSteps(n, steps);
    wideDecodeAxis<0>(head, steps.lo[0], steps.hi[0], out_lo[0], out_hi[0]);
    wideDecodeAxis<1>(head, steps.lo[1], steps.hi[1], out_lo[1], out_hi[1]);
    wideDecodeAxis<2>(head, steps.lo[2], steps.hi[2], out_lo[2], out_hi[2]);
    __m128i miss = zero;
    for (int k = 0; k < 3; ++k)
        miss = _mm_or_si128(miss, _mm_or_si128(_mm_subs_epu16(q.lo_lanes[k], out_hi[k]),
                                               _mm_subs_epu16(out_lo[k], q.hi_lanes[k])));
    const __m128i hit = _mm_cmpeq_epi16(miss, zero);
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(hit, zero))) & wideSlots(n);
}
#endif

/// wideOverlapsScalar, the eight children in u16 lanes: each child's bounds decoded and compared
/// unsigned.
inline unsigned wideOverlaps(const WideNode& n, const WideBox& q) {
#if defined(FLAK_SIMD_SSE2)
    if (q.outside) return 0;
    __m128i lo[3], hi[3];
    return wideDecodeOverlaps(n, q, lo, hi);
#else
    return wideOverlapsScalar(n, q);
#endif
}

/// A ball as the sphere walks test a node's children: first the grid cube around it (WideBox), then
/// the squared distance from the centre to each child's box decoded with the walk margin folded in
/// (decodeNode on a NodeDecoder grown by `grow`) against the squared radius. The cube alone lets
/// in the children near its corners; the distance test keeps them out. Conservative as the cube
/// is: a triangle the kernel accepts lies within radius + its band of the centre, its node's box
/// grown by the margin comes nearer still, and the float distance is good to a few ulps, far
/// inside the margin the radius carries. `set` may shrink the ball during a walk.
struct WideBall {
    WideBox cube;
    Vec3 centre;
    NodeDecoder decoder;
    float radius_sq = 0.0f;
#if defined(FLAK_SIMD_SSE2)
    __m128 centre_lanes[3], lo_origin[3], hi_origin[3], scale[3], radius_sq_lanes;
#endif

    /// The ball (centre, radius) in blob's grid, node boxes grown by `grow`: setLanes where the
    /// grid has no flat axis and the cube is ordered (no NaN), else setScalar. Both give the same
    /// bits in every field.
    void set(const MeshBlob& blob, const Vec3& c, float radius, float grow) {
#if defined(FLAK_SIMD_SSE2)
        if (setLanes(blob, c, radius, grow)) return;
#endif
        setScalar(blob, c, radius, grow);
    }

    /// set() as the composition of quantizeCube, makeWideBox and makeNodeDecoder.
    void setScalar(const MeshBlob& blob, const Vec3& c, float radius, float grow) {
        QuantBox q;
        quantizeCube(blob, c, radius, q);
        makeWideBox(q, cube);
        centre = c;
        makeNodeDecoder(blob, grow, decoder);
        radius_sq = radius * radius;
#if defined(FLAK_SIMD_SSE2)
        for (int k = 0; k < 3; ++k) {
            centre_lanes[k] = _mm_set1_ps(c[k]);
            lo_origin[k] = _mm_set1_ps(decoder.lo_origin[k]);
            hi_origin[k] = _mm_set1_ps(decoder.hi_origin[k]);
            scale[k] = _mm_set1_ps(decoder.scale[k]);
        }
        radius_sq_lanes = _mm_set1_ps(radius_sq);
#endif
    }

#if defined(FLAK_SIMD_SSE2)
    /// setScalar's values computed in lanes, with no branch on the ball's place: the cube's grid
    /// coordinates as quantizeCube takes them (cubeLanes), then makeWideBox's clamps to the grid
    /// taken in float before the truncation (the grid coordinate g is within [-2, 70000], so
    /// trunc(max(min(g, 65537), 2)) - 2 is clamp(trunc(g) - 2, 0, 65535) and trunc(min(g, 65533))
    /// + 2 is clamp(trunc(g) + 2, 0, 65535)), a bound beyond the grid's top (trunc(g) - 2 > 65535,
    /// so g >= 65538) making the cube `outside`; the origins and lanes from the same operations.
    /// False, with nothing set, where cubeLanes is false (a flat or non-finite step, a cube not
    /// ordered).
    bool setLanes(const MeshBlob& blob, const Vec3& c, float radius, float grow) {
        CubeLanes lanes;
        if (!cubeLanes(blob, c, radius, lanes)) return false;
        const __m128 glo = lanes.glo, ghi = lanes.ghi, c4 = lanes.centre, step = lanes.step,
                     origin = lanes.origin;
        const __m128i lo = _mm_sub_epi32(
            _mm_cvttps_epi32(_mm_max_ps(_mm_min_ps(glo, _mm_set1_ps(65537.0f)), _mm_set1_ps(2.0f))),
            _mm_set1_epi32(2));
        const __m128i hi =
            _mm_add_epi32(_mm_cvttps_epi32(_mm_min_ps(ghi, _mm_set1_ps(65533.0f))), _mm_set1_epi32(2));
        cube.outside = (_mm_movemask_ps(_mm_cmpge_ps(glo, _mm_set1_ps(65538.0f))) & 7) != 0;
        // u16 lane 2k is the low half of lane k: the bounds as makeWideBox's lanes.
        cube.lo_lanes[0] = splatU16<0>(lo), cube.lo_lanes[1] = splatU16<2>(lo),
        cube.lo_lanes[2] = splatU16<4>(lo);
        cube.hi_lanes[0] = splatU16<0>(hi), cube.hi_lanes[1] = splatU16<2>(hi),
        cube.hi_lanes[2] = splatU16<4>(hi);
        alignas(16) std::int32_t ilo[4], ihi[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(ilo), lo);
        _mm_store_si128(reinterpret_cast<__m128i*>(ihi), hi);
        for (int k = 0; k < 3; ++k) { // overlaps nothing when outside, as makeWideBox leaves it
            cube.lo[k] = cube.outside ? 1 << 20 : ilo[k];
            cube.hi[k] = cube.outside ? -1 : ihi[k];
        }
        const __m128 g = _mm_set1_ps(grow);
        const __m128 lo_o = _mm_sub_ps(origin, g), hi_o = _mm_add_ps(origin, g);
        alignas(16) float lo_f[4], hi_f[4];
        _mm_store_ps(lo_f, lo_o);
        _mm_store_ps(hi_f, hi_o);
        centre = c;
        flak::set(lo_f[0], lo_f[1], lo_f[2], decoder.lo_origin);
        flak::set(hi_f[0], hi_f[1], hi_f[2], decoder.hi_origin);
        decoder.scale = blob.quant_scale;
        radius_sq = radius * radius;
        centre_lanes[0] = _mm_shuffle_ps(c4, c4, 0x00), centre_lanes[1] = _mm_shuffle_ps(c4, c4, 0x55),
        centre_lanes[2] = _mm_shuffle_ps(c4, c4, 0xAA);
        lo_origin[0] = _mm_shuffle_ps(lo_o, lo_o, 0x00), lo_origin[1] = _mm_shuffle_ps(lo_o, lo_o, 0x55),
        lo_origin[2] = _mm_shuffle_ps(lo_o, lo_o, 0xAA);
        hi_origin[0] = _mm_shuffle_ps(hi_o, hi_o, 0x00), hi_origin[1] = _mm_shuffle_ps(hi_o, hi_o, 0x55),
        hi_origin[2] = _mm_shuffle_ps(hi_o, hi_o, 0xAA);
        scale[0] = _mm_shuffle_ps(step, step, 0x00), scale[1] = _mm_shuffle_ps(step, step, 0x55),
        scale[2] = _mm_shuffle_ps(step, step, 0xAA);
        radius_sq_lanes = _mm_set1_ps(radius_sq);
        return true;
    }
#endif
};

/// The children of `n` in the ball's cube (wideOverlaps) whose decoded box is within the radius
/// of the centre, as bits: per axis the box's clamp of the centre, max(lo, min(hi, c)), and the
/// squares of the offsets summed x, y, z.
inline unsigned wideBallOverlapsScalar(const WideNode& n, const WideBall& b) {
    unsigned mask = 0;
    const unsigned cube = wideOverlapsScalar(n, b.cube);
    for (std::uint32_t c = 0; c < wideCount(n); ++c) {
        if (((cube >> c) & 1u) == 0u) continue;
        Aabb box;
        decodeNode(b.decoder, wideChildNode(n, c), box);
        float sq = 0.0f;
        for (int k = 0; k < 3; ++k) {
            const float low = box.min[k], high = box.max[k], centre = b.centre[k];
            const float inside = high < centre ? high : centre;
            const float closest = low > inside ? low : inside;
            const float off = centre - closest;
            sq = k == 0 ? off * off : sq + off * off;
        }
        mask |= b.radius_sq < sq ? 0u : 1u << c;
    }
    return mask;
}

#if defined(FLAK_SIMD_SSE2)
/// Half h of eight decoded bounds in u16 lanes (children 0..3 for h = 0, 4..7 for h = 1) as
/// decodeNode's floats: origin + q * scale.
inline __m128 decodeLaneHalf(__m128i q, int h, __m128 origin, __m128 scale) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i q32 = h == 0 ? _mm_unpacklo_epi16(q, zero) : _mm_unpackhi_epi16(q, zero);
    return _mm_add_ps(origin, _mm_mul_ps(_mm_cvtepi32_ps(q32), scale));
}

/// One axis of wideBallOverlaps: the children's decoded bounds (u16 lanes) as decodeNode's floats,
/// the centre clamped to them, the squared offsets added to sq[0] (children 0..3) and sq[1] (4..7).
template <int K> inline void wideBallAxis(const WideBall& b, __m128i lo, __m128i hi, __m128 sq[2]) {
    for (int h = 0; h < 2; ++h) {
        const __m128 low = decodeLaneHalf(lo, h, b.lo_origin[K], b.scale[K]);
        const __m128 high = decodeLaneHalf(hi, h, b.hi_origin[K], b.scale[K]);
        // min_ps(a, b) is a < b ? a : b and max_ps(a, b) is a > b ? a : b: the scalar selects.
        const __m128 closest = _mm_max_ps(low, _mm_min_ps(high, b.centre_lanes[K]));
        const __m128 off = _mm_sub_ps(b.centre_lanes[K], closest);
        sq[h] = K == 0 ? _mm_mul_ps(off, off) : _mm_add_ps(sq[h], _mm_mul_ps(off, off));
    }
}
#endif

/// wideBallOverlapsScalar, the eight children in lanes with its operations in its order: the cube
/// in u16 lanes (wideOverlaps), then, where a child is in it, the distances in float lanes.
inline unsigned wideBallOverlaps(const WideNode& n, const WideBall& b) {
#if defined(FLAK_SIMD_SSE2)
    if (b.cube.outside) return 0;
    __m128i lo[3], hi[3];
    const unsigned cube = wideDecodeOverlaps(n, b.cube, lo, hi);
    if (cube == 0u) return 0u;
    __m128 sq[2];
    wideBallAxis<0>(b, lo[0], hi[0], sq);
    wideBallAxis<1>(b, lo[1], hi[1], sq);
    wideBallAxis<2>(b, lo[2], hi[2], sq);
    const unsigned near = static_cast<unsigned>(_mm_movemask_ps(_mm_cmpnlt_ps(b.radius_sq_lanes, sq[0]))) |
                          static_cast<unsigned>(_mm_movemask_ps(_mm_cmpnlt_ps(b.radius_sq_lanes, sq[1])))
                              << 4;
    return cube & near;
#else
    return wideBallOverlapsScalar(n, b);
#endif
}

/// The children of `n` the segment enters before its t_max, as bits; out_t_enter[c] is child c's
/// entry parameter for every slot in use: the slab test on each child's decoded grid box grown by
/// the slack, one axis after the other. Conservative: the slack covers the rounding of the
/// parameters (a few ulps of the grid coordinates involved) besides the walk's margin.
inline unsigned wideEntersScalar(const WideSegment& s, const WideNode& n, float out_t_enter[kWideChildren]) {
    unsigned mask = 0;
    for (std::uint32_t c = 0; c < wideCount(n); ++c) {
        std::int32_t lo[3], hi[3];
        wideChildGrid(n, c, lo, hi);
        float t_enter = 0.0f;
        float t_exit = s.t_max;
        for (int k = 0; k < 3; ++k) {
            const bool down = runsDown(s, k);
            const float qn = static_cast<float>(down ? hi[k] : lo[k]);
            const float qf = static_cast<float>(down ? lo[k] : hi[k]);
            const float t_near = qn * s.inv[k] + s.near[k];
            const float t_far = qf * s.inv[k] + s.far[k];
            t_enter = t_near > t_enter ? t_near : t_enter;
            t_exit = t_far < t_exit ? t_far : t_exit;
        }
        out_t_enter[c] = t_enter;
        if (t_enter <= t_exit * kGridExitRoundUp) mask |= 1u << c;
    }
    return mask;
}

#if defined(FLAK_SIMD_SSE2)
/// One axis of wideEnters: the children's near and far bounds decoded as wideDecodeAxis decodes
/// them (the steps read where the segment's offsets point, the last step's end added to the upper
/// bound by the segment's mask, so no branch on its direction), widened to float (exact), their
/// slab parameters folded into each half's entry and exit. A lower bound takes the saturating add
/// too: a used child's minimum is within the grid (the loader proves it), so it never saturates.
template <int K>
inline void wideAxisEnters(const WideSegment& s, const WideNode& n, __m128i head, __m128 enter[2],
                           __m128 exit[2]) {
    const __m128i zero = _mm_setzero_si128();
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(&n);
    const __m128i near8 =
        _mm_unpacklo_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes + s.near_byte[K])), zero);
    const __m128i far8 =
        _mm_unpacklo_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes + s.far_byte[K])), zero);
    const __m128i base = splatU16<K>(head), step = splatU16<3 + K>(head);
    const __m128i last = _mm_sub_epi16(step, _mm_set1_epi16(1));
    const __m128i qn =
        _mm_adds_epu16(base, _mm_or_si128(_mm_mullo_epi16(near8, step), _mm_and_si128(last, s.near_high[K])));
    const __m128i qf = _mm_adds_epu16(
        base, _mm_or_si128(_mm_mullo_epi16(far8, step), _mm_andnot_si128(s.near_high[K], last)));
    const __m128 inv = _mm_set1_ps(s.inv[K]), near = _mm_set1_ps(s.near[K]), far = _mm_set1_ps(s.far[K]);
    const __m128i qn32[2] = {_mm_unpacklo_epi16(qn, zero), _mm_unpackhi_epi16(qn, zero)};
    const __m128i qf32[2] = {_mm_unpacklo_epi16(qf, zero), _mm_unpackhi_epi16(qf, zero)};
    for (int h = 0; h < 2; ++h) {
        const __m128 t_near = _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(qn32[h]), inv), near);
        const __m128 t_far = _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(qf32[h]), inv), far);
        // max_ps(a, b) is a > b ? a : b and min_ps(a, b) is a < b ? a : b: the scalar selects.
        enter[h] = _mm_max_ps(t_near, enter[h]);
        exit[h] = _mm_min_ps(t_far, exit[h]);
    }
}
#endif

/// wideEntersScalar, four children a lane group with the very same operations in the same order
/// (the bounds decoded in u16 lanes, exactly as wideChildGrid decodes them), so both give the same
/// bits and parameters.
inline unsigned wideEnters(const WideSegment& s, const WideNode& n, float out_t_enter[kWideChildren]) {
#if defined(FLAK_SIMD_SSE2)
    const __m128i head = _mm_loadu_si128(reinterpret_cast<const __m128i*>(n.base)); // base, step
    __m128 enter[2] = {_mm_setzero_ps(), _mm_setzero_ps()};
    __m128 exit[2] = {_mm_set1_ps(s.t_max), _mm_set1_ps(s.t_max)};
    wideAxisEnters<0>(s, n, head, enter, exit);
    wideAxisEnters<1>(s, n, head, enter, exit);
    wideAxisEnters<2>(s, n, head, enter, exit);
    const __m128 round_up = _mm_set1_ps(kGridExitRoundUp);
    const int lo = _mm_movemask_ps(_mm_cmple_ps(enter[0], _mm_mul_ps(exit[0], round_up)));
    const int hi = _mm_movemask_ps(_mm_cmple_ps(enter[1], _mm_mul_ps(exit[1], round_up)));
    _mm_storeu_ps(out_t_enter, enter[0]);
    _mm_storeu_ps(out_t_enter + 4, enter[1]);
    return (static_cast<unsigned>(lo) | static_cast<unsigned>(hi) << 4) & wideSlots(n);
#else
    return wideEntersScalar(s, n, out_t_enter);
#endif
}

/// A level of a walk of the wide tree kept on its stack: a node and the bits of its entered
/// children not yet taken (never 0 on the stack). The walks in id order keep the node at hand and
/// its children still to take, and stack that pair when they descend while children remain: one
/// frame a level, fewer than kMaxTreeDepth in all (the depth the loader proves).
struct WideFrame {
    std::uint32_t node;
    unsigned rest;
};

/// The next child of a walk on frames: the lowest slot of `rest` (of `node`), or, when rest is
/// empty, of the frame popped from above `base`. False when none is left.
inline bool nextWideSlot(const WideFrame* stack, std::uint32_t base, std::uint32_t& kept, std::uint32_t& node,
                         unsigned& rest, std::uint32_t& out_slot) {
    if (rest == 0u) {
        if (kept == base) return false;
        --kept;
        node = stack[kept].node;
        rest = stack[kept].rest;
    }
    out_slot = static_cast<std::uint32_t>(__builtin_ctz(rest));
    rest &= rest - 1u;
    return true;
}

/// Keeps (node, rest) before the walk descends into one of node's children: stored always, kept
/// only if children remain (no branch).
inline void keepWideFrame(WideFrame* stack, std::uint32_t& kept, std::uint32_t node, unsigned rest) {
    FLAK_ASSERT(kept < kMaxTreeDepth - 1u, "the loader bounds the tree's depth");
    stack[kept] = WideFrame{node, rest};
    kept += rest != 0u ? 1u : 0u;
}

/// Calls visit(parent, slot) for every leaf slot under wide node `root` that the walk enters, in
/// id order (children taken lowest slot first, each subtree finished before the next slot):
/// `children(node)` gives the bits of a node's children to enter. visit returns true to stop the
/// walk, and then so does this. It keeps its frames in `stack` past the first `base`: another
/// walk of the same tree may keep its own below them, for the levels above `root`, so the two
/// together keep fewer than kMaxTreeDepth.
template <typename Children, typename Visit>
inline bool walkWideLeafSlots(const MeshBlob& m, std::uint32_t root, WideFrame* stack, std::uint32_t base,
                              Children&& children, Visit&& visit) {
    std::uint32_t kept = base;
    std::uint32_t node = root;
    unsigned rest = children(m.wide_nodes[node]);
    for (;;) {
        std::uint32_t slot;
        if (!nextWideSlot(stack, base, kept, node, rest, slot)) return false;
        const WideNode& parent = m.wide_nodes[node];
        const std::uint32_t ref = parent.child[slot];
        if ((ref & kLeafBit) != 0) {
            if (visit(parent, slot)) return true;
            continue;
        }
        keepWideFrame(stack, kept, node, rest);
        node = ref;
        rest = children(m.wide_nodes[node]);
    }
}

/// walkWideLeafSlots on a stack of its own.
template <typename Children, typename Visit>
inline bool walkWideLeafSlots(const MeshBlob& m, std::uint32_t root, Children&& children, Visit&& visit) {
    WideFrame stack[kMaxTreeDepth];
    return walkWideLeafSlots(m, root, stack, 0, children, visit);
}

/// The walk in id order from the root (walkWideLeafSlots): `children(node)` gives the bits of a
/// node's children to enter; `visit_leaf(first, count)` is called for every entered leaf (its
/// triangles are first .. first + count - 1) in id order and returns false to end the walk.
/// Returns false when visit_leaf ended it. Both callables may carry state the other changes.
template <typename Children, typename VisitLeaf>
inline bool walkWideLeaves(const MeshBlob& blob, Children&& children, VisitLeaf&& visit_leaf) {
    if (blob.wide_node_count == 0) return true;
    return !walkWideLeafSlots(blob, 0, children, [&](const WideNode& parent, std::uint32_t slot) {
        const std::uint32_t ref = parent.child[slot];
        return !visit_leaf(leafInfoFirst(ref), leafInfoCount(ref));
    });
}

/// The nearest-first walk of closest-hit segment queries: `children(node, t)` gives the bits of
/// the children the segment enters before `test`'s current end and each one's entry parameter
/// t[c]. The entered children of a node are taken in order of their entry parameter (of equal
/// ones, the lower slot first), the farther ones kept on the stack with their parameter and
/// dropped when popped beyond the segment's current end (test.reaches). Leaves are not met in id
/// order: a caller that breaks ties by triangle id must compare ids itself.
template <typename Children, typename VisitLeaf>
inline bool walkWideNearestFirst(const MeshBlob& blob, const SegmentNodeTest& test, Children&& children,
                                 VisitLeaf&& visit_leaf) {
    struct Pending {
        std::uint32_t ref;
        float t_enter;
    };
    if (blob.wide_node_count == 0) return true;
    Pending stack[kWideStack];
    std::uint32_t pending = 0;
    std::uint32_t node = 0;
    for (;;) {
        const WideNode& n = blob.wide_nodes[node];
        float t[kWideChildren];
        unsigned hits = children(n, t);
        FLAK_ASSERT(pending + static_cast<std::uint32_t>(__builtin_popcount(hits)) <= kWideStack,
                    "the loader bounds the wide walk's stack");
        std::uint32_t next = 0;
        bool descend = false;
        if (hits != 0) {
            const std::uint32_t first = static_cast<std::uint32_t>(__builtin_ctz(hits));
            if ((hits &= hits - 1u) == 0) { // one child entered: no stack
                next = n.child[first];
                descend = true;
            } else { // by entry parameter (stable), the farther ones kept, the nearest taken
                std::uint32_t order[kWideChildren];
                order[0] = first;
                std::uint32_t k = 1;
                for (; hits != 0; hits &= hits - 1u) {
                    const std::uint32_t c = static_cast<std::uint32_t>(__builtin_ctz(hits));
                    std::uint32_t at = k++;
                    while (at > 0 && t[order[at - 1]] > t[c]) {
                        order[at] = order[at - 1];
                        --at;
                    }
                    order[at] = c;
                }
                while (k > 1) {
                    const std::uint32_t c = order[--k];
                    stack[pending++] = Pending{n.child[c], t[c]};
                }
                next = n.child[order[0]];
                descend = true;
            }
        }
        if (descend && (next & kLeafBit) != 0) {
            if (!visit_leaf(leafInfoFirst(next), leafInfoCount(next))) return false;
            descend = false;
        }
        while (!descend) { // the next kept child the segment still reaches
            if (pending == 0) return true;
            const Pending kept = stack[--pending];
            if (!test.reaches(kept.t_enter)) continue;
            if ((kept.ref & kLeafBit) == 0) {
                next = kept.ref;
                descend = true;
            } else if (!visit_leaf(leafInfoFirst(kept.ref), leafInfoCount(kept.ref))) {
                return false;
            }
        }
        node = next;
    }
}

/// walkWideLeaves with a test of one box (`node_test(const BvhNode&)`): each child is tested as
/// the binary node of its box (wideChildNode), one after the other. For the tests with no
/// eight-child form.
template <typename NodeTest, typename VisitLeaf>
inline bool walkNodeTestLeaves(const MeshBlob& blob, NodeTest&& node_test, VisitLeaf&& visit_leaf) {
    return walkWideLeaves(
        blob,
        [&](const WideNode& n) {
            unsigned bits = 0;
            for (std::uint32_t c = 0; c < wideCount(n); ++c)
                bits |= node_test(wideChildNode(n, c)) ? 1u << c : 0u;
            return bits;
        },
        visit_leaf);
}

/// The leaves a box in grid form overlaps, in id order (walkWideLeaves with wideOverlaps).
template <typename VisitLeaf>
inline bool walkBoxLeaves(const MeshBlob& blob, const QuantBox& box, VisitLeaf&& visit_leaf) {
    WideBox wide;
    makeWideBox(box, wide);
    if (wide.outside) return true;
    return walkWideLeaves(
        blob, [&](const WideNode& n) { return wideOverlaps(n, wide); }, visit_leaf);
}

/// The leaves a ball reaches (wideBallOverlaps), in id order. Each node test reads the ball as it
/// is then, so a visitor that shrinks it (ball.set) prunes the rest of the walk.
template <typename VisitLeaf>
inline bool walkBallLeaves(const MeshBlob& blob, const WideBall& ball, VisitLeaf&& visit_leaf) {
    if (ball.cube.outside) return true;
    return walkWideLeaves(
        blob, [&](const WideNode& n) { return wideBallOverlaps(n, ball); }, visit_leaf);
}

/// A leaf visitor that calls `visit(triangle)` for each triangle of the leaf, in id order, and
/// ends the walk when visit returns false.
template <typename Visit> inline auto eachTriangle(Visit& visit) {
    return [&visit](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t t = first; t < first + count; ++t)
            if (!visit(t)) return false;
        return true;
    };
}

/// walkBoxLeaves with `visit(triangle)` for every triangle of an entered leaf, in id order.
template <typename Visit>
inline bool walkBoxTriangles(const MeshBlob& blob, const QuantBox& box, Visit&& visit) {
    return walkBoxLeaves(blob, box, eachTriangle(visit));
}

/// walkBallLeaves with `visit(triangle)` for every triangle of an entered leaf, in id order.
template <typename Visit>
inline bool walkBallTriangles(const MeshBlob& blob, const WideBall& ball, Visit&& visit) {
    return walkBallLeaves(blob, ball, eachTriangle(visit));
}

/// The leaves a segment test enters, in id order (walkWideLeaves): eight children at once with a
/// test in grid form, else each child decoded (SegmentNodeTest).
template <typename VisitLeaf>
inline bool walkSegmentLeaves(const MeshBlob& blob, const SegmentNodeTest& test, VisitLeaf&& visit_leaf) {
    if (!test.use_grid) return walkNodeTestLeaves(blob, test, visit_leaf);
    return walkWideLeaves(
        blob,
        [&](const WideNode& n) {
            float t[kWideChildren];
            return wideEnters(test.wide, n, t);
        },
        visit_leaf);
}

/// walkWideNearestFirst from the root: a test in grid form takes eight children at once
/// (wideEnters); on a grid with a flat axis each child is decoded (SegmentNodeTest::enters).
template <typename VisitLeaf>
inline bool walkSegmentNearestFirst(const MeshBlob& blob, SegmentNodeTest& test, VisitLeaf&& visit_leaf) {
    if (!test.use_grid) {
        const auto children = [&](const WideNode& n, float t[kWideChildren]) {
            unsigned bits = 0;
            for (std::uint32_t c = 0; c < wideCount(n); ++c)
                bits |= test.enters(wideChildNode(n, c), t[c]) ? 1u << c : 0u;
            return bits;
        };
        return walkWideNearestFirst(blob, test, children, visit_leaf);
    }
    const auto children = [&](const WideNode& n, float t[kWideChildren]) {
        return wideEnters(test.wide, n, t);
    };
    return walkWideNearestFirst(blob, test, children, visit_leaf);
}

} // namespace flak::detail
