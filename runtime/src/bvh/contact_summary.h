// flak — private: the sums behind MeshContactSummary (mesh_mesh.h), shared by meshMeshSummary
// (triangle pairs in walk order) and the World's mesh-mesh phase (pairs from a back end), so the
// two compute a summary with the very same operations.
//
// The sums are exact: every pair's terms are rounded once to 64-bit fixed point and added as
// integers, so the summary does not depend on the order the pairs arrive in (walk order, a back
// end's order, or pairs split over workers).
#pragma once

#include <flak/bvh/mesh_mesh.h>
#include <flak/geom/tri_tri.h>
#include <flak/geom/triangle_normal.h>
#include <flak/math/aabb.h>
#include <flak/math/transform.h>

#include <cmath>
#include <cstdint>

namespace flak::detail {

/// Fixed point of the sums: 2^32 steps per unit (a unit normal's component, or `unit` of A's box).
constexpr double kSummaryOne = 4294967296.0;
/// The most terms a sum takes: each is at most 2^32 in magnitude, so 2^31 - 1 of them stay within
/// int64. The pairs past it are counted but not summed (the means are those of the first ones).
constexpr std::uint64_t kSummaryMaxTerms = (1ull << 31) - 1;

/// One value in fixed point, truncated toward zero; clamped to +-2^40 (far beyond any term of a
/// valid mesh), NaN to 0, so a conversion never overflows.
inline std::int64_t summaryFixed(double v) {
    constexpr double kLimit = 1099511627776.0; // 2^40
    if (!(v > -kLimit)) return v != v ? 0 : -static_cast<std::int64_t>(kLimit);
    if (!(v < kLimit)) return static_cast<std::int64_t>(kLimit);
    return static_cast<std::int64_t>(v);
}

/// A triangle's unit normal as the summary adds it (computeTriangleNormal; none for a zero-area
/// triangle), so a caller that meets one triangle in several pairs computes it once.
struct TriangleNormal {
    Vec3 n;
    bool valid = false;
    void compute(const Vec3* v) { valid = computeTriangleNormal(v[0], v[1], v[2], n); }
};

/// The summary's sums over intersecting pairs, exact and order-free: midpoints of the intersection
/// segments relative to the centre of A's box, in units of the smallest power of two at least
/// the box's largest half extent; both sides' unit triangle normals.
struct SummarySums {
    std::uint64_t pairs = 0;  ///< pairs found (the summary's pair_count saturates at 0xFFFFFFFF)
    std::uint64_t points = 0; ///< intersection midpoints summed (at most kSummaryMaxTerms)
    /// Pairs added whose triangles triTriIntersection4 found apart (a back end's pair that does
    /// not intersect; the CPU walk adds none: triTriIntersection agrees with triTriOverlap).
    std::uint64_t misses = 0;
    double center[3] = {0.0, 0.0, 0.0};
    double to_fixed = kSummaryOne; ///< kSummaryOne / unit
    // Sums kept as uint64 (two's complement wraps, never undefined); read back as int64.
    std::uint64_t point[3] = {0, 0, 0};
    std::uint64_t na[3] = {0, 0, 0};
    std::uint64_t nb[3] = {0, 0, 0};
    TriTriPairs4 pending; ///< pairs whose intersection waits for a batch of four
    std::uint32_t pending_count = 0;
    unsigned pending_crossing = 0; ///< pending pairs known to cross in 3D
    /// B was carried into A's space by a mirroring transform (negative determinant): its
    /// triangles' normals, taken from the carried corners, face the other way, and finish()
    /// turns their mean back to B's own side.
    bool b_mirrored = false;

    /// `a_box`: A's mesh bounds (the intersection segments lie on A's triangles); `b_to_a`: the
    /// transform that carried B's triangles into A's space.
    SummarySums(const Aabb& a_box, const Transform& b_to_a)
        : b_mirrored(determinant(b_to_a.rotation) < 0.0f) {
        double half = 0.0;
        for (int c = 0; c < 3; ++c) {
            const double lo = static_cast<double>(a_box.min[c]), hi = static_cast<double>(a_box.max[c]);
            center[c] = std::isfinite(lo) && std::isfinite(hi) ? 0.5 * (lo + hi) : 0.0;
            const double h = 0.5 * (hi - lo);
            if (std::isfinite(h) && h > half) half = h;
        }
        int exponent = 0;
        const double f = std::frexp(half, &exponent); // half = f * 2^exponent, f in [0.5, 1)
        if (f == 0.5) --exponent;                     // half is a power of two: 2^exponent = half
        to_fixed = half > 0.0 ? std::ldexp(kSummaryOne, -exponent) : kSummaryOne;
    }

    /// One intersecting pair: A's triangle va, B's triangle vb in A's space (`crossing`: as below).
    void add(const Vec3* va, const Vec3* vb, bool crossing) {
        TriangleNormal na_, nb_;
        na_.compute(va);
        nb_.compute(vb);
        add(va, vb, na_, nb_, crossing);
    }

    /// The same with both triangles' normals already computed (TriangleNormal of va and vb). The
    /// pair's intersection is computed with three others (triTriIntersection4), so the point sums
    /// are complete only after flush(); finish() flushes.
    /// `crossing`: the pair is known to cross in 3D (triTriOverlapLanes' out_crossing).
    void add(const Vec3* va, const Vec3* vb, const TriangleNormal& normal_a, const TriangleNormal& normal_b,
             bool crossing = false) {
        ++pairs;
        pending_crossing |= static_cast<unsigned>(crossing) << pending_count;
        for (int i = 0; i < 3; ++i)
            for (int c = 0; c < 3; ++c) {
                pending.v[i][c][pending_count] = va[i][c];
                pending.v[3 + i][c][pending_count] = vb[i][c];
            }
        if (++pending_count == 4u) flush();
        if (pairs > kSummaryMaxTerms) return; // the sums hold as many terms as they can
        if (normal_a.valid)
            for (int c = 0; c < 3; ++c)
                na[c] += static_cast<std::uint64_t>(
                    summaryFixed(static_cast<double>(normal_a.n[c]) * kSummaryOne));
        if (normal_b.valid)
            for (int c = 0; c < 3; ++c)
                nb[c] += static_cast<std::uint64_t>(
                    summaryFixed(static_cast<double>(normal_b.n[c]) * kSummaryOne));
    }

    /// Adds the intersection points of the pairs waiting for a batch.
    void flush() {
        if (pending_count == 0u) return;
        Vec3 s[4], e[4];
        unsigned coplanar = 0;
        const unsigned hits = triTriIntersection4(pending, pending_count, s, e, coplanar, pending_crossing);
        for (unsigned l = 0; l < pending_count; ++l) {
            if (((hits >> l) & 1u) == 0u) {
                ++misses;
                continue;
            }
            if (points >= kSummaryMaxTerms) continue;
            for (int c = 0; c < 3; ++c) {
                const double mid = 0.5 * (static_cast<double>(s[l][c]) + static_cast<double>(e[l][c]));
                point[c] += static_cast<std::uint64_t>(summaryFixed((mid - center[c]) * to_fixed));
            }
            ++points;
        }
        pending_count = 0u;
        pending_crossing = 0u;
    }

    /// The summary of the pairs added (mean point, unit mean normals); false and a default
    /// summary when none was.
    bool finish(MeshContactSummary& out) {
        flush();
        out = MeshContactSummary{};
        if (pairs == 0) return false;
        out.pair_count = pairs < 0xFFFFFFFFull ? static_cast<std::uint32_t>(pairs) : 0xFFFFFFFFu;
        if (points > 0) {
            const double inv = 1.0 / (static_cast<double>(points) * to_fixed);
            for (int c = 0; c < 3; ++c)
                out.point[c] = static_cast<float>(center[c] + static_cast<double>(signedSum(point[c])) * inv);
        }
        unit(na, out.normal_a);
        unit(nb, out.normal_b);
        if (b_mirrored) negate(out.normal_b, out.normal_b);
        return true;
    }

private:
    static std::int64_t signedSum(std::uint64_t v) {
        return v < (1ull << 63) ? static_cast<std::int64_t>(v)
                                : -static_cast<std::int64_t>(~v) - 1; // two's complement, spelled out
    }
    static void unit(const std::uint64_t v[3], Vec3& out) {
        const Vec3 f{static_cast<float>(static_cast<double>(signedSum(v[0])) / kSummaryOne),
                     static_cast<float>(static_cast<double>(signedSum(v[1])) / kSummaryOne),
                     static_cast<float>(static_cast<double>(signedSum(v[2])) / kSummaryOne)};
        (void)normalize(f, out);
    }
};

} // namespace flak::detail
