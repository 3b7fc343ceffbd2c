// The batched forms answer exactly as the single queries do, query by query and mesh by mesh.
#include "query_meshes.h"
#include "support/case_count.h"

#include <flak/bvh/query_batch.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>

#include <cstdio>
#include <cstring>

namespace flak::test {
namespace {

TEST(QueryBatch, ManyQueriesAgainstOneMeshEqualSingleQueries) {
    long checked = 0;
    for (const auto& mp : queryMeshes()) {
        const BakedMesh& m = *mp;
        SplitMix64 rng(0x5EED0601u);
        Transform xf;
        randomTransform(rng, m.diag, xf);
        const std::uint32_t n = caseCount<std::uint32_t>(4000);
        std::vector<Sphere> spheres(n);
        std::vector<Vec3> p0(n), p1(n);
        for (std::uint32_t k = 0; k < n; ++k) {
            Vec3 c, d;
            randomPointInQ(m, rng, c);
            transformPoint(xf, c, spheres[k].center);
            spheres[k].radius = m.diag * static_cast<float>(0.01 + 0.04 * rng.u());
            randomUnit(rng, d);
            p0[k] = spheres[k].center;
            addScaled(p0[k], d, m.diag * static_cast<float>(0.02 + 0.18 * rng.u()), p1[k]);
        }
        std::vector<float> radii(n);
        for (std::uint32_t k = 0; k < n; ++k) radii[k] = k % 5 == 0 ? 0.0f : spheres[k].radius * 0.5f;
        std::unique_ptr<bool[]> sphere_hit(new bool[n]), seg_hit(new bool[n]), swept_hit(new bool[n]);
        std::vector<MeshRayHit> hits(n), swept(n);
        const std::uint32_t sh = sphereAnyHitBatch(m.blob, xf, spheres.data(), n, sphere_hit.get());
        const std::uint32_t gh =
            segmentClosestHitBatch(m.blob, xf, p0.data(), p1.data(), n, hits.data(), seg_hit.get());
        const std::uint32_t wh = sweptSphereFirstHitBatch(m.blob, xf, p0.data(), p1.data(), radii.data(), n,
                                                          swept.data(), swept_hit.get());
        std::uint32_t sh_ref = 0, gh_ref = 0, wh_ref = 0;
        for (std::uint32_t k = 0; k < n; ++k) {
            const bool s = sphereAnyHit(m.blob, xf, spheres[k]);
            ASSERT_EQ(sphere_hit[k], s) << m.name << " " << k;
            sh_ref += s;
            MeshRayHit h;
            const bool g = segmentClosestHit(m.blob, xf, p0[k], p1[k], h);
            ASSERT_EQ(seg_hit[k], g) << m.name << " " << k;
            if (g) {
                ASSERT_EQ(hits[k].triangle, h.triangle);
                ASSERT_EQ(std::memcmp(&hits[k].hit, &h.hit, sizeof(RayHit)), 0);
            }
            gh_ref += g;
            const bool w = sweptSphereFirstHit(m.blob, xf, p0[k], p1[k], radii[k], h);
            ASSERT_EQ(swept_hit[k], w) << m.name << " " << k;
            if (w) {
                ASSERT_EQ(swept[k].triangle, h.triangle);
                ASSERT_EQ(std::memcmp(&swept[k].hit, &h.hit, sizeof(RayHit)), 0);
            }
            wh_ref += w;
            checked += 3;
        }
        EXPECT_EQ(sh, sh_ref);
        EXPECT_EQ(gh, gh_ref);
        EXPECT_EQ(wh, wh_ref);
        EXPECT_GT(wh, 0u);
    }
    std::printf("[batch] %ld batched sphere/segment/swept-sphere answers equal to single queries\n", checked);
}

TEST(QueryBatch, OneQueryAgainstManyMeshes) {
    const auto& meshes = queryMeshes();
    std::vector<MeshBlob> blobs;
    std::vector<Transform> xfs;
    SplitMix64 rng(0x5EED0602u);
    for (const auto& mp : meshes) {
        blobs.push_back(mp->blob);
        Transform xf;
        randomTransform(rng, 20.0f, xf);
        xfs.push_back(xf);
    }
    blobs.push_back(meshes[0]->blob); // the same mesh twice at the same place: ties go to the lower index
    xfs.push_back(xfs[0]);
    const std::uint32_t n = static_cast<std::uint32_t>(blobs.size());
    long queries = 0, hits = 0;
    for (int i = 0; i < caseCount(20000); ++i) {
        Vec3 c, d, e;
        for (int k = 0; k < 3; ++k) c[k] = static_cast<float>(rng.range(-60.0, 60.0));
        randomUnit(rng, d);
        addScaled(c, d, static_cast<float>(rng.range(1.0, 80.0)), e);
        const Sphere s{c, static_cast<float>(rng.range(0.1, 10.0))};
        std::uint32_t mesh = 99;
        const bool any = sphereAnyHitMeshes(blobs.data(), xfs.data(), n, s, mesh);
        std::uint32_t expect = 99;
        for (std::uint32_t k = 0; k < n && expect == 99; ++k)
            if (sphereAnyHit(blobs[k], xfs[k], s)) expect = k;
        ASSERT_EQ(any, expect != 99);
        if (any) {
            ASSERT_EQ(mesh, expect);
        }
        MeshRayHit hit, best;
        std::uint32_t hit_mesh = 99, best_mesh = 99;
        const bool seg = segmentClosestHitMeshes(blobs.data(), xfs.data(), n, c, e, hit, hit_mesh);
        for (std::uint32_t k = 0; k < n; ++k) {
            MeshRayHit h;
            if (segmentClosestHit(blobs[k], xfs[k], c, e, h) && (best_mesh == 99 || h.hit.t < best.hit.t)) {
                best = h;
                best_mesh = k;
            }
        }
        ASSERT_EQ(seg, best_mesh != 99);
        if (seg) {
            ASSERT_EQ(hit_mesh, best_mesh);
            ASSERT_NE(hit_mesh, n - 1); // the duplicate of mesh 0 never wins a tie
            ASSERT_EQ(hit.triangle, best.triangle);
            ASSERT_EQ(hit.hit.t, best.hit.t);
        }
        const float r = static_cast<float>(rng.range(0.0, 3.0));
        MeshRayHit sw, sw_best;
        std::uint32_t sw_mesh = 99, sw_best_mesh = 99;
        const bool swept = sweptSphereFirstHitMeshes(blobs.data(), xfs.data(), n, c, e, r, sw, sw_mesh);
        for (std::uint32_t k = 0; k < n; ++k) {
            MeshRayHit h;
            if (sweptSphereFirstHit(blobs[k], xfs[k], c, e, r, h) &&
                (sw_best_mesh == 99 || h.hit.t < sw_best.hit.t)) {
                sw_best = h;
                sw_best_mesh = k;
            }
        }
        ASSERT_EQ(swept, sw_best_mesh != 99);
        if (swept) {
            ASSERT_EQ(sw_mesh, sw_best_mesh);
            ASSERT_NE(sw_mesh, n - 1);
            ASSERT_EQ(sw.triangle, sw_best.triangle);
            ASSERT_EQ(std::memcmp(&sw.hit, &sw_best.hit, sizeof(RayHit)), 0);
        }
        queries += 3;
        hits += any + seg + swept;
    }
    std::printf("[batch meshes] %ld queries against %u meshes, %ld hits, all equal to per-mesh queries\n",
                queries, n, hits);
}

} // namespace
} // namespace flak::test
