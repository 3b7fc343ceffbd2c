// Oracle tests of mesh vs mesh: the dual walk's triangle pairs, its any-contact answer and its
// contact summary must equal the brute-force ones of triTriOverlap(A triangle, B triangle mapped
// into A's frame) over all pairs, on random poses (the benchmark's pose distribution), coincident
// and a-hair-apart poses, one mesh inside another, face-to-face contact, far-apart poses, and
// non-finite transforms.
#include "query_meshes.h"
#include "support/case_count.h"

#include <flak/bvh/mesh_mesh.h>

#include "bvh/contact_summary.h"
#include <flak/geom/tri_tri.h>
#include <flak/geom/triangle_normal.h>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace flak {
// Test-only ordering of pairs (found by argument-dependent lookup from the std algorithms).
static bool operator<(const TrianglePair& x, const TrianglePair& y) {
    return x.a != y.a ? x.a < y.a : x.b < y.b;
}
static bool operator==(const TrianglePair& x, const TrianglePair& y) { return x.a == y.a && x.b == y.b; }
} // namespace flak

namespace flak::test {
namespace {

// Brute force over all pairs; a pair is skipped only when the exact triangle boxes are apart by
// more than 1% of the scale (hundreds of tolerance bands), which no kernel decision can bridge.
void brutePairs(const BakedMesh& a, const BakedMesh& b, const Transform& b_to_a,
                std::vector<TrianglePair>& out) {
    out.clear();
    std::vector<std::array<Vec3, 3>> tb(b.tris.size());
    std::vector<Aabb> boxes(b.tris.size());
    float scale = 0.0f;
    for (std::size_t t = 0; t < b.tris.size(); ++t) {
        for (std::size_t k = 0; k < 3; ++k) transformPoint(b_to_a, b.tris[t][k], tb[t][k]);
        fromPoints(tb[t].data(), 3, boxes[t]);
        for (int k = 0; k < 3; ++k)
            scale = std::max(scale, std::max(std::fabs(boxes[t].min[k]), std::fabs(boxes[t].max[k])));
    }
    const float grow = 0.01f * (scale + a.diag);
    for (std::uint32_t i = 0; i < a.tris.size(); ++i) {
        Aabb ga;
        inflate(a.boxes[i], grow, ga);
        for (std::uint32_t j = 0; j < tb.size(); ++j) {
            if (!overlaps(ga, boxes[j])) continue;
            if (triTriOverlap(a.tris[i][0], a.tris[i][1], a.tris[i][2], tb[j][0], tb[j][1], tb[j][2]))
                out.push_back(TrianglePair{i, j});
        }
    }
}

// The pose of docs/bench_scenes.md (d): B rotated about A's box centre and shifted by up to 1.35 extents.
void benchPose(const BakedMesh& m, SplitMix64& rng, Transform& out) {
    Transform rot;
    randomTransform(rng, 0.0f, rot);
    Vec3 ext, t, rc;
    sub(m.bounds.max, m.bounds.min, ext);
    for (int k = 0; k < 3; ++k) t[k] = static_cast<float>((2.0 * rng.u() - 1.0) * 1.35 * ext[k]);
    mul(rot.rotation, m.center, rc);
    out.rotation = rot.rotation;
    sub(m.center, rc, out.translation);
    add(out.translation, t, out.translation);
}

// The summary recomputed from the brute-force pairs, sorted by (a, b): the midpoint of each pair's
// intersection segment and both unit normals, summed in double. The walk sums the same terms in
// its own order; double sums of at most a few thousand terms differ by far less than one float
// ulp of the result, so the comparison allows 1e-5 of the scale (about 80 ulps).
void bruteSummary(const BakedMesh& a, const BakedMesh& b, const Transform& b_to_a,
                  const std::vector<TrianglePair>& pairs, MeshContactSummary& out) {
    double point[3] = {0, 0, 0}, na[3] = {0, 0, 0}, nb[3] = {0, 0, 0};
    std::uint32_t points = 0;
    for (const TrianglePair& p : pairs) {
        Vec3 vb[3];
        for (std::size_t k = 0; k < 3; ++k) transformPoint(b_to_a, b.tris[p.b][k], vb[k]);
        const auto& va = a.tris[p.a];
        Vec3 s, e, n;
        bool coplanar = false;
        if (triTriIntersection(va[0], va[1], va[2], vb[0], vb[1], vb[2], s, e, coplanar)) {
            for (int c = 0; c < 3; ++c) point[c] += 0.5 * (double(s[c]) + double(e[c]));
            ++points;
        }
        if (computeTriangleNormal(va[0], va[1], va[2], n))
            for (int c = 0; c < 3; ++c) na[c] += double(n[c]);
        if (computeTriangleNormal(vb[0], vb[1], vb[2], n))
            for (int c = 0; c < 3; ++c) nb[c] += double(n[c]);
    }
    out = MeshContactSummary{};
    out.pair_count = static_cast<std::uint32_t>(pairs.size());
    for (int c = 0; c < 3 && points > 0; ++c) out.point[c] = static_cast<float>(point[c] / points);
    const auto unit = [](const double v[3], Vec3& n) {
        const double l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        for (int c = 0; c < 3; ++c) n[c] = l > 0.0 ? static_cast<float>(v[c] / l) : 0.0f;
    };
    unit(na, out.normal_a);
    unit(nb, out.normal_b);
}

bool near(const Vec3& x, const Vec3& y, float tol) {
    return std::fabs(x.x - y.x) <= tol && std::fabs(x.y - y.y) <= tol && std::fabs(x.z - y.z) <= tol;
}

// The walk's summary against bruteSummary of the brute-force pairs: the same pair count, the point
// within 1e-5 of the scale (A's diagonal plus B's offset), the normals within 1e-5.
::testing::AssertionResult summaryMatches(const MeshContactSummary& got, const BakedMesh& a,
                                          const BakedMesh& b, const Transform& b_to_a,
                                          const std::vector<TrianglePair>& pairs) {
    MeshContactSummary want;
    bruteSummary(a, b, b_to_a, pairs, want);
    const Vec3& t = b_to_a.translation;
    const float tol = 1e-5f * (a.diag + std::fabs(t.x) + std::fabs(t.y) + std::fabs(t.z));
    if (got.pair_count != want.pair_count) return ::testing::AssertionFailure() << "pair count differs";
    if (!near(got.point, want.point, tol)) return ::testing::AssertionFailure() << "point differs";
    if (!near(got.normal_a, want.normal_a, 1e-5f)) return ::testing::AssertionFailure() << "normal_a differs";
    if (!near(got.normal_b, want.normal_b, 1e-5f)) return ::testing::AssertionFailure() << "normal_b differs";
    return ::testing::AssertionSuccess();
}

struct Case {
    const BakedMesh* a;
    const BakedMesh* b;
};

// The query test mesh of that name (queryMeshes), or null (a real mesh not installed).
const BakedMesh* namedMesh(const std::string& name) {
    for (const auto& m : queryMeshes())
        if (m->name == name) return m.get();
    return nullptr;
}

TEST(MeshMesh, PairsMatchBruteForce) {
    const auto& meshes = queryMeshes();
    std::vector<std::unique_ptr<BakedMesh>> own;
    own.push_back(bakeMesh("icosphere2", icosphere(2, 2.0f), true));
    own.push_back(bakeMesh("torus-small", torus(20, 10), true, false, 16));
    std::vector<Case> cases = {{own[0].get(), own[1].get()},
                               {own[1].get(), own[1].get()},
                               {meshes[0].get(), meshes[2].get()},
                               {meshes[3].get(), own[0].get()}};
    cases.push_back({meshes[4].get(), own[1].get()}); // the flat floor
    for (const char* real : {"wuson", "spider"})      // each against itself, when installed
        if (const BakedMesh* m = namedMesh(real)) cases.push_back({m, m});
    // Quantized vertices, as mesh A and as mesh B (whose leaves are decoded four triangles at a time).
    cases.push_back({namedMesh("icosphere3-quantized"), own[0].get()});
    cases.push_back({own[1].get(), namedMesh("terrain-quantized")});
    // Leaves of 4 triangles as A: 512 triangles may then lie in more leaves than a group holds.
    cases.push_back({namedMesh("torus"), own[0].get()});
    long poses = 0, contact_poses = 0, pairs = 0, overflowed = 0;
    std::vector<TrianglePair> brute, buf(400000);
    for (const Case& c : cases) {
        const std::uint64_t seed = 0x5EED0501u ^ std::hash<std::string>{}(c.a->name + c.b->name);
        SplitMix64 rng(seed);
        const int count = caseCount(c.a->tris.size() * c.b->tris.size() > 4000000 ? 120 : 400);
        for (int i = 0; i < count; ++i) {
            Transform b_to_a;
            benchPose(*c.a, rng, b_to_a);
            if (i % 10 == 0) setIdentity(b_to_a); // coincident or overlapping: coplanar pairs galore
            if (i % 10 == 1) {                    // a hair apart along x
                setIdentity(b_to_a);
                b_to_a.translation.x = c.a->diag * 1e-6f;
            }
            brutePairs(*c.a, *c.b, b_to_a, brute);
            OutBuffer<TrianglePair> out{buf.data(), static_cast<std::uint32_t>(buf.size()), 0, 0};
            if (i % 7 == 3) out.capacity = static_cast<std::uint32_t>(rng.next() % 16);
            const Status st = meshMeshPairs(c.a->blob, c.b->blob, b_to_a, out);
            ASSERT_EQ(out.count + out.dropped, brute.size())
                << c.a->name << "/" << c.b->name << " seed " << seed << " pose " << i;
            ASSERT_EQ(st, brute.size() > out.capacity ? Status::BufferFull : Status::Ok);
            std::vector<TrianglePair> got(buf.begin(), buf.begin() + out.count);
            std::sort(got.begin(), got.end());
            if (out.dropped == 0) {
                ASSERT_TRUE(got == brute)
                    << c.a->name << "/" << c.b->name << " seed " << seed << " pose " << i;
            } else {
                for (const TrianglePair& p : got)
                    ASSERT_TRUE(std::binary_search(brute.begin(), brute.end(), p));
                ASSERT_TRUE(std::adjacent_find(got.begin(), got.end()) == got.end());
            }
            ASSERT_EQ(meshMeshAnyContact(c.a->blob, c.b->blob, b_to_a), !brute.empty())
                << c.a->name << "/" << c.b->name << " seed " << seed << " pose " << i;
            MeshContactSummary sum;
            ASSERT_EQ(meshMeshSummary(c.a->blob, c.b->blob, b_to_a, sum), !brute.empty());
            ASSERT_EQ(sum.pair_count, brute.size());
            if (!brute.empty()) {
                // Unit, or zero where the normals cancel (a closed mesh against its coincident copy).
                for (const Vec3* n : {&sum.normal_a, &sum.normal_b}) {
                    const float l = length(*n);
                    EXPECT_TRUE(l == 0.0f || std::fabs(l - 1.0f) < 1e-4f) << l;
                }
                Aabb grown;
                inflate(c.a->bounds, c.a->diag * 1e-3f, grown);
                EXPECT_TRUE(contains(grown, sum.point)); // the averaged point lies on A's parts
                ASSERT_TRUE(summaryMatches(sum, *c.a, *c.b, b_to_a, brute))
                    << c.a->name << "/" << c.b->name << " pose " << i;
            }
            ++poses;
            contact_poses += !brute.empty();
            pairs += static_cast<long>(brute.size());
            overflowed += out.dropped > 0;
        }
    }
    std::printf("[mesh-mesh] %ld poses over %zu mesh pairs, %ld in contact, %ld intersecting triangle pairs, "
                "%ld overflowed buffers, 0 disagreements (pairs, any contact, summary values)\n",
                poses, cases.size(), contact_poses, pairs, overflowed);
}

// The placements the random poses rarely make, each against brute force (pairs, any contact and
// the summary's values): B wholly inside a closed A with no surface contact; B resting face to
// face on A (a floor flipped onto itself, exactly coplanar, opposite normals, shifted by a
// fraction of a cell); B far away, and very far (1e6 diagonals); and A's own copy rotated
// about its centre (surfaces crossing everywhere).
TEST(MeshMesh, AdversarialPlacementsMatchBruteForce) {
    auto big = bakeMesh("icosphere-r2", icosphere(3, 2.0f), true);
    auto small = bakeMesh("icosphere-r05", icosphere(2, 0.5f), true);
    const BakedMesh& floor = *namedMesh("floor"); // z = 2, cells of 0.75
    std::vector<TrianglePair> brute, buf(200000);
    long poses = 0, contact = 0, summaries = 0;
    SplitMix64 rng(0x5EED0502u);
    const auto check = [&](const BakedMesh& a, const BakedMesh& b, const Transform& b_to_a, const char* what,
                           int expect_contact) {
        brutePairs(a, b, b_to_a, brute);
        if (expect_contact >= 0) {
            ASSERT_EQ(!brute.empty(), expect_contact == 1) << what;
        }
        OutBuffer<TrianglePair> out{buf.data(), static_cast<std::uint32_t>(buf.size()), 0, 0};
        ASSERT_EQ(meshMeshPairs(a.blob, b.blob, b_to_a, out), Status::Ok) << what;
        std::vector<TrianglePair> got(buf.begin(), buf.begin() + out.count);
        std::sort(got.begin(), got.end());
        ASSERT_TRUE(got == brute) << what << " pose " << poses;
        ASSERT_EQ(meshMeshAnyContact(a.blob, b.blob, b_to_a), !brute.empty()) << what;
        MeshContactSummary sum;
        ASSERT_EQ(meshMeshSummary(a.blob, b.blob, b_to_a, sum), !brute.empty()) << what;
        if (!brute.empty()) {
            ASSERT_TRUE(summaryMatches(sum, a, b, b_to_a, brute)) << what << " pose " << poses;
            ++summaries;
        }
        ++poses;
        contact += !brute.empty();
    };
    for (int i = 0; i < caseCount(60); ++i) {
        Transform xf;
        // Inside: the small sphere (radius 0.5) within 1.2 of the big one's centre, whose faces
        // are all more than 1.9 from it.
        randomTransform(rng, 0.0f, xf);
        Vec3 dir;
        randomUnit(rng, dir);
        scale(dir, static_cast<float>(1.2 * rng.u()), xf.translation);
        check(*big, *small, xf, "small inside big", 0);
        check(*small, *big, xf, "big around small", -1); // B around A: the inverse placement
        // Face to face: the floor turned over about x (z -> 4 - z keeps z = 2 exactly), shifted
        // by a fraction of a cell in x and y.
        setIdentity(xf);
        xf.rotation.c1 = Vec3{0.0f, -1.0f, 0.0f};
        xf.rotation.c2 = Vec3{0.0f, 0.0f, -1.0f};
        xf.translation =
            Vec3{0.75f * static_cast<float>(rng.u()), 12.0f + 0.75f * static_cast<float>(rng.u()), 4.0f};
        check(floor, floor, xf, "floor face to face", 1);
        // Far, and very far, in a random direction with a random rotation.
        randomTransform(rng, 0.0f, xf);
        randomUnit(rng, dir);
        scale(dir, big->diag * (i % 2 == 0 ? 3.0f : 1e6f), xf.translation);
        check(*big, *big, xf, "far apart", 0);
        // The same mesh rotated about its centre: the surfaces cross along many curves.
        randomTransform(rng, 0.0f, xf);
        check(*big, *big, xf, "rotated copy", -1);
    }
    std::printf("[mesh-mesh adversarial] %ld poses (inside, around, face to face, far, rotated copy), %ld in "
                "contact, %ld summaries equal to brute force\n",
                poses, contact, summaries);
}

// Two unit-ish icospheres, B shifted by +x: A's contact normals point along +x, B's along -x.
// Then B carried by a mirroring transform: the icosphere is its own mirror image, so mirroring B
// changes only the winding of its carried triangles, and the summary must not change with it
// (B's normal came out reversed, pointing from A towards B), for each mirrored axis.
TEST(MeshMesh, SummaryOfASimpleOverlapMirroredOrNot) {
    auto s = bakeMesh("ico", icosphere(3, 1.0f), true);
    Transform b_to_a;
    setIdentity(b_to_a);
    b_to_a.translation.x = 1.5f;
    MeshContactSummary plain;
    ASSERT_TRUE(meshMeshSummary(s->blob, s->blob, b_to_a, plain));
    EXPECT_GT(plain.normal_a.x, 0.95f);
    EXPECT_LT(plain.normal_b.x, -0.95f);
    EXPECT_NEAR(plain.point.x, 0.75f, 0.02f);
    EXPECT_NEAR(plain.point.y, 0.0f, 0.02f);
    EXPECT_NEAR(plain.point.z, 0.0f, 0.02f);
    for (int axis = 0; axis < 3; ++axis) {
        SCOPED_TRACE(axis);
        Transform mirrored = b_to_a;
        Vec3* column[3] = {&mirrored.rotation.c0, &mirrored.rotation.c1, &mirrored.rotation.c2};
        negate(*column[axis], *column[axis]);
        ASSERT_LT(determinant(mirrored.rotation), 0.0f);
        MeshContactSummary sum;
        ASSERT_TRUE(meshMeshSummary(s->blob, s->blob, mirrored, sum));
        EXPECT_EQ(sum.pair_count, plain.pair_count);
        EXPECT_NEAR(sum.normal_b.x, plain.normal_b.x, 1e-5f);
        EXPECT_NEAR(sum.normal_b.y, plain.normal_b.y, 1e-5f);
        EXPECT_NEAR(sum.normal_b.z, plain.normal_b.z, 1e-5f);
        EXPECT_NEAR(sum.normal_a.x, plain.normal_a.x, 1e-5f);
        EXPECT_NEAR(sum.point.x, plain.point.x, 1e-5f);
    }
}

// The summary's sums past what 64 bits hold (2^31 pairs with one normal: the sum wrapped and the
// normal came out reversed) and its pair count past 32 bits (it wrapped to 0 and the summary said
// no contact): the pairs beyond are counted, not summed, and the count saturates. Driven through
// the sums directly: a mesh pair with 2^31 intersecting pairs takes minutes.
TEST(MeshMesh, SummarySumsSaturateInsteadOfWrapping) {
    Aabb box;
    setEmpty(box);
    expand(Vec3{-1, -1, -1}, box);
    expand(Vec3{1, 1, 1}, box);
    const Vec3 a[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    const Vec3 b[3] = {{0.2f, 0.2f, -1}, {0.3f, 0.2f, 1}, {0.2f, 0.3f, 1}};
    Transform identity;
    setIdentity(identity);
    detail::SummarySums sums(box, identity);
    sums.add(a, b, false);
    MeshContactSummary one;
    ASSERT_TRUE(sums.finish(one));
    // As if 2^31 - 1 pairs, each with A's normal (0, 0, 1), had been summed already.
    sums.pairs = detail::kSummaryMaxTerms;
    sums.na[2] = static_cast<std::uint64_t>(detail::kSummaryMaxTerms) << 32;
    sums.add(a, b, false);
    MeshContactSummary many;
    ASSERT_TRUE(sums.finish(many));
    EXPECT_EQ(many.normal_a.z, 1.0f); // it came out -1
    // A pair count past 32 bits: saturated, and still a contact.
    sums.pairs = 0xFFFFFFFFull;
    sums.add(a, b, false);
    MeshContactSummary past;
    ASSERT_TRUE(sums.finish(past));
    EXPECT_EQ(past.pair_count, 0xFFFFFFFFu);
}

TEST(MeshMesh, NonFiniteTransformAndEmptyMeshGiveNoContact) {
    const BakedMesh& m = *queryMeshes()[0];
    Transform bad;
    setIdentity(bad);
    bad.translation.y = std::numeric_limits<float>::quiet_NaN();
    TrianglePair item;
    OutBuffer<TrianglePair> out{&item, 1, 0, 0};
    EXPECT_FALSE(meshMeshAnyContact(m.blob, m.blob, bad));
    EXPECT_EQ(meshMeshPairs(m.blob, m.blob, bad, out), Status::Ok);
    EXPECT_EQ(out.count + out.dropped, 0u);
    bad.translation.y = std::numeric_limits<float>::infinity();
    MeshContactSummary sum;
    EXPECT_FALSE(meshMeshSummary(m.blob, m.blob, bad, sum));
    EXPECT_EQ(sum.pair_count, 0u);
    MeshBlob empty;
    setIdentity(bad);
    EXPECT_FALSE(meshMeshAnyContact(m.blob, empty, bad));
    EXPECT_FALSE(meshMeshAnyContact(empty, m.blob, bad));
}

// A rotation that is not orthonormal (a scale) is refused like a non-finite one: the walk inverts
// the transform by transposing, and answered wrong pairs (0 of the 42 a brute force finds for a
// quarter scale). A rotation within kRigidTolerance is used.
TEST(MeshMesh, NonRigidTransformGivesNoContact) {
    auto s = bakeMesh("ico", icosphere(2, 1.0f), true);
    for (const float k : {0.25f, 0.5f, 2.0f}) {
        Transform scaled_b;
        setIdentity(scaled_b);
        scaled_b.rotation.c0.x = scaled_b.rotation.c1.y = scaled_b.rotation.c2.z = k;
        scaled_b.translation.x = 1.125f;
        EXPECT_FALSE(isRigid(scaled_b));
        TrianglePair items[64];
        OutBuffer<TrianglePair> out{items, 64, 0, 0};
        EXPECT_EQ(meshMeshPairs(s->blob, s->blob, scaled_b, out), Status::Ok);
        EXPECT_EQ(out.count + out.dropped, 0u) << k;
        EXPECT_FALSE(meshMeshAnyContact(s->blob, s->blob, scaled_b)) << k;
        MeshContactSummary sum;
        EXPECT_FALSE(meshMeshSummary(s->blob, s->blob, scaled_b, sum)) << k;
    }
    Transform nearly;
    setIdentity(nearly);
    nearly.rotation.c0.x = 1.0f + 2e-5f; // within the tolerance
    nearly.translation.x = 1.5f;
    EXPECT_TRUE(isRigid(nearly));
    EXPECT_TRUE(meshMeshAnyContact(s->blob, s->blob, nearly));
}

} // namespace
} // namespace flak::test
