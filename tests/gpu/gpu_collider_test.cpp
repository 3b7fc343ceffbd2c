// The GPU collider on real meshes (generated icosphere, torus, terrain, slivers, floor, and the
// assimp Wuson when installed) in both modes against meshMeshPairs; overflow; any-contact;
// double buffering and the asynchronous submit / poll / collect cycle.
#include "gpu_harness.h"

#include "gpu/device_tree.h"

#include <flak/bvh/mesh_leaf_pairs.h>

#include <cstdlib>
#include <cstring>
#include <limits>

namespace flak::test {
namespace {

constexpr std::uint64_t kSeed = 0x6B0C011Dull;

GpuColliderConfig meshConfig() {
    GpuColliderConfig config;
    config.max_meshes = 16;
    config.max_triangles = 1u << 18;
    config.max_jobs = 512; // every ordered pair of the 11 meshes, three times
    config.max_leaf_pairs = 1u << 18;
    config.max_pairs = 1u << 20;
    return config;
}

using Meshes = std::vector<const BakedMesh*>;

// The query meshes of query_meshes.h and a torus with leaves of two triangles, whose nodes of 512
// triangles hold too many leaves to be groups (their children are).
const Meshes& gpuMeshes() {
    static const auto leaf2 = bakeMesh("torus-leaf2", torus(24, 12), true, false, 2);
    static const Meshes meshes = [] {
        Meshes v;
        for (const auto& m : queryMeshes()) v.push_back(m.get());
        v.push_back(leaf2.get());
        return v;
    }();
    return meshes;
}

// Jobs over every ordered mesh pair, B placed so that it touches A (a point on a triangle of A
// mapped onto a point on a triangle of B, random rotation): many contacts, many near misses.
std::vector<GpuJobDesc> meshJobs(const std::vector<GpuMeshId>& ids, int per_pair, std::uint64_t seed,
                                 const Meshes& meshes = gpuMeshes()) {
    std::vector<GpuJobDesc> jobs;
    std::uint64_t index = 0;
    for (std::size_t i = 0; i < meshes.size(); ++i)
        for (std::size_t k = 0; k < meshes.size(); ++k)
            for (int r = 0; r < per_pair; ++r) {
                SplitMix64 rng = caseRng(seed, ++index);
                const BakedMesh& a = *meshes[i];
                const BakedMesh& b = *meshes[k];
                GpuJobDesc job;
                job.a = ids[i];
                job.b = ids[k];
                randomTransform(rng, 0.0f, job.b_to_a);
                Vec3 pa, pb, mb;
                pointOnTriangle(a, static_cast<std::uint32_t>(rng.next() % a.tris.size()), rng, pa);
                pointOnTriangle(b, static_cast<std::uint32_t>(rng.next() % b.tris.size()), rng, pb);
                transformVector(job.b_to_a, pb, mb);
                sub(pa, mb, job.b_to_a.translation);
                if (r == per_pair - 1) setIdentity(job.b_to_a); // coincident meshes: shared everything
                jobs.push_back(job);
            }
    return jobs;
}

std::vector<GpuMeshId> uploadAll(GpuCollider& collider, const Meshes& meshes = gpuMeshes()) {
    std::vector<GpuMeshId> ids;
    for (const BakedMesh* m : meshes) {
        GpuMeshId id;
        EXPECT_EQ(collider.uploadMesh(m->blob, id), Status::Ok) << m->name;
        ids.push_back(id);
    }
    return ids;
}

// The meshes of each job (uploadAll's ids are the indices in `meshes`).
auto queryJobMeshes(const std::vector<GpuJobDesc>& jobs, const Meshes& meshes = gpuMeshes()) {
    return [&jobs, &meshes](std::uint32_t j) {
        return std::pair<const BakedMesh*, const BakedMesh*>{meshes[jobs[j].a.index],
                                                             meshes[jobs[j].b.index]};
    };
}

std::vector<GpuPair> cpuPairs(const std::vector<GpuJobDesc>& jobs, const Meshes& meshes = gpuMeshes()) {
    std::vector<GpuPair> out;
    for (std::uint32_t j = 0; j < jobs.size(); ++j)
        walkPairs(*meshes[jobs[j].a.index], *meshes[jobs[j].b.index], jobs[j].b_to_a, j, out);
    std::sort(out.begin(), out.end(), pairLess);
    return out;
}

TEST_F(GpuTest, RealMeshesCandidateModeEqualsCpuWalk) {
    const Meshes& meshes = gpuMeshes();
    GpuCollider& collider = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids = uploadAll(collider, meshes);
    const std::vector<GpuJobDesc> jobs = meshJobs(ids, 3, kSeed, meshes);
    const std::vector<GpuPair> expect = cpuPairs(jobs, meshes);
    const std::vector<GpuPair> got = runBatch(collider, jobs, GpuBatchMode::Candidates);
    EXPECT_GT(expect.size(), 1000u);
    ASSERT_TRUE(got == expect) << pairDifference(got, expect, jobs, queryJobMeshes(jobs, meshes));
    // Each mesh pair's last job is the two meshes at the identity, whose pairs are coplanar: about
    // a sixth of all pairs cross.
    const std::size_t crossing = checkCrossingFlags(got, jobs, queryJobMeshes(jobs, meshes));
    EXPECT_GT(crossing, got.size() / 8);
    std::printf("real meshes, candidate mode: %zu jobs, %zu pairs (%zu flagged crossing), GPU == CPU\n",
                jobs.size(), got.size(), crossing);
}

// The device walks both trees: the same pairs as the CPU walk, in both queries, with the host
// sending only the jobs. Also with B moved clear of A (nothing found), with a non-finite transform
// (nothing, as on the CPU) and with A and B the same mesh at the identity.
TEST_F(GpuTest, RealMeshesDeviceWalkEqualsCpuWalk) {
    const Meshes& meshes = gpuMeshes();
    GpuCollider& collider = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids = uploadAll(collider, meshes);
    std::vector<GpuJobDesc> jobs = meshJobs(ids, 3, kSeed + 5, meshes);
    GpuJobDesc apart = jobs[0];
    apart.b_to_a.translation.x += 1000.0f;
    jobs.push_back(apart);
    GpuJobDesc broken = jobs[1];
    broken.b_to_a.translation.y = std::numeric_limits<float>::quiet_NaN();
    jobs.push_back(broken);
    const std::vector<GpuPair> expect = cpuPairs(jobs, meshes);
    // The triangle pairs inside the CPU walk's leaf pairs: the device's walk must find the same.
    std::uint64_t candidates = 0;
    std::vector<MeshLeafPair> leaves(1u << 18);
    for (const GpuJobDesc& job : jobs) {
        OutBuffer<MeshLeafPair> out = OutBuffer<MeshLeafPair>::over(leaves.data(), 1u << 18);
        ASSERT_EQ(meshMeshLeafPairs(meshes[job.a.index]->blob, meshes[job.b.index]->blob, job.b_to_a, out),
                  Status::Ok);
        for (std::uint32_t k = 0; k < out.count; ++k)
            candidates += std::uint64_t{out.items[k].a_count} * out.items[k].b_count;
    }
    const GpuColliderStats before = collider.stats();
    const std::vector<GpuPair> got = runBatch(collider, jobs, GpuBatchMode::DeviceWalk);
    EXPECT_GT(expect.size(), 1000u);
    ASSERT_TRUE(got == expect) << pairDifference(got, expect, jobs, queryJobMeshes(jobs, meshes));
    EXPECT_GT(checkCrossingFlags(got, jobs, queryJobMeshes(jobs, meshes)), got.size() / 8);
    EXPECT_EQ(collider.stats().walk_overflows, 0u);
    EXPECT_EQ(collider.stats().tested_pairs - before.tested_pairs, candidates);
    const std::uint64_t uploaded = before.upload_bytes;
    // What the host wrote: per job its two records (160 bytes) and flag, plus the batch's fixed
    // few dozen bytes; no leaf pair.
    EXPECT_LT(collider.stats().upload_bytes - uploaded, 200u * jobs.size());
    // Any contact: the jobs with a pair in the CPU's list.
    std::vector<std::uint8_t> want(jobs.size(), 0u), any(jobs.size(), 7u);
    for (const GpuPair& p : expect) want[p.job] = 1u;
    GpuTicket ticket;
    ASSERT_EQ(collider.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()),
                                   GpuBatchMode::DeviceWalk, GpuQuery::AnyContact, ticket),
              Status::Ok);
    ASSERT_EQ(collider.collect(ticket, nullptr, any.data()), Status::Ok);
    EXPECT_TRUE(any == want);
    EXPECT_EQ(want[jobs.size() - 1], 0u);
    EXPECT_EQ(want[jobs.size() - 2], 0u);
    std::printf("real meshes, device walk: %zu jobs, %zu pairs, GPU == CPU\n", jobs.size(), got.size());
}

// A slot's walk batches count in its two device heads in turn, each walk zeroing the other: a
// batch that finds nothing between two that find much, then the first again, each answer the
// CPU's (and the tested pairs the same for the equal batches).
TEST_F(GpuTest, DeviceWalkBatchesInTurnStartFromZero) {
    const Meshes& meshes = gpuMeshes();
    GpuCollider& collider = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids = uploadAll(collider, meshes);
    const std::vector<GpuJobDesc> touching = meshJobs(ids, 1, kSeed + 7, meshes);
    std::vector<GpuJobDesc> apart = touching;
    for (GpuJobDesc& job : apart) job.b_to_a.translation.z += 1000.0f;
    const std::vector<GpuPair> expect = cpuPairs(touching, meshes);
    ASSERT_FALSE(expect.empty());
    std::uint64_t tested[4] = {};
    const std::vector<GpuJobDesc>* batches[4] = {&touching, &apart, &touching, &touching};
    for (int k = 0; k < 4; ++k) {
        const std::uint64_t before = collider.stats().tested_pairs;
        const std::vector<GpuPair> got = runBatch(collider, *batches[k], GpuBatchMode::DeviceWalk);
        tested[k] = collider.stats().tested_pairs - before;
        EXPECT_TRUE(k == 1 ? got.empty() : got == expect) << "batch " << k;
    }
    EXPECT_EQ(tested[1], 0u);
    EXPECT_EQ(tested[2], tested[0]);
    EXPECT_EQ(tested[3], tested[0]);
}

// Lavapipe stops every loop of a shader after 65,535 iterations in all: a walk whose group (all of
// a coarse sphere, one group) takes its box through a torus of 14,400 one-triangle leaves, most of
// which the box holds, is cut short there. The walk sees that its loops did not run to their end
// and flags the batch, which the host answers on the CPU with the same pairs (the sphere passes
// through the torus's tube, turned every way about their common centre). A GPU without that
// budget walks it whole.
TEST_F(GpuTest, DeviceWalkCutShortByTheDriverIsAnsweredOnTheCpu) {
    auto group = bakeMesh("icosphere1", icosphere(1, 2.0f), true, false, 8);
    auto leaves = bakeMesh("torus-leaf1", torus(120, 60), true, false, 1);
    const Meshes meshes{group.get(), leaves.get()};
    GpuCollider& collider = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids = uploadAll(collider, meshes);
    SplitMix64 rng = caseRng(kSeed + 9, 1);
    std::uint32_t cut = 0;
    std::size_t pairs = 0;
    for (int r = 0; r < 8; ++r) {
        std::vector<GpuJobDesc> one(1);
        one[0].a = ids[0];
        one[0].b = ids[1];
        randomTransform(rng, 0.0f, one[0].b_to_a);
        if (r == 0) setIdentity(one[0].b_to_a);
        const std::uint32_t before = collider.stats().walk_overflows;
        const std::vector<GpuPair> got = runBatch(collider, one, GpuBatchMode::DeviceWalk);
        const std::vector<GpuPair> expect = cpuPairs(one, meshes);
        EXPECT_FALSE(expect.empty());
        EXPECT_TRUE(got == expect) << pairDifference(got, expect, one, queryJobMeshes(one, meshes));
        cut += collider.stats().walk_overflows - before;
        pairs += got.size();
    }
    if (driverCutsLongLoops()) {
        EXPECT_GT(cut, 0u);
    }
    std::printf("device walk through a fine mesh: 8 jobs, %zu pairs, %u cut short by the driver\n", pairs,
                cut);
}

// The same cut before the walk emits any leaf pair (a fine mesh between two parts of the other):
// the pair pass still runs, hands the walk's counters to the host, and the batch is answered on
// the CPU (before, no pass ran, the host saw no overflow, and a pair after the cut would have been
// lost without a word).
TEST_F(GpuTest, DeviceWalkCutShortBeforeAnyLeafPairIsAnsweredOnTheCpu) {
    // A: two spheres of radius 3, 20 apart, so its one group's box spans the gap. B: a
    // fine torus in the gap. Every B node overlaps the group's box and no B leaf touches an A leaf.
    Mesh pair;
    for (const float x : {-10.0f, 10.0f}) {
        const Mesh ball = icosphere(0, 3.0f);
        const auto base = static_cast<std::uint32_t>(pair.positions.size());
        for (const Vec3& p : ball.positions) pair.positions.push_back(Vec3{p.x + x, p.y, p.z});
        for (const std::uint32_t i : ball.indices) pair.indices.push_back(base + i);
    }
    auto hull = bakeMesh("two-balls-leaf8", pair, true, false, 8);
    auto inside = bakeMesh("torus-leaf1-in-the-gap", torus(120, 60), true, false, 1);
    const Meshes meshes{hull.get(), inside.get()};
    GpuCollider& collider = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids = uploadAll(collider, meshes);
    std::vector<GpuJobDesc> one(1);
    one[0].a = ids[0];
    one[0].b = ids[1];
    setIdentity(one[0].b_to_a);
    std::vector<MeshLeafPair> leaves(1024);
    OutBuffer<MeshLeafPair> leaf_pairs = OutBuffer<MeshLeafPair>::over(leaves.data(), 1024);
    ASSERT_EQ(meshMeshLeafPairs(hull->blob, inside->blob, one[0].b_to_a, leaf_pairs), Status::Ok);
    ASSERT_EQ(leaf_pairs.count, 0u); // the walk has no leaf pair to emit
    const std::vector<GpuPair> got = runBatch(collider, one, GpuBatchMode::DeviceWalk);
    EXPECT_TRUE(got.empty());
    EXPECT_TRUE(cpuPairs(one, meshes).empty());
    if (driverCutsLongLoops()) {
        EXPECT_EQ(collider.stats().walk_overflows, 1u);
    }
}

// More leaf pairs than the rectangles hold: the walk stops writing, and the batch is answered on
// the CPU with the same pairs.
TEST_F(GpuTest, DeviceWalkBeyondItsRectanglesIsAnsweredOnTheCpu) {
    GpuColliderConfig config = meshConfig();
    config.max_leaf_pairs = 64;
    GpuCollider& collider = makeCollider(config);
    const std::vector<GpuMeshId> ids = uploadAll(collider);
    const std::vector<GpuJobDesc> jobs = meshJobs(ids, 1, kSeed + 6);
    const std::vector<GpuPair> expect = cpuPairs(jobs);
    const std::vector<GpuPair> got = runBatch(collider, jobs, GpuBatchMode::DeviceWalk);
    EXPECT_TRUE(got == expect);
    EXPECT_EQ(collider.stats().walk_overflows, 1u);
}

// The nodes over all meshes are bounded by max_nodes: a mesh that does not fit is refused (and the
// collider keeps what it has).
TEST_F(GpuTest, UploadBeyondMaxNodesIsRefused) {
    const BakedMesh& mesh = *queryMeshes()[0];
    GpuColliderConfig config = meshConfig();
    std::uint32_t nodes = 0; // the device's copy of the tree
    gpu::forEachDeviceNode(mesh.blob, [&](const BvhNode&, bool) { ++nodes; });
    config.max_nodes = nodes + nodes / 2;
    GpuCollider& collider = makeCollider(config);
    GpuMeshId first, second;
    ASSERT_EQ(collider.uploadMesh(mesh.blob, first), Status::Ok);
    EXPECT_EQ(collider.uploadMesh(mesh.blob, second), Status::OutOfMemory);
    std::vector<GpuJobDesc> jobs(1);
    jobs[0].a = jobs[0].b = first;
    setIdentity(jobs[0].b_to_a);
    const std::vector<GpuPair> got = runBatch(collider, jobs, GpuBatchMode::DeviceWalk);
    std::vector<GpuPair> expect;
    walkPairs(mesh, mesh, jobs[0].b_to_a, 0, expect);
    std::sort(expect.begin(), expect.end(), pairLess);
    EXPECT_TRUE(got == expect);
}

TEST_F(GpuTest, RealMeshesBruteForceEqualsCpuBruteForce) {
    // Brute force on the smaller meshes (n x m), against triTriOverlap over all pairs and the walk.
    GpuCollider& collider = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids = uploadAll(collider);
    const Meshes& meshes = gpuMeshes();
    std::vector<GpuJobDesc> jobs;
    for (const GpuJobDesc& job : meshJobs(ids, 3, kSeed + 1))
        if (meshes[job.a.index]->tris.size() * meshes[job.b.index]->tris.size() <= 400000u)
            jobs.push_back(job);
    ASSERT_FALSE(jobs.empty());
    std::vector<GpuPair> brute;
    for (std::uint32_t j = 0; j < jobs.size(); ++j)
        bruteForcePairs(*meshes[jobs[j].a.index], *meshes[jobs[j].b.index], jobs[j].b_to_a, j, brute);
    std::sort(brute.begin(), brute.end(), pairLess);
    EXPECT_TRUE(brute == cpuPairs(jobs)) << "the CPU walk and CPU brute force disagree";
    const std::vector<GpuPair> got = runBatch(collider, jobs, GpuBatchMode::BruteForce);
    ASSERT_EQ(got.size(), brute.size());
    EXPECT_TRUE(got == brute);
    std::printf("real meshes, brute force: %zu jobs, %zu pairs, GPU == CPU\n", jobs.size(), got.size());
}

TEST_F(GpuTest, OverflowSetsTheFlagCountsAndWritesNothingPastCapacity) {
    GpuColliderConfig config = meshConfig();
    const std::vector<GpuPair> expect = [&] {
        GpuCollider& big = makeCollider(config);
        const std::vector<GpuMeshId> ids = uploadAll(big);
        return cpuPairs(meshJobs(ids, 1, kSeed + 2));
    }();
    ASSERT_GT(expect.size(), 200u);
    // Batch capacity smaller than the answer. (These jobs are coincident meshes, whose shared
    // vertices leave pairs to the host: the batch is then answered on the CPU, with the same
    // contract.)
    config.max_pairs = static_cast<std::uint32_t>(expect.size() / 3);
    GpuCollider& small = makeCollider(config);
    const std::vector<GpuMeshId> ids = uploadAll(small);
    const std::vector<GpuJobDesc> jobs = meshJobs(ids, 1, kSeed + 2);
    GpuTicket ticket;
    ASSERT_EQ(small.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()),
                                GpuBatchMode::Candidates, GpuQuery::Pairs, ticket),
              Status::Ok);
    // The caller's buffer is larger and fenced with sentinels.
    std::vector<GpuPair> items(expect.size() + 8, GpuPair{0xDEADu, 0xDEADu, 0xDEADu});
    OutBuffer<GpuPair> out;
    out.items = items.data();
    out.capacity = static_cast<std::uint32_t>(expect.size() + 8);
    EXPECT_EQ(small.collect(ticket, &out, nullptr), Status::BufferFull);
    EXPECT_EQ(out.count, config.max_pairs);
    EXPECT_EQ(out.count + out.dropped, expect.size());
    for (std::uint32_t k = out.count; k < items.size(); ++k) EXPECT_EQ(items[k].job, 0xDEADu);
    // What came back is a sorted subset of the answer.
    EXPECT_TRUE(std::is_sorted(items.begin(), items.begin() + out.count, pairLess));
    EXPECT_TRUE(
        std::includes(expect.begin(), expect.end(), items.begin(), items.begin() + out.count, pairLess));

    // Caller capacity smaller than the answer: the first pairs in (job, a, b) order.
    GpuCollider& big = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids2 = uploadAll(big);
    ASSERT_EQ(big.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()), GpuBatchMode::Candidates,
                              GpuQuery::Pairs, ticket),
              Status::Ok);
    std::vector<GpuPair> few(100 + 4, GpuPair{0xBEEFu, 0, 0});
    OutBuffer<GpuPair> small_out;
    small_out.items = few.data();
    small_out.capacity = 100;
    EXPECT_EQ(big.collect(ticket, &small_out, nullptr), Status::BufferFull);
    EXPECT_EQ(small_out.count, 100u);
    EXPECT_EQ(small_out.dropped, expect.size() - 100);
    for (std::size_t k = 100; k < 104; ++k) EXPECT_EQ(few[k].job, 0xBEEFu);

    // A caller's buffer that dropped pairs of earlier batches: a batch that fits is Ok.
    ASSERT_EQ(big.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()), GpuBatchMode::Candidates,
                              GpuQuery::Pairs, ticket),
              Status::Ok);
    std::vector<GpuPair> room(expect.size());
    OutBuffer<GpuPair> earlier =
        OutBuffer<GpuPair>::over(room.data(), static_cast<std::uint32_t>(room.size()));
    earlier.dropped = 7;
    EXPECT_EQ(big.collect(ticket, &earlier, nullptr), Status::Ok);
    EXPECT_EQ(earlier.count, expect.size());
    EXPECT_EQ(earlier.dropped, 7u);

    // One whose drop count has saturated: this batch's drops still say BufferFull.
    ASSERT_EQ(big.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()), GpuBatchMode::Candidates,
                              GpuQuery::Pairs, ticket),
              Status::Ok);
    OutBuffer<GpuPair> saturated = OutBuffer<GpuPair>::over(room.data(), 100);
    saturated.dropped = 0xFFFFFFFFu;
    EXPECT_EQ(big.collect(ticket, &saturated, nullptr), Status::BufferFull);
    EXPECT_EQ(saturated.count, 100u);
    EXPECT_EQ(saturated.dropped, 0xFFFFFFFFu);
}

// A mode or query outside its enum is refused (collect would otherwise take an AnyContact batch's
// null pair buffer for a Pairs one).
TEST_F(GpuTest, ModesAndQueriesOutsideTheirEnumsAreRefused) {
    GpuCollider& collider = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids = uploadAll(collider);
    const std::vector<GpuJobDesc> jobs = meshJobs(ids, 1, kSeed + 3);
    const auto n = static_cast<std::uint32_t>(jobs.size());
    GpuTicket ticket;
    EXPECT_EQ(collider.submitBatch(jobs.data(), n, static_cast<GpuBatchMode>(3), GpuQuery::Pairs, ticket),
              Status::InvalidArgument);
    EXPECT_EQ(
        collider.submitBatch(jobs.data(), n, GpuBatchMode::Candidates, static_cast<GpuQuery>(2), ticket),
        Status::InvalidArgument);
    EXPECT_EQ(ticket.serial, 0u);
    EXPECT_EQ(collider.stats().batches, 0u);
}

// With the validation layer also named in the environment (gpu.validation_from_environment
// runs this test so), the loader says it added the layer: that note is kept apart, never counted
// as a validation warning (TearDown fails on any counted message).
TEST_F(GpuTest, LoaderNotesAreNotValidationMessages) {
    const char* layers = std::getenv("VK_INSTANCE_LAYERS");
    if (layers != nullptr && std::strstr(layers, "VK_LAYER_KHRONOS_validation") != nullptr) {
        EXPECT_FALSE(vulkan.loaderMessages().empty());
    }
    (void)makeCollider(GpuColliderConfig{}); // expects Status::Ok: the device is used
}

// Asked to (time_batches), where the queue writes timestamps (lavapipe's does), each batch
// collected from the device reports its device time.
TEST_F(GpuTest, BatchesReportTheirDeviceTime) {
    GpuColliderConfig config;
    config.time_batches = true;
    GpuCollider& collider = makeCollider(config);
    const auto& meshes = queryMeshes();
    GpuMeshId id;
    ASSERT_EQ(collider.uploadMesh(meshes[0]->blob, id), Status::Ok);
    GpuJobDesc job;
    job.a = job.b = id;
    setIdentity(job.b_to_a);
    std::vector<GpuPair> items(1u << 20);
    OutBuffer<GpuPair> out = OutBuffer<GpuPair>::over(items.data(), static_cast<std::uint32_t>(items.size()));
    GpuTicket ticket;
    ASSERT_EQ(collider.submitBatch(&job, 1, GpuBatchMode::BruteForce, GpuQuery::Pairs, ticket), Status::Ok);
    ASSERT_EQ(collider.collect(ticket, &out, nullptr), Status::Ok);
    EXPECT_GT(out.count, 0u);
    EXPECT_GT(collider.stats().last_batch_device_ns, 0u);
    EXPECT_GE(collider.stats().device_ns, collider.stats().last_batch_device_ns);
}

// The same contract answered by the device itself: jobs whose pairs are all decided on the device
// (none left to the host), so an overflowing batch is counted from the device's records.
TEST_F(GpuTest, OverflowWithNoPairLeftToTheHostIsCountedOnTheDevice) {
    GpuColliderConfig config = meshConfig();
    const Meshes& meshes = gpuMeshes();
    std::vector<GpuJobDesc> jobs;
    std::uint64_t all_pairs = 0;
    std::vector<GpuPair> expect;
    {
        GpuCollider& big = makeCollider(config);
        const std::vector<GpuMeshId> ids = uploadAll(big);
        const std::vector<GpuJobDesc> both = meshJobs(ids, 2, kSeed + 4);
        // Not the coincident jobs, and of the others those the device decides whole (a job that
        // leaves a pair to the host shows in host_decided_pairs when run alone).
        for (std::size_t j = 0; j < both.size(); j += 2) {
            const std::uint64_t before = big.stats().host_decided_pairs;
            (void)runBatch(big, std::vector<GpuJobDesc>{both[j]}, GpuBatchMode::Candidates);
            if (big.stats().host_decided_pairs == before) jobs.push_back(both[j]);
        }
        for (const GpuJobDesc& job : jobs)
            all_pairs += std::uint64_t{meshes[job.a.index]->tris.size()} * meshes[job.b.index]->tris.size();
        const std::uint64_t decided_alone = big.stats().host_decided_pairs;
        expect = cpuPairs(jobs);
        ASSERT_TRUE(runBatch(big, jobs, GpuBatchMode::Candidates) == expect);
        ASSERT_EQ(big.stats().host_decided_pairs, decided_alone);
    }
    ASSERT_GT(expect.size(), 200u);
    config.max_pairs = static_cast<std::uint32_t>(expect.size() / 3);
    GpuCollider& small = makeCollider(config);
    const std::vector<GpuMeshId> ids = uploadAll(small);
    GpuTicket ticket;
    ASSERT_EQ(small.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()),
                                GpuBatchMode::Candidates, GpuQuery::Pairs, ticket),
              Status::Ok);
    std::vector<GpuPair> items(expect.size(), GpuPair{0xDEADu, 0xDEADu, 0xDEADu});
    OutBuffer<GpuPair> out;
    out.items = items.data();
    out.capacity = static_cast<std::uint32_t>(expect.size());
    EXPECT_EQ(small.collect(ticket, &out, nullptr), Status::BufferFull);
    EXPECT_EQ(out.count, config.max_pairs);
    EXPECT_EQ(out.count + out.dropped, expect.size());
    EXPECT_TRUE(
        std::includes(expect.begin(), expect.end(), items.begin(), items.begin() + out.count, pairLess));
    // The device answered: the CPU path would have counted every n x m pair as tested.
    EXPECT_LT(small.stats().tested_pairs, all_pairs);
}

TEST_F(GpuTest, AnyContactMatchesCpu) {
    const Meshes& meshes = gpuMeshes();
    GpuCollider& collider = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids = uploadAll(collider, meshes);
    std::vector<GpuJobDesc> jobs = meshJobs(ids, 2, kSeed + 3, meshes);
    // Some far apart: no contact.
    for (std::size_t j = 0; j < jobs.size(); j += 3) jobs[j].b_to_a.translation.x += 1000.0f;
    for (GpuBatchMode mode : {GpuBatchMode::Candidates, GpuBatchMode::BruteForce}) {
        if (mode == GpuBatchMode::BruteForce) // n x m only on the low-poly pairs
            jobs.erase(std::remove_if(jobs.begin(), jobs.end(),
                                      [&](const GpuJobDesc& job) {
                                          return meshes[job.a.index]->tris.size() *
                                                     meshes[job.b.index]->tris.size() >
                                                 400000u;
                                      }),
                       jobs.end());
        GpuTicket ticket;
        ASSERT_EQ(collider.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()), mode,
                                       GpuQuery::AnyContact, ticket),
                  Status::Ok);
        std::vector<std::uint8_t> any(jobs.size(), 7u);
        ASSERT_EQ(collider.collect(ticket, nullptr, any.data()), Status::Ok);
        int hits = 0;
        for (std::size_t j = 0; j < jobs.size(); ++j) {
            const bool cpu = meshMeshAnyContact(meshes[jobs[j].a.index]->blob, meshes[jobs[j].b.index]->blob,
                                                jobs[j].b_to_a);
            EXPECT_EQ(any[j], cpu ? 1u : 0u) << "job " << j;
            hits += cpu ? 1 : 0;
        }
        EXPECT_GT(hits, 0);
        EXPECT_LT(hits, static_cast<int>(jobs.size()));
    }
}

TEST_F(GpuTest, DoubleBufferedSubmitsRunWhileTheCpuWorks) {
    GpuCollider& collider = makeCollider(meshConfig());
    const std::vector<GpuMeshId> ids = uploadAll(collider);
    const std::vector<GpuJobDesc> jobs1 = meshJobs(ids, 1, kSeed + 4);
    const std::vector<GpuJobDesc> jobs2 = meshJobs(ids, 1, kSeed + 5);
    GpuTicket t1, t2, t3;
    ASSERT_EQ(collider.submitBatch(jobs1.data(), static_cast<std::uint32_t>(jobs1.size()),
                                   GpuBatchMode::Candidates, GpuQuery::Pairs, t1),
              Status::Ok);
    ASSERT_EQ(collider.submitBatch(jobs2.data(), static_cast<std::uint32_t>(jobs2.size()),
                                   GpuBatchMode::Candidates, GpuQuery::Pairs, t2),
              Status::Ok);
    // Both buffers busy: a third batch is refused, not queued, and nothing blocks.
    EXPECT_EQ(collider.submitBatch(jobs1.data(), 1, GpuBatchMode::Candidates, GpuQuery::Pairs, t3),
              Status::PoolFull);
    const std::vector<GpuPair> expect1 = cpuPairs(jobs1), expect2 = cpuPairs(jobs2); // CPU work meanwhile
    const Status p1 = collider.poll(t1);
    EXPECT_TRUE(p1 == Status::Ok || p1 == Status::NotReady);
    EXPECT_EQ(collider.wait(t2), Status::Ok);
    EXPECT_EQ(collider.poll(t2), Status::Ok);
    std::vector<GpuPair> items(1u << 20);
    OutBuffer<GpuPair> out;
    out.items = items.data();
    out.capacity = static_cast<std::uint32_t>(items.size());
    ASSERT_EQ(collider.collect(t2, &out, nullptr), Status::Ok); // out of order is fine
    EXPECT_TRUE(std::vector<GpuPair>(items.begin(), items.begin() + out.count) == expect2);
    // One buffer free again: the next frame's batch goes in while t1 may still run.
    ASSERT_EQ(collider.submitBatch(jobs2.data(), static_cast<std::uint32_t>(jobs2.size()),
                                   GpuBatchMode::Candidates, GpuQuery::Pairs, t3),
              Status::Ok);
    out.count = 0;
    ASSERT_EQ(collider.collect(t1, &out, nullptr), Status::Ok);
    EXPECT_TRUE(std::vector<GpuPair>(items.begin(), items.begin() + out.count) == expect1);
    out.count = 0;
    ASSERT_EQ(collider.collect(t3, &out, nullptr), Status::Ok);
    EXPECT_TRUE(std::vector<GpuPair>(items.begin(), items.begin() + out.count) == expect2);
    EXPECT_EQ(collider.poll(t3), Status::InvalidArgument); // collected tickets are gone
    EXPECT_EQ(collider.backend(), GpuBackend::Vulkan);
    EXPECT_EQ(collider.stats().host_heap_failures, 0u);
    std::printf("driver host allocations through flak's heap: high water %zu bytes\n",
                collider.stats().host_heap_high_water);
}

} // namespace
} // namespace flak::test
