#include "bvh_build.h"

#include <flak/bvh/blob_format.h>
#include <flak/cpu.h>
#include <flak/math/simd.h>

// The binning pass and the SAH sweep in 256-bit vectors where the CPU has AVX2 (chosen at run
// time, as the runtime's triangle tests are; FLAK_AVX2=OFF leaves them out, as the sanitize
// preset does). GCC and Clang on x86 only.
#if defined(FLAK_SIMD_SSE2) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) &&            \
    !defined(FLAK_NO_AVX2)
#define FLAK_BUILD_AVX2 1
#include <immintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

namespace flak::bake {

namespace {

// A triangle's box with its id in the spare lane: 32 bytes, moved as a unit by the partition so
// each level streams through memory in order.
struct alignas(16) PrimRef {
    float lo[4]; // lo[3] carries the id, biased into normal floats (see kIdBias)
    float hi[4];
};

// Ids are stored as the bits id + kIdBias: exponents 128..135 for ids below 2^26, so the spare lane
// never holds a denormal (which can slow vector arithmetic on some cores) or a NaN.
constexpr std::uint32_t kIdBias = 0x40000000u;

// The bins of one node: up to kSets sets of 3 axes x nb bins, the boxes (32 bytes, so a bin's
// address is one shift away from its index) apart from the counts.
constexpr std::uint32_t kSets = 4;
struct BinBox {
    F4 lo, hi;
};
struct Bins {
    std::uint32_t stride = 0; // 3 * the most bins per axis: one set
    std::vector<BinBox> box;
    std::vector<std::uint32_t> count;
    // binReferencesWide's bins, each the box's minimum and negated maximum in one 256-bit vector.
    struct alignas(32) Wide {
        float v[8];
    };
    std::vector<Wide> wide;
};

// How many sets of bins a node's references alternate between (binReferences): more sets cut the
// store-to-load chains of neighbouring references that fall into the same bin, and cost a reset
// and a fold each. With plain coordinates, one set up to kOneSetMax references, two up to
// kTwoSetsMax, then four; otherwise always two (min and max then depend on the order in which
// they see NaNs and signed zeros, so the general path keeps one order).
constexpr std::uint32_t kOneSetMax = 128;
constexpr std::uint32_t kTwoSetsMax = 1024;
// Nodes of up to this many references are partitioned by gatherPartition, larger ones by the swap
// walk itself: their references still lie in the mesh's order, which keeps the walk's branches
// predictable, and the gather's extra passes over them would cost more than it saves.
constexpr std::uint32_t kGatherMax = 1024;

// Scratch of the SAH sweep, one entry per candidate plane of each axis (axis a's plane p at
// a * planes + p): the extents of the boxes on either side, then their half areas and costs, each
// in its own loop that the compiler vectorises over four planes at a time with the same IEEE
// operations, lane by lane, as halfArea.
struct Sweep {
    static constexpr std::uint32_t kPlanes = 3 * 64;
    alignas(16) float left_extent[kPlanes][4];
    alignas(16) float right_extent[kPlanes][4];
    float left_area[kPlanes], right_area[kPlanes], cost[kPlanes];
    std::int32_t left_count[kPlanes], right_count[kPlanes];
};

// Scratch of gatherPartition, sized once for the largest range it is given.
struct GatherScratch {
    std::vector<PrimRef> copy;         // the references that would be overwritten before read
    std::vector<std::uint8_t> left;    // 1: the reference goes left; a sentinel 1 past the end
    std::vector<std::uint32_t> xs, ys; // see gatherPartition; one spare slot each
    std::vector<std::uint32_t> bins; // each reference's bin on x, y and z (a byte each), kept by the binning
};

struct Task {
    std::uint32_t begin, end; // range of PrimRefs
    std::uint32_t parent;     // index of the parent node (kNone for the root)
    std::uint32_t depth;
    F4 lo, hi;   // node bounds
    F4 clo, chi; // centroid bounds (centroids times two: lo + hi)
};

// Centroid-bound minimum of a task along axis a.
float cl_of(const Task& t, int a) {
    alignas(16) float c[4];
    f4Store(t.clo, c);
    return c[a];
}

// A bin position truncated to a bin index, at most `last`: 0 for a position below 1 and for NaN
// (a centroid span so small that its reciprocal overflows gives 0 * inf), never a float-to-integer
// conversion out of range. Clamped as selects (maxss and minss, no branch: the partition's
// references near a node's ends would mispredict them), then truncated; `last` is below 2^24, so
// it converts exactly both ways.
std::uint32_t binIndex(float t, std::uint32_t last) {
    const float low = t > 0.0f ? t : 0.0f; // NaN: 0
    const float high = static_cast<float>(last);
    return static_cast<std::uint32_t>(low < high ? low : high);
}

// Bin of a reference's centroid (times two) along axis a: the same float operations, lane by lane,
// as the vectorised binning pass, whose clamp in lanes gives binIndex's result, so binning and
// partition always agree.
std::uint32_t binOf(const PrimRef& r, int a, float cmin, float scale, std::uint32_t nbins) {
    const float cen = r.lo[a] + r.hi[a];
    return binIndex((cen - cmin) * scale, nbins - 1);
}

std::uint32_t idOf(const PrimRef& p) {
    std::uint32_t bits;
    std::memcpy(&bits, &p.lo[3], 4);
    return bits - kIdBias;
}

// Half the surface area. One vector subtract and one store: this runs twice per bin per axis per
// node, which near the leaves costs more than the binning itself.
float halfArea(const F4& lo, const F4& hi) {
    F4 d;
    f4Sub(hi, lo, d);
    alignas(16) float e[4];
    f4Store(d, e);
    return e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
}

// Every coordinate finite and none -0: min and max over such values give the same bits in any
// order (they would not with a NaN, and min(+0, -0) depends on the operand order).
bool allPlain(const std::vector<Vec3>& positions) {
    bool plain = true;
    for (const Vec3& p : positions) {
        for (float x : {p.x, p.y, p.z}) {
            std::uint32_t bits;
            std::memcpy(&bits, &x, 4);
            plain &= std::isfinite(x) & (bits != 0x80000000u);
        }
    }
    return plain;
}

// Bins the references of [begin, end) along the three axes into `sets` sets of bins (1, 2 or 4,
// reference i into set i mod sets: see kOneSetMax), then folds the sets into the first, in order.
// Bin of a centroid: its offset from the centroid minimum times scale, truncated, at most nb - 1
// (the same float operations as binOf). out_kept (null: not kept) receives each reference's bins,
// x, y and z a byte each from the lowest, so that the partition need not compute them again.
void binReferences(const PrimRef* refs, std::uint32_t begin, std::uint32_t end, const F4& cmin,
                   const float* scale, std::uint32_t nb, std::uint32_t sets, Bins& bins,
                   std::uint32_t* out_kept) {
    const float inf = std::numeric_limits<float>::infinity();
    BinBox* const box = bins.box.data();
    std::uint32_t* const count = bins.count.data();
    const std::uint32_t stride = bins.stride;
    for (std::uint32_t s = 0; s < sets * stride; s += stride) {
        for (std::uint32_t b = s; b < s + 3 * nb; ++b) {
            f4Set(inf, inf, inf, inf, box[b].lo);
            f4Set(-inf, -inf, -inf, -inf, box[b].hi);
        }
        std::fill(count + s, count + s + 3 * nb, 0u);
    }
    F4 scale4, zero, last4;
    f4Load(scale, scale4);
    const std::uint32_t set_mask = sets - 1;
    const std::uint32_t last = nb - 1;
    f4Splat(0.0f, zero);
    f4Splat(static_cast<float>(last), last4);
    for (std::uint32_t i = begin; i < end; ++i) {
        F4 l, h, t;
        f4Load(refs[i].lo, l);
        f4Load(refs[i].hi, h);
        f4Add(l, h, t);
        f4Sub(t, cmin, t);
        f4Mul(t, scale4, t);
        // binIndex's clamp in lanes, no branch: f4Max(t, 0) is t > 0 ? t : 0 (0 for NaN), then
        // f4Min(, last) is t < last ? t : last, so the truncation below gives binIndex(t, last).
        f4Max(t, zero, t);
        f4Min(t, last4, t);
        alignas(16) float tk[4];
        f4Store(t, tk);
        const std::uint32_t set = (i & set_mask) * stride;
        std::uint32_t kept = 0;
        for (std::uint32_t a = 0; a < 3; ++a) {
            const std::uint32_t k = static_cast<std::uint32_t>(tk[a]);
            const std::uint32_t b = set + a * nb + k;
            f4Min(box[b].lo, l, box[b].lo);
            f4Max(box[b].hi, h, box[b].hi);
            ++count[b];
            kept |= k << (8 * a);
        }
        if (out_kept != nullptr) out_kept[i - begin] = kept;
    }
    for (std::uint32_t s = stride; s < sets * stride; s += stride) {
        for (std::uint32_t b = 0; b < 3 * nb; ++b) {
            f4Min(box[b].lo, box[s + b].lo, box[b].lo);
            f4Max(box[b].hi, box[s + b].hi, box[b].hi);
            count[b] += count[s + b];
        }
    }
}

#if defined(FLAK_BUILD_AVX2)
// binReferences in 256-bit vectors: each bin holds its box as (minimum, negated maximum), so one
// min updates both halves, and is written back as binReferences leaves it. The same bits as
// binReferences for every input: -max(a, b) is min(-a, -b) exactly, and SSE's min and max both
// give their second operand for equal values (+0 and -0 included) and NaNs, which negation keeps.
__attribute__((target("avx2"))) void binReferencesWide(const PrimRef* refs, std::uint32_t begin,
                                                       std::uint32_t end, const F4& cmin, const float* scale,
                                                       std::uint32_t nb, std::uint32_t sets, Bins& bins,
                                                       std::uint32_t* out_kept) {
    float* const wide = bins.wide.data()->v; // 8 floats a bin, 32-byte aligned
    BinBox* const box = bins.box.data();
    std::uint32_t* const count = bins.count.data();
    const std::uint32_t stride = bins.stride;
    const __m256 empty = _mm256_set1_ps(std::numeric_limits<float>::infinity());
    for (std::uint32_t s = 0; s < sets * stride; s += stride) {
        for (std::uint32_t b = s; b < s + 3 * nb; ++b) _mm256_store_ps(wide + 8 * b, empty);
        std::fill(count + s, count + s + 3 * nb, 0u);
    }
    const __m128 cmin4 = cmin.v, scale4 = _mm_loadu_ps(scale), zero = _mm_setzero_ps();
    const __m128 last4 = _mm_set1_ps(static_cast<float>(nb - 1));
    const __m256 negate_hi = _mm256_setr_ps(0.0f, 0.0f, 0.0f, 0.0f, -0.0f, -0.0f, -0.0f, -0.0f);
    const std::uint32_t set_mask = sets - 1;
    for (std::uint32_t i = begin; i < end; ++i) {
        const __m256 r = _mm256_xor_ps(_mm256_loadu_ps(refs[i].lo), negate_hi);
        __m128 t = _mm_add_ps(_mm_loadu_ps(refs[i].lo), _mm_loadu_ps(refs[i].hi));
        t = _mm_mul_ps(_mm_sub_ps(t, cmin4), scale4);
        t = _mm_min_ps(_mm_max_ps(t, zero), last4); // as in binReferences
        alignas(16) float tk[4];
        _mm_store_ps(tk, t);
        const std::uint32_t set = (i & set_mask) * stride;
        std::uint32_t kept = 0;
        for (std::uint32_t a = 0; a < 3; ++a) {
            const std::uint32_t k = static_cast<std::uint32_t>(tk[a]);
            const std::uint32_t b = set + a * nb + k;
            _mm256_store_ps(wide + 8 * b, _mm256_min_ps(_mm256_load_ps(wide + 8 * b), r));
            ++count[b];
            kept |= k << (8 * a);
        }
        if (out_kept != nullptr) out_kept[i - begin] = kept;
    }
    for (std::uint32_t s = stride; s < sets * stride; s += stride) {
        for (std::uint32_t b = 0; b < 3 * nb; ++b) {
            const __m256 other = _mm256_load_ps(wide + 8 * (s + b));
            _mm256_store_ps(wide + 8 * b, _mm256_min_ps(_mm256_load_ps(wide + 8 * b), other));
            count[b] += count[s + b];
        }
    }
    for (std::uint32_t b = 0; b < 3 * nb; ++b) {
        const __m256 w = _mm256_xor_ps(_mm256_load_ps(wide + 8 * b), negate_hi);
        box[b].lo.v = _mm256_castps256_ps128(w);
        box[b].hi.v = _mm256_extractf128_ps(w, 1);
    }
}
#endif

// Empty bounds: +inf minimum, -inf maximum.
void setEmpty(F4& out_lo, F4& out_hi) {
    const float inf = std::numeric_limits<float>::infinity();
    f4Set(inf, inf, inf, inf, out_lo);
    f4Set(-inf, -inf, -inf, -inf, out_hi);
}

// The best binned SAH plane over the axes with a non-zero scale: a plane after bin k of axis a
// costs area(left) * count(left) + area(right) * count(right); the first lowest cost wins, axes
// and bins in ascending order (determinism). Leaves best_axis at -1 when no plane has references
// on both sides. The prefix boxes are folded in the same order as childBounds folds them.
// The sweeps run over all of the node's bins and planes, whatever the references' spread (the
// planes outside [first non-empty bin, last non-empty bin) get boxes and costs that are never
// chosen), the three axes side by side (three independent chains of min and max), and the choice
// among the candidates is made without a branch per candidate. `plain`: see buildBvh.
// findBestSplit and findBestSplitWide below are this body compiled for the build's baseline and for
// AVX2, whose vector loops (the areas, the costs, the least) are twice as wide and take an
// unsigned minimum in one instruction: the same IEEE operations, so the same plane.
inline __attribute__((always_inline)) void findBestSplitBody(const Bins& bins, std::uint32_t nb,
                                                             const float* scale, bool plain, Sweep& sw,
                                                             int& best_axis, std::uint32_t& best_bin,
                                                             float& best_cost) {
    const float inf = std::numeric_limits<float>::infinity();
    const std::int32_t planes = static_cast<std::int32_t>(nb) - 1;
    const BinBox* const bx = &bins.box[0];
    const BinBox* const by = &bins.box[nb];
    const BinBox* const bz = &bins.box[2 * nb];
    const std::uint32_t* const cx = &bins.count[0];
    const std::uint32_t* const cy = &bins.count[nb];
    const std::uint32_t* const cz = &bins.count[2 * nb];
    F4 lox, hix, loy, hiy, loz, hiz, e;
    setEmpty(lox, hix), setEmpty(loy, hiy), setEmpty(loz, hiz);
    std::int32_t nx = 0, ny = 0, nz = 0;
    float(*const re)[4] = sw.right_extent;
    std::int32_t* const rc = sw.right_count;
    for (std::int32_t k = planes; k > 0; --k) { // plane k - 1 has bins k..nb-1 on its right
        f4Min(lox, bx[k].lo, lox), f4Max(hix, bx[k].hi, hix);
        f4Min(loy, by[k].lo, loy), f4Max(hiy, by[k].hi, hiy);
        f4Min(loz, bz[k].lo, loz), f4Max(hiz, bz[k].hi, hiz);
        nx += static_cast<std::int32_t>(cx[k]);
        ny += static_cast<std::int32_t>(cy[k]);
        nz += static_cast<std::int32_t>(cz[k]);
        f4Sub(hix, lox, e), f4Store(e, re[k - 1]);
        f4Sub(hiy, loy, e), f4Store(e, re[planes + k - 1]);
        f4Sub(hiz, loz, e), f4Store(e, re[2 * planes + k - 1]);
        rc[k - 1] = nx, rc[planes + k - 1] = ny, rc[2 * planes + k - 1] = nz;
    }
    setEmpty(lox, hix), setEmpty(loy, hiy), setEmpty(loz, hiz);
    nx = ny = nz = 0;
    float(*const le)[4] = sw.left_extent;
    std::int32_t* const lc = sw.left_count;
    for (std::int32_t k = 0; k < planes; ++k) { // plane k has bins 0..k on its left
        f4Min(lox, bx[k].lo, lox), f4Max(hix, bx[k].hi, hix);
        f4Min(loy, by[k].lo, loy), f4Max(hiy, by[k].hi, hiy);
        f4Min(loz, bz[k].lo, loz), f4Max(hiz, bz[k].hi, hiz);
        nx += static_cast<std::int32_t>(cx[k]);
        ny += static_cast<std::int32_t>(cy[k]);
        nz += static_cast<std::int32_t>(cz[k]);
        f4Sub(hix, lox, e), f4Store(e, le[k]);
        f4Sub(hiy, loy, e), f4Store(e, le[planes + k]);
        f4Sub(hiz, loz, e), f4Store(e, le[2 * planes + k]);
        lc[k] = nx, lc[planes + k] = ny, lc[2 * planes + k] = nz;
    }
    const std::int32_t all = 3 * planes;
    for (std::int32_t p = 0; p < all; ++p) {
        const float* l = sw.left_extent[p];
        const float* r = sw.right_extent[p];
        sw.left_area[p] = l[0] * l[1] + l[1] * l[2] + l[2] * l[0];
        sw.right_area[p] = r[0] * r[1] + r[1] * r[2] + r[2] * r[0];
    }
    for (std::int32_t p = 0; p < all; ++p)
        sw.cost[p] = sw.left_area[p] * static_cast<float>(sw.left_count[p]) +
                     sw.right_area[p] * static_cast<float>(sw.right_count[p]);
    // The candidates: planes with references on both sides, from the first non-empty bin to
    // before the last, of the axes with a non-zero scale; every other plane's cost becomes +inf,
    // which is never chosen. With plain coordinates those bins are 0 and nb - 1: the node's
    // centroid bounds are then the least and greatest of its references' centroids, added as
    // binReferences adds them, so the least is at offset 0 and the greatest at offset extent, which
    // times scale (nb (1 - 1e-6) / extent, three roundings in all) is above nb - 1.
    for (int a = 0; a < 3; ++a) {
        float* const cost = &sw.cost[a * planes];
        if (scale[a] == 0.0f) {
            std::fill(cost, cost + planes, inf);
            continue;
        }
        if (plain) continue;
        const std::uint32_t* count = &bins.count[static_cast<std::uint32_t>(a) * nb];
        std::uint64_t used = 0;
        for (std::int32_t k = 0; k <= planes; ++k) used |= static_cast<std::uint64_t>(count[k] != 0u) << k;
        const std::int32_t first = __builtin_ctzll(used), last = 63 - __builtin_clzll(used);
        for (std::int32_t k = 0; k < planes; ++k) cost[k] = k >= first && k < last ? cost[k] : inf;
    }
    // The first lowest cost, compared as bits: a cost is +0 to +inf or NaN (an area is a sum of
    // products of extents >= 0, times counts >= 1), so for these the unsigned order of the bits is
    // the float order and a NaN (either sign) is never below. The least first (a loop the compiler
    // vectorises), then its first position; strict against best_cost, which starts at +inf.
    std::uint32_t least = 0xFFFFFFFFu;
    for (std::int32_t p = 0; p < all; ++p) {
        std::uint32_t bits;
        std::memcpy(&bits, &sw.cost[p], 4);
        least = bits < least ? bits : least;
    }
    std::uint32_t best_bits;
    std::memcpy(&best_bits, &best_cost, 4);
    if (least >= best_bits) return;
    std::int32_t at = 0;
    for (;; ++at) {
        std::uint32_t bits;
        std::memcpy(&bits, &sw.cost[at], 4);
        if (bits == least) break;
    }
    int axis = 0; // at / planes and at % planes, without a division
    for (; at >= planes; at -= planes) ++axis;
    best_axis = axis;
    best_bin = static_cast<std::uint32_t>(at);
    std::memcpy(&best_cost, &least, 4);
}

void findBestSplit(const Bins& bins, std::uint32_t nb, const float* scale, bool plain, Sweep& sw,
                   int& best_axis, std::uint32_t& best_bin, float& best_cost) {
    findBestSplitBody(bins, nb, scale, plain, sw, best_axis, best_bin, best_cost);
}

#if defined(FLAK_BUILD_AVX2)
__attribute__((target("avx2"))) void findBestSplitWide(const Bins& bins, std::uint32_t nb, const float* scale,
                                                       bool plain, Sweep& sw, int& best_axis,
                                                       std::uint32_t& best_bin, float& best_cost) {
    findBestSplitBody(bins, nb, scale, plain, sw, best_axis, best_bin, best_cost);
}
#endif

// The boxes on either side of the plane after bin `split` of one axis's bins.
void childBounds(const BinBox* box, std::uint32_t nb, std::uint32_t split, F4& out_llo, F4& out_lhi,
                 F4& out_rlo, F4& out_rhi) {
    const float inf = std::numeric_limits<float>::infinity();
    f4Set(inf, inf, inf, inf, out_llo);
    f4Set(-inf, -inf, -inf, -inf, out_lhi);
    out_rlo = out_llo;
    out_rhi = out_lhi;
    for (std::uint32_t k = 0; k <= split; ++k) {
        f4Min(out_llo, box[k].lo, out_llo);
        f4Max(out_lhi, box[k].hi, out_lhi);
    }
    for (std::uint32_t k = nb - 1; k > split; --k) {
        f4Min(out_rlo, box[k].lo, out_rlo);
        f4Max(out_rhi, box[k].hi, out_rhi);
    }
}

// The partition of the node loop's swap walk (i from the front, j from the back; a right-going
// reference at i is swapped with the one before j), written as a gather with no data-dependent
// branch: once a node's references are spatially mixed the walk's branches mispredict about
// every other reference, which made the walk the dearest part of the build for small nodes.
// The walk's result in closed form, with L the left-going positions, mid their number, X the
// right-going positions below mid in ascending order followed by mid, and Y the left-going
// positions from mid on in descending order:
//   position m < mid   receives m if m is in L, else Y[number of right-going positions below m];
//   position m >= mid  receives m + 1 if m + 1 < n is right-going, else X[number of L above m].
// So the leaves keep the walk's triangle order, and the centroid bounds of each side are the
// walk's too because min and max do not depend on the order for plain coordinates (the only
// case this is used for). Which side a reference goes to comes from its bin on axis a as the
// node's binning kept it in g.bins (binOf's value: the same float operations). Returns mid.
std::uint32_t gatherPartition(PrimRef* refs, std::uint32_t n, int a, std::uint32_t best_bin, GatherScratch& g,
                              F4& out_lclo, F4& out_lchi, F4& out_rclo, F4& out_rchi) {
    // The bounds are gathered in locals: the outputs could alias the references for all the
    // compiler knows (F4 may alias any type), and would be stored and loaded again on every
    // reference.
    F4 lclo, lchi, rclo, rchi;
    setEmpty(lclo, lchi);
    setEmpty(rclo, rchi);
    std::uint8_t* left = g.left.data();
    std::uint32_t mid = 0;
    const std::uint32_t* const kept = g.bins.data(); // binOf of each reference, kept by the binning
    const std::uint32_t shift = 8u * static_cast<std::uint32_t>(a);
    for (std::uint32_t m = 0; m < n; ++m) {
        const std::uint8_t l = ((kept[m] >> shift) & 0xFFu) <= best_bin ? 1 : 0;
        left[m] = l;
        mid += l;
    }
    left[n] = 1;
    std::uint32_t* xs = g.xs.data();
    std::uint32_t* ys = g.ys.data();
    std::uint32_t cx = 0, cy = 0;
    for (std::uint32_t m = 0; m < mid; ++m) {
        xs[cx] = m;
        cx += left[m] ^ 1u;
    }
    xs[cx] = mid;
    for (std::uint32_t m = n; m-- > mid;) {
        ys[cy] = m;
        cy += left[m];
    }
    // The walk's right-going references below mid (and the one at mid) are overwritten first:
    // save them, then fill the front in place (the back is still untouched), then the back in
    // ascending order (each position reads the next one before it is overwritten).
    PrimRef* saved = g.copy.data();
    for (std::uint32_t c = 0; c <= cx; ++c) saved[c] = refs[xs[c]];
    std::uint32_t q = 0;
    for (std::uint32_t m = 0; m < mid; ++m) {
        const std::uint32_t y = ys[q]; // read even when unused (the spare slot): no branch
        const std::uint32_t src = left[m] ? m : y;
        q += left[m] ^ 1u;
        F4 l, h, cen;
        f4Load(refs[src].lo, l);
        f4Load(refs[src].hi, h);
        f4Store(l, refs[m].lo);
        f4Store(h, refs[m].hi);
        f4Add(l, h, cen);
        f4Min(lclo, cen, lclo);
        f4Max(lchi, cen, lchi);
    }
    std::uint32_t c = cy - left[mid]; // left-going positions above m
    for (std::uint32_t m = mid; m < n; ++m) {
        const PrimRef* const from[2] = {&refs[m + 1], &saved[c]}; // an index, not a branch
        const PrimRef* src = from[left[m + 1]];
        c -= left[m + 1];
        F4 l, h, cen;
        f4Load(src->lo, l);
        f4Load(src->hi, h);
        f4Store(l, refs[m].lo);
        f4Store(h, refs[m].hi);
        f4Add(l, h, cen);
        f4Min(rclo, cen, rclo);
        f4Max(rchi, cen, rchi);
    }
    out_lclo = lclo, out_lchi = lchi, out_rclo = rclo, out_rchi = rchi;
    return mid;
}

void toAabb(const F4& lo, const F4& hi, Aabb& out) {
    alignas(16) float l[4], h[4];
    f4Store(lo, l);
    f4Store(hi, h);
    set(l[0], l[1], l[2], out.min);
    set(h[0], h[1], h[2], out.max);
}

constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// Every triangle's reference (its box, the id in the spare lane) into out_refs (n entries), and
// the root's task: the bounds of all boxes and of all centroids.
Task makeReferences(const std::vector<Vec3>& positions, const std::vector<std::uint32_t>& indices,
                    std::vector<PrimRef>& out_refs) {
    const std::uint32_t n = static_cast<std::uint32_t>(out_refs.size());
    F4 clo, chi, root_lo, root_hi;
    setEmpty(clo, chi);
    root_lo = clo;
    root_hi = chi;
    for (std::uint32_t t = 0; t < n; ++t) {
        const Vec3& a = positions[indices[3 * t]];
        const Vec3& b = positions[indices[3 * t + 1]];
        const Vec3& c = positions[indices[3 * t + 2]];
        Vec3 lo, hi;
        min(a, b, lo);
        min(lo, c, lo);
        max(a, b, hi);
        max(hi, c, hi);
        PrimRef& r = out_refs[t];
        r.lo[0] = lo.x, r.lo[1] = lo.y, r.lo[2] = lo.z;
        const std::uint32_t bits = t + kIdBias;
        std::memcpy(&r.lo[3], &bits, 4);
        r.hi[0] = hi.x, r.hi[1] = hi.y, r.hi[2] = hi.z, r.hi[3] = 1.0f;
        F4 l, h, cen;
        f4Set(lo.x, lo.y, lo.z, 0.0f, l);
        f4Set(hi.x, hi.y, hi.z, 0.0f, h);
        f4Add(l, h, cen); // centroid times two: the factor cancels in binning
        f4Min(clo, cen, clo);
        f4Max(chi, cen, chi);
        f4Min(root_lo, l, root_lo);
        f4Max(root_hi, h, root_hi);
    }
    return Task{0, n, kNone, 1, root_lo, root_hi, clo, chi};
}

// The state of one build that every node shares: the settings, the references, the stack of
// nodes still to build, the scratch, and the running totals.
struct Builder {
    const BuildOptions* options = nullptr;
    std::uint32_t n = 0, max_leaf = 0, nbins = 0;
    std::uint32_t halving_depth = 0; // from this level down, ranges are halved (BuildOptions::max_depth)
    bool plain = false;              // see buildBvh: the shortcuts that need plain coordinates are allowed
    bool avx2 = false;               // the AVX2 binning and sweep (BuildOptions::allow_avx2 and the CPU)
    float root_area = 0.0f;          // the root's half area, at least the smallest normal float
    std::vector<PrimRef> refs;
    std::vector<std::uint32_t> parent; // per node, its parent (kNone for the root)
    std::vector<Task> stack;
    Bins bins;
    std::unique_ptr<Sweep> sweep;
    GatherScratch gather;
    std::uint32_t done = 0, last_report = 0; // triangles in leaves so far, and at the last report
    double sah = 0.0;
};

// Reserves the tree and sizes the scratch: bins for the most bins per axis, the gather for the
// largest range it will be given (only used with plain coordinates).
void reserveScratch(Builder& b, BuiltTree& tree) {
    tree.nodes.reserve(2 * (b.n / std::max(1u, b.max_leaf / 2)) + 2);
    tree.order.reserve(b.n);
    b.parent.reserve(tree.nodes.capacity());
    b.bins.stride = 3 * b.nbins;
    b.bins.box.resize(kSets * b.bins.stride);
    b.bins.count.resize(kSets * b.bins.stride);
#if defined(FLAK_BUILD_AVX2)
    b.avx2 = b.options->allow_avx2 && cpuHasAvx2();
    if (b.avx2) b.bins.wide.resize(kSets * b.bins.stride);
#endif
    b.sweep = std::make_unique<Sweep>();
    if (b.plain) {
        const std::uint32_t most = std::min(b.n, kGatherMax);
        b.gather.copy.resize(most + 1);
        b.gather.left.resize(most + 1);
        b.gather.xs.resize(most + 1);
        b.gather.ys.resize(most + 1);
        b.gather.bins.resize(most);
    }
}

// A node's best binned SAH split: axis -1 when there is none (or it was not looked for).
struct SplitChoice {
    std::uint32_t nb = 0; // bins per axis
    int axis = -1;
    std::uint32_t bin = 0;
    float cost = std::numeric_limits<float>::infinity();
    alignas(16) float scale[4] = {0.0f, 0.0f, 0.0f, 0.0f}; // centroid offset to bin, per axis
};

// Whether every split of a node of `count` references (plain coordinates, half area `area`)
// surely costs more than the leaf, told from the references' own areas without binning. A
// split's cost is la * lc + ra * rc over its two sides (counts lc, rc, boxes of half areas la,
// ra). Each side's box holds each of its references' boxes, and the area is computed with
// operations that round monotonically, so la and ra are at least each of their references' areas
// as computed here: every split costs at least the sum of the references' areas. That sum is
// taken in double, and the float evaluation of a split's cost and of traversal_cost + cost / area
// loses less than 2^-20 of it, so a sum above (count - traversal_cost) (1 + 2^-20) times the
// node's area makes the binned search's answer a leaf, as buildTask decides it, whatever plane it
// would have found. Most nodes of up to max_leaf references become leaves, and this finds a third
// to two thirds of them on the benchmark meshes. (A tighter bound from the sorted areas, min over
// k of k a(1) + (n - k) a(k + 1), finds a few more but costs more than it saves.)
bool splitsCostMore(const PrimRef* refs, std::uint32_t count, float area, float traversal_cost) {
    double sum = 0.0;
    for (std::uint32_t i = 0; i < count; ++i) {
        F4 l, h;
        f4Load(refs[i].lo, l);
        f4Load(refs[i].hi, h);
        sum += halfArea(l, h);
    }
    const double need = (static_cast<double>(count) - traversal_cost) * (1.0 + 0x1p-20);
    return sum >= need * static_cast<double>(std::max(area, 1e-30f));
}

// Best binned SAH split over the three axes, one pass over the references.
// Small nodes get as many bins as references: resetting and sweeping 16 bins per axis
// would cost more than the binning itself near the leaves. `area`: the node's half area.
void chooseSplit(Builder& b, const Task& task, float area, SplitChoice& out) {
    const std::uint32_t count = task.end - task.begin;
    out.nb = std::min(b.nbins, std::max(4u, count));
    const bool sure_leaf = b.plain && count <= b.max_leaf &&
                           (static_cast<float>(count) <= b.options->traversal_cost ||
                            splitsCostMore(&b.refs[task.begin], count, area, b.options->traversal_cost));
    if (count <= 1 || sure_leaf) return;
    alignas(16) float cl[4], ch[4];
    f4Store(task.clo, cl);
    f4Store(task.chi, ch);
    for (int a = 0; a < 3; ++a) {
        const float extent = ch[a] - cl[a];
        out.scale[a] = extent > 0.0f ? static_cast<float>(out.nb) * (1.0f - 1e-6f) / extent : 0.0f;
    }
    // The nodes that gatherPartition will split keep their references' bins for it.
    std::uint32_t* const kept = b.plain && count <= kGatherMax ? b.gather.bins.data() : nullptr;
    const std::uint32_t sets = !b.plain ? 2u : count <= kOneSetMax ? 1u : count <= kTwoSetsMax ? 2u : kSets;
#if defined(FLAK_BUILD_AVX2)
    if (b.avx2) {
        binReferencesWide(b.refs.data(), task.begin, task.end, task.clo, out.scale, out.nb, sets, b.bins,
                          kept);
        findBestSplitWide(b.bins, out.nb, out.scale, b.plain, *b.sweep, out.axis, out.bin, out.cost);
        return;
    }
#endif
    binReferences(b.refs.data(), task.begin, task.end, task.clo, out.scale, out.nb, sets, b.bins, kept);
    findBestSplit(b.bins, out.nb, out.scale, b.plain, *b.sweep, out.axis, out.bin, out.cost);
}

// The node becomes a leaf of the task's triangles, which join the tree's order.
void makeLeaf(Builder& b, const Task& task, std::uint32_t node, float area, BuiltTree& tree) {
    const std::uint32_t count = task.end - task.begin;
    BuiltNode& leaf = tree.nodes[node];
    leaf.first = static_cast<std::uint32_t>(tree.order.size());
    leaf.count = count;
    for (std::uint32_t i = task.begin; i < task.end; ++i) tree.order.push_back(idOf(b.refs[i]));
    ++tree.leaf_count;
    tree.depth = std::max(tree.depth, task.depth);
    b.sah += static_cast<double>(area) / b.root_area * count;
    b.done += count;
    if (b.options->progress && b.done - b.last_report >= 65536) {
        b.options->progress(b.done, b.n);
        b.last_report = b.done;
    }
}

// The plain swap walk (i from the front, j from the back; a right-going reference at i is
// swapped with the one before j), gathering each side's centroid bounds. Returns mid.
std::uint32_t swapWalkPartition(PrimRef* refs, std::uint32_t begin, std::uint32_t end, int a, float cmin,
                                float scale, std::uint32_t nb, std::uint32_t best_bin, F4& out_lclo,
                                F4& out_lchi, F4& out_rclo, F4& out_rchi) {
    F4 lclo, lchi, rclo, rchi; // locals, as in gatherPartition
    setEmpty(lclo, lchi);
    setEmpty(rclo, rchi);
    std::uint32_t i = begin, j = end;
    while (i < j) {
        F4 l, h, cen;
        f4Load(refs[i].lo, l);
        f4Load(refs[i].hi, h);
        f4Add(l, h, cen);
        if (binOf(refs[i], a, cmin, scale, nb) <= best_bin) {
            f4Min(lclo, cen, lclo);
            f4Max(lchi, cen, lchi);
            ++i;
        } else {
            f4Min(rclo, cen, rclo);
            f4Max(rchi, cen, rchi);
            --j;
            std::swap(refs[i], refs[j]);
        }
    }
    out_lclo = lclo, out_lchi = lchi, out_rclo = rclo, out_rchi = rchi;
    return i;
}

// Partition by the chosen binned plane: the children's bounds from the bins, their centroid
// bounds gathered on the way. Returns mid.
std::uint32_t partitionBinned(Builder& b, const Task& task, const SplitChoice& split, Task& inout_left,
                              Task& inout_right) {
    const int a = split.axis;
    const std::uint32_t count = task.end - task.begin;
    childBounds(&b.bins.box[static_cast<std::uint32_t>(a) * split.nb], split.nb, split.bin, inout_left.lo,
                inout_left.hi, inout_right.lo, inout_right.hi);
    const float cmin = cl_of(task, a);
    if (b.plain && count <= kGatherMax)
        return task.begin + gatherPartition(&b.refs[task.begin], count, a, split.bin, b.gather,
                                            inout_left.clo, inout_left.chi, inout_right.clo, inout_right.chi);
    return swapWalkPartition(b.refs.data(), task.begin, task.end, a, cmin, split.scale[a], split.nb,
                             split.bin, inout_left.clo, inout_left.chi, inout_right.clo, inout_right.chi);
}

// Without a usable binned split (all centroids equal): the range halved at mid, each side's
// bounds and centroid bounds recomputed.
void halveRange(const PrimRef* refs, const Task& task, std::uint32_t mid, Task& inout_left,
                Task& inout_right) {
    setEmpty(inout_left.lo, inout_left.hi);
    setEmpty(inout_right.lo, inout_right.hi);
    setEmpty(inout_left.clo, inout_left.chi);
    setEmpty(inout_right.clo, inout_right.chi);
    for (std::uint32_t i = task.begin; i < task.end; ++i) {
        F4 l, h, cen;
        f4Load(refs[i].lo, l);
        f4Load(refs[i].hi, h);
        f4Add(l, h, cen);
        if (i < mid) {
            f4Min(inout_left.clo, cen, inout_left.clo), f4Max(inout_left.chi, cen, inout_left.chi);
            f4Min(inout_left.lo, l, inout_left.lo), f4Max(inout_left.hi, h, inout_left.hi);
        } else {
            f4Min(inout_right.clo, cen, inout_right.clo), f4Max(inout_right.chi, cen, inout_right.chi);
            f4Min(inout_right.lo, l, inout_right.lo), f4Max(inout_right.hi, h, inout_right.hi);
        }
    }
}

// Partition, gathering each side's centroid bounds on the way, into the children's tasks. Without
// a usable binned split (all centroids equal) the range is halved and each side's bounds recomputed.
void splitTask(Builder& b, const Task& task, std::uint32_t node, const SplitChoice& split, Task& out_left,
               Task& out_right) {
    std::uint32_t mid = task.begin + (task.end - task.begin) / 2;
    if (split.axis >= 0)
        mid = partitionBinned(b, task, split, out_left, out_right);
    else
        halveRange(b.refs.data(), task, mid, out_left, out_right);
    out_left.begin = task.begin, out_left.end = mid;
    out_right.begin = mid, out_right.end = task.end;
    out_left.parent = out_right.parent = node;
    out_left.depth = out_right.depth = task.depth + 1;
}

// One popped task: its node, then a leaf, or two children's tasks pushed (the right half first).
// Nodes are numbered when their task is popped: a stack walk that pushes the right half first
// pops in depth-first preorder, so children always follow their parent.
void buildTask(Builder& b, const Task& task, BuiltTree& tree) {
    const std::uint32_t node = static_cast<std::uint32_t>(tree.nodes.size());
    tree.nodes.push_back(BuiltNode{});
    b.parent.push_back(task.parent);
    const std::uint32_t count = task.end - task.begin;
    const float area = halfArea(task.lo, task.hi);
    toAabb(task.lo, task.hi, tree.nodes[node].bounds);

    // From b.halving_depth down every split halves the range: a range of at most 2^26 triangles
    // then ends in leaves within 26 more levels, so no tree is deeper than the options' max_depth
    // (at most kMaxTreeDepth, the bound of the walks' stacks), whatever the input. SAH trees of
    // real meshes stay far shallower.
    SplitChoice split;
    if (task.depth < b.halving_depth) chooseSplit(b, task, area, split);
    const float leaf_cost = static_cast<float>(count);
    const float split_cost = split.axis >= 0 ? b.options->traversal_cost + split.cost / std::max(area, 1e-30f)
                                             : std::numeric_limits<float>::infinity();
    const bool must_split = count > b.max_leaf;
    if (!must_split && (count == 1 || leaf_cost <= split_cost)) {
        makeLeaf(b, task, node, area, tree);
        return;
    }
    Task left, right;
    splitTask(b, task, node, split, left, right);
    b.sah += static_cast<double>(area) / b.root_area * b.options->traversal_cost;
    b.stack.push_back(right);
    b.stack.push_back(left);
}

// Subtree sizes: children have larger indices than their parent, so one reverse pass adds
// every finished subtree into its parent.
void sumSubtreeSizes(const std::vector<std::uint32_t>& parent, BuiltTree& tree) {
    for (std::uint32_t i = static_cast<std::uint32_t>(tree.nodes.size()); i-- > 1;)
        tree.nodes[parent[i]].skip += tree.nodes[i].skip;
}

} // namespace

BuiltTree buildBvh(const std::vector<Vec3>& positions, const std::vector<std::uint32_t>& indices,
                   const BuildOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    BuiltTree tree;
    const std::uint32_t n = static_cast<std::uint32_t>(indices.size() / 3);
    if (n == 0) return tree;
    Builder b;
    b.options = &options;
    b.n = n;
    b.max_leaf = std::clamp(options.max_leaf, 1u, 16u);
    b.nbins = std::clamp(options.bins, 4u, 64u);
    static_assert(kMaxBlobTriangles <= (1u << 26), "halving 2^26 triangles takes 26 levels");
    b.halving_depth = std::clamp(options.max_depth, 28u, kMaxTreeDepth) - 27u;
    b.refs.resize(n);
    const Task root = makeReferences(positions, indices, b.refs);
    const float root_half_area = halfArea(root.lo, root.hi);
    b.root_area = std::max(root_half_area, std::numeric_limits<float>::min());
    // With plain coordinates (allPlain), a finite root area and a finite traversal cost, min and
    // max give the same bits in any order, and every area and SAH cost is finite and >= 0 (or an
    // unused +inf). Four shortcuts rely on it and are taken only then, so that every input keeps
    // exactly the tree of the plain walk: a node of at most traversal_cost triangles becomes a
    // leaf without binning (its split cost is never below traversal_cost), so does a node of at
    // most max_leaf whose triangles' areas already cost more split (splitsCostMore), small nodes
    // bin into one set of bins, and small nodes are partitioned by gatherPartition.
    b.plain = std::isfinite(root_half_area) && std::isfinite(options.traversal_cost) && allPlain(positions);
    reserveScratch(b, tree);

    b.stack.push_back(root);
    while (!b.stack.empty()) {
        const Task task = b.stack.back();
        b.stack.pop_back();
        buildTask(b, task, tree);
    }
    if (options.progress) options.progress(n, n);
    sumSubtreeSizes(b.parent, tree);
    tree.sah_cost = b.sah;
    tree.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return tree;
}

} // namespace flak::bake
