// The baker's sphere-cluster fit: 100% coverage of the surface (vertices, the fit's samples and
// independent random surface points), sensible overshoot and volume, determinism.
#include "shooter/shooter_scenes.h"

#include "cluster_fit.h"

namespace flak::test {
namespace {

// Independent check: `count` uniform random surface points (own generator) inside some sphere.
double coverage(const Mesh& m, const std::vector<Sphere>& spheres, std::uint64_t seed, int count) {
    std::vector<double> cum;
    double total = 0.0;
    for (std::uint32_t t = 0; t < m.triangleCount(); ++t) {
        const D3 a = d3(m.positions[m.indices[3 * t]]), b = d3(m.positions[m.indices[3 * t + 1]]),
                 c = d3(m.positions[m.indices[3 * t + 2]]);
        total += 0.5 * len(cross(b - a, c - a));
        cum.push_back(total);
    }
    SplitMix64 rng(seed);
    int covered = 0;
    for (int i = 0; i < count; ++i) {
        const auto it = std::lower_bound(cum.begin(), cum.end(), rng.u() * total);
        const std::size_t t = std::min(static_cast<std::size_t>(it - cum.begin()), cum.size() - 1);
        double u = rng.u(), v = rng.u();
        if (u + v > 1) u = 1 - u, v = 1 - v;
        const D3 a = d3(m.positions[m.indices[3 * t]]), b = d3(m.positions[m.indices[3 * t + 1]]),
                 c = d3(m.positions[m.indices[3 * t + 2]]);
        const D3 p = a * (1 - u - v) + b * u + c * v;
        for (const Sphere& s : spheres)
            if (len(p - d3(s.center)) <= s.radius) {
                ++covered;
                break;
            }
    }
    for (const Vec3& v : m.positions) { // every vertex
        bool in = false;
        for (const Sphere& s : spheres) in |= len(d3(v) - d3(s.center)) <= s.radius;
        if (!in) return -1.0;
    }
    return 100.0 * covered / count;
}

TEST(ClusterFit, CoversGeneratedMeshesCompletely) {
    struct Case {
        const char* name;
        Mesh mesh;
        std::uint32_t spheres;
    };
    Mesh box;
    box.positions = {{-2, -1, -0.5f}, {2, -1, -0.5f}, {2, 1, -0.5f}, {-2, 1, -0.5f},
                     {-2, -1, 0.5f},  {2, -1, 0.5f},  {2, 1, 0.5f},  {-2, 1, 0.5f}};
    box.indices = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                   1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};
    Case cases[] = {{"icosphere", icosphere(3, 1.0f), 8},
                    {"torus", torus(32, 12), 29},
                    {"box", box, 16},
                    {"terrain (open)", terrain(16, 10.0f), 64}};
    for (Case& c : cases) {
        bake::SourceMesh prepared;
        AlignedBytes bytes(bakeBytes(c.mesh, BakeSettings{}, &prepared));
        MeshBlob blob;
        ASSERT_EQ(loadMeshBlob(bytes.data(), bytes.size(), blob), Status::Ok);
        bake::ClusterFitOptions options;
        options.spheres = c.spheres;
        bake::ClusterFit fit;
        ASSERT_FALSE(bake::fitSphereCluster(prepared, blob, options, fit).failed());
        ASSERT_EQ(fit.spheres.size(), c.spheres);
        EXPECT_EQ(fit.coverage_percent, 100.0) << c.name;
        EXPECT_EQ(coverage(c.mesh, fit.spheres, 0xC0FEu, 50000), 100.0) << c.name;
        EXPECT_GE(fit.max_overshoot, 0.0);
        std::printf(
            "[ fit ] %-16s N %2u  samples %6u  coverage %.2f%%  max overshoot %.4f  volume ratio %.3f\n",
            c.name, c.spheres, fit.samples, fit.coverage_percent, fit.max_overshoot, fit.volume_ratio);
        // Deterministic.
        bake::ClusterFit again;
        ASSERT_FALSE(bake::fitSphereCluster(prepared, blob, options, again).failed());
        EXPECT_EQ(std::memcmp(again.spheres.data(), fit.spheres.data(), fit.spheres.size() * sizeof(Sphere)),
                  0);
    }
}

TEST(ClusterFit, MoreSpheresFitTighter) {
    bake::SourceMesh prepared;
    const Mesh m = torus(32, 12);
    AlignedBytes bytes(bakeBytes(m, BakeSettings{}, &prepared));
    MeshBlob blob;
    ASSERT_EQ(loadMeshBlob(bytes.data(), bytes.size(), blob), Status::Ok);
    double previous = 1e30;
    for (std::uint32_t n : {8u, 29u, 64u}) {
        bake::ClusterFitOptions options;
        options.spheres = n;
        bake::ClusterFit fit;
        ASSERT_FALSE(bake::fitSphereCluster(prepared, blob, options, fit).failed());
        EXPECT_EQ(fit.coverage_percent, 100.0);
        std::printf("[ fit ] torus N %2u volume ratio %.3f max overshoot %.4f\n", n, fit.volume_ratio,
                    fit.max_overshoot);
        EXPECT_LT(fit.volume_ratio, previous) << n;
        previous = fit.volume_ratio;
    }
}

// A mesh of more than about 133,000 triangles: the sample budget counts three per triangle at the
// least, so no grid step could meet it and the fit grew the step for ever. It now stops at one
// step per triangle and fits (a terrain of 135,200 triangles, 8 spheres).
TEST(ClusterFit, MeshesBeyondTheSampleBudgetStillFit) {
    bake::SourceMesh prepared;
    AlignedBytes bytes(bakeBytes(terrain(260, 10.0f), BakeSettings{}, &prepared));
    ASSERT_GT(prepared.triangleCount(), 400000u / 3u);
    MeshBlob blob;
    ASSERT_EQ(loadMeshBlob(bytes.data(), bytes.size(), blob), Status::Ok);
    bake::ClusterFitOptions options;
    options.spheres = 8;
    bake::ClusterFit fit;
    ASSERT_FALSE(bake::fitSphereCluster(prepared, blob, options, fit).failed());
    EXPECT_EQ(fit.coverage_percent, 100.0);
}

} // namespace
} // namespace flak::test
