// Oracle tests of mesh vs mesh: the dual walk's triangle pairs must equal the brute-force pairs of
// triTriOverlap(A triangle, B triangle mapped into A's frame) over all pairs, on random poses (the
// benchmark's pose distribution), touching and coincident poses, and non-finite transforms.
#include "query_meshes.h"
#include "support/case_count.h"

#include <flak/bvh/mesh_mesh.h>
#include <flak/geom/tri_tri.h>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace flak {
// Test-only ordering of pairs (found by argument-dependent lookup from the std algorithms).
static bool operator<(const TrianglePair& x, const TrianglePair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }
static bool operator==(const TrianglePair& x, const TrianglePair& y) { return x.a == y.a && x.b == y.b; }
} // namespace flak

namespace flak::test {
namespace {

// Brute force over all pairs; a pair is skipped only when the exact triangle boxes are apart by
// more than 1% of the scale (hundreds of tolerance bands), which no kernel decision can bridge.
void brutePairs(const BakedMesh& a, const BakedMesh& b, const Transform& b_to_a, std::vector<TrianglePair>& out) {
    out.clear();
    std::vector<std::array<Vec3, 3>> tb(b.tris.size());
    std::vector<Aabb> boxes(b.tris.size());
    float scale = 0.0f;
    for (std::size_t t = 0; t < b.tris.size(); ++t) {
        for (int k = 0; k < 3; ++k) transformPoint(b_to_a, b.tris[t][k], tb[t][k]);
        fromPoints(tb[t].data(), 3, boxes[t]);
        for (int k = 0; k < 3; ++k) scale = std::max(scale, std::max(std::fabs(boxes[t].min[k]), std::fabs(boxes[t].max[k])));
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

// The pose of BENCH_SCENES (d): B rotated about A's box centre and shifted by up to 1.35 extents.
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

struct Case {
    const BakedMesh* a;
    const BakedMesh* b;
};

TEST(MeshMesh, PairsMatchBruteForce) {
    const auto& meshes = queryMeshes();
    std::vector<std::unique_ptr<BakedMesh>> own;
    own.push_back(bakeMesh("icosphere2", icosphere(2, 2.0f), true));
    own.push_back(bakeMesh("torus-small", torus(20, 10), true, false, 16));
    std::vector<Case> cases = {{own[0].get(), own[1].get()}, {own[1].get(), own[1].get()},
                               {meshes[0].get(), meshes[2].get()}, {meshes[3].get(), own[0].get()}};
    cases.push_back({meshes[4].get(), own[1].get()}); // the flat floor
    if (meshes.size() > 5) cases.push_back({meshes[5].get(), meshes[5].get()}); // wuson vs wuson
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
            PairBuffer out{buf.data(), static_cast<std::uint32_t>(buf.size()), 0, 0};
            if (i % 7 == 3) out.capacity = static_cast<std::uint32_t>(rng.next() % 16);
            const Status st = meshMeshPairs(c.a->blob, c.b->blob, b_to_a, out);
            ASSERT_EQ(out.count + out.overflow, brute.size()) << c.a->name << "/" << c.b->name << " seed " << seed
                                                              << " pose " << i;
            ASSERT_EQ(st, brute.size() > out.capacity ? Status::BufferFull : Status::Ok);
            std::vector<TrianglePair> got(buf.begin(), buf.begin() + out.count);
            std::sort(got.begin(), got.end());
            if (out.overflow == 0) {
                ASSERT_TRUE(got == brute) << c.a->name << "/" << c.b->name << " seed " << seed << " pose " << i;
            } else {
                for (const TrianglePair& p : got) ASSERT_TRUE(std::binary_search(brute.begin(), brute.end(), p));
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
            }
            ++poses;
            contact_poses += !brute.empty();
            pairs += static_cast<long>(brute.size());
            overflowed += out.overflow > 0;
        }
    }
    std::printf("[mesh-mesh] %ld poses over %zu mesh pairs, %ld in contact, %ld intersecting triangle pairs, "
                "%ld overflowed buffers, 0 disagreements (pairs, any contact, summary count)\n",
                poses, cases.size(), contact_poses, pairs, overflowed);
}

TEST(MeshMesh, SummaryOfASimpleOverlap) {
    // Two unit-ish icospheres, B shifted by +x: A's contact normals point along +x, B's along -x.
    auto s = bakeMesh("ico", icosphere(3, 1.0f), true);
    Transform b_to_a;
    setIdentity(b_to_a);
    b_to_a.translation.x = 1.5f;
    MeshContactSummary sum;
    ASSERT_TRUE(meshMeshSummary(s->blob, s->blob, b_to_a, sum));
    EXPECT_GT(sum.normal_a.x, 0.95f);
    EXPECT_LT(sum.normal_b.x, -0.95f);
    EXPECT_NEAR(sum.point.x, 0.75f, 0.02f);
    EXPECT_NEAR(sum.point.y, 0.0f, 0.02f);
    EXPECT_NEAR(sum.point.z, 0.0f, 0.02f);
}

TEST(MeshMesh, NonFiniteTransformAndEmptyMeshGiveNoContact) {
    const BakedMesh& m = *queryMeshes()[0];
    Transform bad;
    setIdentity(bad);
    bad.translation.y = std::numeric_limits<float>::quiet_NaN();
    TrianglePair item;
    PairBuffer out{&item, 1, 0, 0};
    EXPECT_FALSE(meshMeshAnyContact(m.blob, m.blob, bad));
    EXPECT_EQ(meshMeshPairs(m.blob, m.blob, bad, out), Status::Ok);
    EXPECT_EQ(out.count + out.overflow, 0u);
    bad.translation.y = std::numeric_limits<float>::infinity();
    MeshContactSummary sum;
    EXPECT_FALSE(meshMeshSummary(m.blob, m.blob, bad, sum));
    EXPECT_EQ(sum.pair_count, 0u);
    MeshBlob empty;
    setIdentity(bad);
    EXPECT_FALSE(meshMeshAnyContact(m.blob, empty, bad));
    EXPECT_FALSE(meshMeshAnyContact(empty, m.blob, bad));
}

} // namespace
} // namespace flak::test
