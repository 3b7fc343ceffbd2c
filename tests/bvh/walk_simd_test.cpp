// The SIMD forms of the walks' node work against their scalar forms, which they must match bit for
// bit: the segment's set-up in the blob's grid (query_walk.h), the wide nodes' box, ball and
// segment tests of eight children (wide_walk.h), segments that do not move along an axis
// included, and the mesh-vs-mesh walk's B leaf taken into A's grid (tandem_walk.h), clamps at the
// grid's ends included, its lane test of an A group's leaves against the walk of the group's node
// range it stands for, and the leaves' triangles loaded four at a time into lanes
// (triangle_lanes.h).
#include "bvh/query_walk.h"
#include "bvh/tandem_walk.h"
#include "bvh/triangle_lanes.h"
#include "bvh/wide_walk.h"

#include "query_meshes.h"
#include "support/box_families.h"
#include "support/oracle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <limits>

namespace flak::test {
namespace {

// A grid of 1000 cells per axis from the origin, so grid coordinates are world coordinates.
MeshBlob unitGrid() {
    MeshBlob blob;
    blob.quant_origin = Vec3{0.0f, 0.0f, 0.0f};
    blob.quant_scale = Vec3{1.0f, 1.0f, 1.0f};
    return blob;
}

// A node with bounds in [0, cells) and random bits in `info` (the SIMD forms load next to the
// bounds).
BvhNode randomNode(SplitMix64& rng, std::uint32_t cells) {
    BvhNode n{};
    for (int k = 0; k < 3; ++k) {
        const auto a = static_cast<std::uint16_t>(rng.next() % cells);
        const auto b = static_cast<std::uint16_t>(rng.next() % cells);
        n.lo[k] = a < b ? a : b;
        n.hi[k] = a < b ? b : a;
    }
    n.info = static_cast<std::uint32_t>(rng.next());
    return n;
}

float gridCoord(SplitMix64& rng) {
    switch (rng.next() % 4u) {
    case 0: return static_cast<float>(rng.next() % 1001u);        // on a cell boundary
    case 1: return static_cast<float>(rng.next() % 1001u) - 2.5f; // on a plane grown by the slack
    default: return rng.rangef(-50.0, 1050.0);
    }
}

// Segment ends of gridCoord, not equal.
void randomSegmentEnds(SplitMix64& rng, Vec3& p0, Vec3& p1) {
    for (int k = 0; k < 3; ++k) {
        p0[k] = gridCoord(rng);
        // A third of the components do not move: 1 / 0 is inf, and 0 * inf is NaN on a plane.
        p1[k] = rng.next() % 3u == 0u ? p0[k] : gridCoord(rng);
    }
    if (p0.x == p1.x && p0.y == p1.y && p0.z == p1.z) p1.x += 1.0f;
}

// A wide node of 1..8 random children (unused slots as the baker leaves them), and the same
// children decoded as binary nodes. Most frames start in [0, cells / 5) with steps of 2 or 4 cells;
// one in eight sits at the grid's top with steps of 256, where decoded maxima saturate at 65,535.
WideNode randomWideNode(SplitMix64& rng, std::uint32_t cells, BvhNode out_children[kWideChildren]) {
    WideNode w{};
    const bool top = rng.next() % 8u == 0u;
    for (int k = 0; k < 3; ++k) {
        w.step[k] = static_cast<std::uint16_t>(top ? kWideMaxStep : 2u << rng.next() % 2u);
        w.base[k] = static_cast<std::uint16_t>(top ? 65535u - rng.next() % 3000u : rng.next() % (cells / 5u));
    }
    const std::uint32_t count = 1u + static_cast<std::uint32_t>(rng.next() % kWideChildren);
    for (std::uint32_t c = 0; c < kWideChildren; ++c) {
        w.child[c] = c < count ? (static_cast<std::uint32_t>(rng.next()) | 1u) : 0u;
        for (int k = 0; k < 3; ++k) {
            // Minima the loader accepts: decoded within the grid.
            const std::uint32_t reach = (65535u - w.base[k]) / w.step[k];
            const std::uint32_t lo_limit = reach < 255u ? reach : 255u;
            // Boxes of a third of the frame on average, but any from one step to the whole.
            const auto a = static_cast<std::uint8_t>(rng.next() % (lo_limit + 1u) / (rng.next() % 2u + 1u));
            const std::uint32_t wide = a + 85u + static_cast<std::uint32_t>(rng.next() % 86u);
            const auto b = static_cast<std::uint8_t>(rng.next() % 8u == 0u ? a + rng.next() % (256u - a)
                                                                           : (wide < 255u ? wide : 255u));
            w.lo[k][c] = c < count ? a : std::uint8_t{255};
            w.hi[k][c] = c < count ? b : std::uint8_t{0};
        }
        out_children[c] = wideChildNode(w, c);
    }
    return w;
}

TEST(WideNode, SimdTestsDecideEveryChildAsTheScalarTests) {
    const MeshBlob blob = unitGrid();
    long cases = 0, entered = 0, overlapped = 0, differ = 0, met = 0, missed = 0;
    for (long i = 0; i < 100000; ++i) {
        SplitMix64 rng = caseRng(0x6121D5EAull, static_cast<std::uint64_t>(i) + 1);
        BvhNode children[kWideChildren];
        const WideNode n = randomWideNode(rng, 1001u, children);
        const unsigned used = (1u << wideCount(n)) - 1u;
        Vec3 p0, p1;
        randomSegmentEnds(rng, p0, p1);
        if (rng.next() % 8u == 0u) // a long segment from far away: the parameter's relative slack
            for (int k = 0; k < 3; ++k) p0[k] = (p0[k] - 500.0f) * rng.rangef(1e3, 1e5) + 500.0f;
        detail::WideSegment s;
        ASSERT_TRUE(detail::makeWideSegment(blob, p0, p1, rng.next() % 2u == 0u ? 0.0f : 0.5f, s));
        const float t_max =
            rng.next() % 4u == 0u ? rng.rangef(0.0, 1.0) : 1.0f; // a closest-hit walk shortened it
        s.t_max = t_max;
        float want_t[kWideChildren], got_t[kWideChildren];
        const unsigned want = detail::wideEntersScalar(s, n, want_t);
        const unsigned got = detail::wideEnters(s, n, got_t);
        bool same = want == got && (want & ~used) == 0u;
        for (unsigned c = 0; c < wideCount(n); ++c) {
            same = same && std::memcmp(&want_t[c], &got_t[c], sizeof(float)) == 0;
            // Conservative: a segment that meets a child's decoded box is let in, with an entry
            // parameter the closest-hit walk keeps for any hit in the box (SegmentNodeTest::reaches:
            // within the exit's 2^-20 allowance of where it enters).
            // (A unit grid: grid coordinates are world coordinates.)
            Aabb decoded;
            set(children[c].lo[0], children[c].lo[1], children[c].lo[2], decoded.min);
            set(children[c].hi[0], children[c].hi[1], children[c].hi[2], decoded.max);
            const box::Clip exact = box::clipReference(d3(p0), d3(p1) - d3(p0), t_max, decoded, 0.0);
            if (exact.hit) {
                const double t_exact = exact.enter;
                ++met;
                if (((want >> c) & 1u) == 0u || want_t[c] > t_exact * detail::kGridExitRoundUp) {
                    if (++missed <= 5)
                        ADD_FAILURE()
                            << "case " << i << " child " << c << ": the segment meets the box at " << t_exact
                            << " and the wide test " << (((want >> c) & 1u) ? "enters later" : "rejects it");
                }
            }
        }
        detail::QuantBox q;
        for (int k = 0; k < 3; ++k) {
            // Around the frame, which may reach past the grid's top.
            const std::int32_t from = static_cast<std::int32_t>(n.base[k]) - 50;
            const std::uint32_t span = 300u * n.step[k] + 100u;
            const std::int32_t a = from + static_cast<std::int32_t>(rng.next() % span);
            const std::int32_t b = from + static_cast<std::int32_t>(rng.next() % span);
            q.lo[k] = a < b ? a : b;
            q.hi[k] = a < b ? b : a;
        }
        detail::WideBox box;
        detail::makeWideBox(q, box);
        const unsigned box_want = detail::wideOverlapsScalar(n, box);
        same = same && detail::wideOverlaps(n, box) == box_want;
        // The binary test on each child's own box: the same bits, and none where the box lies
        // beyond the grid (the walk then enters nothing).
        for (unsigned c = 0; c < wideCount(n); ++c) {
            const unsigned binary = detail::nodeOverlaps(children[c], q) ? 1u : 0u;
            same = same && (box.outside ? binary == 0u : ((box_want >> c) & 1u) == binary);
        }
        // The union of the children's boxes: their smallest lo and largest hi on each axis.
        std::int32_t union_lo[3], union_hi[3];
        detail::wideUnion(n, union_lo, union_hi);
        for (int k = 0; k < 3; ++k) {
            std::int32_t lo = 65536, hi = -1;
            for (unsigned c = 0; c < wideCount(n); ++c) {
                lo = std::min<std::int32_t>(lo, children[c].lo[k]);
                hi = std::max<std::int32_t>(hi, children[c].hi[k]);
            }
            same = same && union_lo[k] == lo && union_hi[k] == hi;
        }
        ++cases;
        entered += __builtin_popcount(want);
        overlapped += __builtin_popcount(box_want);
        if (!same && ++differ <= 5) ADD_FAILURE() << "case " << i << ": the wide node tests differ";
    }
    std::printf("  wide node tests (%s): %ld nodes, %ld children entered, %ld overlapped, %ld different; "
                "%ld decoded boxes met, %ld of them missed\n",
                simdBackendName(), cases, entered, overlapped, differ, met, missed);
    EXPECT_EQ(differ, 0);
    EXPECT_EQ(missed, 0);
    EXPECT_GT(met, cases / 4); // the generator's coverage: a child of every fourth node or more
    EXPECT_GT(entered, cases / 4);
    EXPECT_GT(overlapped, cases / 2);
}

// The ball test of a wide node's children: in lanes exactly as in scalar code, never missing a child
// whose decoded box the ball meets (in double), and keeping out some the ball's cube lets in. An
// anisotropic grid off the origin, so that the decode rounds; balls from a tenth of a step to
// the whole frame, around and inside it.
TEST(WideNode, BallTestDecidesEveryChildAsTheScalarTest) {
    MeshBlob blob;
    blob.quant_origin = Vec3{-3.7f, 1.2f, 0.5f};
    blob.quant_scale = Vec3{0.013f, 0.0071f, 0.029f};
    long cases = 0, in_cube = 0, in_ball = 0, differ = 0, met = 0, missed = 0;
    for (long i = 0; i < 100000; ++i) {
        SplitMix64 rng = caseRng(0x6121D5ECull, static_cast<std::uint64_t>(i) + 1);
        BvhNode children[kWideChildren];
        const WideNode n = randomWideNode(rng, 1001u, children);
        Vec3 centre;
        float reach = 0.0f;
        for (int k = 0; k < 3; ++k) {
            const double from =
                blob.quant_origin[k] + (double(n.base[k]) - 200.0 * n.step[k]) * blob.quant_scale[k];
            const double span = 656.0 * n.step[k] * blob.quant_scale[k];
            centre[k] = static_cast<float>(from + rng.u() * span);
            reach = std::max(reach, static_cast<float>(span));
        }
        const float radius = static_cast<float>(reach * std::pow(10.0, -3.0 * rng.u()));
        const float grow = rng.next() % 2u == 0u ? 0.0f : radius * 1e-5f;
        detail::WideBall ball;
        ball.set(blob, centre, radius, grow);
        const unsigned want = detail::wideBallOverlapsScalar(n, ball);
        const unsigned got = detail::wideBallOverlaps(n, ball);
        const unsigned cube = detail::wideOverlapsScalar(n, ball.cube);
        if ((got != want || (want & ~cube) != 0u) && ++differ <= 5)
            ADD_FAILURE() << "case " << i << ": lanes " << got << ", scalar " << want << ", cube " << cube;
        for (unsigned c = 0; c < wideCount(n); ++c) {
            double sq = 0.0;
            for (int k = 0; k < 3; ++k) {
                const double lo = blob.quant_origin[k] + double(children[c].lo[k]) * blob.quant_scale[k];
                const double hi = blob.quant_origin[k] + double(children[c].hi[k]) * blob.quant_scale[k];
                const double off = centre[k] < lo ? lo - centre[k] : (centre[k] > hi ? centre[k] - hi : 0.0);
                sq += off * off;
            }
            if (sq > double(radius) * radius) continue;
            ++met;
            if (((want >> c) & 1u) == 0u && ++missed <= 5)
                ADD_FAILURE() << "case " << i << " child " << c
                              << ": the ball meets its box and the test rejects it";
        }
        ++cases;
        in_cube += __builtin_popcount(cube);
        in_ball += __builtin_popcount(want);
    }
    std::printf(
        "  wide ball test (%s): %ld nodes, %ld children in the cube, %ld in the ball, %ld met exactly, "
        "%ld different, %ld missed\n",
        simdBackendName(), cases, in_cube, in_ball, met, differ, missed);
    EXPECT_EQ(differ, 0);
    EXPECT_EQ(missed, 0);
    EXPECT_GT(met, cases);
    EXPECT_LT(in_ball, in_cube - in_cube / 20); // the distance keeps out some of the cube's corners
}

#if defined(FLAK_SIMD_SSE2)
// The second test of a group's walk of B (ChildrenIntoA, tandem_walk.h): it keeps every child whose
// box, turned into A's frame exactly (in double), reaches the group's box, and keeps out some of
// the others. Random nodes on an anisotropic grid, random rotations, group boxes from a hundredth
// of the node's frame to all of it, placed around the image of a point of the frame.
TEST(TandemWalk, ChildrenIntoAKeepEveryChildThatReachesTheGroup) {
    MeshBlob b;
    b.quant_origin = Vec3{-3.7f, 1.2f, 0.5f};
    b.quant_scale = Vec3{0.013f, 0.0071f, 0.029f};
    detail::QuantBox everything{{0, 0, 0}, {65535, 65535, 65535}};
    detail::WideBox all;
    detail::makeWideBox(everything, all);
    long cases = 0, used = 0, kept = 0, reach = 0, missed = 0;
    for (long i = 0; i < 50000; ++i) {
        SplitMix64 rng = caseRng(0x6121D5EDull, static_cast<std::uint64_t>(i) + 1);
        BvhNode children[kWideChildren];
        const WideNode n = randomWideNode(rng, 1001u, children);
        Transform t;
        randomTransform(rng, 10.0f, t);
        double frame_span = 0.0;
        Vec3 point;
        for (int k = 0; k < 3; ++k) {
            const double span = 256.0 * n.step[k] * b.quant_scale[k];
            point[k] =
                static_cast<float>(b.quant_origin[k] + n.base[k] * double(b.quant_scale[k]) + rng.u() * span);
            frame_span = std::max(frame_span, span);
        }
        Vec3 image;
        transformPoint(t, point, image);
        Aabb group;
        for (int k = 0; k < 3; ++k) {
            const float half = static_cast<float>(frame_span * std::pow(10.0, -2.0 * rng.u()) * rng.u());
            const float at = image[k] + static_cast<float>((2.0 * rng.u() - 1.0) * frame_span * 0.5);
            group.min[k] = at - half;
            group.max[k] = at + half;
        }
        // The walk's margin is 4e-5 of the meshes' scale; here 1e-6 or 1e-5 of the frame's span.
        const float margin = static_cast<float>(frame_span * (rng.next() % 2u == 0u ? 1e-6 : 1e-5));
        detail::QuantGrid grid;
        detail::makeQuantGrid(b, grid);
        detail::NodeToGrid b_into_a;
        detail::makeNodeToGrid(b, t, grid, margin, b_into_a);
        detail::ChildrenIntoA into_a;
        detail::makeChildrenIntoA(b_into_a, into_a);
        into_a.group = group;
        __m128i lo[3], hi[3];
        const unsigned bits = detail::wideDecodeOverlaps(n, all, lo, hi);
        const unsigned in_a = detail::childrenInA(into_a, lo, hi, bits);
        const Vec3* columns[3] = {&t.rotation.c0, &t.rotation.c1, &t.rotation.c2};
        for (unsigned c = 0; c < wideCount(n); ++c) {
            double centre[3], extent[3];
            for (int k = 0; k < 3; ++k) {
                const double low = b.quant_origin[k] + double(children[c].lo[k]) * b.quant_scale[k];
                const double high = b.quant_origin[k] + double(children[c].hi[k]) * b.quant_scale[k];
                centre[k] = (low + high) / 2.0;
                extent[k] = (high - low) / 2.0;
            }
            bool meets = true;
            for (int j = 0; j < 3; ++j) {
                double tc = t.translation[j], te = 0.0;
                for (int k = 0; k < 3; ++k) {
                    tc += double((*columns[k])[j]) * centre[k];
                    te += std::fabs(double((*columns[k])[j])) * extent[k];
                }
                meets = meets && tc - te <= group.max[j] && group.min[j] <= tc + te;
            }
            reach += meets ? 1 : 0;
            if (meets && ((in_a >> c) & 1u) == 0u && ++missed <= 5)
                ADD_FAILURE() << "case " << i << " child " << c << ": reaches the group and is left out";
        }
        ++cases;
        used += __builtin_popcount(bits);
        kept += __builtin_popcount(in_a);
    }
    std::printf("  children into A's frame: %ld nodes, %ld children, %ld reach the group exactly, %ld kept, "
                "%ld missed\n",
                cases, used, reach, kept, missed);
    EXPECT_EQ(missed, 0);
    EXPECT_GT(reach, used / 10);
    EXPECT_LT(kept, used - used / 10);
}
#endif

// `usual`, or one time in 16 a value that breaks naive set-up code: zeros of both signs, a
// negative, tiny, huge, infinite, NaN, near-overflow or subnormal value.
float pick(SplitMix64& rng, float usual) {
    static const float specials[] = {0.0f,
                                     -0.0f,
                                     -1.0f,
                                     1e-30f,
                                     1e30f,
                                     std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::quiet_NaN(),
                                     3e38f,
                                     1e-45f};
    return rng.next() % 16u == 0u ? specials[rng.next() % (sizeof(specials) / sizeof(specials[0]))] : usual;
}

// maxAbs as two maxss against the nested ternary it replaced: the same bits for every input,
// NaN, infinities, zeros of both signs and ties included.
TEST(WalkHelpers, MaxAbsEqualsTheNestedTernary) {
    const auto reference = [](const Vec3& v) {
        const float x = std::fabs(v.x), y = std::fabs(v.y), z = std::fabs(v.z);
        return x > y ? (x > z ? x : z) : (y > z ? y : z);
    };
    long differ = 0;
    for (long i = 0; i < 100000; ++i) {
        SplitMix64 rng = caseRng(0x6121D5E9ull, static_cast<std::uint64_t>(i) + 1);
        Vec3 v;
        const float shared = pick(rng, rng.rangef(-10.0, 10.0));
        for (int k = 0; k < 3; ++k)
            v[k] = rng.next() % 4u == 0u ? -shared : pick(rng, rng.rangef(-10.0, 10.0));
        const float want = reference(v), got = detail::maxAbs(v);
        if (std::memcmp(&want, &got, sizeof(float)) != 0 && ++differ <= 5) ADD_FAILURE() << "case " << i;
    }
    EXPECT_EQ(differ, 0);
}

// makeWideSegment (two SSE divisions, no branch on the direction) against its scalar loop: the
// same answer and, when it succeeds, the same bits in every field, each axis's bound offsets and
// mask on the side its reciprocal span's sign says, on grids with random, tiny, huge, zero,
// negative, NaN and inf steps and segments with random, equal, huge and non-finite ends.
TEST(WideSegment, SimdSetUpEqualsTheScalarSetUp) {
    long cases = 0, made = 0, differ = 0;
    for (long i = 0; i < 200000; ++i) {
        SplitMix64 rng = caseRng(0x6121D5E7ull, static_cast<std::uint64_t>(i) + 1);
        MeshBlob blob;
        for (int k = 0; k < 3; ++k) {
            blob.quant_scale[k] = pick(rng, rng.rangef(1e-4, 10.0));
            blob.quant_origin[k] = pick(rng, rng.rangef(-1e3, 1e3));
        }
        Vec3 p0, p1;
        for (int k = 0; k < 3; ++k) {
            p0[k] = pick(rng, rng.rangef(-1e4, 1e4));
            p1[k] = rng.next() % 3u == 0u ? p0[k] : pick(rng, rng.rangef(-1e4, 1e4));
        }
        const float grow = pick(rng, rng.rangef(0.0, 1.0));
        detail::WideSegment want, got;
        const bool want_ok = detail::makeWideSegmentScalar(blob, p0, p1, grow, want);
        const bool got_ok = detail::makeWideSegment(blob, p0, p1, grow, got);
        ++cases;
        made += want_ok;
        bool same = want_ok == got_ok;
        if (same && want_ok) {
            same = std::memcmp(want.inv, got.inv, sizeof(want.inv)) == 0 &&
                   std::memcmp(want.near, got.near, sizeof(want.near)) == 0 &&
                   std::memcmp(want.far, got.far, sizeof(want.far)) == 0 && want.t_max == 1.0f &&
                   got.t_max == 1.0f;
            for (int k = 0; k < 3; ++k) {
                same = same && want.near_byte[k] == got.near_byte[k] && want.far_byte[k] == got.far_byte[k];
                const bool down = want.inv[k] < 0.0f;
                const std::uint32_t lo =
                    static_cast<std::uint32_t>(offsetof(WideNode, lo)) + 8u * static_cast<std::uint32_t>(k);
                const std::uint32_t hi =
                    static_cast<std::uint32_t>(offsetof(WideNode, hi)) + 8u * static_cast<std::uint32_t>(k);
                same = same && detail::runsDown(got, k) == down && got.near_byte[k] == (down ? hi : lo) &&
                       got.far_byte[k] == (down ? lo : hi);
#if defined(FLAK_SIMD_SSE2)
                const __m128i mask = _mm_set1_epi16(static_cast<short>(down ? -1 : 0));
                same = same && _mm_movemask_epi8(_mm_cmpeq_epi8(got.near_high[k], mask)) == 0xFFFF &&
                       _mm_movemask_epi8(_mm_cmpeq_epi8(want.near_high[k], mask)) == 0xFFFF;
#endif
            }
        }
        if (!same && ++differ <= 5) ADD_FAILURE() << "case " << i << ": the set-ups differ";
    }
    std::printf("  wide segment set-up (%s): %ld cases, %ld with a grid form, %ld different\n",
                simdBackendName(), cases, made, differ);
    EXPECT_EQ(differ, 0);
    EXPECT_GT(made, cases / 4);
    EXPECT_LT(made, cases - cases / 10);
}

// loadTriangleQuad (each vertex read as one vector, the corners transposed into lanes) against
// the blob's triangles one by one (triangleVertices): the same bits in every lane, for every
// first triangle and count of 1..4 (the lanes past the count repeat the first), on every query
// mesh, quantized vertices included.
TEST(TriangleQuad, LanesHoldTheBlobsTriangles) {
    long quads = 0, differ = 0;
    for (const auto& mp : queryMeshes()) {
        const MeshBlob& blob = mp->blob;
        for (std::uint32_t first = 0; first < blob.triangle_count; ++first) {
            const std::uint32_t most = std::min<std::uint32_t>(4u, blob.triangle_count - first);
            for (std::uint32_t n = 1; n <= most; ++n) {
                TriangleLanes lanes;
                detail::loadTriangleQuad(blob, first, n, lanes);
                bool same = true;
                for (std::uint32_t l = 0; l < 4; ++l) {
                    Vec3 want[3], got[3];
                    triangleVertices(blob, l < n ? first + l : first, want[0], want[1], want[2]);
                    detail::laneTriangle(lanes, l, got[0], got[1], got[2]);
                    same = same && std::memcmp(want, got, sizeof(want)) == 0;
                }
                ++quads;
                if (!same && ++differ <= 5)
                    ADD_FAILURE() << mp->name << ": triangles " << first << " + " << n << " differ";
            }
        }
    }
    std::printf("  triangle quads (%s): %ld loaded, %ld different\n", simdBackendName(), quads, differ);
    EXPECT_EQ(differ, 0);
    EXPECT_GT(quads, 10000);
}

// WideBall::set (in lanes where the grid allows) against setScalar (quantizeCube, makeWideBox,
// makeNodeDecoder): the same bits in every field.
bool sameBall(const detail::WideBall& want, const detail::WideBall& got) {
    bool same = want.cube.outside == got.cube.outside;
    for (int k = 0; k < 3; ++k) {
        same = same && want.cube.lo[k] == got.cube.lo[k] && want.cube.hi[k] == got.cube.hi[k];
#if defined(FLAK_SIMD_SSE2)
        const auto lanes_equal = [](__m128i a, __m128i b) {
            return _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) == 0xFFFF;
        };
        const auto floats_equal = [&](__m128 a, __m128 b) {
            return lanes_equal(_mm_castps_si128(a), _mm_castps_si128(b));
        };
        same = same && lanes_equal(want.cube.lo_lanes[k], got.cube.lo_lanes[k]) &&
               lanes_equal(want.cube.hi_lanes[k], got.cube.hi_lanes[k]) &&
               floats_equal(want.centre_lanes[k], got.centre_lanes[k]) &&
               floats_equal(want.lo_origin[k], got.lo_origin[k]) &&
               floats_equal(want.hi_origin[k], got.hi_origin[k]) &&
               floats_equal(want.scale[k], got.scale[k]) &&
               floats_equal(want.radius_sq_lanes, got.radius_sq_lanes);
#endif
    }
    return same && std::memcmp(&want.centre, &got.centre, sizeof(Vec3)) == 0 &&
           std::memcmp(&want.decoder, &got.decoder, sizeof(detail::NodeDecoder)) == 0 &&
           std::memcmp(&want.radius_sq, &got.radius_sq, sizeof(float)) == 0;
}

// quantizeCube (the sphere queries' box, one SSE division and branch-free clamps) against
// quantizeBox of the same cube: the same QuantBox; and the sphere walks' whole ball set-up in lanes
// against its scalar composition (sameBall); on grids with flat, tiny and huge steps and cubes
// inside, across and beyond both ends of the grid, empty, infinite or NaN.
TEST(QuantizeCube, SimdFormGivesQuantizeBoxsQuantBox) {
    long cases = 0, clamped = 0, differ = 0, outside = 0, balls_differ = 0;
    for (long i = 0; i < 200000; ++i) {
        SplitMix64 rng = caseRng(0x6121D5E8ull, static_cast<std::uint64_t>(i) + 1);
        MeshBlob blob;
        for (int k = 0; k < 3; ++k) {
            blob.quant_scale[k] = pick(rng, rng.rangef(1e-4, 1.0));
            blob.quant_origin[k] = rng.rangef(-100.0, 100.0);
        }
        Vec3 c;
        for (int k = 0; k < 3; ++k) c[k] = pick(rng, rng.rangef(-20000.0, 20000.0));
        const float r = pick(rng, rng.rangef(0.0, 5000.0));
        detail::QuantBox want, got;
        Aabb box;
        set(c.x - r, c.y - r, c.z - r, box.min);
        set(c.x + r, c.y + r, c.z + r, box.max);
        detail::quantizeBox(blob, box, want);
        detail::quantizeCube(blob, c, r, got);
        ++cases;
        clamped += want.lo[0] == -4 || want.hi[0] == 70002;
        if (std::memcmp(&want, &got, sizeof(want)) != 0 && ++differ <= 5)
            ADD_FAILURE() << "case " << i << ": the QuantBoxes differ";
        const float grow = rng.next() % 2u == 0u ? 0.0f : rng.rangef(0.0, 1.0);
        detail::WideBall ball_want, ball_got;
        ball_want.setScalar(blob, c, r, grow);
        ball_got.set(blob, c, r, grow);
        outside += ball_want.cube.outside ? 1 : 0;
        if (!sameBall(ball_want, ball_got) && ++balls_differ <= 5)
            ADD_FAILURE() << "case " << i << ": the ball set-ups differ";
    }
    // The clamps' edges: on a grid of unit steps, cubes whose lower or upper grid bound is within
    // a few cells of the ends, in quarter steps, on one axis at a time.
    MeshBlob unit;
    unit.quant_origin = Vec3{0.0f, 0.0f, 0.0f};
    unit.quant_scale = Vec3{1.0f, 1.0f, 1.0f};
    long edges = 0;
    for (int k = 0; k < 3; ++k) {
        for (const float edge : {-2.0f, 0.0f, 2.0f, 65533.0f, 65535.0f, 65537.0f, 65538.0f, 70000.0f}) {
            for (int quarter = -12; quarter <= 12; ++quarter) {
                const float at = edge + 0.25f * static_cast<float>(quarter);
                for (const bool upper : {false, true}) {
                    Vec3 c{100.0f, 100.0f, 100.0f};
                    c[k] = upper ? at - 3.0f : at + 3.0f; // the cube's bound on axis k at `at`
                    detail::WideBall ball_want, ball_got;
                    ball_want.setScalar(unit, c, 3.0f, 0.0f);
                    ball_got.set(unit, c, 3.0f, 0.0f);
                    ++edges;
                    if (!sameBall(ball_want, ball_got) && ++balls_differ <= 5)
                        ADD_FAILURE() << "axis " << k << (upper ? " upper" : " lower") << " bound at " << at
                                      << ": the ball set-ups differ";
                }
            }
        }
    }
    std::printf("  quantized sphere cube (%s): %ld cases and %ld at the clamps' edges, %ld clamped at a grid "
                "end, %ld "
                "outside the grid, %ld "
                "different, %ld balls different\n",
                simdBackendName(), cases, edges, clamped, outside, differ, balls_differ);
    EXPECT_EQ(differ, 0);
    EXPECT_EQ(balls_differ, 0);
    EXPECT_GT(clamped, cases / 10);
    EXPECT_GT(outside, cases / 20);
}

TEST(NodeToGrid, SimdChainGivesTheScalarChainsQuantBox) {
    long cases = 0, differ = 0, clamped = 0, inside = 0;
    for (long i = 0; i < 200000; ++i) {
        SplitMix64 rng = caseRng(0x70D3612Dull, static_cast<std::uint64_t>(i) + 1);
        MeshBlob from, to;
        for (int k = 0; k < 3; ++k) {
            from.quant_origin[k] = rng.rangef(-100.0, 100.0);
            from.quant_scale[k] = rng.rangef(1e-4, 1e-2);
            to.quant_origin[k] = rng.rangef(-100.0, 100.0);
            to.quant_scale[k] = rng.rangef(1e-4, 1e-2);
        }
        Quat q{rng.rangef(-1.0, 1.0), rng.rangef(-1.0, 1.0), rng.rangef(-1.0, 1.0), rng.rangef(-1.0, 1.0)};
        normalize(q, q);
        // Translations up to a few grid spans: boxes that fall off either end of A's grid clamp.
        const Vec3 t{rng.rangef(-300.0, 300.0), rng.rangef(-300.0, 300.0), rng.rangef(-300.0, 300.0)};
        Transform b_to_a;
        fromQuatTranslation(q, t, b_to_a);
        detail::QuantGrid grid;
        detail::makeQuantGrid(to, grid);
        const float margin = rng.next() % 2u == 0u ? 0.0f : rng.rangef(0.0, 0.5);
        detail::NodeToGrid map;
        detail::makeNodeToGrid(from, b_to_a, grid, margin, map);
        const BvhNode n = randomNode(rng, 65536u);
        detail::QuantBox want, got;
        detail::nodeToGridScalar(map, n, want);
        detail::nodeToGrid(map, n, got);
        ++cases;
        bool same = true;
        for (int k = 0; k < 3; ++k) {
            same = same && want.lo[k] == got.lo[k] && want.hi[k] == got.hi[k];
            clamped += want.lo[k] == -4 || want.hi[k] == 70002;
            inside += want.lo[k] > -4 && want.hi[k] < 70002;
        }
        if (!same && ++differ <= 5) ADD_FAILURE() << "case " << i << ": the quantized boxes differ";
    }
    std::printf("  node to grid (%s): %ld cases, %ld axes inside the grid, %ld clamped, %ld boxes differ\n",
                simdBackendName(), cases, inside, clamped, differ);
    EXPECT_EQ(differ, 0);
    EXPECT_GT(clamped, cases / 2);
    EXPECT_GT(inside, cases / 2);
}

// The leaves of every group (every wide node whose leaves fit the group table) of every query
// mesh, tested in lanes against random boxes in the mesh's grid, are exactly the leaves the walk
// of the node's subtree with wideOverlaps reaches, in the same order. Boxes: empty, clamped past
// the grid's ends, a single cell, or random spans around the group's box.
TEST(GroupLeaves, LaneTestReachesTheLeavesOfTheWalkInOrder) {
    long groups = 0, boxes = 0, partial = 0, differ = 0;
    for (const auto& m : queryMeshes()) {
        const MeshBlob& a = m->blob;
        for (std::uint32_t i = 0; i < a.wide_node_count; ++i) {
            detail::GroupLeaves leaves;
            leaves.count = 0;
            const bool too_many = detail::walkWideLeafSlots(
                a, i, [](const WideNode& g) { return detail::wideSlots(g); },
                [&](const WideNode& parent, std::uint32_t slot) {
                    if (leaves.count == detail::GroupLeaves::kCapacity) return true;
                    detail::fileGroupLeaf(parent, slot, leaves);
                    return false;
                });
            if (too_many) continue;
            detail::closeGroupLeaves(leaves);
            ++groups;
            const BvhNode group = detail::wideUnionNode(a.wide_nodes[i]);
            SplitMix64 rng = caseRng(0x6E0B1EAFull, static_cast<std::uint64_t>(groups));
            for (int q = 0; q < 40; ++q) {
                detail::QuantBox box;
                for (int k = 0; k < 3; ++k) {
                    // Around the group's box, so most boxes take some of its leaves and leave others.
                    const std::int32_t lo = group.lo[k];
                    const auto span = static_cast<std::uint32_t>(group.hi[k] - lo + 1);
                    const std::int32_t x = lo - 2 + static_cast<std::int32_t>(rng.next() % (span + 4u));
                    const std::int32_t y = lo - 2 + static_cast<std::int32_t>(rng.next() % (span + 4u));
                    switch (rng.next() % 5u) {
                    case 0: box.lo[k] = 1, box.hi[k] = 0; break;      // empty
                    case 1: box.lo[k] = -4, box.hi[k] = 70002; break; // clamped at both ends
                    case 2: box.lo[k] = x, box.hi[k] = x; break;      // one cell
                    default: box.lo[k] = x < y ? x : y, box.hi[k] = x < y ? y : x; break;
                    }
                }
                detail::WideBox wide;
                detail::makeWideBox(box, wide);
                std::vector<std::uint32_t> want, got;
                detail::walkWideLeafSlots(
                    a, i, [&](const WideNode& g) { return detail::wideOverlaps(g, wide); },
                    [&](const WideNode& parent, std::uint32_t slot) {
                        want.push_back(parent.child[slot]);
                        return false;
                    });
                for (std::uint64_t hits = detail::overlappingLeaves(leaves, box); hits != 0u;
                     hits &= hits - 1u)
                    got.push_back(leaves.ref[__builtin_ctzll(hits)]);
                ++boxes;
                partial += !want.empty() && want.size() < leaves.count;
                if (want != got && ++differ <= 5)
                    ADD_FAILURE() << m->name << " group at node " << i << ": " << got.size()
                                  << " leaves, want " << want.size();
            }
        }
    }
    std::printf("  group leaves (%s): %ld groups, %ld boxes, %ld reach some leaves but not all, %ld differ\n",
                simdBackendName(), groups, boxes, partial, differ);
    EXPECT_EQ(differ, 0);
    EXPECT_GT(partial, boxes / 10);
}

} // namespace
} // namespace flak::test
