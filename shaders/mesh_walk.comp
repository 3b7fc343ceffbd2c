#version 450
// flak — the tandem walk of mesh-mesh jobs on the GPU: runtime/src/bvh/tandem_walk.h's
// walkLeafPairs, operation for operation in float, so that the device finds the very leaf pairs
// the CPU walk finds (each once; their order does not matter: the pair pass's records are sorted
// by the host). One invocation per (job, group of mesh A): a group is a subtree of the device's
// copy of A's tree that the host marks, the CPU walk's group (runtime/src/gpu/device_tree.h).
// Node boxes contain their children's (the loader proves it), so a group whose box
// overlaps B's root box has every ancestor overlapping it too: the invocation tests its own group
// alone. It then walks B's tree (escape indices, no stack) against the group's box taken into B's
// grid, and at every B leaf walks the group's subtree against that leaf's box taken into A's grid;
// every overlapping (A leaf, B leaf) is a rectangle for the pair pass (tri_pairs.comp).
// Every float value is `precise` and spelled in the CPU's order (decodeNode, transformAabb,
// inflate, quantizeBox); the integer box tests are exact.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require

// Infinities and NaN compare as on the CPU (a box of coordinates near the limit can overflow).
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4466], 4461, 32);

#include "flak_gpu_layout.h"

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(std430, set = 0, binding = 1) readonly buffer Jobs { GpuJob jobs[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Rects { GpuRect rects[]; };
layout(std430, set = 0, binding = 4) readonly buffer AnyFlags { uint any_flags[]; };
layout(std430, set = 0, binding = 5) readonly buffer Params { GpuParams pc; };
layout(std430, set = 0, binding = 6) buffer WalkHeads { GpuWalkHead heads[2]; }; // this slot's two, in turn
layout(std430, set = 0, binding = 7) readonly buffer Meshes { GpuMeshInfo meshes[]; };
layout(std430, set = 0, binding = 8) readonly buffer Nodes { uvec4 nodes[]; };
layout(std430, set = 0, binding = 9) readonly buffer Groups { uint groups[]; };
layout(std430, set = 0, binding = 10) readonly buffer WalkJobs { GpuWalkJob walk_jobs[]; };

struct Node {
    ivec3 lo;
    ivec3 hi;
    uint info;
};

Node nodeAt(uint i) {
    uvec4 w = nodes[i];
    Node n;
    n.lo = ivec3(int(w.x & 0xFFFFu), int(w.x >> 16), int(w.y & 0xFFFFu));
    n.hi = ivec3(int(w.y >> 16), int(w.z & 0xFFFFu), int(w.z >> 16));
    n.info = w.w;
    return n;
}
bool isLeaf(uint info) { return (info & 0x80000000u) != 0u; }
uint skipOf(uint info) { return isLeaf(info) ? 1u : info; }
uint leafFirst(uint info) { return info & 0x03FFFFFFu; }
uint leafCount(uint info) { return ((info >> 26) & 0x1Fu) + 1u; }

// nodeOverlaps: closed integer tests on every axis.
bool overlaps(Node n, ivec3 qlo, ivec3 qhi) {
    return n.hi.x >= qlo.x && n.lo.x <= qhi.x && n.hi.y >= qlo.y && n.lo.y <= qhi.y && n.hi.z >= qlo.z &&
           n.lo.z <= qhi.z;
}

// quantizeBox, one axis: the grid coordinates clamped (NaN-safe) and widened by two steps; an
// empty or NaN box overlaps nothing; a flat axis (inv 0) holds every node at the origin.
void quantizeAxis(float qmin, float qmax, float origin, float inv, out int lo, out int hi) {
    if (!(qmin <= qmax)) {
        lo = 1;
        hi = 0;
        return;
    }
    if (inv == 0.0) {
        bool in_box = qmin <= origin && origin <= qmax;
        lo = in_box ? -1 : 1;
        hi = in_box ? 70000 : 0;
        return;
    }
    precise float l = (qmin - origin) * inv;
    precise float h = (qmax - origin) * inv;
    l = l > -2.0 ? (l < 70000.0 ? l : 70000.0) : -2.0;
    h = h < 70000.0 ? (h > -2.0 ? h : -2.0) : 70000.0;
    lo = int(l) - 2;
    hi = int(h) + 2;
}

// makeNodeDecoder: a mesh's grid origin with the growth `margin` folded in, below and above.
struct Decoder {
    vec3 lo_origin;
    vec3 hi_origin;
    vec3 scale;
};
Decoder makeDecoder(GpuMeshInfo m, float margin) {
    Decoder d;
    precise vec3 lo, hi;
    lo.x = m.origin_x - margin;
    lo.y = m.origin_y - margin;
    lo.z = m.origin_z - margin;
    hi.x = m.origin_x + margin;
    hi.y = m.origin_y + margin;
    hi.z = m.origin_z + margin;
    d.lo_origin = lo;
    d.hi_origin = hi;
    d.scale = vec3(m.scale_x, m.scale_y, m.scale_z);
    return d;
}

// Node n decoded with `from` (decodeNode), moved by the rotation columns r0, r1, r2 and
// translation t (transformAabb: centre moved, extents through |R|), grown by `margin` and
// quantized into mesh `to`'s grid.
void nodeToGrid(Decoder from, Node n, vec3 r0, vec3 r1, vec3 r2, vec3 t, float margin, GpuMeshInfo to,
                out ivec3 qlo, out ivec3 qhi) {
    precise vec3 lo, hi, c, e, tc, te, bmin, bmax;
    lo.x = from.lo_origin.x + float(n.lo.x) * from.scale.x;
    lo.y = from.lo_origin.y + float(n.lo.y) * from.scale.y;
    lo.z = from.lo_origin.z + float(n.lo.z) * from.scale.z;
    hi.x = from.hi_origin.x + float(n.hi.x) * from.scale.x;
    hi.y = from.hi_origin.y + float(n.hi.y) * from.scale.y;
    hi.z = from.hi_origin.z + float(n.hi.z) * from.scale.z;
    c.x = (lo.x + hi.x) * 0.5;
    c.y = (lo.y + hi.y) * 0.5;
    c.z = (lo.z + hi.z) * 0.5;
    e.x = (hi.x - lo.x) * 0.5;
    e.y = (hi.y - lo.y) * 0.5;
    e.z = (hi.z - lo.z) * 0.5;
    // mul(R, c) + t and mul(|R|, e), each row as (c0 * x + c1 * y) + c2 * z.
    tc.x = r0.x * c.x + r1.x * c.y;
    tc.x = tc.x + r2.x * c.z;
    tc.y = r0.y * c.x + r1.y * c.y;
    tc.y = tc.y + r2.y * c.z;
    tc.z = r0.z * c.x + r1.z * c.y;
    tc.z = tc.z + r2.z * c.z;
    tc.x = tc.x + t.x;
    tc.y = tc.y + t.y;
    tc.z = tc.z + t.z;
    te.x = abs(r0.x) * e.x + abs(r1.x) * e.y;
    te.x = te.x + abs(r2.x) * e.z;
    te.y = abs(r0.y) * e.x + abs(r1.y) * e.y;
    te.y = te.y + abs(r2.y) * e.z;
    te.z = abs(r0.z) * e.x + abs(r1.z) * e.y;
    te.z = te.z + abs(r2.z) * e.z;
    bmin.x = (tc.x - te.x) - margin;
    bmin.y = (tc.y - te.y) - margin;
    bmin.z = (tc.z - te.z) - margin;
    bmax.x = (tc.x + te.x) + margin;
    bmax.y = (tc.y + te.y) + margin;
    bmax.z = (tc.z + te.z) + margin;
    quantizeAxis(bmin.x, bmax.x, to.origin_x, to.inv_x, qlo.x, qhi.x);
    quantizeAxis(bmin.y, bmax.y, to.origin_y, to.inv_y, qlo.y, qhi.y);
    quantizeAxis(bmin.z, bmax.z, to.origin_z, to.inv_z, qlo.z, qhi.z);
}

// Flags the batch as one the host must answer on the CPU. The pair pass runs at least one group
// then, whatever the walk emitted: its first invocation copies the head to the host's copy, so a
// walk cut short before its first leaf pair is seen too.
void flagOverflow() {
    atomicOr(heads[pc.parity].overflow, 1u);
    atomicMax(heads[pc.parity].pair_groups_x, 1u);
    atomicMax(heads[pc.parity].pair_groups_y, 1u);
}

// A leaf pair for the pair pass; false when the rectangles are full (the host then answers the
// batch on the CPU, so the walk may stop).
bool emit(uint job, uint a_first, uint a_count, uint b_first, uint b_count) {
    uint idx = atomicAdd(heads[pc.parity].rect_count, 1u);
    if (idx >= pc.rect_count) {
        flagOverflow();
        return false;
    }
    rects[idx] = GpuRect(job, a_first, a_count, b_first, b_count, 0u, 0u, 0u);
    atomicAdd(heads[pc.parity].tested_pairs, a_count * b_count);
    // The pair pass runs kGpuWalkRectStride invocations per rectangle in rows of kGpuRowGroups
    // groups: grow its dispatch to reach this rectangle's group.
    uint group = idx / (kGpuLocalSize / kGpuWalkRectStride);
    atomicMax(heads[pc.parity].pair_groups_x, min(group + 1u, kGpuRowGroups));
    atomicMax(heads[pc.parity].pair_groups_y, group / kGpuRowGroups + 1u);
    return true;
}

void main() {
    uint w = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * (kGpuRowGroups * kGpuLocalSize);
    // The other head starts the slot's next walk batch at zero (the pair pass dispatch reads
    // pair_groups_z: 1).
    if (w == 0u) heads[1u - pc.parity] = GpuWalkHead(0u, 0u, 0u, 0u, 0u, 0u, 1u, 0u);
    if (w >= pc.walk_total) return;
    // The job holding walk invocation w: the last one with group_begin <= w.
    uint lo = 0u, hi = pc.job_count - 1u;
    while (lo < hi) {
        uint mid = (lo + hi + 1u) >> 1;
        if (walk_jobs[mid].group_begin <= w) lo = mid; else hi = mid - 1u;
    }
    uint j = lo;
    if ((pc.flags & kGpuFlagAnyContact) != 0u && any_flags[j] != 0u) return;
    GpuWalkJob wj = walk_jobs[j];
    GpuMeshInfo a = meshes[wj.mesh_a];
    GpuMeshInfo b = meshes[wj.mesh_b];
    uint gi = groups[a.group_first + (w - wj.group_begin)];
    Node g = nodeAt(a.node_first + gi);
    if (!overlaps(g, ivec3(wj.root_lo_x, wj.root_lo_y, wj.root_lo_z), ivec3(wj.root_hi_x, wj.root_hi_y, wj.root_hi_z)))
        return;
    uint g_end = gi + skipOf(g.info);
    ivec3 glo, ghi;
    nodeToGrid(makeDecoder(a, wj.margin), g, vec3(wj.c0x, wj.c0y, wj.c0z), vec3(wj.c1x, wj.c1y, wj.c1z), vec3(wj.c2x, wj.c2y, wj.c2z),
               vec3(wj.tx, wj.ty, wj.tz), wj.margin, b, glo, ghi);
    GpuJob job = jobs[j];
    vec3 b0 = vec3(job.c0x, job.c0y, job.c0z), b1 = vec3(job.c1x, job.c1y, job.c1z),
         b2 = vec3(job.c2x, job.c2y, job.c2z), bt = vec3(job.tx, job.ty, job.tz);
    Decoder b_decoder = makeDecoder(b, wj.margin); // once for every B leaf
    uint k = 0u;
    bool cut = false;
    while (k < b.node_count) {
        Node nb = nodeAt(b.node_first + k);
        if (!overlaps(nb, glo, ghi)) {
            k += skipOf(nb.info);
            continue;
        }
        ++k;
        if (!isLeaf(nb.info)) continue;
        ivec3 qlo, qhi;
        nodeToGrid(b_decoder, nb, b0, b1, b2, bt, wj.margin, a, qlo, qhi);
        // The group's subtree, a subtree its box misses skipped whole: boxes nest, so the leaves
        // reached are those whose own boxes overlap, in the CPU's (depth-first) order.
        uint i = gi;
        while (i < g_end) {
            Node na = nodeAt(a.node_first + i);
            if (!overlaps(na, qlo, qhi)) {
                i += skipOf(na.info);
                continue;
            }
            ++i;
            if (!isLeaf(na.info)) continue;
            if (!emit(j, leafFirst(na.info), leafCount(na.info), leafFirst(nb.info), leafCount(nb.info))) return;
        }
        if (i < g_end) {
            cut = true;
            break;
        }
    }
    // A loop left before its end was cut short by the driver, not by the walk: lavapipe stops
    // every loop of a shader after 65,535 iterations in all (LP_MAX_TGSI_LOOP_ITERATIONS, shared
    // by the loops of one SIMD batch of invocations). The walk then missed pairs: the batch is
    // flagged as an overflow, and the host answers it on the CPU.
    if (cut || k < b.node_count) flagOverflow();
}
