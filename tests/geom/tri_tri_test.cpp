// Oracle tests of triTriOverlap / triTriIntersection against a double-precision reference (the
// distance between the triangles, 0 when they intersect, and the penetration depth over the
// separating-axis candidates), and of the batched form against the scalar one.
#include <flak/geom/tri_tri.h>
#include <flak/math/simd.h>

#include "flak_support/triangle_families.h"
#include "geom/tri_tri_classify.h"
#include "support/case_count.h"
#include "support/same_bits.h"
#include "support/triangle_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace flak::test {
namespace {

constexpr std::uint64_t kSeed = 0x5EED7A5003ull;

struct Pair {
    Tri s, t;
    bool coplanar = false; // exactly coplanar by construction: decided in 2D
};

void pack(const Pair& k, float* in) {
    const Vec3* v[6] = {&k.s.a, &k.s.b, &k.s.c, &k.t.a, &k.t.b, &k.t.c};
    for (int i = 0; i < 6; ++i) {
        in[3 * i] = v[i]->x;
        in[3 * i + 1] = v[i]->y;
        in[3 * i + 2] = v[i]->z;
    }
}

// Exact-ish 2D overlap of two coplanar triangles (projected on the plane's dominant axes): no
// separating edge line among the six, in double.
bool overlap2d(const DTri& s, const DTri& t) {
    const D3 n0 = cross(s.b - s.a, s.c - s.a), n1 = cross(t.b - t.a, t.c - t.a);
    const D3 n = dot(n0, n0) >= dot(n1, n1) ? n0 : n1;
    const double ax = std::fabs(n.x), ay = std::fabs(n.y), az = std::fabs(n.z);
    const int k = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
    const auto p2 = [&](const D3& p, double& x, double& y) {
        x = k == 0 ? p.y : p.x;
        y = k == 2 ? p.y : p.z;
    };
    double P[2][3][2];
    const DTri* tris[2] = {&s, &t};
    for (int i = 0; i < 2; ++i) {
        p2(tris[i]->a, P[i][0][0], P[i][0][1]);
        p2(tris[i]->b, P[i][1][0], P[i][1][1]);
        p2(tris[i]->c, P[i][2][0], P[i][2][1]);
    }
    for (int axis = 0; axis < 2; ++axis) { // bounding boxes
        double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
        for (int i = 0; i < 2; ++i)
            for (int v = 0; v < 3; ++v) {
                lo[i] = std::min(lo[i], P[i][v][axis]);
                hi[i] = std::max(hi[i], P[i][v][axis]);
            }
        if (hi[0] < lo[1] || hi[1] < lo[0]) return false;
    }
    for (int i = 0; i < 2; ++i)
        for (int e = 0; e < 3; ++e) {
            const double* p = P[i][e];
            const double* q = P[i][(e + 1) % 3];
            const double* r = P[i][(e + 2) % 3];
            const auto orient = [&](const double* x) {
                return (q[0] - p[0]) * (x[1] - p[1]) - (q[1] - p[1]) * (x[0] - p[0]);
            };
            const double own = orient(r);
            double s0 = orient(P[1 - i][0]), s1 = orient(P[1 - i][1]), s2 = orient(P[1 - i][2]);
            const bool neg = s0 < 0.0 && s1 < 0.0 && s2<0.0, pos = s0> 0.0 && s1 > 0.0 && s2 > 0.0;
            if (own > 0.0 ? neg : (own < 0.0 ? pos : (neg || pos))) return false;
        }
    return true;
}

struct SegmentStats {
    long checked = 0;
    double worst = 0.0;
};

void checkPair(OracleTally& tally, SegmentStats& seg, std::uint64_t index, const Pair& k) {
    float in[18];
    pack(k, in);
    ++tally.cases;
    const DTri S = dtri(k.s.a, k.s.b, k.s.c), T = dtri(k.t.a, k.t.b, k.t.c);
    const D3 o = S.a;
    const double scale =
        std::max({maxAbs(S.b - o), maxAbs(S.c - o), maxAbs(T.a - o), maxAbs(T.b - o), maxAbs(T.c - o)});
    const double band = bandOf(scale);
    const double dist = triangleTriangleDistance(S, T);
    const bool ref = k.coplanar ? overlap2d(S, T) : dist == 0.0;
    const bool got = triTriOverlap(k.s.a, k.s.b, k.s.c, k.t.a, k.t.b, k.t.c);
    tally.hits += ref;
    if (got != ref) {
        // Coplanar pairs are judged in the plane, unless one triangle has no area there (then it
        // only touches the other, and the 3D depth, 0, applies).
        const bool in_plane =
            k.coplanar && len(cross(S.b - S.a, S.c - S.a)) > 0.0 && len(cross(T.b - T.a, T.c - T.a)) > 0.0;
        const double decisive = ref ? (in_plane ? penetrationDepth2d(S, T) : penetrationDepth3d(S, T)) : dist;
        tally.disagree(index, decisive, band, in, 18,
                       got ? "overlap where the reference is disjoint" : "missed overlap");
    }
    Vec3 p, q;
    bool coplanar = false;
    const bool inter = triTriIntersection(k.s.a, k.s.b, k.s.c, k.t.a, k.t.b, k.t.c, p, q, coplanar);
    if (inter != got) tally.check(index, 1.0, 0.0, in, 18, "triTriIntersection disagrees with triTriOverlap");
    if (inter && ref) {
        ++seg.checked;
        for (const Vec3* e : {&p, &q}) {
            const D3 E = d3(*e);
            const double tol = band + outputRounding(E);
            const double err = std::max(pointTriangleDistance(E, S), pointTriangleDistance(E, T));
            seg.worst = std::max(seg.worst, err / tol);
            tally.check(index, err, tol, in, 18, "intersection point not on both triangles");
        }
    }
}

// Random pairs in the cube [-1, 1]^3: about 30% intersect.
Pair randomPair(SplitMix64& rng) {
    Pair k;
    k.s = makeShape(rng, Shape::Random, 1.0);
    k.t = makeShape(rng, Shape::Random, 1.0);
    return k;
}

Tri gridTriangle(SplitMix64& rng) {
    return {gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8)};
}

// Exact point of t: on an edge (i + j = 16 or i = 0 or j = 0), or inside.
Vec3 exactPointOn(SplitMix64& rng, const Tri& t, bool on_edge) {
    int i = static_cast<int>(rng.next() % 17u), j = static_cast<int>(rng.next() % 17u);
    if (i + j > 16) {
        i = 16 - i;
        j = 16 - j;
    }
    if (on_edge) {
        const unsigned e = static_cast<unsigned>(rng.next() % 3u);
        if (e == 0u)
            j = 0;
        else if (e == 1u)
            i = 0;
        else
            j = 16 - i;
    }
    return pointOn(t, i, j, 4);
}

Vec3 offset(const Vec3& p, const Vec3& d, double s) {
    return vec(p.x + d.x * s, p.y + d.y * s, p.z + d.z * s);
}

enum class PairFamily {
    Coplanar,
    EdgeOnEdge,
    VertexOnFace,
    SharedEdge,
    SharedVertex,
    Grazing,
    NearlyCoplanar,
    EdgeInPlane,
    Shapes,
    Count
};
const char* familyName(PairFamily f) {
    switch (f) {
    case PairFamily::Coplanar: return "coplanar";
    case PairFamily::EdgeOnEdge: return "edge on edge";
    case PairFamily::VertexOnFace: return "vertex on face";
    case PairFamily::SharedEdge: return "shared edge";
    case PairFamily::SharedVertex: return "shared vertex";
    case PairFamily::Grazing: return "grazing";
    case PairFamily::NearlyCoplanar: return "nearly coplanar";
    case PairFamily::EdgeInPlane: return "edge in the other's plane";
    default: return "slivers+zero-area";
    }
}

Pair familyPair(SplitMix64& rng, PairFamily f, const Placement& where) {
    Pair k;
    switch (f) {
    case PairFamily::Coplanar: {
        // Both in a plane whose float orientation determinants are exactly 0: an axis plane
        // (coordinate = const) or a diagonal plane (x = y, or x = -y, on any axis pair).
        const int axis = static_cast<int>(rng.next() % 3u), other = (axis + 1) % 3;
        // A uniform offset keeps axis planes and x = y exactly (equal coordinates round alike),
        // not x = -y: that kind is drawn only without offset.
        const unsigned kind = static_cast<unsigned>(rng.next() % (where.offset != 0.0 ? 2u : 3u));
        const float level = gridCoord(rng, 1.0, 6);
        Vec3* v[6] = {&k.s.a, &k.s.b, &k.s.c, &k.t.a, &k.t.b, &k.t.c};
        const double size = rng.u() < 0.5 ? 1.0 : 0.3;
        for (Vec3* p : v) {
            *p = randomPoint(rng, size);
            if (kind == 0u)
                (*p)[axis] = level;
            else if (kind == 1u)
                (*p)[axis] = (*p)[other];
            else
                (*p)[axis] = -(*p)[other];
        }
        if (rng.u() < 0.3) { // slivers in the plane too
            Vec3& c = k.t.c;
            const double s = rng.range(0.1, 0.9), eps = logUniform(rng, -7.0, -2.0);
            for (int i = 0; i < 3; ++i)
                if (!(kind == 0u && i == axis) && !(kind != 0u && i == axis))
                    c[i] =
                        static_cast<float>(k.t.a[i] + (static_cast<double>(k.t.b[i]) - k.t.a[i]) * s + eps);
            if (kind == 1u) c[axis] = c[other];
            if (kind == 2u) c[axis] = -c[other];
        }
        k.coplanar = true;
        break;
    }
    case PairFamily::EdgeOnEdge: {
        k.s = gridTriangle(rng);
        const Vec3 e = exactPointOn(rng, k.s, true);
        const Vec3 w = gridPoint(rng, 0.5, 4);
        k.t = {offset(e, w, -1.0), offset(e, w, 1.0), gridPoint(rng, 1.0, 8)};
        if (rng.u() < 0.3) k.t.a = e; // vertex on edge
        break;
    }
    case PairFamily::VertexOnFace:
        k.s = gridTriangle(rng);
        k.t = {exactPointOn(rng, k.s, false), gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8)};
        break;
    case PairFamily::SharedEdge:
        k.s = gridTriangle(rng);
        k.t = {k.s.b, k.s.a, gridPoint(rng, 1.0, 8)};
        if (rng.u() < 0.5) k.t = {k.s.a, k.s.b, k.t.c};
        break;
    case PairFamily::SharedVertex:
        k.s = gridTriangle(rng);
        k.t = {k.s.a, gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8)};
        break;
    case PairFamily::Grazing: {
        // A vertex of t a hair above or below a point of s, the rest of t on the far side:
        // t just touches or just misses s (or just pokes through).
        k.s = makeShape(rng, Shape::Random, 1.0);
        const DTri S = dtri(k.s.a, k.s.b, k.s.c);
        D3 n = cross(S.b - S.a, S.c - S.a);
        n = n * (1.0 / len(n));
        const Vec3 foot = rng.u() < 0.5 ? randomPointOn(rng, k.s) : k.s.a;
        const double side = rng.u() < 0.5 ? -1.0 : 1.0;
        const double gap = side * logUniform(rng, -8.0, -2.0);
        const D3 tip = d3(foot) + n * gap;
        k.t.a = vec(tip.x, tip.y, tip.z);
        for (Vec3* p : {&k.t.b, &k.t.c}) {
            const D3 q0 = d3(randomPoint(rng, 1.0));
            const D3 q = q0 + n * (side * rng.range(0.0, 1.0));
            *p = vec(q.x, q.y, q.z);
        }
        break;
    }
    case PairFamily::NearlyCoplanar: nearlyCoplanarPair(rng, k.s, k.t); break;
    case PairFamily::EdgeInPlane: edgeInPlanePair(rng, k.s, k.t); break;
    default: {
        const Shape a = static_cast<Shape>(rng.next() % static_cast<unsigned>(Shape::Count));
        const Shape b = static_cast<Shape>(rng.next() % static_cast<unsigned>(Shape::Count));
        k.s = makeShape(rng, a, 1.0);
        k.t = makeShape(rng, b, 1.0);
        // Move t so that one of its points lands near a point of s: about half of them cross.
        const Vec3 ps = randomPointOn(rng, k.s), pt = randomPointOn(rng, k.t),
                   jitter = randomPoint(rng, 0.05);
        const double dx = static_cast<double>(ps.x) - pt.x + jitter.x,
                     dy = static_cast<double>(ps.y) - pt.y + jitter.y,
                     dz = static_cast<double>(ps.z) - pt.z + jitter.z;
        for (Vec3* p : {&k.t.a, &k.t.b, &k.t.c}) *p = vec(p->x + dx, p->y + dy, p->z + dz);
        break;
    }
    }
    if (rng.u() < 0.5) std::swap(k.s, k.t);
    k.s = place(where, k.s);
    k.t = place(where, k.t);
    return k;
}

TEST(TriTri, Random1M) {
    OracleTally tally("tri-tri random", kSeed);
    SegmentStats seg;
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(1000000); ++i) {
        SplitMix64 rng = caseRng(kSeed, i + 1);
        checkPair(tally, seg, i, randomPair(rng));
    }
    tally.print();
    std::printf("  intersection segments checked: %ld, worst endpoint distance %.3f of tolerance\n",
                seg.checked, seg.worst);
    EXPECT_EQ(tally.failures, 0);
    const double frac = static_cast<double>(tally.hits) / static_cast<double>(tally.cases);
    EXPECT_GT(frac, 0.2);
    EXPECT_LT(frac, 0.8);
}

TEST(TriTri, AdversarialFamilies) {
    long failures = 0;
    std::uint64_t seed = kSeed + 1;
    for (int f = 0; f < static_cast<int>(PairFamily::Count); ++f) {
        for (const Placement& where : kPlacements) {
            SegmentStats seg;
            char name[96];
            std::snprintf(name, sizeof name, "%s %s", familyName(static_cast<PairFamily>(f)), where.name);
            OracleTally tally(name, ++seed);
            for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(6000); ++i) {
                SplitMix64 rng = caseRng(tally.seed, i + 1);
                checkPair(tally, seg, i, familyPair(rng, static_cast<PairFamily>(f), where));
            }
            tally.print();
            failures += tally.failures;
        }
    }
    EXPECT_EQ(failures, 0);
}

// Needles and caps (thinness 1e-7 to 1e-1) crossing random triangles and each other, placed
// across the scales: the inputs where float plane normals lose their direction.
// Moves t so that a random point of it lands on a random point of s, give or take a jitter of
// 1e-3 or 0.05: pairs that touch, cross or just miss.
void moveToTouch(SplitMix64& rng, const Tri& s, Tri& t) {
    const Vec3 ps = randomPointOn(rng, s), pt = randomPointOn(rng, t);
    const Vec3 jitter = randomPoint(rng, rng.u() < 0.5 ? 1e-3 : 0.05);
    const double dx = static_cast<double>(ps.x) - pt.x + jitter.x,
                 dy = static_cast<double>(ps.y) - pt.y + jitter.y,
                 dz = static_cast<double>(ps.z) - pt.z + jitter.z;
    for (Vec3* p : {&t.a, &t.b, &t.c}) *p = vec(p->x + dx, p->y + dy, p->z + dz);
}

// Two cleared batches of four.
TriangleBatch8 clearedBatch8() {
    TriangleBatch8 batch;
    clearBatch(batch.half[0]);
    clearBatch(batch.half[1]);
    return batch;
}

TEST(TriTri, SliverPairs120K) {
    long failures = 0;
    std::uint64_t seed = kSeed + 50;
    const Placement* where[] = {&kPlacements[0], &kPlacements[2], &kPlacements[4]};
    for (const Placement* w : where) {
        SegmentStats seg;
        char name[96];
        std::snprintf(name, sizeof name, "needles/caps %s", w->name);
        OracleTally tally(name, ++seed);
        for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(40000); ++i) {
            SplitMix64 rng = caseRng(tally.seed, i + 1);
            Pair k;
            k.s = makeShape(rng, rng.u() < 0.5 ? Shape::Needle : Shape::Cap, 1.0);
            const unsigned other = static_cast<unsigned>(rng.next() % 3u);
            k.t =
                makeShape(rng, other == 0u ? Shape::Random : (other == 1u ? Shape::Needle : Shape::Cap), 1.0);
            moveToTouch(rng, k.s, k.t);
            if (rng.u() < 0.5) std::swap(k.s, k.t);
            k.s = place(*w, k.s);
            k.t = place(*w, k.t);
            checkPair(tally, seg, i, k);
        }
        tally.print();
        failures += tally.failures;
    }
    EXPECT_EQ(failures, 0);
}

// A needle or a cap as triangle 1 (its plane ill-conditioned in float, so the batched tests
// take their sliver path) against eight lane triangles moved to touch it near a random point of
// each, as in SliverPairs120K: triTriOverlapLanes, with and without the crossing lanes, and
// triTriOverlap4 / 8 answer lane for lane what triTriOverlap and classifyTriTri answer alone.
TEST(TriTri, SliverFirstTriangleBatchedEqualsScalar) {
    long mismatches = 0, lane_pairs = 0, overlaps = 0, ill = 0;
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(60000); ++i) {
        SplitMix64 rng = caseRng(kSeed + 79, i + 1);
        const Placement& where = kPlacements[i % 6];
        const Tri first = place(where, makeShape(rng, rng.u() < 0.5 ? Shape::Needle : Shape::Cap, 1.0));
        // The float corner test of the batched path, on the test's side: sin^2 of the corner at a.
        const Vec3 e1 = vec(first.b.x - first.a.x, first.b.y - first.a.y, first.b.z - first.a.z);
        const Vec3 e2 = vec(first.c.x - first.a.x, first.c.y - first.a.y, first.c.z - first.a.z);
        const D3 n = cross(d3(e1), d3(e2));
        ill += dot(n, n) <= 2.5e-3 * dot(d3(e1), d3(e1)) * dot(d3(e2), d3(e2)) ? 1 : 0;
        TriangleBatch8 batch = clearedBatch8();
        Tri lanes[8];
        const int used = (i % 5 == 0) ? static_cast<int>(rng.next() % 9u) : 8;
        for (int l = 0; l < 8; ++l) {
            const unsigned kind = static_cast<unsigned>(rng.next() % 3u);
            Tri t =
                makeShape(rng, kind == 0u ? Shape::Random : (kind == 1u ? Shape::Needle : Shape::Cap), 1.0);
            t = place(where, t);
            moveToTouch(rng, first, t);
            lanes[l] = t;
            if (l < used) setBatchTriangle(l % 4, t.a, t.b, t.c, batch.half[l / 4]);
        }
        const std::uint32_t asked = (i % 4 == 0) ? 0xFFu : static_cast<std::uint32_t>(rng.next()) & 0xFFu;
        std::uint32_t expected = 0u, expected_crossing = 0u;
        for (int l = 0; l < used; ++l) {
            const Tri& t = lanes[l];
            const bool hit = triTriOverlap(first.a, first.b, first.c, t.a, t.b, t.c);
            overlaps += hit ? 1 : 0;
            expected |= static_cast<std::uint32_t>(hit) << l;
            if (detail::classifyTriTri(first.a, first.b, first.c, t.a, t.b, t.c) ==
                detail::TriTriKind::Crossing)
                expected_crossing |= 1u << l;
        }
        lane_pairs += used;
        std::uint32_t crossing = 0u;
        const unsigned got = triTriOverlapLanes(first.a, first.b, first.c, batch.half, asked, &crossing);
        const unsigned lo = triTriOverlap4(first.a, first.b, first.c, batch.half[0]);
        const unsigned hi = triTriOverlap4(first.a, first.b, first.c, batch.half[1]);
        const unsigned all8 = triTriOverlap8(first.a, first.b, first.c, batch);
        const bool same = got == (expected & asked) && crossing == (expected_crossing & asked) &&
                          triTriOverlapLanes(first.a, first.b, first.c, batch.half, asked) == got &&
                          (lo | (hi << 4)) == expected && all8 == expected;
        if (!same && ++mismatches <= 5)
            ADD_FAILURE() << "batched != scalar at case " << i << ": lanes " << got << " crossing "
                          << crossing << ", expected " << (expected & asked) << " / "
                          << (expected_crossing & asked);
    }
    std::printf("  sliver first triangle: %ld lane pairs (%ld overlap), %ld of %ld first triangles "
                "ill-conditioned, %ld mismatches\n",
                lane_pairs, overlaps, ill, caseCount<long>(60000), mismatches);
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(ill, caseCount<long>(60000) / 2);
    EXPECT_GT(overlaps, lane_pairs / 10);
}

// Found by the blob fuzz target: two triangles a hair (2^-109) out of the plane x = y, a unit
// apart in it. Their float normals are exactly parallel and their plane sides tiny and mixed, so
// the 3D path in float said "crossing" one way round and "disjoint" the other.
TEST(TriTri, NearlyCoplanarPairAUnitApartIsDisjoint) {
    const Vec3 a0{1.0f, 1.0f, 0.0f}, a1{0.0f, 0.0f, 0x1.00010cp-1f}, a2{0.0f, 0x1.01fff4p-109f, 1.0f};
    const Vec3 b0{-1.0f, -1.0f, -1.0f}, b1{-1.0f, -1.0f, -0x1.fffde8p-2f}, b2{0.0f, 0.0f, -1.0f};
    EXPECT_FALSE(triTriOverlap(a0, a1, a2, b0, b1, b2));
    EXPECT_FALSE(triTriOverlap(b0, b1, b2, a0, a1, a2));
    TriangleBatch4 batch;
    clearBatch(batch);
    setBatchTriangle(2, b0, b1, b2, batch);
    EXPECT_EQ(triTriOverlap4(a0, a1, a2, batch), 0u);
    EXPECT_EQ(triTriOverlapLanes(a0, a1, a2, &batch, 0xFu), 0u);
    Vec3 p, q;
    bool coplanar = false;
    EXPECT_FALSE(triTriIntersection(a0, a1, a2, b0, b1, b2, p, q, coplanar));
}

// Found by the blob fuzz target: an edge of b lies in the plane z = 0 while a is lifted out of it
// by a denormal (2^-149 at one vertex). In float, a's plane side of one end of that edge rounds to
// zero and the other's does not, so the edge was taken to cross a's plane, at the point where its
// line does: inside a, while b is 0.35 away from it.
TEST(TriTri, EdgeInTheOtherPlaneIsNotExtended) {
    const Vec3 a0{0.0f, 0.0f, 0.0f}, a1{1.0f, 1.0f, 0x1p-149f}, a2{1.0f, 0.0f, 0.0f};
    const Vec3 b0{-1.0f, -1.0f, 0.0f}, b1{0.0f, -1.0f, -1.0f}, b2{0.0f, -0x1.64p-2f, 0.0f};
    EXPECT_FALSE(triTriOverlap(a0, a1, a2, b0, b1, b2));
    EXPECT_FALSE(triTriOverlap(b0, b1, b2, a0, a1, a2));
    TriangleBatch4 batch_a, batch_b;
    clearBatch(batch_a);
    clearBatch(batch_b);
    setBatchTriangle(1, a0, a1, a2, batch_a);
    setBatchTriangle(3, b0, b1, b2, batch_b);
    EXPECT_EQ(triTriOverlap4(a0, a1, a2, batch_b), 0u);
    EXPECT_EQ(triTriOverlap4(b0, b1, b2, batch_a), 0u);
    std::uint32_t crossing = 0;
    EXPECT_EQ(triTriOverlapLanes(a0, a1, a2, &batch_b, 0xFu, &crossing), 0u);
    EXPECT_EQ(crossing, 0u);
    Vec3 p, q;
    bool coplanar = false;
    EXPECT_FALSE(triTriIntersection(a0, a1, a2, b0, b1, b2, p, q, coplanar));
    // Normal floats, from the oracle's edge-in-plane family: t's edge lies in s's plane to the
    // rounding of its ends, and the pair is 0.46 apart.
    const Vec3 s0{-0x1.4b9b64p-2f, 0x1.43cfbcp-1f, -0x1.1b83ecp-1f},
        s1{0x1.57ce9ep-1f, -0x1.c35036p-2f, 0x1.fd0dacp-4f},
        s2{0x1.79450ap-1f, -0x1.b856e2p-2f, 0x1.3edb12p-6f};
    const Vec3 t0{-0x1.f8493cp-3f, 0x1.492302p+0f, 0x1.6995cep-2f},
        t1{0x1.797572p-1f, 0x1.1f8c4p-1f, -0x1.ce1d88p+0f},
        t2{0x1.864cb8p-2f, 0x1.097c36p-1f, -0x1.431fc6p+0f};
    EXPECT_FALSE(triTriOverlap(s0, s1, s2, t0, t1, t2));
    EXPECT_FALSE(triTriOverlap(t0, t1, t2, s0, s1, s2));
}

// An output may alias an input (the math layer's rule): the segment is the same when out_start
// is p1 (it overwrote p1 before the end was placed relative to it).
TEST(TriTri, IntersectionOutputsMayAliasTheInputs) {
    const Vec3 q1{1, 0, 0}, r1{0, 1, 0}, p2{0.2f, 0.2f, -1}, q2{0.2f, 0.2f, 1}, r2{0.6f, 0.2f, 1};
    Vec3 p1{0, 0, 0};
    Vec3 start, end;
    bool coplanar = true;
    ASSERT_TRUE(triTriIntersection(p1, q1, r1, p2, q2, r2, start, end, coplanar));
    for (int which = 0; which < 2; ++which) {
        Vec3 p = p1, other;
        bool aliased_coplanar = true;
        ASSERT_TRUE(which == 0 ? triTriIntersection(p, q1, r1, p2, q2, r2, p, other, aliased_coplanar)
                               : triTriIntersection(p, q1, r1, p2, q2, r2, other, p, aliased_coplanar));
        const Vec3& got_start = which == 0 ? p : other;
        const Vec3& got_end = which == 0 ? other : p;
        EXPECT_TRUE(equal(got_start, start) && equal(got_end, end)) << "output " << which << " aliased to p1";
        EXPECT_EQ(aliased_coplanar, coplanar);
    }
}

TEST(TriTri, NonFiniteInputsGiveNoOverlap) {
    long bad = 0;
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(kSeed + 99, i + 1);
        // Overlapping pairs, so that a NaN has a chance to slip through as a "yes".
        Pair k = randomPair(rng);
        k.t = {k.s.b, k.s.a, k.t.c};
        float in[18];
        pack(k, in);
        poison(rng, in, 18);
        const Vec3 v[6] = {{in[0], in[1], in[2]},   {in[3], in[4], in[5]},    {in[6], in[7], in[8]},
                           {in[9], in[10], in[11]}, {in[12], in[13], in[14]}, {in[15], in[16], in[17]}};
        Vec3 p, q;
        bool coplanar = false;
        TriangleBatch4 batch;
        clearBatch(batch);
        setBatchTriangle(static_cast<int>(i % 4), v[3], v[4], v[5], batch);
        if (triTriOverlap(v[0], v[1], v[2], v[3], v[4], v[5]) ||
            triTriIntersection(v[0], v[1], v[2], v[3], v[4], v[5], p, q, coplanar) ||
            triTriOverlap4(v[0], v[1], v[2], batch) != 0u) {
            if (++bad <= 5) ADD_FAILURE() << "case " << i << " inputs " << hexInputs(in, 18);
        }
    }
    std::printf("  non-finite inputs: 100000 cases, %ld with an overlap\n", bad);
    EXPECT_EQ(bad, 0);
}

// A lane written again takes the new triangle's state: a non-finite triangle makes it empty (never
// overlaps, skipped), a finite one after that makes it live again, and the reverse.
TEST(TriTri, RewrittenLaneTakesTheNewTriangle) {
    const Vec3 a{0.0f, 0.0f, 0.0f}, b{1.0f, 0.0f, 0.0f}, c{0.0f, 1.0f, 0.0f};
    const Vec3 p{0.2f, 0.2f, -1.0f}, q{0.2f, 0.2f, 1.0f}, r{0.4f, 0.3f, 1.0f}; // crosses (a, b, c)
    const Vec3 nan_v{std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f};
    ASSERT_TRUE(triTriOverlap(a, b, c, p, q, r));
    for (int lane = 0; lane < 4; ++lane) {
        TriangleBatch4 batch;
        clearBatch(batch);
        EXPECT_EQ(triTriOverlap4(a, b, c, batch), 0u);
        setBatchTriangle(lane, p, q, r, batch);
        EXPECT_EQ(triTriOverlap4(a, b, c, batch), 1u << lane);
        setBatchTriangle(lane, p, nan_v, r, batch);
        EXPECT_EQ(triTriOverlap4(a, b, c, batch), 0u);
        EXPECT_EQ(batch.empty_lanes, 0xFu);
        setBatchTriangle(lane, p, q, r, batch);
        EXPECT_EQ(triTriOverlap4(a, b, c, batch), 1u << lane);
        EXPECT_EQ(batch.empty_lanes, 0xFu & ~(1u << lane));
    }
}

// Batched == scalar, bit for bit, for every lane: random pairs, every adversarial family, NaN
// lanes, and partially filled batches.
TEST(TriTri, BatchedEqualsScalar2M) {
    long pairs = 0, mismatches = 0, overlaps = 0;
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(250000); ++i) {
        SplitMix64 rng = caseRng(kSeed + 77, i + 1);
        constexpr unsigned kFamilies = static_cast<unsigned>(PairFamily::Count);
        const Pair first = (i % 3 == 0)
                               ? familyPair(rng, static_cast<PairFamily>(i % kFamilies), kPlacements[i % 6])
                               : randomPair(rng);
        TriangleBatch8 batch = clearedBatch8();
        Tri lanes[8];
        const int used = (i % 5 == 0) ? static_cast<int>(rng.next() % 9u) : 8;
        for (int l = 0; l < 8; ++l) {
            Pair k;
            if (l % 2 == 0) {
                const auto family = static_cast<PairFamily>(rng.next() % kFamilies);
                const Placement& where = kPlacements[rng.next() % 6u];
                k = familyPair(rng, family, where);
            } else {
                k = randomPair(rng);
            }
            // Put the lane triangle in the frame of `first` sometimes, so that many pairs get past the
            // planes.
            lanes[l] = (l % 3 == 0) ? Tri{first.s.b, first.s.a, k.t.c}
                                    : (first.coplanar && l % 3 == 1 ? first.t : k.t);
            if (l < used) setBatchTriangle(l % 4, lanes[l].a, lanes[l].b, lanes[l].c, batch.half[l / 4]);
        }
        const unsigned mask8 = triTriOverlap8(first.s.a, first.s.b, first.s.c, batch);
        const unsigned lo = triTriOverlap4(first.s.a, first.s.b, first.s.c, batch.half[0]);
        const unsigned hi = triTriOverlap4(first.s.a, first.s.b, first.s.c, batch.half[1]);
        if (mask8 != (lo | (hi << 4))) ++mismatches;
        for (int l = 0; l < 8; ++l) {
            const bool scalar = l < used && triTriOverlap(first.s.a, first.s.b, first.s.c, lanes[l].a,
                                                          lanes[l].b, lanes[l].c);
            const bool batched = ((mask8 >> l) & 1u) != 0u;
            ++pairs;
            overlaps += scalar;
            if (scalar != batched && ++mismatches <= 5) {
                float in[18];
                pack(Pair{first.s, lanes[l], false}, in);
                ADD_FAILURE() << "batched != scalar at case " << i << " lane " << l << " inputs "
                              << hexInputs(in, 18);
            }
        }
    }
    std::printf("  batched vs scalar: %ld pairs (%ld overlap), %ld mismatches, back-end %s (tri-tri: %s)\n",
                pairs, overlaps, mismatches, simdBackendName(), triTriBackend());
    EXPECT_EQ(mismatches, 0);
}

// triTriIntersection4 answers, point for point and bit for bit, what triTriIntersection answers
// for each lane: random pairs, every adversarial family at every placement (touching, shared
// vertices, vertices exactly on the other plane, nearly parallel, coplanar, zero-area), lanes of
// one batch mixing crossing and other pairs, and batches of 1 to 4.
TEST(TriTri, IntersectionBatchEqualsScalar) {
    long pairs = 0, crossings = 0, mismatches = 0;
    constexpr unsigned kFamilies = static_cast<unsigned>(PairFamily::Count);
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(300000); ++i) {
        SplitMix64 rng = caseRng(kSeed + 91, i + 1);
        const unsigned count = i % 7 == 0 ? 1u + static_cast<unsigned>(rng.next() % 4u) : 4u;
        TriTriPairs4 batch;
        Pair lane[4];
        for (unsigned l = 0; l < count; ++l) {
            lane[l] = rng.u() < 0.5 ? randomPair(rng)
                                    : familyPair(rng, static_cast<PairFamily>(rng.next() % kFamilies),
                                                 kPlacements[rng.next() % 6u]);
            float in[18];
            pack(lane[l], in);
            for (int v = 0; v < 6; ++v)
                for (int c = 0; c < 3; ++c) batch.v[v][c][l] = in[3 * v + c];
        }
        Vec3 start[4], end[4];
        unsigned coplanar = 0;
        const unsigned hits = triTriIntersection4(batch, count, start, end, coplanar);
        // The same with the crossing lanes named beforehand (their classification skipped).
        unsigned known = 0u;
        for (unsigned l = 0; l < count; ++l)
            if (detail::classifyTriTri(lane[l].s.a, lane[l].s.b, lane[l].s.c, lane[l].t.a, lane[l].t.b,
                                       lane[l].t.c) == detail::TriTriKind::Crossing)
                known |= 1u << l;
        Vec3 hinted_start[4], hinted_end[4];
        unsigned hinted_coplanar = 0;
        const unsigned hinted = triTriIntersection4(batch, count, hinted_start, hinted_end, hinted_coplanar,
                                                    known | (i % 2 == 0 ? 0u : 0xF0u));
        if ((hinted != hits || hinted_coplanar != coplanar ||
             std::memcmp(hinted_start, start, sizeof start) != 0 ||
             std::memcmp(hinted_end, end, sizeof end) != 0) &&
            ++mismatches <= 5)
            ADD_FAILURE() << "triTriIntersection4 with the crossing lanes named differs at case " << i;
        for (unsigned l = 0; l < count; ++l) {
            const Pair& k = lane[l];
            Vec3 s0, e0;
            bool cop = false;
            const bool hit = triTriIntersection(k.s.a, k.s.b, k.s.c, k.t.a, k.t.b, k.t.c, s0, e0, cop);
            ++pairs;
            crossings += hit && !cop;
            const bool same = hit == (((hits >> l) & 1u) != 0u) && cop == (((coplanar >> l) & 1u) != 0u) &&
                              (!hit || (sameBits(s0, start[l]) && sameBits(e0, end[l])));
            if (!same && ++mismatches <= 5) {
                float in[18];
                pack(k, in);
                ADD_FAILURE() << "batched intersection != scalar at case " << i << " lane " << l << " inputs "
                              << hexInputs(in, 18);
            }
        }
        EXPECT_EQ(hits >> count, 0u);
    }
    std::printf("  batched intersection vs scalar: %ld pairs (%ld crossing in 3D), %ld mismatches\n", pairs,
                crossings, mismatches);
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(crossings, pairs / 10);
}

// Vertices and flags bit for bit, planes bit for bit on the lanes in use (an empty lane's NaN plane
// may carry either NaN's payload).
bool sameBatch(const TriangleBatch4& x, const TriangleBatch4& y) {
    if (std::memcmp(x.v, y.v, sizeof(x.v)) != 0 || x.scalar_lanes != y.scalar_lanes ||
        x.empty_lanes != y.empty_lanes || x.reserved[0] != y.reserved[0] || x.reserved[1] != y.reserved[1])
        return false;
    for (int lane = 0; lane < 4; ++lane)
        if (((x.empty_lanes >> lane) & 1u) == 0u)
            for (int j = 0; j < 3; ++j)
                if (std::memcmp(&x.n[j][lane], &y.n[j][lane], sizeof(float)) != 0) return false;
    return true;
}

// A batch whose vertices are written straight into `v` and finished with finishBatch is the batch
// setBatchTriangle builds, byte for byte (planes, flags, cleared tail); triTriOverlapLanes over up
// to eight such batches answers triTriOverlap4 per batch, masked by the lanes asked for.
TEST(TriTri, FinishedBatchesAndLaneMasks) {
    long mismatches = 0, overlaps = 0, lane_tests = 0, crossings = 0;
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(kSeed + 78, i + 1);
        const Pair first = (i % 3 == 0) ? familyPair(rng, static_cast<PairFamily>(i % 7), kPlacements[i % 6])
                                        : randomPair(rng);
        const unsigned batches = 1u + static_cast<unsigned>(rng.next() % 8u);
        TriangleBatch4 set_batches[8], finished[8];
        Tri lane_tri[8][4];
        std::uint32_t lane_used[8] = {};
        for (unsigned q = 0; q < batches; ++q) {
            const std::uint32_t used = static_cast<std::uint32_t>(rng.next() % 5u);
            clearBatch(set_batches[q]);
            clearBatch(finished[q]); // the lanes past `used` hold stale values finishBatch must clear
            for (std::uint32_t l = 0; l < 4u; ++l) {
                const Pair k = (l % 2 == 0) ? familyPair(rng, static_cast<PairFamily>(rng.next() % 7u),
                                                         kPlacements[rng.next() % 6u])
                                            : randomPair(rng);
                Tri t = (rng.next() % 3u == 0u) ? Tri{first.s.b, first.s.a, k.t.c} : k.t;
                if (rng.next() % 16u == 0u) {
                    float in[9] = {t.a.x, t.a.y, t.a.z, t.b.x, t.b.y, t.b.z, t.c.x, t.c.y, t.c.z};
                    poison(rng, in, 9);
                    t = Tri{{in[0], in[1], in[2]}, {in[3], in[4], in[5]}, {in[6], in[7], in[8]}};
                }
                const Vec3* v[3] = {&t.a, &t.b, &t.c};
                for (int a = 0; a < 3; ++a)
                    for (int j = 0; j < 3; ++j) finished[q].v[a][j][l] = (*v[a])[j];
                if (l < used) setBatchTriangle(static_cast<int>(l), t.a, t.b, t.c, set_batches[q]);
                lane_tri[q][l] = t;
            }
            lane_used[q] = used;
            finishBatch(used, finished[q]);
            if (!sameBatch(finished[q], set_batches[q]) && ++mismatches <= 5)
                ADD_FAILURE() << "finishBatch != setBatchTriangle at case " << i << " batch " << q;
        }
        const std::uint32_t all = batches == 8u ? 0xFFFFFFFFu : (1u << (4u * batches)) - 1u;
        const std::uint32_t lanes = (i % 4 == 0) ? all : static_cast<std::uint32_t>(rng.next()) & all;
        unsigned expected = 0u;
        for (unsigned q = 0; q < batches; ++q)
            expected |= (triTriOverlap4(first.s.a, first.s.b, first.s.c, set_batches[q]) &
                         ((lanes >> (4u * q)) & 0xFu))
                        << (4u * q);
        // The crossing lanes: those whose classification (triTriIntersection's) is a 3D crossing.
        std::uint32_t expected_crossing = 0u;
        for (unsigned q = 0; q < batches; ++q)
            for (std::uint32_t l = 0; l < lane_used[q]; ++l) {
                const Tri& t = lane_tri[q][l];
                const bool asked = ((lanes >> (4u * q + l)) & 1u) != 0u;
                if (asked && detail::classifyTriTri(first.s.a, first.s.b, first.s.c, t.a, t.b, t.c) ==
                                 detail::TriTriKind::Crossing)
                    expected_crossing |= 1u << (4u * q + l);
            }
        std::uint32_t crossing = 0u;
        const unsigned got = triTriOverlapLanes(first.s.a, first.s.b, first.s.c, finished, lanes, &crossing);
        ++lane_tests;
        overlaps += expected != 0u;
        crossings += static_cast<long>(__builtin_popcount(expected_crossing));
        if (got != expected && ++mismatches <= 5)
            ADD_FAILURE() << "triTriOverlapLanes " << got << " != " << expected << " at case " << i;
        if (crossing != expected_crossing && ++mismatches <= 5)
            ADD_FAILURE() << "triTriOverlapLanes crossing " << crossing << " != " << expected_crossing
                          << " at case " << i;
        if (triTriOverlapLanes(first.s.a, first.s.b, first.s.c, finished, lanes) != got && ++mismatches <= 5)
            ADD_FAILURE() << "triTriOverlapLanes differs without out_crossing at case " << i;
    }
    std::printf("  finished batches and lane masks: %ld cases (%ld with an overlap, %ld crossing lanes), %ld "
                "mismatches\n",
                lane_tests, overlaps, crossings, mismatches);
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(crossings, lane_tests / 10);
}

} // namespace
} // namespace flak::test
