// flak_bench_gpu: runtime/gpu against the CPU path on the same batches (Google Benchmark).
//   BM_TrianglePairs/<backend>/<mode>: triangle pairs tested per second (items_per_second) for a
//     batch of icosphere-vs-icosphere jobs in touching poses; GPU = submit + wait + collect.
//   BM_BatchLatency_Gpu/<jobs>/<mode>: mode 0 = candidates (5120-triangle spheres: the CPU walk
//     runs inside submit), 1 = brute force (320-triangle spheres); counters split the latency into upload
//     (the host writes jobs and rects into mapped memory: submitBatch), dispatch (wait on the fence) and
//     readback (collect: copy + sort), in microseconds.
// The device is platform/'s headless pick (discrete > integrated > CPU/lavapipe), no validation.
#include "scene_mesh.h"

#include "flak_support/mesh_gen.h"
#include "flak_support/split_mix.h"

#include <flak/bvh/mesh_leaf_pairs.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/geom/tri_tri.h>
#include <flak/gpu/gpu_collider.h>
#include <flak/math/quat.h>
#include <flak/platform/vulkan_headless.h>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace flak::bench {
namespace {

struct Fixture {
    platform::VulkanHeadless vulkan;
    Status vulkan_status = Status::NoDevice;
    BakedScene low, high; // icosphere level 2 (320 triangles) and level 4 (5120)
    std::vector<unsigned char> memory;
    GpuCollider gpu;
    std::vector<unsigned char> memory_cpu;
    GpuCollider cpu; // created without a device: the CPU path
    GpuMeshId low_gpu, high_gpu, low_cpu, high_cpu;

    Fixture() {
        vulkan_status = vulkan.create(platform::VulkanHeadlessOptions{});
        if (vulkan_status == Status::Ok)
            std::fprintf(stderr, "flak_bench_gpu: device %s\n", vulkan.deviceName().c_str());
        bakeScene(test::icosphere(2, 1.0f), low);
        bakeScene(test::icosphere(4, 1.0f), high);
        GpuColliderConfig config;
        config.max_jobs = 4096;
        config.max_leaf_pairs = 1u << 20;
        config.max_pairs = 1u << 22;
        const std::size_t bytes = GpuCollider::requiredBytes(config);
        memory.resize(bytes + 16);
        memory_cpu.resize(bytes + 16);
        const GpuDeviceInfo info = vulkan.deviceInfo();
        (void)gpu.create(config, vulkan_status == Status::Ok ? &info : nullptr, align(memory), bytes);
        (void)cpu.create(config, nullptr, align(memory_cpu), bytes);
        (void)gpu.uploadMesh(low.blob, low_gpu);
        (void)gpu.uploadMesh(high.blob, high_gpu);
        (void)cpu.uploadMesh(low.blob, low_cpu);
        (void)cpu.uploadMesh(high.blob, high_cpu);
    }
    ~Fixture() {
        gpu.destroy();
        cpu.destroy();
    }
    static void* align(std::vector<unsigned char>& v) {
        return v.data() + ((16 - (reinterpret_cast<std::uintptr_t>(v.data()) & 15u)) & 15u);
    }
};

Fixture& fixture() {
    static Fixture f;
    return f;
}

// `count` jobs of mesh `id` against itself, B shifted by 1.2 radii in a random direction and
// rotated: the spheres overlap in a lens (hundreds of intersecting pairs per job).
std::vector<GpuJobDesc> jobs(GpuMeshId id, int count) {
    std::vector<GpuJobDesc> out;
    test::SplitMix64 rng(0xBE5C4ull);
    for (int k = 0; k < count; ++k) {
        GpuJobDesc job;
        job.a = id;
        job.b = id;
        Quat q{static_cast<float>(rng.range(-1, 1)), static_cast<float>(rng.range(-1, 1)),
               static_cast<float>(rng.range(-1, 1)), static_cast<float>(rng.range(-1, 1))};
        const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
        q = Quat{q.x / n, q.y / n, q.z / n, q.w / n};
        const double z = rng.range(-1, 1), phi = rng.range(0, 6.283185307179586), s = std::sqrt(1 - z * z);
        fromQuatTranslation(q,
                            Vec3{static_cast<float>(1.2 * s * std::cos(phi)),
                                 static_cast<float>(1.2 * s * std::sin(phi)), static_cast<float>(1.2 * z)},
                            job.b_to_a);
        out.push_back(job);
    }
    return out;
}

// Triangle pairs a batch hands to the GPU: n x m per job, or the pairs inside the candidate leaves.
std::uint64_t pairsCovered(const std::vector<GpuJobDesc>& batch, const MeshBlob& mesh, GpuBatchMode mode) {
    std::uint64_t total = 0;
    std::vector<MeshLeafPair> leaves(1u << 20);
    for (const GpuJobDesc& job : batch) {
        if (mode == GpuBatchMode::BruteForce) {
            total += std::uint64_t{mesh.triangle_count} * mesh.triangle_count;
            continue;
        }
        OutBuffer<MeshLeafPair> buffer;
        buffer.items = leaves.data();
        buffer.capacity = static_cast<std::uint32_t>(leaves.size());
        (void)meshMeshLeafPairs(mesh, mesh, job.b_to_a, buffer);
        for (std::uint32_t k = 0; k < buffer.count; ++k)
            total += std::uint64_t{leaves[k].a_count} * leaves[k].b_count;
    }
    return total;
}

void runPairs(benchmark::State& state, bool use_gpu, GpuBatchMode mode, bool high) {
    Fixture& f = fixture();
    if (use_gpu && f.vulkan_status != Status::Ok) {
        state.SkipWithError("no Vulkan device");
        return;
    }
    GpuCollider& c = use_gpu ? f.gpu : f.cpu;
    const GpuMeshId id = high ? (use_gpu ? f.high_gpu : f.high_cpu) : (use_gpu ? f.low_gpu : f.low_cpu);
    const std::vector<GpuJobDesc> batch = jobs(id, static_cast<int>(state.range(0)));
    std::vector<GpuPair> items(1u << 22);
    const std::uint64_t tested = pairsCovered(batch, high ? f.high.blob : f.low.blob, mode);
    std::uint64_t found = 0;
    for (auto _ : state) {
        GpuTicket ticket;
        if (c.submitBatch(batch.data(), static_cast<std::uint32_t>(batch.size()), mode, GpuQuery::Pairs,
                          ticket) != Status::Ok) {
            state.SkipWithError("submit failed");
            return;
        }
        OutBuffer<GpuPair> out;
        out.items = items.data();
        out.capacity = static_cast<std::uint32_t>(items.size());
        (void)c.collect(ticket, &out, nullptr);
        found = out.count;
    }
    // Items are the same pair count for both back ends (n x m per job for brute force; the pairs
    // inside the candidate leaf pairs for candidate mode), so items_per_second compares batch
    // times. The CPU path answers both modes with meshMeshPairs, whose boxes skip most of them.
    state.SetItemsProcessed(static_cast<std::int64_t>(tested) * state.iterations());
    state.counters["pairs_found"] = static_cast<double>(found);
    state.counters["pairs_tested"] = static_cast<double>(tested);
}

void BM_TrianglePairs_Gpu_BruteForce(benchmark::State& s) {
    runPairs(s, true, GpuBatchMode::BruteForce, false);
}
void BM_TrianglePairs_Cpu_BruteForce(benchmark::State& s) {
    runPairs(s, false, GpuBatchMode::BruteForce, false);
}
void BM_TrianglePairs_Gpu_Candidates(benchmark::State& s) {
    runPairs(s, true, GpuBatchMode::Candidates, true);
}
void BM_TrianglePairs_Cpu_Candidates(benchmark::State& s) {
    runPairs(s, false, GpuBatchMode::Candidates, true);
}
BENCHMARK(BM_TrianglePairs_Gpu_BruteForce)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TrianglePairs_Cpu_BruteForce)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TrianglePairs_Gpu_Candidates)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TrianglePairs_Cpu_Candidates)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();

// Raw CPU kernel rate on the same brute-force pairs (triTriOverlap, no collider around it).
void BM_TrianglePairs_CpuKernel_BruteForce(benchmark::State& state) {
    Fixture& f = fixture();
    const std::vector<GpuJobDesc> batch = jobs(f.low_cpu, static_cast<int>(state.range(0)));
    const MeshBlob& m = f.low.blob;
    std::vector<Vec3> va(m.triangle_count * 3);
    for (std::uint32_t t = 0; t < m.triangle_count; ++t)
        triangleVertices(m, t, va[3 * t], va[3 * t + 1], va[3 * t + 2]);
    std::vector<Vec3> vb(va.size());
    std::uint64_t found = 0;
    for (auto _ : state) {
        found = 0;
        for (const GpuJobDesc& job : batch) {
            transformPoints(job.b_to_a, va.data(), va.size(), vb.data());
            for (std::uint32_t i = 0; i < m.triangle_count; ++i)
                for (std::uint32_t k = 0; k < m.triangle_count; ++k)
                    found += triTriOverlap(va[3 * i], va[3 * i + 1], va[3 * i + 2], vb[3 * k], vb[3 * k + 1],
                                           vb[3 * k + 2]);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(batch.size()) * m.triangle_count *
                            m.triangle_count);
    state.counters["pairs_found"] = static_cast<double>(found);
}
BENCHMARK(BM_TrianglePairs_CpuKernel_BruteForce)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_BatchLatency_Gpu(benchmark::State& state) {
    Fixture& f = fixture();
    if (f.vulkan_status != Status::Ok) {
        state.SkipWithError("no Vulkan device");
        return;
    }
    const GpuBatchMode mode = state.range(1) == 0 ? GpuBatchMode::Candidates : GpuBatchMode::BruteForce;
    const std::vector<GpuJobDesc> batch =
        jobs(mode == GpuBatchMode::Candidates ? f.high_gpu : f.low_gpu, static_cast<int>(state.range(0)));
    std::vector<GpuPair> items(1u << 20);
    double upload = 0, dispatch = 0, readback = 0;
    using Clock = std::chrono::steady_clock;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        GpuTicket ticket;
        (void)f.gpu.submitBatch(batch.data(), static_cast<std::uint32_t>(batch.size()), mode, GpuQuery::Pairs,
                                ticket);
        const auto t1 = Clock::now();
        (void)f.gpu.wait(ticket); // blocks on the fence: a spinning poll would steal lavapipe's cores
        const auto t2 = Clock::now();
        OutBuffer<GpuPair> out;
        out.items = items.data();
        out.capacity = static_cast<std::uint32_t>(items.size());
        (void)f.gpu.collect(ticket, &out, nullptr);
        const auto t3 = Clock::now();
        upload += std::chrono::duration<double, std::micro>(t1 - t0).count();
        dispatch += std::chrono::duration<double, std::micro>(t2 - t1).count();
        readback += std::chrono::duration<double, std::micro>(t3 - t2).count();
    }
    const double n = static_cast<double>(state.iterations());
    state.counters["upload_us"] = upload / n;
    state.counters["dispatch_us"] = dispatch / n;
    state.counters["readback_us"] = readback / n;
}
BENCHMARK(BM_BatchLatency_Gpu)
    ->Args({1, 0})
    ->Args({16, 0})
    ->Args({1, 1})
    ->Args({16, 1})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

void BM_BatchLatency_Cpu(benchmark::State& state) {
    Fixture& f = fixture();
    const GpuBatchMode mode = state.range(1) == 0 ? GpuBatchMode::Candidates : GpuBatchMode::BruteForce;
    const std::vector<GpuJobDesc> batch =
        jobs(mode == GpuBatchMode::Candidates ? f.high_cpu : f.low_cpu, static_cast<int>(state.range(0)));
    std::vector<GpuPair> items(1u << 20);
    for (auto _ : state) {
        GpuTicket ticket;
        (void)f.cpu.submitBatch(batch.data(), static_cast<std::uint32_t>(batch.size()), mode, GpuQuery::Pairs,
                                ticket);
        OutBuffer<GpuPair> out;
        out.items = items.data();
        out.capacity = static_cast<std::uint32_t>(items.size());
        (void)f.cpu.collect(ticket, &out, nullptr);
    }
}
BENCHMARK(BM_BatchLatency_Cpu)
    ->Args({1, 0})
    ->Args({16, 0})
    ->Args({1, 1})
    ->Args({16, 1})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

} // namespace
} // namespace flak::bench
