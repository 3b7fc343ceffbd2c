#include "bvh_build.h"

#include <flak/math/simd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>

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

struct Bin {
    F4 lo, hi;
    std::uint32_t count;
};

struct Task {
    std::uint32_t begin, end; // range of PrimRefs
    std::uint32_t parent;     // index of the parent node (kNone for the root)
    std::uint32_t depth;
    F4 lo, hi;                // node bounds
    F4 clo, chi;              // centroid bounds (centroids times two: lo + hi)
};

// Centroid-bound minimum of a task along axis a.
float cl_of(const Task& t, int a) {
    alignas(16) float c[4];
    f4Store(t.clo, c);
    return c[a];
}

// Bin of a reference's centroid (times two) along axis a: the same float operations, lane by lane,
// as the vectorised binning pass, so binning and partition always agree.
std::uint32_t binOf(const PrimRef& r, int a, float cmin, float scale, std::uint32_t nbins) {
    const float cen = r.lo[a] + r.hi[a];
    const std::uint32_t k = static_cast<std::uint32_t>((cen - cmin) * scale);
    return k < nbins ? k : nbins - 1;
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

void toAabb(const F4& lo, const F4& hi, Aabb& out) {
    alignas(16) float l[4], h[4];
    f4Store(lo, l);
    f4Store(hi, h);
    set(l[0], l[1], l[2], out.min);
    set(h[0], h[1], h[2], out.max);
}

} // namespace

BuiltTree buildBvh(const std::vector<Vec3>& positions, const std::vector<std::uint32_t>& indices,
                   const BuildOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    BuiltTree tree;
    const std::uint32_t n = static_cast<std::uint32_t>(indices.size() / 3);
    if (n == 0) return tree;
    const std::uint32_t max_leaf = std::clamp(options.max_leaf, 1u, 16u);
    const std::uint32_t nbins = std::clamp(options.bins, 4u, 64u);

    std::vector<PrimRef> refs(n);
    const float inf = std::numeric_limits<float>::infinity();
    F4 clo, chi, root_lo, root_hi;
    f4Set(inf, inf, inf, inf, clo);
    f4Set(-inf, -inf, -inf, -inf, chi);
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
        PrimRef& r = refs[t];
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
    const float root_area = std::max(halfArea(root_lo, root_hi), std::numeric_limits<float>::min());

    tree.nodes.reserve(2 * (n / std::max(1u, max_leaf / 2)) + 2);
    tree.order.reserve(n);
    constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    std::vector<std::uint32_t> parent;
    std::vector<Task> stack;
    stack.push_back(Task{0, n, kNone, 1, root_lo, root_hi, clo, chi});
    const std::uint32_t kBinStride = 3 * nbins;
    std::vector<Bin> bins(2 * kBinStride);
    std::vector<F4> right_lo(nbins), right_hi(nbins);
    std::uint32_t done = 0, last_report = 0;
    double sah = 0.0;

    while (!stack.empty()) {
        const Task task = stack.back();
        stack.pop_back();
        // Nodes are numbered when their task is popped: a stack walk that pushes the right half
        // first pops in depth-first preorder, so children always follow their parent.
        const std::uint32_t node = static_cast<std::uint32_t>(tree.nodes.size());
        tree.nodes.push_back(BuiltNode{});
        parent.push_back(task.parent);
        const std::uint32_t count = task.end - task.begin;
        const float area = halfArea(task.lo, task.hi);
        toAabb(task.lo, task.hi, tree.nodes[node].bounds);

        // Best binned SAH split over the three axes, one pass over the references.
        // Small nodes get as many bins as references: resetting and sweeping 16 bins per axis
        // would cost more than the binning itself near the leaves.
        const std::uint32_t nb = std::min(nbins, std::max(4u, count));
        int best_axis = -1;
        std::uint32_t best_bin = 0;
        float best_cost = inf;
        F4 scale4, best_llo, best_lhi, best_rlo, best_rhi;
        f4Set(inf, inf, inf, inf, best_llo);
        f4Set(-inf, -inf, -inf, -inf, best_lhi);
        best_rlo = best_llo;
        best_rhi = best_lhi;
        alignas(16) float scale[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        if (count > 1) {
            alignas(16) float cl[4], ch[4];
            f4Store(task.clo, cl);
            f4Store(task.chi, ch);
            for (int a = 0; a < 3; ++a) {
                const float extent = ch[a] - cl[a];
                scale[a] = extent > 0.0f ? static_cast<float>(nb) * (1.0f - 1e-6f) / extent : 0.0f;
            }
            f4Load(scale, scale4);
            for (std::uint32_t k = 0; k < 3 * nb; ++k) {
                for (Bin* b : {&bins[k], &bins[kBinStride + k]}) {
                    f4Set(inf, inf, inf, inf, b->lo);
                    f4Set(-inf, -inf, -inf, -inf, b->hi);
                    b->count = 0;
                }
            }
            for (std::uint32_t i = task.begin; i < task.end; ++i) {
                F4 l, h, t;
                f4Load(refs[i].lo, l);
                f4Load(refs[i].hi, h);
                f4Add(l, h, t);
                f4Sub(t, task.clo, t);
                f4Mul(t, scale4, t);
                alignas(16) float tk[4];
                f4Store(t, tk);
                // Two bin sets, alternating by element, halve the store-to-load chains when
                // neighbouring references fall into the same bin.
                Bin* set_bins = &bins[(i & 1u) * kBinStride];
                for (std::uint32_t a = 0; a < 3; ++a) {
                    const std::uint32_t k = static_cast<std::uint32_t>(tk[a]);
                    Bin& b = set_bins[a * nb + (k < nb ? k : nb - 1)];
                    f4Min(b.lo, l, b.lo);
                    f4Max(b.hi, h, b.hi);
                    ++b.count;
                }
            }
            for (std::uint32_t k = 0; k < 3 * nb; ++k) { // fold the second set into the first
                f4Min(bins[k].lo, bins[kBinStride + k].lo, bins[k].lo);
                f4Max(bins[k].hi, bins[kBinStride + k].hi, bins[k].hi);
                bins[k].count += bins[kBinStride + k].count;
            }
            std::uint32_t right_count[64];
            float right_area[64];
            for (int a = 0; a < 3; ++a) {
                if (scale[a] == 0.0f) continue;
                const Bin* ab = &bins[static_cast<std::uint32_t>(a) * nb];
                F4 rlo, rhi;
                f4Set(inf, inf, inf, inf, rlo);
                f4Set(-inf, -inf, -inf, -inf, rhi);
                std::uint32_t rc = 0;
                for (std::uint32_t k = nb - 1; k > 0; --k) {
                    f4Min(rlo, ab[k].lo, rlo);
                    f4Max(rhi, ab[k].hi, rhi);
                    rc += ab[k].count;
                    right_lo[k] = rlo;
                    right_hi[k] = rhi;
                    right_area[k] = rc ? halfArea(rlo, rhi) : 0.0f;
                    right_count[k] = rc;
                }
                F4 llo, lhi;
                f4Set(inf, inf, inf, inf, llo);
                f4Set(-inf, -inf, -inf, -inf, lhi);
                std::uint32_t lc = 0;
                for (std::uint32_t k = 0; k + 1 < nb; ++k) {
                    f4Min(llo, ab[k].lo, llo);
                    f4Max(lhi, ab[k].hi, lhi);
                    lc += ab[k].count;
                    if (lc == 0 || right_count[k + 1] == 0) continue;
                    const float cost = halfArea(llo, lhi) * static_cast<float>(lc) +
                                       right_area[k + 1] * static_cast<float>(right_count[k + 1]);
                    if (cost < best_cost) { // strict: ties keep the first axis and bin (determinism)
                        best_cost = cost;
                        best_axis = a;
                        best_bin = k;
                        best_llo = llo, best_lhi = lhi, best_rlo = right_lo[k + 1], best_rhi = right_hi[k + 1];
                    }
                }
            }
        }

        const float leaf_cost = static_cast<float>(count);
        const float split_cost =
            best_axis >= 0 ? options.traversal_cost + best_cost / std::max(area, 1e-30f) : inf;
        const bool must_split = count > max_leaf;
        if (!must_split && (count == 1 || leaf_cost <= split_cost)) {
            BuiltNode& leaf = tree.nodes[node];
            leaf.first = static_cast<std::uint32_t>(tree.order.size());
            leaf.count = count;
            for (std::uint32_t i = task.begin; i < task.end; ++i) tree.order.push_back(idOf(refs[i]));
            ++tree.leaf_count;
            tree.depth = std::max(tree.depth, task.depth);
            sah += static_cast<double>(area) / root_area * count;
            done += count;
            if (options.progress && done - last_report >= 65536) {
                options.progress(done, n);
                last_report = done;
            }
            continue;
        }

        // Partition, gathering each side's centroid bounds on the way. Without a usable binned
        // split (all centroids equal) the range is halved and each side's bounds recomputed.
        std::uint32_t mid = task.begin + count / 2;
        F4 lclo, lchi, rclo, rchi;
        f4Set(inf, inf, inf, inf, lclo);
        f4Set(-inf, -inf, -inf, -inf, lchi);
        rclo = lclo;
        rchi = lchi;
        if (best_axis >= 0) {
            const int a = best_axis;
            const float cmin = cl_of(task, a);
            std::uint32_t i = task.begin, j = task.end;
            while (i < j) {
                F4 l, h, cen;
                f4Load(refs[i].lo, l);
                f4Load(refs[i].hi, h);
                f4Add(l, h, cen);
                if (binOf(refs[i], a, cmin, scale[a], nb) <= best_bin) {
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
            mid = i;
        } else {
            best_llo = lclo, best_lhi = lchi, best_rlo = lclo, best_rhi = lchi;
            for (std::uint32_t i = task.begin; i < task.end; ++i) {
                F4 l, h, cen;
                f4Load(refs[i].lo, l);
                f4Load(refs[i].hi, h);
                f4Add(l, h, cen);
                if (i < mid) {
                    f4Min(lclo, cen, lclo), f4Max(lchi, cen, lchi);
                    f4Min(best_llo, l, best_llo), f4Max(best_lhi, h, best_lhi);
                } else {
                    f4Min(rclo, cen, rclo), f4Max(rchi, cen, rchi);
                    f4Min(best_rlo, l, best_rlo), f4Max(best_rhi, h, best_rhi);
                }
            }
        }
        sah += static_cast<double>(area) / root_area * options.traversal_cost;
        stack.push_back(Task{mid, task.end, node, task.depth + 1, best_rlo, best_rhi, rclo, rchi});
        stack.push_back(Task{task.begin, mid, node, task.depth + 1, best_llo, best_lhi, lclo, lchi});
    }
    if (options.progress) options.progress(n, n);

    // Subtree sizes: children have larger indices than their parent, so one reverse pass adds
    // every finished subtree into its parent.
    for (std::uint32_t i = static_cast<std::uint32_t>(tree.nodes.size()); i-- > 1;)
        tree.nodes[parent[i]].skip += tree.nodes[i].skip;
    tree.sah_cost = sah;
    tree.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return tree;
}

} // namespace flak::bake
