// flak — triangle vs triangle, the entry points: the pair test and the batched tests, each
// handing its work to the back-end this build and CPU have (AVX2 chosen at run time, else SSE2,
// else scalar: tri_tri_avx2.cpp, tri_tri_sse2.cpp, tri_tri_scalar.cpp; same answers, bit for
// bit), and the batch layout's writers.
#include <flak/geom/tri_tri.h>

#include <flak/cpu.h>

#include <flak/assert.h>

#include "geom/tri_tri_classify.h"
#include "geom/tri_tri_impl.h"
#include "geom/tri_tri_sse2.h"
#include "geom/triangle_local.h"

#include <cstdint>
#include <limits>

namespace flak {
namespace {

using detail::Overlap;

// classify() for one pair: the 256-bit form where the CPU has AVX2 (same answers).
Overlap classifyPair(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                     const Vec3& r2) {
#if defined(FLAK_TRI_TRI_AVX2)
    if (cpuHasAvx2()) return detail::classifyWide(p1, q1, r1, p2, q2, r2);
#endif
    return detail::classify(p1, q1, r1, p2, q2, r2);
}

} // namespace

namespace detail {

TriTriKind classifyTriTri(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                          const Vec3& r2) {
    return classifyPair(p1, q1, r1, p2, q2, r2);
}

} // namespace detail

bool triTriOverlap(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                   const Vec3& r2) {
    return classifyPair(p1, q1, r1, p2, q2, r2) != Overlap::Disjoint;
}

void setBatchTriangle(int lane, const Vec3& a, const Vec3& b, const Vec3& c, TriangleBatch4& inout) {
    FLAK_ASSERT(lane >= 0 && lane < 4, "batch lane out of range");
    if (lane < 0 || lane >= 4) return;
    const Vec3* v[3] = {&a, &b, &c};
    for (int i = 0; i < 3; ++i) {
        inout.v[i][0][lane] = v[i]->x;
        inout.v[i][1][lane] = v[i]->y;
        inout.v[i][2][lane] = v[i]->z;
    }
    // The lane's plane exactly as classify() computes it for the second triangle.
    Vec3 e1, e2, n;
    sub(a, c, e1);
    sub(b, c, e2);
    cross(e1, e2, n);
    inout.n[0][lane] = n.x;
    inout.n[1][lane] = n.y;
    inout.n[2][lane] = n.z;
    const unsigned bit = 1u << lane;
    // Any NaN or infinite vertex makes triTriOverlap answer no, on every path (classifyAfterPlanes
    // checks finiteness before a yes): such a lane is skipped rather than decided.
    const bool finite = detail::isFiniteTriangle(a, b, c);
    inout.empty_lanes = finite ? inout.empty_lanes & ~bit : inout.empty_lanes | bit;
    inout.scalar_lanes =
        finite && !detail::wellConditioned(e1, e2, n) ? inout.scalar_lanes | bit : inout.scalar_lanes & ~bit;
}

void clearBatch(TriangleBatch4& out) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 4; ++k) {
            for (int j = 0; j < 3; ++j) out.v[i][j][k] = nan;
            out.n[i][k] = nan;
        }
    out.scalar_lanes = 0u;
    out.empty_lanes = 0xFu;
    out.reserved[0] = out.reserved[1] = 0u;
}

void finishBatch(std::uint32_t count, TriangleBatch4& inout) {
    FLAK_ASSERT(count <= 4u, "batch lane count above 4");
    const std::uint32_t used = count < 4u ? count : 4u;
    detail::finishBatchLanes(used, inout);
    inout.reserved[0] = inout.reserved[1] = 0u;
}

#if defined(FLAK_SIMD_SSE2)
unsigned triTriOverlap4(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4& batch) {
    detail::Tri1Lanes t1;
    if (!detail::prepareTri1(p1, q1, r1, t1))
        return detail::overlapLanesIll(p1, q1, r1, batch, 0xFu) & detail::kOverlapBits;
    return detail::overlapLanes(t1, batch, 0xFu) & detail::kOverlapBits;
}

unsigned triTriOverlap8(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch8& batch) {
    detail::Tri1Lanes t1;
    if (!detail::prepareTri1(p1, q1, r1, t1))
        return (detail::overlapLanesIll(p1, q1, r1, batch.half[0], 0xFu) & 0xFu) |
               ((detail::overlapLanesIll(p1, q1, r1, batch.half[1], 0xFu) & 0xFu) << 4);
#if defined(FLAK_TRI_TRI_AVX2)
    if (cpuHasAvx2())
        return detail::overlapLanes8(t1, batch.half[0], batch.half[1], 0xFFu) & detail::kOverlapBits;
#endif
    return (detail::overlapLanes(t1, batch.half[0], 0xFu) & 0xFu) |
           ((detail::overlapLanes(t1, batch.half[1], 0xFu) & 0xFu) << 4);
}

unsigned triTriOverlapLanes(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4* batches,
                            std::uint32_t lanes, std::uint32_t* out_crossing) {
    if (out_crossing != nullptr) *out_crossing = 0u;
    if (lanes == 0u) return 0u;
    detail::Tri1Lanes t1;
    const bool fast = detail::prepareTri1(p1, q1, r1, t1);
    unsigned mask = 0u, crossing = 0u;
    for (unsigned q = 0, rest = lanes; rest != 0u; ++q, rest >>= 4u) {
        const unsigned wanted = rest & 0xFu;
        if (wanted == 0u) continue;
#if defined(FLAK_TRI_TRI_AVX2)
        // Two neighbouring batches with lanes asked for in both: one 8-lane pass.
        if (fast && (rest & 0xF0u) != 0u && cpuHasAvx2()) {
            const unsigned hits = detail::overlapLanes8(t1, batches[q], batches[q + 1], rest & 0xFFu);
            mask |= (hits & detail::kOverlapBits) << (4u * q);
            crossing |= (hits >> detail::kCrossingShift) << (4u * q);
            ++q;
            rest >>= 4u;
            continue;
        }
#endif
        const unsigned hits = fast ? detail::overlapLanes(t1, batches[q], wanted)
                                   : detail::overlapLanesIll(p1, q1, r1, batches[q], wanted);
        mask |= (hits & detail::kOverlapBits) << (4u * q);
        crossing |= (hits >> detail::kCrossingShift) << (4u * q);
    }
    if (out_crossing != nullptr) *out_crossing = crossing;
    return mask;
}

const char* triTriBackend() {
#if defined(FLAK_TRI_TRI_AVX2)
    if (cpuHasAvx2()) return "avx2";
#endif
    return "sse2";
}
#else
const char* triTriBackend() { return "scalar"; }

namespace {

// Every lane through classify().
unsigned classifyEachLane(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4& batch) {
    unsigned mask = 0u;
    for (int lane = 0; lane < 4; ++lane) {
        if ((batch.empty_lanes >> lane) & 1u) continue;
        Vec3 p2, q2, r2;
        detail::laneTriangle(batch, lane, p2, q2, r2);
        const Overlap kind = detail::classify(p1, q1, r1, p2, q2, r2);
        if (kind != Overlap::Disjoint) mask |= 1u << lane;
        if (kind == Overlap::Crossing) mask |= 1u << (static_cast<unsigned>(lane) + detail::kCrossingShift);
    }
    return mask;
}

} // namespace

// Scalar back-end: the plain per-lane test (identical by construction).
unsigned triTriOverlap4(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4& batch) {
    return classifyEachLane(p1, q1, r1, batch) & detail::kOverlapBits;
}

unsigned triTriOverlap8(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch8& batch) {
    return triTriOverlap4(p1, q1, r1, batch.half[0]) | (triTriOverlap4(p1, q1, r1, batch.half[1]) << 4);
}

unsigned triTriOverlapLanes(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4* batches,
                            std::uint32_t lanes, std::uint32_t* out_crossing) {
    unsigned mask = 0u, crossing = 0u;
    for (unsigned q = 0, rest = lanes; rest != 0u; ++q, rest >>= 4u) {
        const unsigned wanted = rest & 0xFu;
        if (wanted == 0u) continue;
        const unsigned hits = classifyEachLane(p1, q1, r1, batches[q]) & (wanted * 0x10001u);
        mask |= (hits & detail::kOverlapBits) << (4u * q);
        crossing |= (hits >> detail::kCrossingShift) << (4u * q);
    }
    if (out_crossing != nullptr) *out_crossing = crossing;
    return mask;
}
#endif

} // namespace flak
