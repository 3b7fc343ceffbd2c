// flak — the GPU triangle-pair pipeline's buffer layouts and constants, in ONE place, valid both
// as GLSL (included by shaders/*.comp with GL_GOOGLE_include_directive) and as C++17 (included by
// runtime/src/gpu). std430 rules on the GLSL side; the C++ side checks every size and offset.
// Only scalars and 32-bit words: no vec3 (whose std430 alignment is 16) so both sides agree by
// construction.
#ifndef FLAK_GPU_LAYOUT_H
#define FLAK_GPU_LAYOUT_H

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#define FLAK_GPU_UINT std::uint32_t
#define FLAK_GPU_CONST(type, name, value) constexpr type name = value
namespace flak::gpu {
#else
#define FLAK_GPU_UINT uint
#define FLAK_GPU_CONST(type, name, value) const type name = value
#endif

// Threads per workgroup of the pair shader (x); the dispatch is 2D: y rows of kGpuRowGroups groups.
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuLocalSize, 64u);
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuRowGroups, 32768u);
// Bits of tri_tri_impl.h's kMinSinSq = 2.5e-3f (the sliver guard), passed as bits so that no decimal
// to float conversion (GLSL front ends go through double: two roundings) can change it.
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuMinSinSqBits, 0x3B23D70Au);
// Bits of tri_tri_impl.h's kParallelSinSq = 2^-6: the nearly parallel planes the CPU decides in
// double (the device leaves them to the host).
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuParallelSinSqBits, 0x3C800000u);
// Bits of tri_tri_impl.h's kSideError = 2^-20, kSideUnderflow = 2^-126 and kSideFloor = 2^-120:
// the rounding bound under which a plane side is in doubt and the pair is decided exactly.
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuSideErrorBits, 0x35800000u);
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuSideUnderflowBits, 0x00800000u);
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuSideFloorBits, 0x03800000u);
// Batch modes (GpuParams::flags).
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuFlagAnyContact, 1u); // per-job flag only, no pair records
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuFlagWalkRects, 2u);  // the rectangles come from the device walk
// A walk rectangle (a leaf pair) gets kGpuWalkRectStride invocations of the pair pass, one per A
// triangle (a leaf holds at most 16, blob_format.h kMaxLeafTriangles), each testing every B
// triangle of the rectangle.
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuWalkRectStride, 16u);
// B triangles one invocation tests against its A triangle (the A triangle, the job and the
// rectangle are fetched once per invocation, not once per pair).
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuPairsPerInvocation, 8u);
// Floats per triangle in the mesh buffer: three vertices xyz, leaf (triangle id) order.
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuFloatsPerTriangle, 9u);

/// One job of a batch (64 bytes): mesh A's triangles against mesh B's mapped into A's frame by
/// x' = rotation * x + translation (columns c0, c1, c2 as flak::Mat33), the CPU's transformPoint.
struct GpuJob {
    float c0x, c0y, c0z, c1x, c1y, c1z, c2x, c2y, c2z; ///< rotation columns
    float tx, ty, tz;                                  ///< translation
    FLAK_GPU_UINT base_a;                              ///< first triangle of mesh A in the mesh buffer
    FLAK_GPU_UINT base_b;                              ///< first triangle of mesh B in the mesh buffer
    FLAK_GPU_UINT reserved0;
    FLAK_GPU_UINT reserved1;
};

/// One rectangle of triangle pairs (32 bytes): triangles a_first .. a_first + a_count - 1 of job
/// `job`'s mesh A against b_first .. b_first + b_count - 1 of its mesh B. Brute force: one
/// rectangle per job covering both meshes; candidate mode: one per candidate leaf pair.
/// `pair_begin` is the exclusive prefix sum of the rectangles' invocation counts,
/// a_count * ceil(b_count / kGpuPairsPerInvocation) (the name stays: an invocation is a run of
/// up to kGpuPairsPerInvocation pairs sharing their A triangle).
struct GpuRect {
    FLAK_GPU_UINT job;
    FLAK_GPU_UINT a_first;
    FLAK_GPU_UINT a_count;
    FLAK_GPU_UINT b_first;
    FLAK_GPU_UINT b_count;
    FLAK_GPU_UINT pair_begin;
    FLAK_GPU_UINT reserved0;
    FLAK_GPU_UINT reserved1;
};

/// Head of the output buffer (16 bytes), followed by `capacity` GpuPairRecord.
struct GpuOutHeader {
    FLAK_GPU_UINT count;    ///< records: pairs found and pairs left to the host (may exceed capacity:
                            ///< records past it are not written)
    FLAK_GPU_UINT overflow; ///< 1 when count > capacity
    FLAK_GPU_UINT asked;    ///< how many of the records are pairs left to the host (kGpuRecordAsk)
    FLAK_GPU_UINT reserved1;
};

/// One colliding triangle pair (16 bytes), unordered (atomic compaction).
struct GpuPairRecord {
    FLAK_GPU_UINT job;   ///< index of the job in the batch
    FLAK_GPU_UINT a;     ///< triangle id in mesh A
    FLAK_GPU_UINT b;     ///< triangle id in mesh B
    FLAK_GPU_UINT flags; ///< kGpuRecordAsk or kGpuRecordCrossing (or neither)
};
// GpuPairRecord::flags: the pair's plane sides are within their rounding bound; the CPU kernel
// decides it with exact signs, so the host runs it when it collects the record (in either query).
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuRecordAsk, 1u);
// GpuPairRecord::flags: the device decided the pair on the CPU kernel's float path and found it
// crossing in 3D (neither coplanar nor ill-conditioned), as the CPU's classification would.
FLAK_GPU_CONST(FLAK_GPU_UINT, kGpuRecordCrossing, 2u);

/// Batch parameters (32 bytes), a small storage buffer written by the host before each submit
/// (not push constants: the command buffers are recorded once at init and only resubmitted).
struct GpuParams {
    FLAK_GPU_UINT rect_count;  ///< rectangles in the batch (the walk: the most it may store)
    FLAK_GPU_UINT total_pairs; ///< invocations doing work (sum of the rectangles' invocation counts)
    FLAK_GPU_UINT capacity;    ///< GpuPairRecord slots after the header
    FLAK_GPU_UINT flags;       ///< kGpuFlag*
    FLAK_GPU_UINT job_count;   ///< jobs in the batch
    FLAK_GPU_UINT walk_total;  ///< walk invocations (groups over all jobs)
    FLAK_GPU_UINT parity;      ///< which of the slot's two device walk heads this batch counts in
    FLAK_GPU_UINT reserved0;
};

/// One uploaded mesh's tree on the device (64 bytes): its nodes (BvhNode as four words: lo[0] |
/// lo[1] << 16, lo[2] | hi[0] << 16, hi[1] | hi[2] << 16, info) and its groups (the node index of
/// every subtree the walk takes as a group, in walk order), with its quantization grid.
struct GpuMeshInfo {
    FLAK_GPU_UINT node_first; ///< first node in the node buffer
    FLAK_GPU_UINT node_count;
    FLAK_GPU_UINT group_first; ///< first group in the group buffer
    FLAK_GPU_UINT group_count;
    float origin_x, origin_y, origin_z; ///< MeshBlob::quant_origin
    float scale_x, scale_y, scale_z;    ///< MeshBlob::quant_scale
    float inv_x, inv_y, inv_z;          ///< QuantGrid::inv_step (0 on a flat axis)
    FLAK_GPU_UINT reserved0;
    FLAK_GPU_UINT reserved1;
    FLAK_GPU_UINT reserved2;
};

/// One job of a device walk (96 bytes), beside its GpuJob (B's mesh space to A's): A's mesh space
/// to B's, the walk's box growth, B's root box in A's grid, and where its groups start in the
/// batch's walk invocations (the exclusive prefix sum of the jobs' group counts; a job with a
/// non-finite transform or an empty mesh has none).
struct GpuWalkJob {
    float c0x, c0y, c0z, c1x, c1y, c1z, c2x, c2y, c2z; ///< A to B rotation columns
    float tx, ty, tz;                                  ///< A to B translation
    float margin;                                      ///< walkMargin(A, scale)
    int root_lo_x, root_lo_y, root_lo_z;               ///< B's grown root box in A's grid
    int root_hi_x, root_hi_y, root_hi_z;
    FLAK_GPU_UINT mesh_a;
    FLAK_GPU_UINT mesh_b;
    FLAK_GPU_UINT group_begin;
    FLAK_GPU_UINT reserved0;
    FLAK_GPU_UINT reserved1;
};

/// The device walk's counters and the pair pass's dispatch size (32 bytes). Each slot has two in
/// device memory, used by its batches in turn (GpuParams::parity): a walk starts on zeroed
/// counters, counts its rectangles (those past the capacity are not written: `overflow`) and the
/// triangle pairs in them, grows the pair pass's indirect dispatch (x, y, 1) to cover them, and
/// zeroes the other head for the next batch. The pair pass copies the counters to the host's
/// copy of this struct. Outside the walk, the host writes the pair pass's dispatch size here.
struct GpuWalkHead {
    FLAK_GPU_UINT rect_count;
    FLAK_GPU_UINT overflow;
    FLAK_GPU_UINT tested_pairs; ///< triangle pairs in the stored rectangles
    FLAK_GPU_UINT reserved0;
    FLAK_GPU_UINT pair_groups_x;
    FLAK_GPU_UINT pair_groups_y;
    FLAK_GPU_UINT pair_groups_z;
    FLAK_GPU_UINT reserved1;
};

#ifdef __cplusplus
static_assert(sizeof(GpuMeshInfo) == 64 && offsetof(GpuMeshInfo, origin_x) == 16 &&
                  offsetof(GpuMeshInfo, inv_x) == 40,
              "GpuMeshInfo layout (std430)");
static_assert(sizeof(GpuWalkJob) == 96 && offsetof(GpuWalkJob, margin) == 48 &&
                  offsetof(GpuWalkJob, root_hi_x) == 64 && offsetof(GpuWalkJob, group_begin) == 84,
              "GpuWalkJob layout (std430)");
static_assert(sizeof(GpuWalkHead) == 32 && offsetof(GpuWalkHead, pair_groups_x) == 16,
              "GpuWalkHead layout (std430)");
static_assert(sizeof(GpuJob) == 64 && offsetof(GpuJob, tx) == 36 && offsetof(GpuJob, base_a) == 48 &&
                  offsetof(GpuJob, base_b) == 52,
              "GpuJob layout (std430)");
static_assert(sizeof(GpuRect) == 32 && offsetof(GpuRect, b_first) == 12 &&
                  offsetof(GpuRect, pair_begin) == 20,
              "GpuRect layout (std430)");
static_assert(sizeof(GpuOutHeader) == 16 && offsetof(GpuOutHeader, overflow) == 4, "GpuOutHeader layout");
static_assert(sizeof(GpuPairRecord) == 16 && offsetof(GpuPairRecord, b) == 8, "GpuPairRecord layout");
static_assert(sizeof(GpuParams) == 32 && offsetof(GpuParams, flags) == 12 &&
                  offsetof(GpuParams, parity) == 24,
              "GpuParams layout");
} // namespace flak::gpu
#endif

#undef FLAK_GPU_CONST
#endif // FLAK_GPU_LAYOUT_H
