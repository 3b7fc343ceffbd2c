#version 450
// flak — triangle pairs of mesh-mesh jobs on the GPU: the CPU kernel of runtime/src/geom/tri_tri.cpp
// (Guigue & Devillers 2003 with the 2D coplanar test), operation for operation in float, so that
// every pair the device answers gets the very boolean triTriOverlap gives.
// Rules that make the results bit-identical:
// - every float value is `precise` (SPIR-V NoContraction): no FMA contraction, no reassociation;
//   dot and cross are spelled out in the CPU's order ((x*x + y*y) + z*z); add, sub, mul and
//   comparisons are correctly rounded in Vulkan;
// - the plane-side values are used through their signs (1 > 0, -1 < 0, 0 == 0, 2 NaN) and their
//   rounding bounds;
// - non-finite input is rejected up front with bit tests (the CPU answers false for it) instead of
//   relying on isnan/isinf, which a driver may fold away;
// - the constants are given as bits (flak_gpu_layout.h).
// The CPU answers some pairs with double or exact arithmetic: a sliver's or a zero-area
// triangle's plane (sides in double), nearly parallel planes (everything again in double) and a
// plane side within its rounding bound (every sign exact). The device proves what it can of
// those (a rejection by an ill-conditioned plane) and writes the others out flagged
// kGpuRecordAsk; the host decides them with the CPU kernel. So the shader is float only: no
// shaderFloat64.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require

// Float controls the kernel relies on, declared (SPV_KHR_float_controls, Vulkan 1.2): float
// infinities, NaN and signed zeros are preserved (a product of coordinates near the documented
// limit overflows and must compare as on the CPU). Denormals are not declared (lavapipe cannot
// promise DenormPreserve, and a device may flush them): instead every add, sub and mul goes
// through the subnormal guard below, and a pair any of whose values leaves the normal range
// towards zero is left to the host.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4466], 4461, 32);

#include "flak_gpu_layout.h"

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer MeshTriangles { float tri_floats[]; };
layout(std430, set = 0, binding = 1) readonly buffer Jobs { GpuJob jobs[]; };
layout(std430, set = 0, binding = 2) readonly buffer Rects { GpuRect rects[]; };
layout(std430, set = 0, binding = 3) buffer Out {
    GpuOutHeader head;
    GpuPairRecord records[];
};
layout(std430, set = 0, binding = 4) buffer AnyFlags { uint any_flags[]; };
layout(std430, set = 0, binding = 5) readonly buffer Params { GpuParams pc; };
layout(std430, set = 0, binding = 6) readonly buffer WalkHeads { GpuWalkHead heads[2]; };
layout(std430, set = 0, binding = 11) writeonly buffer WalkResult { GpuWalkHead walk_result; };

const int kDisjoint = 0;
const int kCrossing = 1;
const int kCoplanar = 2;
const int kInDoubt = 3; // the CPU decides it in double or exactly: the host does

bool finiteF(float f) { return (floatBitsToUint(f) & 0x7F800000u) != 0x7F800000u; }
bool finite3(vec3 v) { return finiteF(v.x) && finiteF(v.y) && finiteF(v.z); }

// ---- the subnormal guard ----
// A device may flush subnormal inputs and results to zero (NVIDIA's does), where the CPU keeps
// them: a dot product of 1e-40 is > 0 on the CPU and 0 on such a device. So every operation
// checks its result: if the exact result is not zero (its operands say so, and they are the
// CPU's values by induction) and the device's result is below 2^-125, the exact value may be
// subnormal, the device's may differ from the CPU's, and g_subnormal is set. A result at or above
// 2^-125 comes from an exact value above 2^-126, which every device rounds as the CPU does. Inputs
// (vertices, the job's transform) are checked by their bits, which no flushing reads. A pair
// tested with g_subnormal set is left to the host, whatever the device concluded.
bool g_subnormal = false;
const uint kNormalFloorBits = 0x01000000u; // 2^-125
void noteResult(float r, bool exact_nonzero) {
    if (exact_nonzero && abs(r) < uintBitsToFloat(kNormalFloorBits)) g_subnormal = true;
}
void noteInput(float f) {
    uint b = floatBitsToUint(f) & 0x7FFFFFFFu;
    if (b != 0u && b < 0x00800000u) g_subnormal = true;
}
void noteInput3(vec3 v) {
    noteInput(v.x);
    noteInput(v.y);
    noteInput(v.z);
}
precise float mulG(float a, float b) {
    precise float r = a * b;
    noteResult(r, a != 0.0 && b != 0.0);
    return r;
}
precise float addG(float a, float b) {
    precise float r = a + b;
    noteResult(r, a != -b);
    return r;
}
precise float subG(float a, float b) {
    precise float r = a - b;
    noteResult(r, a != b);
    return r;
}

precise float dot3(vec3 a, vec3 b) {
    precise float r = addG(mulG(a.x, b.x), mulG(a.y, b.y));
    r = addG(r, mulG(a.z, b.z));
    return r;
}
precise vec3 cross3(vec3 a, vec3 b) {
    precise vec3 r;
    r.x = subG(mulG(a.y, b.z), mulG(a.z, b.y));
    r.y = subG(mulG(a.z, b.x), mulG(a.x, b.z));
    r.z = subG(mulG(a.x, b.y), mulG(a.y, b.x));
    return r;
}
precise vec3 sub3(vec3 a, vec3 b) {
    precise vec3 r;
    r.x = subG(a.x, b.x);
    r.y = subG(a.y, b.y);
    r.z = subG(a.z, b.z);
    return r;
}
int signF(float d) { return d > 0.0 ? 1 : (d < 0.0 ? -1 : (d == 0.0 ? 0 : 2)); }
bool pos(int s) { return s == 1; }
bool neg(int s) { return s == -1; }
bool sameSide(int a, int b, int c) { return (pos(a) && pos(b) && pos(c)) || (neg(a) && neg(b) && neg(c)); }

// wellConditioned of tri_tri_impl.h: lengthSq(n) > kMinSinSq * (lengthSq(e1) * lengthSq(e2)).
bool wellConditioned(vec3 e1, vec3 e2, vec3 n) {
    precise float l1 = dot3(e1, e1);
    precise float l2 = dot3(e2, e2);
    precise float ln = dot3(n, n);
    precise float rhs = mulG(uintBitsToFloat(kGpuMinSinSqBits), mulG(l1, l2));
    return ln > rhs;
}

// ---- plane sides in doubt (tri_tri_impl.h planeSidesCertain) ----
precise float norm1(vec3 v) {
    precise float r = addG(abs(v.x), abs(v.y));
    r = addG(r, abs(v.z));
    return r;
}
// The constant terms added to a bound (2^-126, 2^-120) are normal and the bound is not negative:
// those sums cannot be subnormal.
precise float sideUnit(float e1, float e2) {
    precise float r = mulG(mulG(e1, e2), uintBitsToFloat(kGpuSideErrorBits));
    r = r + uintBitsToFloat(kGpuSideUnderflowBits);
    return r;
}
float maxOf(float a, float b) { return a > b ? a : b; }
// The rounding bounds of the float plane sides, in planeSidesCertain's operations and order:
// bound.x for triangle 1's vertices against plane 2, bound.y for triangle 2's against plane 1.
vec2 sideBounds(vec3 p1, vec3 q1, vec3 r1, vec3 p2, vec3 q2, vec3 r2) {
    precise float f1 = norm1(sub3(q1, p1));
    precise float f2 = norm1(sub3(r1, p1));
    precise float unit1 = sideUnit(f1, f2);
    float reach1 = maxOf(f2, norm1(sub3(q1, r1)));
    precise float e1 = norm1(sub3(p2, r2));
    precise float e2 = norm1(sub3(q2, r2));
    precise float unit2 = sideUnit(e1, e2);
    float reach2 = maxOf(e1, e2);
    precise float w = norm1(sub3(r1, r2));
    precise float bound1 = mulG(addG(reach1, w), unit2);
    bound1 = bound1 + uintBitsToFloat(kGpuSideFloorBits);
    precise float bound2 = mulG(addG(reach2, w), unit1);
    bound2 = bound2 + uintBitsToFloat(kGpuSideFloorBits);
    return vec2(bound1, bound2);
}
bool planeSidesCertain(vec3 p1, vec3 q1, vec3 r1, vec3 p2, vec3 q2, vec3 r2, float dp1, float dq1, float dr1,
                       float dp2, float dq2, float dr2) {
    vec2 bound = sideBounds(p1, q1, r1, p2, q2, r2);
    return abs(dp1) > bound.x && abs(dq1) > bound.x && abs(dr1) > bound.x && abs(dp2) > bound.y &&
           abs(dq2) > bound.y && abs(dr2) > bound.y;
}

// An ill-conditioned plane: the CPU takes its sides in double, whose signs the float sides give
// only when each is finite (so nothing overflowed) and farther from zero than twice its rounding
// bound (the exact side is then beyond the bound, which also bounds the double's error). True
// when that proves all three on one side: the CPU rejects the pair.
bool surelyOneSide(float a, float b, float c, float bound) {
    precise float reach = mulG(bound, 2.0);
    bool sure = finiteF(a) && finiteF(b) && finiteF(c) && abs(a) > reach && abs(b) > reach && abs(c) > reach;
    return sure && ((a > 0.0 && b > 0.0 && c > 0.0) || (a < 0.0 && b < 0.0 && c < 0.0));
}

// ---- coplanar pairs: 2D separating axes (tri_tri_scalar.cpp coplanarOverlap) ----
precise float orient2d(vec2 a, vec2 b, vec2 c) {
    precise float l = mulG(subG(a.x, c.x), subG(b.y, c.y));
    precise float r = mulG(subG(a.y, c.y), subG(b.x, c.x));
    return subG(l, r);
}

bool separatedByEdgesOf(vec2 t0, vec2 t1, vec2 t2, vec2 o0, vec2 o1, vec2 o2) {
    precise float area = orient2d(t0, t1, t2);
    for (int i = 0; i < 3; ++i) {
        vec2 e0 = i == 0 ? t0 : (i == 1 ? t1 : t2);
        vec2 e1 = i == 0 ? t1 : (i == 1 ? t2 : t0);
        precise float s0 = orient2d(e0, e1, o0);
        precise float s1 = orient2d(e0, e1, o1);
        precise float s2 = orient2d(e0, e1, o2);
        bool outside_neg = s0 < 0.0 && s1 < 0.0 && s2 < 0.0;
        bool outside_pos = s0 > 0.0 && s1 > 0.0 && s2 > 0.0;
        if (area > 0.0 ? outside_neg : (area < 0.0 ? outside_pos : (outside_neg || outside_pos))) return true;
    }
    return false;
}

bool boxesDisjoint(vec2 t0, vec2 t1, vec2 t2, vec2 o0, vec2 o1, vec2 o2) {
    float tlo_x = t0.x, thi_x = t0.x, tlo_y = t0.y, thi_y = t0.y;
    float olo_x = o0.x, ohi_x = o0.x, olo_y = o0.y, ohi_y = o0.y;
    for (int i = 1; i < 3; ++i) {
        vec2 t = i == 1 ? t1 : t2;
        vec2 o = i == 1 ? o1 : o2;
        tlo_x = t.x < tlo_x ? t.x : tlo_x;
        thi_x = t.x > thi_x ? t.x : thi_x;
        tlo_y = t.y < tlo_y ? t.y : tlo_y;
        thi_y = t.y > thi_y ? t.y : thi_y;
        olo_x = o.x < olo_x ? o.x : olo_x;
        ohi_x = o.x > ohi_x ? o.x : ohi_x;
        olo_y = o.y < olo_y ? o.y : olo_y;
        ohi_y = o.y > ohi_y ? o.y : ohi_y;
    }
    return thi_x < olo_x || ohi_x < tlo_x || thi_y < olo_y || ohi_y < tlo_y;
}

vec2 project(vec3 v, int i, int j) { return vec2(v[i], v[j]); }

bool coplanarOverlap(vec3 p1, vec3 q1, vec3 r1, vec3 p2, vec3 q2, vec3 r2, vec3 n1) {
    // largestAxis: ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2)
    float ax = abs(n1.x), ay = abs(n1.y), az = abs(n1.z);
    int k = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
    int i = k == 2 ? 0 : k + 1;
    int j = i == 2 ? 0 : i + 1;
    vec2 a0 = project(p1, i, j), a1 = project(q1, i, j), a2 = project(r1, i, j);
    vec2 b0 = project(p2, i, j), b1 = project(q2, i, j), b2 = project(r2, i, j);
    return !boxesDisjoint(a0, a1, a2, b0, b1, b2) && !separatedByEdgesOf(a0, a1, a2, b0, b1, b2) &&
           !separatedByEdgesOf(b0, b1, b2, a0, a1, a2);
}

// ---- Guigue & Devillers: canonical permutations and CHECK_MIN_MAX ----
bool checkMinMax(vec3 p1, vec3 q1, vec3 r1, vec3 p2, vec3 q2, vec3 r2) {
    precise vec3 v1 = sub3(p2, q1);
    precise vec3 v2 = sub3(p1, q1);
    precise vec3 n = cross3(v1, v2);
    v1 = sub3(q2, q1);
    if (dot3(v1, n) > 0.0) return false;
    v1 = sub3(p2, p1);
    v2 = sub3(r1, p1);
    n = cross3(v1, v2);
    v1 = sub3(r2, p1);
    return !(dot3(v1, n) > 0.0);
}

// The second half of the canonical form (triangle 2's lone vertex first, triangle 1's other two
// swapped when asked): the six points CHECK_MIN_MAX takes, in c[0..5]. False when triangle 2's
// sides are all zero.
bool canonical2(vec3 p1, vec3 q1, vec3 r1, vec3 p2, vec3 q2, vec3 r2, int dp2, int dq2, int dr2, out vec3 c[6]) {
    bool swap1 = false;
    int perm = 0; // 0: (p2, q2, r2), 1: (q2, r2, p2), 2: (r2, p2, q2)
    if (pos(dp2)) {
        if (pos(dq2)) { swap1 = true; perm = 2; }
        else if (pos(dr2)) { swap1 = true; perm = 1; }
        else { swap1 = false; perm = 0; }
    } else if (neg(dp2)) {
        if (neg(dq2)) { swap1 = false; perm = 2; }
        else if (neg(dr2)) { swap1 = false; perm = 1; }
        else { swap1 = true; perm = 0; }
    } else if (neg(dq2)) {
        if (pos(dr2) || dr2 == 0) { swap1 = true; perm = 1; }
        else { swap1 = false; perm = 0; }
    } else if (pos(dq2)) {
        if (pos(dr2)) { swap1 = true; perm = 0; }
        else { swap1 = false; perm = 1; }
    } else if (pos(dr2)) {
        swap1 = false; perm = 2;
    } else if (neg(dr2)) {
        swap1 = true; perm = 2;
    } else {
        return false;
    }
    c[0] = p1;
    c[1] = swap1 ? r1 : q1;
    c[2] = swap1 ? q1 : r1;
    c[3] = perm == 0 ? p2 : (perm == 1 ? q2 : r2);
    c[4] = perm == 0 ? q2 : (perm == 1 ? r2 : p2);
    c[5] = perm == 0 ? r2 : (perm == 1 ? p2 : q2);
    return true;
}

bool isZero(vec3 v) { return v.x == 0.0 && v.y == 0.0 && v.z == 0.0; }

// The canonical form from the plane sides' sign codes: the six points CHECK_MIN_MAX takes, in
// c[0..5]; false (coplanar) when either triangle lies in the other's plane.
bool canonicalPoints(vec3 p1, vec3 q1, vec3 r1, vec3 p2, vec3 q2, vec3 r2, int dp1, int dq1, int dr1, int dp2,
                     int dq2, int dr2, out vec3 c[6]) {
    // use(u, v, w, swap2): (a, b, c) = (u, v, w); triangle 2 as (p2, q2, r2) or (p2, r2, q2).
    int perm = 0; // 0: (p1, q1, r1), 1: (q1, r1, p1), 2: (r1, p1, q1)
    bool swap2 = false;
    if (pos(dp1)) {
        if (pos(dq1)) { perm = 2; swap2 = true; }
        else if (pos(dr1)) { perm = 1; swap2 = true; }
        else { perm = 0; swap2 = false; }
    } else if (neg(dp1)) {
        if (neg(dq1)) { perm = 2; swap2 = false; }
        else if (neg(dr1)) { perm = 1; swap2 = false; }
        else { perm = 0; swap2 = true; }
    } else if (neg(dq1)) {
        if (pos(dr1) || dr1 == 0) { perm = 1; swap2 = true; }
        else { perm = 0; swap2 = false; }
    } else if (pos(dq1)) {
        if (pos(dr1)) { perm = 0; swap2 = true; }
        else { perm = 1; swap2 = false; }
    } else if (pos(dr1)) {
        perm = 2; swap2 = false;
    } else if (neg(dr1)) {
        perm = 2; swap2 = true;
    } else {
        return false;
    }
    vec3 a = perm == 0 ? p1 : (perm == 1 ? q1 : r1);
    vec3 b = perm == 0 ? q1 : (perm == 1 ? r1 : p1);
    vec3 cc = perm == 0 ? r1 : (perm == 1 ? p1 : q1);
    vec3 y = swap2 ? r2 : q2;
    vec3 z = swap2 ? q2 : r2;
    int dy = swap2 ? dr2 : dq2;
    int dz = swap2 ? dq2 : dr2;
    return canonical2(a, b, cc, p2, y, z, dp2, dy, dz, c);
}

// The canonical form and CHECK_MIN_MAX from the plane sides' sign codes; kCoplanar when either
// triangle lies in the other's plane.
int canonicalCrossing(vec3 p1, vec3 q1, vec3 r1, vec3 p2, vec3 q2, vec3 r2, int dp1, int dq1, int dr1, int dp2,
                      int dq2, int dr2) {
    vec3 c[6];
    if (!canonicalPoints(p1, q1, r1, p2, q2, r2, dp1, dq1, dr1, dp2, dq2, dr2, c)) return kCoplanar;
    return checkMinMax(c[0], c[1], c[2], c[3], c[4], c[5]) ? kCrossing : kDisjoint;
}

// nearlyParallel of tri_tri_impl.h: not lengthSq(n1 x n2) > kParallelSinSq * (lengthSq(n1) *
// lengthSq(n2)), in float.
bool nearlyParallel(vec3 n1, vec3 n2) {
    precise vec3 c = cross3(n1, n2);
    precise float cc = dot3(c, c);
    precise float aa = dot3(n1, n1);
    precise float bb = dot3(n2, n2);
    precise float bound = mulG(uintBitsToFloat(kGpuParallelSinSqBits), mulG(aa, bb));
    return !(cc > bound);
}

// classifyWellConditioned of tri_tri_scalar.cpp, after both plane rejections: kInDoubt where the
// CPU goes on in double (nearly parallel planes) or to classifyExact (a side in doubt).
int classifyAfterPlanes(vec3 p1, vec3 q1, vec3 r1, vec3 p2, vec3 q2, vec3 r2, vec3 n1, vec3 n2, int dp1, int dq1,
                        int dr1, int dp2, int dq2, int dr2, float fp1, float fq1, float fr1, float fp2, float fq2,
                        float fr2) {
    if (nearlyParallel(n1, n2)) return kInDoubt;
    if (!planeSidesCertain(p1, q1, r1, p2, q2, r2, fp1, fq1, fr1, fp2, fq2, fr2)) return kInDoubt;
    int result = canonicalCrossing(p1, q1, r1, p2, q2, r2, dp1, dq1, dr1, dp2, dq2, dr2);
    if (result == kCoplanar && !coplanarOverlap(p1, q1, r1, p2, q2, r2, n1)) return kDisjoint;
    return result;
}

// classify / classifySlow of tri_tri_scalar.cpp, in float only. A well-conditioned plane's sides
// are the CPU's own float values. Where the CPU takes a plane's sides in double (a sliver's or a
// zero-area triangle's plane), the device answers only a rejection it can prove
// (surelyOneSide); every pair whose answer needs the CPU's double or exact arithmetic is kAsk.
// kYes / kNo: triTriOverlap's answer; kAsk: the host decides the pair with the CPU kernel when it
// collects it.
const int kNo = 0;
const int kYes = 1;
const int kAsk = 2;
const int kYesCrossing = 3; // kYes, found crossing in 3D (the CPU's classification: Crossing)
int triTriOverlap(vec3 p1, vec3 q1, vec3 r1, vec3 p2, vec3 q2, vec3 r2) {
    if (!(finite3(p1) && finite3(q1) && finite3(r1) && finite3(p2) && finite3(q2) && finite3(r2))) return kNo;
    precise vec3 v1, v2, n1, n2;
    precise float fp1, fq1, fr1, fp2, fq2, fr2;
    v1 = sub3(p2, r2);
    v2 = sub3(q2, r2);
    n2 = cross3(v1, v2);
    bool ill2 = !wellConditioned(v1, v2, n2);
    fp1 = dot3(sub3(p1, r2), n2);
    fq1 = dot3(sub3(q1, r2), n2);
    fr1 = dot3(sub3(r1, r2), n2);
    int dp1 = signF(fp1), dq1 = signF(fq1), dr1 = signF(fr1);
    if (!ill2 && sameSide(dp1, dq1, dr1)) return kNo;
    v1 = sub3(q1, p1);
    v2 = sub3(r1, p1);
    n1 = cross3(v1, v2);
    bool ill1 = !wellConditioned(v1, v2, n1);
    fp2 = dot3(sub3(p2, r1), n1);
    fq2 = dot3(sub3(q2, r1), n1);
    fr2 = dot3(sub3(r2, r1), n1);
    int dp2 = signF(fp2), dq2 = signF(fq2), dr2 = signF(fr2);
    if (!ill1 && sameSide(dp2, dq2, dr2)) return kNo;
    if (ill1 || ill2) {
        // The CPU rejects the pair at either plane whose sides are all on one side (a
        // well-conditioned plane that does was answered above).
        vec2 bound = sideBounds(p1, q1, r1, p2, q2, r2);
        if (ill2 && surelyOneSide(fp1, fq1, fr1, bound.x)) return kNo;
        if (ill1 && surelyOneSide(fp2, fq2, fr2, bound.y)) return kNo;
        return kAsk;
    }
    int result = classifyAfterPlanes(p1, q1, r1, p2, q2, r2, n1, n2, dp1, dq1, dr1, dp2, dq2, dr2, fp1, fq1, fr1, fp2,
                                     fq2, fr2);
    return result == kDisjoint ? kNo : (result == kInDoubt ? kAsk : (result == kCrossing ? kYesCrossing : kYes));
}

vec3 vertexAt(uint tri, uint k) {
    uint o = tri * kGpuFloatsPerTriangle + k * 3u;
    return vec3(tri_floats[o], tri_floats[o + 1u], tri_floats[o + 2u]);
}

// transformPoint: (c0 * x + c1 * y) + c2 * z, then + translation (Mat33 mul and f4MulColumns).
precise vec3 transformPoint(GpuJob j, vec3 p) {
    precise vec3 r;
    r.x = addG(mulG(j.c0x, p.x), mulG(j.c1x, p.y));
    r.x = addG(r.x, mulG(j.c2x, p.z));
    r.y = addG(mulG(j.c0y, p.x), mulG(j.c1y, p.y));
    r.y = addG(r.y, mulG(j.c2y, p.z));
    r.z = addG(mulG(j.c0z, p.x), mulG(j.c1z, p.y));
    r.z = addG(r.z, mulG(j.c2z, p.z));
    r.x = addG(r.x, j.tx);
    r.y = addG(r.y, j.ty);
    r.z = addG(r.z, j.tz);
    return r;
}

void main() {
    uint g = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * (kGpuRowGroups * kGpuLocalSize);
    GpuRect rect;
    uint ta, tb0, tb_end;
    if ((pc.flags & kGpuFlagWalkRects) != 0u) {
        // The device walk's rectangles (at most pc.rect_count stored): kGpuWalkRectStride
        // invocations each, invocation k tests A triangle k against every B triangle.
        GpuWalkHead walk = heads[pc.parity];
        // The walk is over: its counters are final; the host reads them from its own copy.
        if (g == 0u) walk_result = walk;
        uint stored = min(walk.rect_count, pc.rect_count);
        if (g >= stored * kGpuWalkRectStride) return;
        rect = rects[g / kGpuWalkRectStride];
        uint local = g % kGpuWalkRectStride;
        if (local >= rect.a_count) return;
        ta = rect.a_first + local;
        tb0 = rect.b_first;
        tb_end = rect.b_first + rect.b_count;
    } else {
        if (g >= pc.total_pairs) return;
        // The rectangle holding invocation g: the last one with pair_begin <= g.
        uint lo = 0u, hi = pc.rect_count - 1u;
        while (lo < hi) {
            uint mid = (lo + hi + 1u) >> 1;
            if (rects[mid].pair_begin <= g) lo = mid; else hi = mid - 1u;
        }
        rect = rects[lo];
        // Invocation g tests A triangle ta against B triangles tb0 .. tb_end - 1 (one run of a row).
        uint runs = (rect.b_count + kGpuPairsPerInvocation - 1u) / kGpuPairsPerInvocation;
        uint local = g - rect.pair_begin;
        ta = rect.a_first + local / runs;
        tb0 = rect.b_first + (local % runs) * kGpuPairsPerInvocation;
        tb_end = min(tb0 + kGpuPairsPerInvocation, rect.b_first + rect.b_count);
    }
    bool any_mode = (pc.flags & kGpuFlagAnyContact) != 0u;
    if (any_mode && any_flags[rect.job] != 0u) return;
    GpuJob job = jobs[rect.job];
    vec3 p1 = vertexAt(job.base_a + ta, 0u), q1 = vertexAt(job.base_a + ta, 1u), r1 = vertexAt(job.base_a + ta, 2u);
    // The inputs shared by the run: A's vertices and the job's transform.
    g_subnormal = false;
    noteInput3(p1);
    noteInput3(q1);
    noteInput3(r1);
    noteInput3(vec3(job.c0x, job.c0y, job.c0z));
    noteInput3(vec3(job.c1x, job.c1y, job.c1z));
    noteInput3(vec3(job.c2x, job.c2y, job.c2z));
    noteInput3(vec3(job.tx, job.ty, job.tz));
    bool shared_subnormal = g_subnormal;
    for (uint tb = tb0; tb < tb_end; ++tb) {
        g_subnormal = shared_subnormal;
        vec3 b0 = vertexAt(job.base_b + tb, 0u), b1 = vertexAt(job.base_b + tb, 1u), b2 = vertexAt(job.base_b + tb, 2u);
        noteInput3(b0);
        noteInput3(b1);
        noteInput3(b2);
        vec3 p2 = transformPoint(job, b0);
        vec3 q2 = transformPoint(job, b1);
        vec3 r2 = transformPoint(job, b2);
        int answer = triTriOverlap(p1, q1, r1, p2, q2, r2);
        if (g_subnormal) answer = kAsk; // a value may have been flushed: the host decides
        uint found_flags = answer == kAsk ? kGpuRecordAsk : (answer == kYesCrossing ? kGpuRecordCrossing : 0u);
        if (answer == kYesCrossing) answer = kYes;
        if (answer == kNo) continue;
        if (any_mode && answer == kYes) {
            atomicOr(any_flags[rect.job], 1u);
            return;
        }
        // A pair found, or (in either mode) a pair the host decides.
        if (answer == kAsk) atomicAdd(head.asked, 1u);
        uint slot = atomicAdd(head.count, 1u);
        if (slot < pc.capacity) {
            records[slot].job = rect.job;
            records[slot].a = ta;
            records[slot].b = tb;
            records[slot].flags = found_flags;
        } else {
            atomicOr(head.overflow, 1u);
        }
    }
}
