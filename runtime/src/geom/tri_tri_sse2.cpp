// flak — triangle vs triangle, the SSE2 kernel: classify() with both plane-side tests in 4-wide
// vectors, the canonical form straight from compare masks (kCanonSlots), the batched lanes of
// triTriOverlap4 and the rest of the batch tests, and finishBatch four lanes at once. Each lane
// computes the scalar kernel's IEEE single operations in its order: same values, same answers.
// SSE2 builds only (the file is empty otherwise).
#include "geom/tri_tri_sse2.h"

#include <cstdint>
#include <limits>

#if defined(FLAK_SIMD_SSE2)

namespace flak::detail {
namespace {

__m128 cross4Wide(__m128 a, __m128 b) {
    // Three permutes, for throughput: with y read from lane 2, (a.x, a.y, a.z) in lanes 0, 2, 3
    // permuted to lanes 2, 3, 0 (lane 1 kept) turns a * p(b) - p(a) * b into (c.z, *, c.x, c.y),
    // each lane's products in cross4's order, and p once more into (c.x, *, c.y, c.z).
    const auto p = [](__m128 v) { return permute<_MM_SHUFFLE(0, 3, 1, 2)>(v); };
    return p(_mm_sub_ps(_mm_mul_ps(a, p(b)), _mm_mul_ps(p(a), b)));
}

// One plane (load3Wide layout): n = a x b, out_d = (dot(x - o, n), dot(y - o, n), dot(z - o, n),
// lengthSq(n)).
void planeSides4(__m128 a, __m128 b, __m128 o, __m128 x, __m128 y, __m128 z, __m128& out_n, __m128& out_d) {
    out_n = cross4Wide(a, b);
    out_d = hsum3x4Wide(_mm_mul_ps(_mm_sub_ps(x, o), out_n), _mm_mul_ps(_mm_sub_ps(y, o), out_n),
                        _mm_mul_ps(_mm_sub_ps(z, o), out_n), _mm_mul_ps(out_n, out_n));
}

// The canonical form straight from sign bits (bit 0 = p, 1 = q, 2 = r of a movemask): code[swap]
// [pos | neg << 3] is kCanon's entry for those classes (q and r swapped when `swap`, as triangle 2
// is when triangle 1's form flips), packed as rot * 2 + flip (6 and 7: coplanar). A NaN value has
// neither bit but is not a zero for kCanon ("d_r >= 0" tells them apart): callers keep NaN out.
struct CanonBitsTable {
    unsigned char code[2][64];
};
constexpr int classOfBit(int pos, int neg, int bit) {
    return ((pos >> bit) & 1) != 0 ? kPos : (((neg >> bit) & 1) != 0 ? kNeg : kZero);
}
constexpr CanonBitsTable makeCanonBitsTable() {
    CanonBitsTable t{};
    for (int swap = 0; swap < 2; ++swap)
        for (int i = 0; i < 64; ++i) {
            const int pos = i & 7, neg = i >> 3;
            const Canon c = canonOf(classOfBit(pos, neg, 0), classOfBit(pos, neg, swap != 0 ? 2 : 1),
                                    classOfBit(pos, neg, swap != 0 ? 1 : 2));
            t.code[swap][i] = static_cast<unsigned char>(c.rot * 2 + c.flip);
        }
    return t;
}
constexpr CanonBitsTable kCanonBits = makeCanonBitsTable();

// For both codes (code1 << 3 | code2): the vertices canonicalCrossing hands to checkMinMax, as
// indices into (p1, q1, r1) and (p2, q2, r2). Coplanar codes get index 0 (their answer is unused).
struct CanonOrder {
    unsigned char v1[3], v2[3];
};
struct CanonOrderTable {
    CanonOrder entry[64];
};
constexpr CanonOrderTable makeCanonOrderTable() {
    CanonOrderTable t{};
    constexpr unsigned char kNext[5] = {0, 1, 2, 0, 1};
    for (int code1 = 0; code1 < 6; ++code1)
        for (int code2 = 0; code2 < 6; ++code2) {
            const int rot1 = code1 >> 1, flip1 = code1 & 1, rot2 = code2 >> 1, flip2 = code2 & 1;
            const unsigned char b = kNext[rot1 + 1], c = kNext[rot1 + 2];
            const unsigned char t2[3] = {0, static_cast<unsigned char>(flip1 != 0 ? 2 : 1),
                                         static_cast<unsigned char>(flip1 != 0 ? 1 : 2)};
            CanonOrder& o = t.entry[code1 << 3 | code2];
            o.v1[0] = static_cast<unsigned char>(rot1);
            o.v1[1] = flip2 != 0 ? c : b;
            o.v1[2] = flip2 != 0 ? b : c;
            o.v2[0] = t2[rot2];
            o.v2[1] = t2[kNext[rot2 + 1]];
            o.v2[2] = t2[kNext[rot2 + 2]];
        }
    return t;
}
constexpr CanonOrderTable kCanonOrder = makeCanonOrderTable();

// Both triangles' sign bits at once (i1 << 6 | i2, i = pos | neg << 3) to the six canonical vertex
// indices, two bits each (v1[0..2] then v2[0..2]), and bit 12 for coplanar: one load instead of
// three dependent ones on the survivors' critical path (8 KiB).
struct CanonPairTable {
    std::uint16_t entry[64 * 64];
};
constexpr CanonPairTable makeCanonPairTable() {
    CanonPairTable t{};
    for (int i1 = 0; i1 < 64; ++i1)
        for (int i2 = 0; i2 < 64; ++i2) {
            const unsigned code1 = kCanonBits.code[0][i1];
            const unsigned code2 = kCanonBits.code[code1 & 1u][i2];
            const CanonOrder& o = kCanonOrder.entry[code1 << 3 | code2];
            const unsigned coplanar = code1 >= 6u || code2 >= 6u ? 1u : 0u;
            const unsigned slots = static_cast<unsigned>(o.v1[0] | o.v1[1] << 2 | o.v1[2] << 4 |
                                                         o.v2[0] << 6 | o.v2[1] << 8 | o.v2[2] << 10);
            t.entry[i1 << 6 | i2] = static_cast<std::uint16_t>(slots | coplanar << 12);
        }
    return t;
}
constexpr CanonPairTable kCanonPair = makeCanonPairTable();

// kCanonPair indexed by base-3 digits and holding load offsets, for the survivors: a plane side's
// digit is 0 (zero), 1 (d > 0) or 2 (d < 0); the key is 27 * (digits of p1, q1, r1 against plane 2,
// p1's the lowest) + (digits of p2, q2, r2 against plane 1), which SIMD code sums from compare
// masks. Each entry gives the canonical vertices as float offsets, of triangle 1 into p1, q1, r1
// stored 4 floats apart, of triangle 2 into p2, q2, r2 stored 12 floats apart (as a TriangleBatch4
// holds a lane's vertices), and the coplanar flag: the loads need no shifts or masks. 729 entries of
// 8 bytes (5.7 KiB, against 8 KiB for kCanonPair).
struct CanonSlots {
    unsigned char v1[3];
    unsigned char v2[3];
    unsigned char coplanar;
    unsigned char unused;
};
struct CanonSlotsTable {
    CanonSlots entry[729];
};
constexpr int signBitsOfDigits(int digits) {
    int pos = 0, neg = 0;
    for (int k = 0; k < 3; ++k, digits /= 3) {
        pos |= (digits % 3 == 1 ? 1 : 0) << k;
        neg |= (digits % 3 == 2 ? 1 : 0) << k;
    }
    return pos | neg << 3;
}
constexpr CanonSlotsTable makeCanonSlotsTable() {
    CanonSlotsTable t{};
    for (int key = 0; key < 729; ++key) {
        const unsigned e = kCanonPair.entry[signBitsOfDigits(key / 27) << 6 | signBitsOfDigits(key % 27)];
        CanonSlots& c = t.entry[key];
        for (int k = 0; k < 3; ++k) {
            c.v1[k] = static_cast<unsigned char>(4u * (e >> (2 * k) & 3u));
            c.v2[k] = static_cast<unsigned char>(12u * (e >> (6 + 2 * k) & 3u));
        }
        c.coplanar = static_cast<unsigned char>(e >> 12 & 1u);
    }
    return t;
}
constexpr CanonSlotsTable kCanonSlots = makeCanonSlotsTable();
static_assert(sizeof(CanonSlots) == 8, "CanonSlots entry");

// checkMinMax of the canonical vertices (a1, b1, c1) and (a2, b2, c2): both orientation
// determinants side by side with its operations (cross4, and ((x + y) + z) for the dots).
// 1 when they cross.
unsigned crossingOf(__m128 a1, __m128 b1, __m128 c1, __m128 a2, __m128 b2, __m128 c2) {
    const __m128 na = cross4(_mm_sub_ps(a2, b1), _mm_sub_ps(a1, b1));
    const __m128 nb = cross4(_mm_sub_ps(a2, a1), _mm_sub_ps(c1, a1));
    const __m128 m0 = _mm_mul_ps(_mm_sub_ps(b2, b1), na), m1 = _mm_mul_ps(_mm_sub_ps(c2, a1), nb);
    const __m128 xy = _mm_unpacklo_ps(m0, m1); // m0x m1x m0y m1y
    const __m128 s = _mm_add_ps(_mm_add_ps(xy, _mm_movehl_ps(xy, xy)), _mm_unpackhi_ps(m0, m1));
    return static_cast<unsigned>((_mm_movemask_ps(_mm_cmpgt_ps(s, _mm_setzero_ps())) & 3) == 0);
}

// canonicalCrossing of vertex vectors (x, y, z, *) with plane sides d1 = (dp1, dq1, dr1, *) and
// d2 = (dp2, dq2, dr2, *), without a branch: the kCanonSlots key is summed from compare masks, the
// canonical vertices are loaded at the table's offsets (t1: p1, q1, r1 4 floats apart; t2: p2, q2,
// r2 12 floats apart), and checkMinMax's two determinants are computed side by side. Bit 0: they
// cross (meaningless when coplanar); bit 1: coplanar. No NaN among the sides.
unsigned canonicalCrossing4(const float* t1, const float* t2, __m128 d1, __m128 d2) {
    const __m128 zero = _mm_setzero_ps();
    const __m128i w1 = _mm_setr_epi32(kDigit1[0], kDigit1[1], kDigit1[2], 0);
    const __m128i w2 = _mm_setr_epi32(kDigit2[0], kDigit2[1], kDigit2[2], 0);
    const __m128i pos = _mm_add_epi32(_mm_and_si128(_mm_castps_si128(_mm_cmpgt_ps(d1, zero)), w1),
                                      _mm_and_si128(_mm_castps_si128(_mm_cmpgt_ps(d2, zero)), w2));
    const __m128i neg = _mm_add_epi32(_mm_and_si128(_mm_castps_si128(_mm_cmplt_ps(d1, zero)), w1),
                                      _mm_and_si128(_mm_castps_si128(_mm_cmplt_ps(d2, zero)), w2));
    const __m128i v = _mm_add_epi32(pos, _mm_add_epi32(neg, neg));
    const __m128i h = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    const CanonSlots& c =
        kCanonSlots.entry[_mm_cvtsi128_si32(_mm_add_epi32(h, _mm_shuffle_epi32(h, _MM_SHUFFLE(2, 3, 0, 1))))];
    return crossingOf(_mm_load_ps(t1 + c.v1[0]), _mm_load_ps(t1 + c.v1[1]), _mm_load_ps(t1 + c.v1[2]),
                      _mm_load_ps(t2 + c.v2[0]), _mm_load_ps(t2 + c.v2[1]), _mm_load_ps(t2 + c.v2[2])) |
           static_cast<unsigned>(c.coplanar) << 1;
}

// Triangle 1's normal as classify() computes it, (q1 - p1) x (r1 - p1), for the rare paths that
// need it as a Vec3.
void plane1Normal(const Vec3& p1, const Vec3& q1, const Vec3& r1, Vec3& out) {
    Vec3 e1, e2;
    sub(q1, p1, e1);
    sub(r1, p1, e2);
    cross(e1, e2, out);
}

// Triangle 2's normal as classify() computes it, (p2 - r2) x (q2 - r2).
void plane2Normal(const Vec3& p2, const Vec3& q2, const Vec3& r2, Vec3& out) {
    Vec3 e1, e2;
    sub(p2, r2, e1);
    sub(q2, r2, e2);
    cross(e1, e2, out);
}

// The rare ends of classifySurvivor, out of line so that it saves no registers: a NaN plane side
// (huge input) takes the scalar finish, a coplanar pair the 2D test. Not marked cold: with its tail
// calls moved to a cold section, classifySurvivor measured 0.7 ns a dense pair slower.
FLAK_TRI_TRI_NOINLINE Overlap classifySurvivorNaN(const Vec3& p1, const Vec3& q1, const Vec3& r1,
                                                  const Vec3& p2, const Vec3& q2, const Vec3& r2, __m128 d1,
                                                  __m128 d2) {
    Vec3 n1, n2;
    plane1Normal(p1, q1, r1, n1);
    plane2Normal(p2, q2, r2, n2);
    alignas(16) float s1[4], s2[4];
    _mm_store_ps(s1, d1);
    _mm_store_ps(s2, d2);
    return classifyWellConditioned(p1, q1, r1, p2, q2, r2, n1, n2, s1[0], s1[1], s1[2], s2[0], s2[1], s2[2]);
}

FLAK_TRI_TRI_NOINLINE Overlap classifyCoplanar(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                               const Vec3& q2, const Vec3& r2) {
    Vec3 n1;
    plane1Normal(p1, q1, r1, n1);
    return coplanarOverlap(p1, q1, r1, p2, q2, r2, n1) ? Overlap::Coplanar : Overlap::Disjoint;
}

// nearlyParallel for a pair given by its vertices, with classify()'s normals.
bool survivorNearlyParallel(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                            const Vec3& r2) {
    Vec3 n1, n2;
    plane1Normal(p1, q1, r1, n1);
    plane2Normal(p2, q2, r2, n2);
    return nearlyParallel(n1, n2);
}

// planeSidesCertain from the plane-side vectors.
bool survivorSidesCertain(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                          const Vec3& r2, __m128 d1, __m128 d2) {
    alignas(16) float s1[4], s2[4];
    _mm_store_ps(s1, d1);
    _mm_store_ps(s2, d2);
    return planeSidesCertain(p1, q1, r1, p2, q2, r2, s1[0], s1[1], s1[2], s2[0], s2[1], s2[2]);
}

FLAK_TRI_TRI_COLD Overlap classifyExactSurvivor(const Vec3& p1, const Vec3& q1, const Vec3& r1,
                                                const Vec3& p2, const Vec3& q2, const Vec3& r2) {
    Vec3 n1;
    plane1Normal(p1, q1, r1, n1);
    return classifyExact(p1, q1, r1, p2, q2, r2, n1);
}

// Index of the lowest set bit of a non-zero four-lane mask.
#if defined(__GNUC__)
int lowestBit(unsigned mask) { return __builtin_ctz(mask); }
#else
int lowestBit(unsigned mask) {
    static constexpr signed char kLowest[16] = {0, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0};
    return kLowest[mask & 0xFu];
}
#endif

__m128 dot3(__m128 ax, __m128 ay, __m128 az, __m128 bx, __m128 by, __m128 bz) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz));
}

__m128 sameSide(__m128 a, __m128 b, __m128 c) {
    const __m128 zero = _mm_setzero_ps();
    const __m128 pos =
        _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(a, zero), _mm_cmpgt_ps(b, zero)), _mm_cmpgt_ps(c, zero));
    const __m128 neg =
        _mm_and_ps(_mm_and_ps(_mm_cmplt_ps(a, zero), _mm_cmplt_ps(b, zero)), _mm_cmplt_ps(c, zero));
    return _mm_or_ps(pos, neg);
}

// The survivors whose canonical form is coplanar: the 2D test. Rare; `mask` holds the answers of
// the other lanes.
FLAK_TRI_TRI_COLD unsigned finishCoplanarLanes(const Tri1Lanes& t1, const TriangleBatch4& batch,
                                               unsigned lanes, unsigned mask) {
    Vec3 n1;
    plane1Normal(*t1.p1, *t1.q1, *t1.r1, n1);
    for (unsigned todo = lanes; todo != 0u; todo &= todo - 1u) {
        const int lane = lowestBit(todo);
        Vec3 p2, q2, r2;
        laneTriangle(batch, lane, p2, q2, r2);
        mask |= static_cast<unsigned>(coplanarOverlap(*t1.p1, *t1.q1, *t1.r1, p2, q2, r2, n1)) << lane;
    }
    return mask;
}

} // namespace

// classify() after both plane tests passed, from its plane sides (d1, d2 carry lengthSq(n) in
// lane 3). Out of line, and called last, so that classify() needs no stack frame and saves no
// registers on the paths that reject. The vertices are loaded again (L1 hits, off the critical
// path): classify() then need not keep six vectors live across its plane tests.
FLAK_TRI_TRI_NOINLINE Overlap classifySurvivor(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                               const Vec3& q2, const Vec3& r2, __m128 d1, __m128 d2) {
    if ((_mm_movemask_ps(_mm_cmpunord_ps(d1, d2)) & 7) != 0)
        return classifySurvivorNaN(p1, q1, r1, p2, q2, r2, d1, d2);
    if (survivorNearlyParallel(p1, q1, r1, p2, q2, r2)) return classifyNearlyParallel(p1, q1, r1, p2, q2, r2);
    if (!survivorSidesCertain(p1, q1, r1, p2, q2, r2, d1, d2))
        return classifyExactSurvivor(p1, q1, r1, p2, q2, r2);
    // Triangle 1's vertices 4 floats apart, triangle 2's 12 (kCanonSlots' offsets).
    alignas(16) float t1[12], t2[28];
    _mm_store_ps(t1, load3(p1));
    _mm_store_ps(t1 + 4, load3(q1));
    _mm_store_ps(t1 + 8, load3(r1));
    _mm_store_ps(t2, load3(p2));
    _mm_store_ps(t2 + 12, load3(q2));
    _mm_store_ps(t2 + 24, load3(r2));
    const unsigned r = canonicalCrossing4(t1, t2, d1, d2);
    if (r & 2u) return classifyCoplanar(p1, q1, r1, p2, q2, r2);
    return static_cast<Overlap>(r);
}

// classifyWide below is the same with both planes in one pass of 256-bit vectors (AVX2).
Overlap classify(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                 const Vec3& r2) {
    const __m128 P1 = load3Wide(p1), Q1 = load3Wide(q1), R1 = load3Wide(r1);
    const __m128 P2 = load3Wide(p2), Q2 = load3Wide(q2), R2 = load3Wide(r2);
    __m128 n1, n2, d1, d2;
    // Signs of p1, q1, r1 against the plane of triangle 2: n2 = (p2 - r2) x (q2 - r2), origin r2;
    // and of p2, q2, r2 against the plane of triangle 1: n1 = (q1 - p1) x (r1 - p1), origin r1.
    // Both are computed before either is looked at: one branch on "rejected by either plane"
    // mispredicts less than two in a row, and costs fewer cycles than it saves. (An ill-conditioned
    // plane restarts in classifySlow, which repeats the float test of a well-conditioned one, so
    // the answer does not depend on the order.)
    const __m128 a2 = _mm_sub_ps(P2, R2), b2 = _mm_sub_ps(Q2, R2), a1 = _mm_sub_ps(Q1, P1),
                 b1 = _mm_sub_ps(R1, P1);
    planeSides4(a2, b2, R2, P1, Q1, R1, n2, d1);
    planeSides4(a1, b1, R1, P2, Q2, R2, n1, d2);
    if (!bothWellConditioned(a2, b2, a1, b1, d1, d2)) return classifySlow(p1, q1, r1, p2, q2, r2);
    if (sameSide3(d1, d2)) return Overlap::Disjoint;
    return classifySurvivor(p1, q1, r1, p2, q2, r2, d1, d2);
}

// Lanes decided by the whole scalar test: those with an ill-conditioned plane, and survivors with a
// NaN plane side (huge input; the sign table does not take NaN) or nearly parallel planes. Every other survivor of the call
// is finished here too, so that the common path below never holds values across a call.
FLAK_TRI_TRI_COLD unsigned finishLanesSlow(const Tri1Lanes& t1, const TriangleBatch4& batch,
                                           unsigned survivors, unsigned scalar_lanes, __m128 dp1, __m128 dq1,
                                           __m128 dr1, __m128 dp2, __m128 dq2, __m128 dr2) {
    alignas(16) float d[6][4];
    _mm_store_ps(d[0], dp1);
    _mm_store_ps(d[1], dq1);
    _mm_store_ps(d[2], dr1);
    _mm_store_ps(d[3], dp2);
    _mm_store_ps(d[4], dq2);
    _mm_store_ps(d[5], dr2);
    Vec3 n1;
    plane1Normal(*t1.p1, *t1.q1, *t1.r1, n1);
    unsigned mask = 0u;
    for (unsigned todo = survivors | scalar_lanes; todo != 0u; todo &= todo - 1u) {
        const int lane = lowestBit(todo);
        Vec3 p2, q2, r2;
        laneTriangle(batch, lane, p2, q2, r2);
        Vec3 n2; // the lane's plane, written by setBatchTriangle or finishBatch with classify()'s operations
        set(batch.n[0][lane], batch.n[1][lane], batch.n[2][lane], n2);
        const Overlap result =
            (survivors >> lane) & 1u
                ? classifyWellConditioned(*t1.p1, *t1.q1, *t1.r1, p2, q2, r2, n1, n2, d[0][lane], d[1][lane],
                                          d[2][lane], d[3][lane], d[4][lane], d[5][lane])
                : classifySlow(*t1.p1, *t1.q1, *t1.r1, p2, q2, r2);
        mask |= static_cast<unsigned>(result != Overlap::Disjoint) << lane;
        mask |= static_cast<unsigned>(result == Overlap::Crossing)
                << (static_cast<unsigned>(lane) + kCrossingShift);
    }
    return mask;
}

// The lanes that survived both plane tests, one at a time, with no NaN among their plane sides:
// canonicalCrossing4 with triangle 2's canonical vertices gathered straight from the batch at the
// table's offsets. A leaf (the coplanar lanes are handed on at the end), so that it saves no
// registers; out of line so that overlapLanes, which mostly returns after its plane tests, does not
// pay for this loop's registers either.
FLAK_TRI_TRI_NOINLINE unsigned finishLanes(const Tri1Lanes& t1, const TriangleBatch4& batch,
                                           unsigned survivors, __m128i keys, __m128 dp1, __m128 dq1,
                                           __m128 dr1, __m128 dp2, __m128 dq2, __m128 dr2) {
    if ((survivors & doubtfulLanes(t1, batch, dp1, dq1, dr1, dp2, dq2, dr2)) != 0u)
        return finishLanesSlow(t1, batch, survivors, 0u, dp1, dq1, dr1, dp2, dq2, dr2);
    alignas(16) std::uint32_t key[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(key), keys);
    const float* t1v = t1.v;
    unsigned mask = 0u, coplanar = 0u;
    for (unsigned todo = survivors; todo != 0u; todo &= todo - 1u) {
        const int lane = lowestBit(todo);
        const CanonSlots& c = kCanonSlots.entry[key[lane]];
        // In v (36 contiguous floats) the lane's x, y, z of a vertex are 4 floats apart, its
        // vertices 12.
        const float* v2 = &batch.v[0][0][lane];
        const auto vertex2 = [v2](unsigned offset) {
            const float* v = v2 + offset;
            return _mm_movelh_ps(_mm_unpacklo_ps(_mm_load_ss(v), _mm_load_ss(v + 4)), _mm_load_ss(v + 8));
        };
        const unsigned r =
            crossingOf(_mm_load_ps(t1v + c.v1[0]), _mm_load_ps(t1v + c.v1[1]), _mm_load_ps(t1v + c.v1[2]),
                       vertex2(c.v2[0]), vertex2(c.v2[1]), vertex2(c.v2[2]));
        const unsigned flat = c.coplanar;
        mask |= (r & ~flat) << lane;
        coplanar |= flat << lane;
    }
    // The lanes found so far cross in 3D (classify's canonical crossing, not coplanar).
    const unsigned crossing = mask << kCrossingShift;
    if (coplanar != 0u) return finishCoplanarLanes(t1, batch, coplanar, mask) | crossing;
    return mask | crossing;
}

// The two plane-side tests of Guigue-Devillers for four lanes at once, with the very operations
// (and order) of the scalar code: subtract, cross, dot as ((x*x + y*y) + z*z). Each SSE lane is
// the IEEE single-precision result of the scalar expression, so the values, and thus the answers,
// are bit for bit those of triTriOverlap. Triangle 1's plane goes first (its normal is shared):
// when it rejects every lane, the lanes' own planes are never touched. Lanes whose plane is
// ill-conditioned take the scalar path whole; empty lanes (cleared, or a non-finite vertex) none.
// overlapLanes8 below is the same for two batches in 256-bit vectors (AVX2).
unsigned overlapLanes(const Tri1Lanes& t1, const TriangleBatch4& batch, unsigned wanted) {
    const __m128 p2x = _mm_load_ps(batch.v[0][0]), p2y = _mm_load_ps(batch.v[0][1]),
                 p2z = _mm_load_ps(batch.v[0][2]);
    const __m128 q2x = _mm_load_ps(batch.v[1][0]), q2y = _mm_load_ps(batch.v[1][1]),
                 q2z = _mm_load_ps(batch.v[1][2]);
    const __m128 r2x = _mm_load_ps(batch.v[2][0]), r2y = _mm_load_ps(batch.v[2][1]),
                 r2z = _mm_load_ps(batch.v[2][2]);
    // Triangle 1's plane against the lanes' vertices: d = dot(v2 - r1, n1).
    const __m128 r1x = t1.v1[2][0], r1y = t1.v1[2][1], r1z = t1.v1[2][2];
    const __m128 dp2 =
        dot3(_mm_sub_ps(p2x, r1x), _mm_sub_ps(p2y, r1y), _mm_sub_ps(p2z, r1z), t1.n1x, t1.n1y, t1.n1z);
    const __m128 dq2 =
        dot3(_mm_sub_ps(q2x, r1x), _mm_sub_ps(q2y, r1y), _mm_sub_ps(q2z, r1z), t1.n1x, t1.n1y, t1.n1z);
    const __m128 dr2 =
        dot3(_mm_sub_ps(r2x, r1x), _mm_sub_ps(r2y, r1y), _mm_sub_ps(r2z, r1z), t1.n1x, t1.n1y, t1.n1z);
    const unsigned reject1 = static_cast<unsigned>(_mm_movemask_ps(sameSide(dp2, dq2, dr2)));
    // Empty lanes and lanes the caller left out are disjoint whatever the planes say.
    const unsigned live = ~batch.empty_lanes & wanted & 0xFu;
    if ((live & ~reject1) == 0u) return 0u;

    // The lanes' planes n2 = (p2 - r2) x (q2 - r2) and their conditioning were computed by
    // setBatchTriangle with classify()'s own operations; against triangle 1: d = dot(v1 - r2, n2).
    const __m128 n2x = _mm_load_ps(batch.n[0]), n2y = _mm_load_ps(batch.n[1]), n2z = _mm_load_ps(batch.n[2]);
    const auto side2 = [&](const __m128(&v)[3]) {
        return dot3(_mm_sub_ps(v[0], r2x), _mm_sub_ps(v[1], r2y), _mm_sub_ps(v[2], r2z), n2x, n2y, n2z);
    };
    const __m128 dp1 = side2(t1.v1[0]), dq1 = side2(t1.v1[1]), dr1 = side2(t1.v1[2]);
    const unsigned reject2 = static_cast<unsigned>(_mm_movemask_ps(sameSide(dp1, dq1, dr1)));
    // A lane rejected by triangle 1's (well-conditioned) plane is disjoint whatever its own plane;
    // an empty lane is disjoint whatever the planes say (its NaN sides reject nothing).
    const unsigned scalar_lanes = batch.scalar_lanes & ~reject1 & live;
    const unsigned survivors = ~(reject1 | reject2) & ~scalar_lanes & live;
    if ((survivors | scalar_lanes) == 0u) return 0u;
    // NaN in either side of a pair: both are NaN-checked by one unordered compare.
    const __m128 nan =
        _mm_or_ps(_mm_or_ps(_mm_cmpunord_ps(dp1, dp2), _mm_cmpunord_ps(dq1, dq2)), _mm_cmpunord_ps(dr1, dr2));
    const unsigned nan_lanes = static_cast<unsigned>(_mm_movemask_ps(nan)) & survivors;
    // Every lane's kCanonSlots key at once, summed from the compare masks.
    const __m128 zero = _mm_setzero_ps();
    const __m128 sides[6] = {dp2, dq2, dr2, dp1, dq1, dr1};
    const std::int32_t weight[6] = {kDigit2[0], kDigit2[1], kDigit2[2], kDigit1[0], kDigit1[1], kDigit1[2]};
    __m128i pos = _mm_setzero_si128(), neg = _mm_setzero_si128();
    for (int i = 0; i < 6; ++i) {
        const __m128i w = _mm_set1_epi32(weight[i]);
        pos = _mm_add_epi32(pos, _mm_and_si128(_mm_castps_si128(_mm_cmpgt_ps(sides[i], zero)), w));
        neg = _mm_add_epi32(neg, _mm_and_si128(_mm_castps_si128(_mm_cmplt_ps(sides[i], zero)), w));
    }
    const __m128i key = _mm_add_epi32(pos, _mm_add_epi32(neg, neg));
    return finishSurvivors(t1, batch, survivors, scalar_lanes, nan_lanes, dp1, dq1, dr1, dp2, dq2, dr2, key);
}

// overlapLanes when triangle 1 is ill-conditioned (prepareTri1 failed). classify() would send
// every such pair to classifySlow, whose first test, for a lane whose own plane is
// well-conditioned, is that plane against triangle 1's vertices in float: the test runs here for
// the four lanes with its operations (overlapLanes' second plane test), and the lanes it rejects
// are disjoint. The others, lanes with an ill-conditioned plane among them, take classifySlow's
// steps (classifySlowPlane1), which repeat the float test and take triangle 1's plane in double,
// made once for the four lanes.
unsigned overlapLanesIll(const Vec3& p1, const Vec3& q1, const Vec3& r1, const TriangleBatch4& batch,
                         unsigned wanted) {
    const __m128 r2x = _mm_load_ps(batch.v[2][0]), r2y = _mm_load_ps(batch.v[2][1]),
                 r2z = _mm_load_ps(batch.v[2][2]);
    const __m128 n2x = _mm_load_ps(batch.n[0]), n2y = _mm_load_ps(batch.n[1]), n2z = _mm_load_ps(batch.n[2]);
    const auto side2 = [&](const Vec3& v) {
        return dot3(_mm_sub_ps(_mm_set1_ps(v.x), r2x), _mm_sub_ps(_mm_set1_ps(v.y), r2y),
                    _mm_sub_ps(_mm_set1_ps(v.z), r2z), n2x, n2y, n2z);
    };
    const unsigned rejected =
        static_cast<unsigned>(_mm_movemask_ps(sameSide(side2(p1), side2(q1), side2(r1))));
    const unsigned left = wanted & 0xFu & ~batch.empty_lanes & ~(rejected & ~batch.scalar_lanes);
    if (left == 0u) return 0u;
    PlaneInDouble plane1; // triangle 1's plane as classifySlow takes it, made once for the lanes
    makePlaneInDouble(p1, q1, r1, plane1);
    unsigned mask = 0u;
    for (unsigned todo = left; todo != 0u; todo &= todo - 1u) {
        const int lane = lowestBit(todo);
        Vec3 p2, q2, r2;
        laneTriangle(batch, lane, p2, q2, r2);
        const Overlap result = classifySlowPlane1(p1, q1, r1, p2, q2, r2, plane1);
        mask |= static_cast<unsigned>(result != Overlap::Disjoint) << lane;
        mask |= static_cast<unsigned>(result == Overlap::Crossing)
                << (static_cast<unsigned>(lane) + kCrossingShift);
    }
    return mask;
}

// Four lanes at once with setBatchTriangle's very operations (cross and lengthSq in the scalar
// order), so the planes and flags are bit for bit those it would write; a lane is finite when
// x - x == 0 for all nine coordinates (NaN for an infinity or a NaN).
void finishBatchLanes(std::uint32_t used, TriangleBatch4& inout) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    // The lanes past `used` become NaN in registers: no scalar store followed by a vector load.
    const __m128 in_use = _mm_castsi128_ps(
        _mm_cmplt_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32(static_cast<std::int32_t>(used))));
    const __m128 nans = _mm_andnot_ps(in_use, _mm_set1_ps(nan));
    __m128 v[3][3];
    __m128 finite = _mm_castsi128_ps(_mm_set1_epi32(-1));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            v[i][j] = _mm_or_ps(_mm_and_ps(in_use, _mm_load_ps(inout.v[i][j])), nans);
            _mm_store_ps(inout.v[i][j], v[i][j]);
            finite = _mm_and_ps(finite, _mm_cmpeq_ps(_mm_sub_ps(v[i][j], v[i][j]), _mm_setzero_ps()));
        }
    __m128 e1[3], e2[3];
    for (int j = 0; j < 3; ++j) {
        e1[j] = _mm_sub_ps(v[0][j], v[2][j]);
        e2[j] = _mm_sub_ps(v[1][j], v[2][j]);
    }
    const __m128 nx = _mm_sub_ps(_mm_mul_ps(e1[1], e2[2]), _mm_mul_ps(e1[2], e2[1]));
    const __m128 ny = _mm_sub_ps(_mm_mul_ps(e1[2], e2[0]), _mm_mul_ps(e1[0], e2[2]));
    const __m128 nz = _mm_sub_ps(_mm_mul_ps(e1[0], e2[1]), _mm_mul_ps(e1[1], e2[0]));
    _mm_store_ps(inout.n[0], nx);
    _mm_store_ps(inout.n[1], ny);
    _mm_store_ps(inout.n[2], nz);
    const auto length_sq = [](__m128 x, __m128 y, __m128 z) {
        return _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
    };
    const __m128 bound = _mm_mul_ps(
        _mm_set1_ps(kMinSinSq), _mm_mul_ps(length_sq(e1[0], e1[1], e1[2]), length_sq(e2[0], e2[1], e2[2])));
    const unsigned well = static_cast<unsigned>(_mm_movemask_ps(_mm_cmpgt_ps(length_sq(nx, ny, nz), bound)));
    const unsigned fin = static_cast<unsigned>(_mm_movemask_ps(finite));
    inout.empty_lanes = ~fin & 0xFu;
    inout.scalar_lanes = fin & ~well & 0xFu;
}

} // namespace flak::detail

#endif
