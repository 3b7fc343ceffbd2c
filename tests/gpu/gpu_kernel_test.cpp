// The GPU triangle test against triTriOverlap, pair by pair: random triangles and the adversarial
// families of tests/geom (coplanar, edge on edge, vertex on face, shared edges and vertices,
// grazing, slivers and zero-area triangles) at every placement of triangle_families.h, tested n x m
// (brute force) so every designed pair and every cross pair is compared. Exact equality.
#include "gpu_harness.h"

#include "flak_support/triangle_families.h"
#include "geom/tri_tri_impl.h"
#include "gpu/shaders_spirv.h"
#include "support/oracle.h"
#include "support/triangle_reference.h"

#include "flak_gpu_layout.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace flak::test {
namespace {

constexpr std::uint64_t kSeed = 0x6B0E5EEDull;

struct TriPair {
    Tri s, t;
};

Tri gridTriangle(SplitMix64& rng) {
    return {gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8)};
}

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

// The pair families of tests/geom/tri_tri_test.cpp (kept in step with it by hand).
TriPair familyPair(SplitMix64& rng, int family, const Placement& where) {
    TriPair k;
    switch (family) {
    case 0: { // coplanar: an axis plane or a diagonal plane, exactly
        const int axis = static_cast<int>(rng.next() % 3u), other = (axis + 1) % 3;
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
        break;
    }
    case 1: { // edge on edge, vertex on edge
        k.s = gridTriangle(rng);
        const Vec3 e = exactPointOn(rng, k.s, true);
        const Vec3 w = gridPoint(rng, 0.5, 4);
        k.t = {offset(e, w, -1.0), offset(e, w, 1.0), gridPoint(rng, 1.0, 8)};
        if (rng.u() < 0.3) k.t.a = e;
        break;
    }
    case 2: // vertex on face
        k.s = gridTriangle(rng);
        k.t = {exactPointOn(rng, k.s, false), gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8)};
        break;
    case 3: // shared edge
        k.s = gridTriangle(rng);
        k.t = {k.s.b, k.s.a, gridPoint(rng, 1.0, 8)};
        if (rng.u() < 0.5) k.t = {k.s.a, k.s.b, k.t.c};
        break;
    case 4: // shared vertex
        k.s = gridTriangle(rng);
        k.t = {k.s.a, gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8)};
        break;
    case 5: { // grazing: a vertex a hair above or below the other triangle
        k.s = makeShape(rng, Shape::Random, 1.0);
        const DTri S = dtri(k.s.a, k.s.b, k.s.c);
        D3 n = cross(S.b - S.a, S.c - S.a);
        n = n * (1.0 / len(n));
        const Vec3 foot = rng.u() < 0.5 ? randomPointOn(rng, k.s) : k.s.a;
        const double side = rng.u() < 0.5 ? -1.0 : 1.0;
        const D3 tip = d3(foot) + n * (side * logUniform(rng, -8.0, -2.0));
        k.t.a = vec(tip.x, tip.y, tip.z);
        for (Vec3* p : {&k.t.b, &k.t.c}) {
            const D3 q = d3(randomPoint(rng, 1.0)) + n * (side * rng.range(0.0, 1.0));
            *p = vec(q.x, q.y, q.z);
        }
        break;
    }
    case 6: // nearly coplanar: a hair out of one plane, or tilted by a hair
        nearlyCoplanarPair(rng, k.s, k.t);
        break;
    case 7: // an edge in the other's plane to the rounding of its ends
        edgeInPlanePair(rng, k.s, k.t);
        break;
    default: { // slivers (needles, caps) and zero-area triangles, moved to touch
        const Shape a = static_cast<Shape>(rng.next() % static_cast<unsigned>(Shape::Count));
        const Shape b = static_cast<Shape>(rng.next() % static_cast<unsigned>(Shape::Count));
        k.s = makeShape(rng, a, 1.0);
        k.t = makeShape(rng, b, 1.0);
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
constexpr int kFamilies = 9;
const char* const kFamilyNames[kFamilies] = {"coplanar",        "edge-on-edge",  "vertex-on-face",
                                             "shared-edge",     "shared-vertex", "grazing",
                                             "nearly-coplanar", "edge-in-plane", "slivers+zero-area"};

// Two "meshes" of triangle soup, baked with zero-area triangles kept (one leaf per 16).
std::unique_ptr<BakedMesh> soup(const std::string& name, const std::vector<Tri>& tris) {
    Mesh m;
    for (const Tri& t : tris) {
        const std::uint32_t base = static_cast<std::uint32_t>(m.positions.size());
        m.positions.insert(m.positions.end(), {t.a, t.b, t.c});
        m.indices.insert(m.indices.end(), {base, base + 1, base + 2});
    }
    return bakeMesh(name, m, false, true, 16);
}

struct Checked {
    std::size_t pairs = 0, overlaps = 0, crossing = 0; ///< crossing: flagged kGpuPairCrossing
};

// One batch: job j = soup pair j, brute force; GPU list == CPU brute-force list.
Checked
checkSoups(GpuCollider& collider,
           const std::vector<std::pair<std::unique_ptr<BakedMesh>, std::unique_ptr<BakedMesh>>>& soups,
           const std::vector<std::string>& names) {
    std::vector<GpuJobDesc> jobs;
    std::vector<GpuPair> expect;
    Checked c;
    for (std::uint32_t j = 0; j < soups.size(); ++j) {
        GpuJobDesc job;
        EXPECT_EQ(collider.uploadMesh(soups[j].first->blob, job.a), Status::Ok);
        EXPECT_EQ(collider.uploadMesh(soups[j].second->blob, job.b), Status::Ok);
        setIdentity(job.b_to_a);
        jobs.push_back(job);
        bruteForcePairs(*soups[j].first, *soups[j].second, job.b_to_a, j, expect);
        c.pairs += soups[j].first->tris.size() * soups[j].second->tris.size();
    }
    std::sort(expect.begin(), expect.end(), pairLess);
    const std::vector<GpuPair> got = runBatch(collider, jobs, GpuBatchMode::BruteForce);
    c.overlaps = expect.size();
    const auto meshes = [&soups](std::uint32_t j) {
        return std::pair<const BakedMesh*, const BakedMesh*>{soups[j].first.get(), soups[j].second.get()};
    };
    c.crossing = checkCrossingFlags(got, jobs, meshes);
    // The first differing pairs, named by their soups (family @ placement) and coordinates.
    EXPECT_TRUE(got == expect) << "GPU and CPU pair lists differ (seed " << std::hex << kSeed << std::dec
                               << "):\n"
                               << pairDifference(got, expect, jobs, meshes);
    // Any contact per job, from the same kernel: the jobs with a pair in the CPU's list.
    std::vector<std::uint8_t> want(jobs.size(), 0u), any(jobs.size(), 7u);
    for (const GpuPair& p : expect) want[p.job] = 1u;
    GpuTicket ticket;
    EXPECT_EQ(collider.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()),
                                   GpuBatchMode::BruteForce, GpuQuery::AnyContact, ticket),
              Status::Ok);
    EXPECT_EQ(collider.collect(ticket, nullptr, any.data()), Status::Ok);
    for (std::size_t j = 0; j < jobs.size(); ++j) EXPECT_EQ(any[j], want[j]) << "any contact of " << names[j];
    return c;
}

GpuColliderConfig soupConfig() {
    GpuColliderConfig config;
    config.max_meshes = 128;
    config.max_triangles = 1u << 18;
    config.max_pairs = 1u << 21;
    return config;
}

TEST_F(GpuTest, AdversarialFamiliesEqualCpuExactly) {
    GpuCollider& collider = makeCollider(soupConfig());
    std::vector<std::pair<std::unique_ptr<BakedMesh>, std::unique_ptr<BakedMesh>>> soups;
    std::vector<std::string> names;
    constexpr int kPairsPerCase = 160;
    std::uint64_t index = 0;
    for (const Placement& where : kPlacements)
        for (int f = 0; f < kFamilies; ++f) {
            std::vector<Tri> s, t;
            for (int k = 0; k < kPairsPerCase; ++k) {
                SplitMix64 rng = caseRng(kSeed, ++index);
                const TriPair p = familyPair(rng, f, where);
                s.push_back(p.s);
                t.push_back(p.t);
            }
            const std::string name = std::string(kFamilyNames[f]) + " @ " + where.name;
            soups.emplace_back(soup(name + " s", s), soup(name + " t", t));
            names.push_back(name);
        }
    const Checked c = checkSoups(collider, soups, names);
    EXPECT_GT(c.overlaps, 1000u);
    // The edge-in-plane family has pairs with a plane side in doubt: the device leaves them to the
    // host, in both queries.
    const std::uint64_t asked = collider.stats().host_decided_pairs;
    EXPECT_GT(asked, 0u);
    std::printf("adversarial: %zu pairs, %zu overlapping, %llu decided on the host, GPU == CPU\n", c.pairs,
                c.overlaps, static_cast<unsigned long long>(asked));
}

TEST_F(GpuTest, RandomTrianglesEqualCpuExactly) {
    GpuCollider& collider = makeCollider(soupConfig());
    std::vector<std::pair<std::unique_ptr<BakedMesh>, std::unique_ptr<BakedMesh>>> soups;
    std::vector<std::string> names;
    std::uint64_t index = 1000000;
    for (int batch = 0; batch < 4; ++batch) {
        std::vector<Tri> s, t;
        for (int k = 0; k < 500; ++k) {
            SplitMix64 rng = caseRng(kSeed, ++index);
            s.push_back(makeShape(rng, Shape::Random, 1.0));
            t.push_back(
                makeShape(rng, batch == 3 ? static_cast<Shape>(rng.next() % 6u) : Shape::Random, 1.0));
        }
        soups.emplace_back(soup("random s", s), soup("random t", t));
        names.push_back("random " + std::to_string(batch));
    }
    const Checked c = checkSoups(collider, soups, names);
    EXPECT_GT(c.overlaps, 100000u);
    EXPECT_GT(c.crossing, c.overlaps / 2);
    std::printf("random: %zu pairs, %zu overlapping (%zu flagged crossing), GPU == CPU\n", c.pairs,
                c.overlaps, c.crossing);
}

// The CPU takes a sliver's plane sides in double; the device has no double and proves a rejection
// by such a plane in float with the sides' rounding bound. Needles (sin of the apex angle 1e-4 to
// 1e-2, so sin^2 is below kMinSinSq) against triangles wholly on one side of the needle's plane,
// in both roles: every pair is answered on the device, none is left to the host, and the answers
// are the CPU's (no pair touches). A zero-area triangle's plane (its normal is zero) proves
// nothing, so its pairs that the other plane does not reject are left to the host.
TEST_F(GpuTest, SliverPlanesRejectOnTheDevice) {
    GpuColliderConfig config = soupConfig();
    config.max_meshes = 512; // one mesh per triangle, two soups per job, two batches
    GpuCollider& collider = makeCollider(config);
    SplitMix64 rng = caseRng(kSeed, 2000000);
    std::vector<Tri> needles, beside, flat;
    for (int k = 0; k < 120; ++k) {
        double n[3], u[3], w[3];
        randomPlaneFrame(rng, n, u, w);
        const Vec3 origin = randomPoint(rng, 1.0);
        const auto at = [&](double x, double y, double h) {
            return vec(origin.x + x * u[0] + y * w[0] + h * n[0], origin.y + x * u[1] + y * w[1] + h * n[1],
                       origin.z + x * u[2] + y * w[2] + h * n[2]);
        };
        const double len = rng.range(0.5, 2.0), thin = std::pow(10.0, rng.range(-4.0, -2.0));
        needles.push_back(Tri{at(0.0, 0.0, 0.0), at(len, 0.0, 0.0), at(len, thin * len, 0.0)});
        flat.push_back(Tri{at(0.0, 0.0, 0.0), at(len, 0.0, 0.0), at(2.0 * len, 0.0, 0.0)});
        const double side = rng.u() < 0.5 ? -1.0 : 1.0;
        beside.push_back(Tri{at(rng.range(-1, 2), rng.range(-1, 1), side * rng.range(0.1, 1.0)),
                             at(rng.range(-1, 2), rng.range(-1, 1), side * rng.range(0.1, 1.0)),
                             at(rng.range(-1, 2), rng.range(-1, 1), side * rng.range(0.1, 1.0))});
    }
    // Pair k of each soup shares its frame: job 0 and 1 are needles against what lies beside them.
    std::vector<std::pair<std::unique_ptr<BakedMesh>, std::unique_ptr<BakedMesh>>> soups;
    std::vector<Tri> one_needle(1), one_beside(1);
    std::vector<std::string> names;
    for (std::size_t k = 0; k < needles.size(); ++k) {
        one_needle[0] = needles[k];
        one_beside[0] = beside[k];
        if (k % 2 == 0)
            soups.emplace_back(soup("needle", one_needle), soup("beside", one_beside));
        else
            soups.emplace_back(soup("beside", one_beside), soup("needle", one_needle));
        names.push_back("needle " + std::to_string(k));
    }
    const Checked c = checkSoups(collider, soups, names);
    EXPECT_EQ(c.overlaps, 0u);
    EXPECT_EQ(collider.stats().host_decided_pairs, 0u);
    // Zero-area triangles in the same places: whatever the other plane does not reject is asked.
    soups.clear();
    for (std::size_t k = 0; k < flat.size(); ++k) {
        one_needle[0] = flat[k];
        one_beside[0] = beside[k];
        soups.emplace_back(soup("flat", one_needle), soup("beside", one_beside));
    }
    const Checked f = checkSoups(collider, soups, names);
    EXPECT_EQ(f.overlaps, 0u);
    EXPECT_GT(collider.stats().host_decided_pairs, 0u);
    std::printf("slivers: %zu pairs on the device; zero-area: %llu of %zu pairs decided on the host\n",
                c.pairs, static_cast<unsigned long long>(collider.stats().host_decided_pairs), f.pairs);
}

// A device may flush subnormal values to zero where the CPU keeps them; the shader leaves every
// pair one of whose values may be subnormal to the host. The first pair was seen on an NVIDIA
// device before the guard (a torus triangle with coordinates of 1e-16 against a sliver): a dot
// product of 1.0e-40 in CHECK_MIN_MAX is > 0 on the CPU (disjoint) and was 0 there (crossing).
// Then random pairs scaled by 2^-60, whose plane sides (products of three coordinate differences)
// underflow: all are left to the host. On a device that keeps subnormals (lavapipe) this shows
// the guard firing; the answers are the CPU's either way.
TEST_F(GpuTest, SubnormalValuesAreLeftToTheHost) {
    GpuCollider& collider = makeCollider(soupConfig());
    const auto hex = [](const char* x, const char* y, const char* z) {
        return vec(std::strtod(x, nullptr), std::strtod(y, nullptr), std::strtod(z, nullptr));
    };
    const Tri torus{hex("-0x1.33431ap-2", "-0x1.822d82p+0", "0x1.87de2ap-3"),
                    hex("-0x1.45be3ap-52", "-0x1.89be5p+0", "0x1.87de2ap-3"),
                    hex("-0x1.3daebp-52", "-0x1.8p+0", "0x1.1a6264p-54")};
    const Tri sliver{hex("0x0p+0", "0x0p+0", "0x1.70a3d8p-3"), hex("-0x1.4aeb4cp-47", "-0x1.9p+5", "0x0p+0"),
                     hex("0x1.47ae14p-8", "-0x1.9p+5", "0x0p+0")};
    std::vector<std::pair<std::unique_ptr<BakedMesh>, std::unique_ptr<BakedMesh>>> soups;
    std::vector<std::string> names{"torus x sliver"};
    soups.emplace_back(soup("torus", {torus}), soup("sliver", {sliver}));
    Checked c = checkSoups(collider, soups, names);
    EXPECT_EQ(c.overlaps, 0u);
    EXPECT_GE(collider.stats().host_decided_pairs, 1u);
    const std::uint64_t before = collider.stats().host_decided_pairs;
    soups.clear();
    names.clear();
    std::vector<Tri> s, t;
    std::uint64_t index = 3000000;
    const auto tiny = [](const Vec3& v) {
        return vec(std::ldexp(v.x, -60), std::ldexp(v.y, -60), std::ldexp(v.z, -60));
    };
    for (int k = 0; k < 200; ++k) {
        SplitMix64 rng = caseRng(kSeed, ++index);
        const Tri a = makeShape(rng, Shape::Random, 1.0), b = makeShape(rng, Shape::Random, 1.0);
        s.push_back(Tri{tiny(a.a), tiny(a.b), tiny(a.c)});
        t.push_back(Tri{tiny(b.a), tiny(b.b), tiny(b.c)});
    }
    soups.emplace_back(soup("tiny s", s), soup("tiny t", t));
    names.push_back("random pairs at 2^-60");
    c = checkSoups(collider, soups, names);
    EXPECT_GT(c.overlaps, 1000u);
    EXPECT_GE(collider.stats().host_decided_pairs - before, c.pairs);
    std::printf(
        "subnormal values: %zu pairs at 2^-60, %zu overlapping, %llu decided on the host, GPU == CPU\n",
        c.pairs, c.overlaps, static_cast<unsigned long long>(collider.stats().host_decided_pairs - before));
}

// The embedded shaders declare the float controls they rely on: OpExecutionMode
// SignedZeroInfNanPreserve (4461) for 32-bit floats, with its capability (4466). They need no
// 64-bit float (capability Float64, 10: a device without shaderFloat64 runs them) and declare no
// 64-bit type (OpTypeFloat 64).
TEST(GpuLayout, ShadersDeclareTheirFloatControlsAndNoDouble) {
    const struct {
        const char* name;
        const std::uint32_t* words;
        std::size_t count;
    } shaders[] = {{"tri_pairs", gpu::kTriPairsSpirv, gpu::kTriPairsSpirvWords},
                   {"mesh_walk", gpu::kMeshWalkSpirv, gpu::kMeshWalkSpirvWords}};
    for (const auto& shader : shaders) {
        const std::uint32_t* spv = shader.words;
        bool mode = false, capability = false, float64 = false, double_type = false;
        for (std::size_t i = 5; i < shader.count;) {
            const std::uint32_t op = spv[i] & 0xFFFFu, words = spv[i] >> 16;
            ASSERT_GT(words, 0u) << shader.name;
            if (op == 17u && words == 2u && spv[i + 1] == 4466u) capability = true; // OpCapability
            if (op == 17u && words == 2u && spv[i + 1] == 10u) float64 = true;
            if (op == 22u && words >= 3u && spv[i + 2] == 64u) double_type = true; // OpTypeFloat
            if (op == 16u && words == 4u && spv[i + 2] == 4461u && spv[i + 3] == 32u)
                mode = true; // OpExecutionMode
            i += words;
        }
        EXPECT_TRUE(capability) << shader.name;
        EXPECT_TRUE(mode) << shader.name;
        EXPECT_FALSE(float64) << shader.name;
        EXPECT_FALSE(double_type) << shader.name;
    }
}

// The constants the shader takes as bits are the CPU's.
TEST(GpuLayout, ConstantsMatchTheCpuKernel) {
    const float min_sin_sq = 2.5e-3f; // tri_tri_impl.h kMinSinSq
    std::uint32_t bits = 0;
    std::memcpy(&bits, &min_sin_sq, 4);
    EXPECT_EQ(bits, gpu::kGpuMinSinSqBits);
    const float parallel_sin_sq = 0x1p-6f; // kParallelSinSq
    std::memcpy(&bits, &parallel_sin_sq, 4);
    EXPECT_EQ(bits, gpu::kGpuParallelSinSqBits);
    std::memcpy(&bits, &detail::kSideError, 4);
    EXPECT_EQ(bits, gpu::kGpuSideErrorBits);
    std::memcpy(&bits, &detail::kSideUnderflow, 4);
    EXPECT_EQ(bits, gpu::kGpuSideUnderflowBits);
    std::memcpy(&bits, &detail::kSideFloor, 4);
    EXPECT_EQ(bits, gpu::kGpuSideFloorBits);
    EXPECT_EQ(sizeof(gpu::GpuJob), 64u);
    EXPECT_EQ(sizeof(gpu::GpuRect), 32u);
    // A walk rectangle's invocations cover a leaf.
    EXPECT_GE(gpu::kGpuWalkRectStride, kMaxLeafTriangles);
    EXPECT_EQ(gpu::kGpuLocalSize % gpu::kGpuWalkRectStride, 0u);
}

} // namespace
} // namespace flak::test
