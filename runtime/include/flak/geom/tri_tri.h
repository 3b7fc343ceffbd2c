// flak — triangle vs triangle: boolean overlap (Guigue & Devillers 2003), the intersection segment,
// and a batched one-against-four/eight form (SSE2, with AVX2 where the CPU has it, a scalar
// fallback; identical answers).
#pragma once

#include <flak/math/vec3.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// True when the closed triangles (p1, q1, r1) and (p2, q2, r2) intersect (touching counts).
/// Method: Guigue & Devillers 2003, "Fast and robust triangle-triangle overlap test using
/// orientation predicates": signs of 4x4 orientation determinants in float, no division.
/// Named exception to tolerance.h rule 2: a triangle whose plane is ill-conditioned in float (the
/// corner used for its normal has sin < 0.05: needles pointing there, caps) gets its plane-side
/// signs in double; a float normal there is noise and a 1e-8-thin cap would "overlap" triangles
/// far away. A second named exception: a pair that survives both plane-side tests with nearly
/// parallel planes (float normals within about 7 degrees) is decided again in double, because
/// where the planes cut is noise in float (two triangles a hair out of one plane would "cross"
/// far apart). A third: a pair with a plane side no farther from zero than its float rounding
/// error can reach is decided again with every sign exact (an exact orientation predicate on the
/// float vertices): an edge lying in the other's plane to the rounding of its ends would otherwise
/// be taken to cross that plane where its line does, anywhere along it (a pair 0.4 apart
/// "crossing"). Coplanar pairs (rule 4: every vertex of one triangle has an orientation value of
/// exactly 0 against the other's plane, or planes parallel to 2^-30 in double) go to a 2D
/// separating-axis test in the plane of the first triangle. A zero-area triangle behaves as its
/// three edges; two zero-area triangles never overlap (they can only touch, inside the band).
/// Tolerance: local origin p1; scale = the largest absolute coordinate of the six vertices minus
/// p1. Decisive distance: the separation distance when disjoint, the penetration depth (smallest
/// translation that separates, over the separating-axis candidates) when they intersect; for a
/// coplanar pair the in-plane penetration depth. Finite input is assumed below ~1e12 in magnitude
/// (products of three coordinate differences must not overflow) and with edges above ~1e-9.
/// NaN/Inf anywhere: false. Not symmetric in bits: swapping the triangles may flip answers inside
/// the band.
bool triTriOverlap(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                   const Vec3& r2);

/// triTriOverlap plus, when they overlap, a piece of the intersection. Not coplanar: out_start
/// and out_end are the ends of the intersection segment (equal when the triangles touch in a
/// point). Coplanar (out_coplanar = true): both are set to one point of the overlap region (the
/// centroid of the clipped polygon). A zero-area triangle: the points where its edges cross the
/// other. The construction is done in double (an accuracy choice; the decision is the float one
/// of triTriOverlap): each returned point lies within the tolerance band of both triangles plus
/// the rounding of its float coordinates. Returns false (outputs untouched but out_coplanar =
/// false) when they do not overlap or on NaN/Inf input.
bool triTriIntersection(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                        const Vec3& r2, Vec3& out_start, Vec3& out_end, bool& out_coplanar);

/// Up to four triangle pairs side by side for triTriIntersection4 (288 bytes): lane j holds the
/// pair (v[0..2][*][j], v[3..5][*][j]), i.e. (p1, q1, r1) and (p2, q2, r2) of triTriIntersection.
struct TriTriPairs4 {
    float v[6][3][4]; ///< [vertex p1 q1 r1 p2 q2 r2][axis][lane]
};

/// triTriIntersection of lanes 0..count-1 (count 1 to 4; more is taken as 4): bit j of the result
/// is lane j's return value, out_start[j] / out_end[j] its points and bit j of out_coplanar its
/// flag, bit for bit. On x86 CPUs with AVX2 (detected at run time) the pairs that cross in 3D (the
/// common case) build their segments four at a time in 256-bit vectors of doubles, with the scalar
/// function's operations in its order and blends in place of its branches; the other pairs, and
/// every pair elsewhere, take the scalar path. Outputs of lanes without an intersection are zero.
/// `crossing`: lanes the caller already knows to cross in 3D (triTriOverlapLanes' out_crossing);
/// their classification is skipped, so a lane named there wrongly gets a wrong answer.
unsigned triTriIntersection4(const TriTriPairs4& pairs, unsigned count, Vec3 out_start[4], Vec3 out_end[4],
                             unsigned& out_coplanar, unsigned crossing = 0u);

/// Four triangles in structure-of-arrays form for the batched test (208 bytes, 16-byte aligned),
/// with each lane's plane precomputed (a batch is typically built once per mesh leaf and tested
/// many times). Lane j holds triangle (v[0][*][j], v[1][*][j], v[2][*][j]). Write it only with
/// setBatchTriangle / clearBatch, or write `v` and then call finishBatch.
struct alignas(16) TriangleBatch4 {
    float v[3][3][4];           ///< v[vertex][axis][lane]
    float n[3][4];              ///< n[axis][lane]: (v0 - v2) x (v1 - v2), as triTriOverlap computes it
    std::uint32_t scalar_lanes; ///< lanes whose plane is ill-conditioned: decided in scalar code
    std::uint32_t empty_lanes;  ///< lanes cleared or holding a non-finite vertex: they never overlap
    std::uint32_t reserved[2];
};
static_assert(sizeof(TriangleBatch4) == 208, "TriangleBatch4 layout");
static_assert(offsetof(TriangleBatch4, n) == 144 && offsetof(TriangleBatch4, scalar_lanes) == 192 &&
                  offsetof(TriangleBatch4, empty_lanes) == 196,
              "TriangleBatch4 layout");

/// Eight triangles: two batches of four (416 bytes).
struct TriangleBatch8 {
    TriangleBatch4 half[2];
};
static_assert(sizeof(TriangleBatch8) == 416, "TriangleBatch8 is two TriangleBatch4");

/// Writes triangle (a, b, c) into lane `lane` (0..3) of `inout`, with its plane. Start a batch
/// with clearBatch. A lane outside 0..3 is a programmer error (FLAK_ASSERT) and is ignored.
void setBatchTriangle(int lane, const Vec3& a, const Vec3& b, const Vec3& c, TriangleBatch4& inout);

/// Fills every lane with NaN and marks it empty: such lanes never overlap and cost nothing (use for
/// the unused tail of a batch). A lane given a NaN or infinite vertex is empty too (triTriOverlap
/// answers no for it).
void clearBatch(TriangleBatch4& out);

/// Completes a batch whose lanes 0..count-1 were written straight into `v` (by a caller that
/// builds vertices four lanes at a time): lanes 0..count-1 get their planes and flags exactly as
/// setBatchTriangle would give them, lanes count..3 are cleared as by clearBatch. A count above 4
/// is a programmer error (FLAK_ASSERT) and is taken as 4.
void finishBatch(std::uint32_t count, TriangleBatch4& inout);

/// Bit j (j = 0..3) set when triangle (p1, q1, r1) overlaps lane j of `batch`; bit for bit the
/// answer of triTriOverlap(p1, q1, r1, lane j). The two plane-side rejection tests run four lanes
/// at a time (SSE2 when the build has it, else plain per-lane calls); surviving lanes finish one
/// at a time from the very same float values. Lanes set by clearBatch never overlap.
unsigned triTriOverlap4(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4& batch);

/// Eight lanes: bits 0..3 from batch.half[0], bits 4..7 from batch.half[1]. On x86 CPUs with AVX2
/// (detected at run time; the library is built for SSE2) the plane tests of both halves run in
/// one pass of eight-lane vectors, with the same operations lane by lane: same answers.
unsigned triTriOverlap8(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch8& batch);

/// One triangle against several batches, for the lanes a caller's filter kept: bit 4q + j of
/// `lanes` asks for lane j of batches[q] (q = 0..7), and the same bit of the result is set when
/// triTriOverlap4(p1, q1, r1, batches[q]) has bit j. Triangle 1 is prepared once for all batches;
/// a batch without a bit in `lanes` is never read, and lanes left out cost no scalar finish.
/// Neighbouring batches both asked for share an eight-lane pass where triTriOverlap8 would.
/// out_crossing, when given, gets the same bit for each overlapping pair that crosses in 3D: the
/// pairs triTriIntersection would give a segment to, neither coplanar nor through a zero-area
/// triangle (the `crossing` hint of triTriIntersection4).
unsigned triTriOverlapLanes(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4* batches,
                            std::uint32_t lanes, std::uint32_t* out_crossing = nullptr);

/// The back-end of the tests above on this CPU: "avx2" (both planes of a pair, or two batches,
/// in one pass of 256-bit vectors; x86 CPUs with AVX2, detected at run time), "sse2" or
/// "scalar". Every back-end gives the same answers, bit for bit.
const char* triTriBackend();

} // namespace flak
