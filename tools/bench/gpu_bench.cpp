// flak_bench_gpu: what the Vulkan mesh-mesh back end gives on this machine, as one report
// (`tools/run gpu-bench` runs it with the worst scene's frame reports).
//
// The device: name, type, vendor, driver, Vulkan version, and its float rate, measured with
// chains of fused multiply-adds (fp32_rate.h).
// Workloads: batches of 1, 16, 64 and 256 jobs of an icosphere against itself in touching poses,
// brute force (320 triangles a mesh: every n x m pair on the device), BVH candidates (5,120
// triangles: the CPU walk's leaf pairs) and the device walk (the same leaf pairs, found on the
// device from the jobs' transforms). Per workload: the triangle pairs handed to the device and
// the pairs found, whether the device's pair list equals the CPU's (a hash of the sorted lists),
// the bytes the host writes per batch, the device time (timestamp queries; 0 where the queue has
// none), the end-to-end time (submit, wait, collect), the CPU's time
// for the same jobs (meshMeshPairs, one thread and every hardware thread), and the speedups.
// With --worst-* it adds the worst scene's frame reports (flak_framebudget --json): its
// mesh-mesh phase and frame-thread CPU time with and without the device.
//
// A device of the CPU type (lavapipe) or a collider that fell back to the CPU is not a GPU result:
// the report refuses it (exit 2) unless --allow-cpu is given, and says so in its JSON.
#include "fp32_rate.h"
#include "scene_mesh.h"

#include "flak_support/cli_number.h"
#include "flak_support/cpu_model.h"
#include "flak_support/json_read.h"
#include "flak_support/json_text.h"
#include "flak_support/mesh_gen.h"
#include "flak_support/split_mix.h"
#include "flak_support/thread_pool.h"

#include <flak/bvh/mesh_leaf_pairs.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/gpu/gpu_collider.h>
#include <flak/math/quat.h>
#include <flak/platform/vulkan_headless.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace flak::bench {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// `count` jobs of mesh `id` against itself, B shifted by 1.2 radii in a random direction and
// rotated: the spheres overlap in a lens (hundreds of intersecting pairs per job).
std::vector<GpuJobDesc> makeJobs(GpuMeshId id, int count) {
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

// Triangle pairs a batch hands to the device: n x m per job, or those inside the candidate leaves.
std::uint64_t pairsHandedOver(const std::vector<GpuJobDesc>& batch, const MeshBlob& mesh, GpuBatchMode mode) {
    std::uint64_t total = 0;
    std::vector<MeshLeafPair> leaves(1u << 20);
    for (const GpuJobDesc& job : batch) {
        if (mode == GpuBatchMode::BruteForce) {
            total += std::uint64_t{mesh.triangle_count} * mesh.triangle_count;
            continue;
        }
        OutBuffer<MeshLeafPair> buffer =
            OutBuffer<MeshLeafPair>::over(leaves.data(), static_cast<std::uint32_t>(leaves.size()));
        (void)meshMeshLeafPairs(mesh, mesh, job.b_to_a, buffer);
        for (std::uint32_t k = 0; k < buffer.count; ++k)
            total += std::uint64_t{leaves[k].a_count} * leaves[k].b_count;
    }
    return total;
}

// A pair list's fingerprint, in (job, a, b) order.
std::uint64_t pairHash(const GpuPair* pairs, std::size_t count) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint64_t w[2] = {pairs[k].job, (std::uint64_t{pairs[k].a} << 32) | pairs[k].b};
        for (const std::uint64_t v : w) h = test::SplitMix64(h ^ v).next();
    }
    return h;
}

// The CPU's answer for a batch: meshMeshPairs per job, each job's pairs sorted, in job order.
// Jobs run over `pool` (one worker: on the calling thread); each job writes its own slice.
struct CpuPairs {
    std::vector<std::vector<TrianglePair>> per_job;
    std::vector<GpuPair> all;
};

struct CpuTask {
    const MeshBlob* mesh;
    const std::vector<GpuJobDesc>* batch;
    CpuPairs* out;
    static void run(std::uint32_t begin, std::uint32_t end, std::uint32_t, void* context) {
        CpuTask& t = *static_cast<CpuTask*>(context);
        for (std::uint32_t j = begin; j < end; ++j) {
            std::vector<TrianglePair>& v = t.out->per_job[j];
            OutBuffer<TrianglePair> buffer =
                OutBuffer<TrianglePair>::over(v.data(), static_cast<std::uint32_t>(v.size()));
            (void)meshMeshPairs(*t.mesh, *t.mesh, (*t.batch)[j].b_to_a, buffer);
            v.resize(buffer.count); // shrinks: no allocation
        }
    }
};

double cpuBatch(const MeshBlob& mesh, const std::vector<GpuJobDesc>& batch, support::ThreadPool* pool,
                CpuPairs& out) {
    out.per_job.resize(batch.size());
    for (std::vector<TrianglePair>& v : out.per_job) v.resize(1u << 16); // room for every pair of a job
    CpuTask task{&mesh, &batch, &out};
    const Clock::time_point t0 = Clock::now();
    const std::uint32_t n = static_cast<std::uint32_t>(batch.size());
    if (pool == nullptr) {
        CpuTask::run(0, n, 0, &task);
    } else {
        const TaskSystem* ts = pool->tasks();
        void* handle = ts->enqueue(&CpuTask::run, n, 1, &task, ts->user);
        ts->finish(handle, ts->user);
    }
    const double ms = msSince(t0);
    out.all.clear();
    for (std::uint32_t j = 0; j < n; ++j) {
        std::vector<TrianglePair>& v = out.per_job[j];
        std::sort(v.begin(), v.end(), [](const TrianglePair& x, const TrianglePair& y) {
            return x.a != y.a ? x.a < y.a : x.b < y.b;
        });
        for (const TrianglePair& p : v) out.all.push_back(GpuPair{j, p.a, p.b});
    }
    return ms;
}

struct Row {
    const char* mode;
    int jobs = 0;
    std::uint64_t handed_over = 0;
    std::uint64_t found = 0;
    bool equal = false;
    Status status = Status::Ok;
    std::uint64_t upload_bytes = 0;
    double gpu_ms = 0.0;    // end to end, quickest of the repeats
    double device_ms = 0.0; // device time of the batch (timestamps), quickest of the repeats
    double cpu1_ms = 0.0;   // one thread
    double cpun_ms = 0.0;   // every hardware thread
};

std::string readFile(const char* path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The mean of `name` in a flak_framebudget --json report: a phase (`in_phases`) or a member of
// the report itself; NaN when absent.
double meanMs(const std::string& json, const char* name, bool in_phases) {
    const std::size_t object = in_phases ? support::jsonMember(json, "phases") : 0;
    double v = std::nan("");
    (void)support::jsonNumber(
        json, support::jsonMember(json, "mean_ms", support::jsonMember(json, name, object)), v);
    return v;
}

const char* deviceTypeName(VkPhysicalDeviceType t) {
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

std::string driverVersionText(std::uint32_t vendor, std::uint32_t v) {
    char buf[48];
    if (vendor == 0x10DE) // NVIDIA: 10.8.8.6 bits
        std::snprintf(buf, sizeof buf, "%u.%u.%u", v >> 22, (v >> 14) & 0xFFu, (v >> 6) & 0xFFu);
    else
        std::snprintf(buf, sizeof buf, "%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                      VK_API_VERSION_PATCH(v));
    return buf;
}

int usage() {
    std::fprintf(stderr,
                 "usage: flak_bench_gpu [--allow-cpu] [--check] [--repeat N] [--json FILE]\n"
                 "                      [--worst-cpu1 F --worst-cpun F --worst-gpu F [--worst-gpu-timed F]]\n"
                 "  --allow-cpu: report a CPU-type device (lavapipe) or a collider that fell back\n"
                 "               to the CPU instead of refusing (exit 2)\n"
                 "  --check: only bring the device and the collider up, print them and stop\n"
                 "  --worst-*: flak_framebudget --json reports of the worst scene with one thread,\n"
                 "             every hardware thread, and one thread with --gpu (and with --gpu\n"
                 "             --gpu-timestamps, for the device's time a step)\n");
    return 1;
}

} // namespace
} // namespace flak::bench

int main(int argc, char** argv) {
    using namespace flak;
    using namespace flak::bench;
    bool allow_cpu = false, check_only = false;
    int repeat = 5;
    const char* json_path = nullptr;
    const char* worst[3] = {nullptr, nullptr, nullptr}; // cpu1, cpun, gpu
    const char* worst_timed = nullptr;                  // gpu with timestamps
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--allow-cpu")
            allow_cpu = true;
        else if (a == "--check")
            check_only = true;
        else if (a == "--repeat" && has_value) {
            unsigned long long n = 0;
            if (!flak::support::parseWhole(argv[++i], 1, 1000, n)) return usage();
            repeat = static_cast<int>(n);
        } else if (a == "--json" && has_value)
            json_path = argv[++i];
        else if (a == "--worst-cpu1" && has_value)
            worst[0] = argv[++i];
        else if (a == "--worst-cpun" && has_value)
            worst[1] = argv[++i];
        else if (a == "--worst-gpu-timed" && has_value)
            worst_timed = argv[++i];
        else if (a == "--worst-gpu" && has_value)
            worst[2] = argv[++i];
        else
            return usage();
    }

    platform::VulkanHeadless vulkan;
    const Status vulkan_status = vulkan.create(platform::VulkanHeadlessOptions{});
    for (const std::string& s : vulkan.skippedDevices()) std::printf("passed over: %s\n", s.c_str());
    if (vulkan_status != Status::Ok) {
        std::fprintf(stderr, "flak_bench_gpu: no Vulkan device: %s (%s)\n", statusName(vulkan_status),
                     vulkan.error().c_str());
        return 2;
    }
    BakedScene low, high; // icosphere level 2 (320 triangles) and level 4 (5,120)
    if (!bakeScene(test::icosphere(2, 1.0f), low) || !bakeScene(test::icosphere(4, 1.0f), high)) return 1;
    GpuColliderConfig config;
    config.max_jobs = 256;
    config.max_leaf_pairs = 1u << 20;
    config.max_pairs = 1u << 22;
    config.time_batches = true;
    const std::size_t bytes = GpuCollider::requiredBytes(config);
    std::vector<unsigned char> memory(bytes + 16);
    void* block = memory.data() + ((16 - (reinterpret_cast<std::uintptr_t>(memory.data()) & 15u)) & 15u);
    const GpuDeviceInfo info = vulkan.deviceInfo();
    GpuCollider gpu;
    struct DestroyFirst { // the collider's Vulkan objects go before the device (declared after it)
        GpuCollider& collider;
        ~DestroyFirst() { collider.destroy(); }
    } destroy_first{gpu};
    const Status create_status = gpu.create(config, &info, block, bytes);
    GpuMeshId low_id, high_id;
    if (gpu.uploadMesh(low.blob, low_id) != Status::Ok || gpu.uploadMesh(high.blob, high_id) != Status::Ok) {
        std::fprintf(stderr, "flak_bench_gpu: uploadMesh failed\n");
        return 1;
    }
    const bool cpu_device = vulkan.deviceType() == VK_PHYSICAL_DEVICE_TYPE_CPU;
    const bool fell_back = create_status != Status::Ok || gpu.backend() != GpuBackend::Vulkan;
    std::printf("device: %s (%s, vendor 0x%04x, driver %s, Vulkan %u.%u)\n", vulkan.deviceName().c_str(),
                deviceTypeName(vulkan.deviceType()), vulkan.vendorId(),
                driverVersionText(vulkan.vendorId(), vulkan.driverVersion()).c_str(),
                VK_API_VERSION_MAJOR(vulkan.apiVersion()), VK_API_VERSION_MINOR(vulkan.apiVersion()));
    std::printf("collider: %s\n", fell_back ? statusName(create_status) : "on the device");
    std::printf("cpu: %s, %u hardware threads\n", support::cpuModel().c_str(),
                std::thread::hardware_concurrency());
    if ((cpu_device || fell_back) && !allow_cpu) {
        std::fprintf(
            stderr,
            "flak_bench_gpu: refusing to report %s as a GPU result (pass --allow-cpu to report it anyway)\n",
            fell_back ? "a collider that fell back to the CPU" : "a CPU-type device");
        return 2;
    }
    if (check_only) return 0;
    const Fp32Rate rate = measureFp32Rate(info);
    if (rate.measured)
        std::printf("fp32 rate: %.1f GFLOP/s (fused multiply-adds, %s %.1f ms dispatch)\n", rate.gflops,
                    rate.device_timed ? "device-timed" : "host-timed", rate.seconds * 1e3);
    else
        std::printf("fp32 rate: not measured (%s)\n", rate.error.c_str());

    const std::uint32_t hw = std::max(1u, std::thread::hardware_concurrency());
    support::ThreadPool pool(hw);
    std::vector<GpuPair> items(config.max_pairs);
    std::vector<Row> rows;
    const int sizes[4] = {1, 16, 64, 256};
    const GpuBatchMode modes[3] = {GpuBatchMode::BruteForce, GpuBatchMode::Candidates,
                                   GpuBatchMode::DeviceWalk};
    const char* const mode_names[3] = {"brute_force", "candidates", "device_walk"};
    for (int m = 0; m < 3; ++m) {
        const GpuBatchMode mode = modes[m];
        const BakedScene& scene = m == 0 ? low : high;
        for (const int n : sizes) {
            Row row;
            row.mode = mode_names[m];
            row.jobs = n;
            const std::vector<GpuJobDesc> batch = makeJobs(m == 0 ? low_id : high_id, n);
            row.handed_over = pairsHandedOver(batch, scene.blob, mode);
            CpuPairs cpu1, cpun;
            row.cpu1_ms = row.cpun_ms = row.gpu_ms = row.device_ms = 1e300;
            for (int r = 0; r < repeat; ++r) {
                row.cpu1_ms = std::min(row.cpu1_ms, cpuBatch(scene.blob, batch, nullptr, cpu1));
                row.cpun_ms = std::min(row.cpun_ms, cpuBatch(scene.blob, batch, &pool, cpun));
            }
            std::uint64_t gpu_hash = 0;
            for (int r = 0; r < repeat; ++r) {
                const std::uint64_t uploaded = gpu.stats().upload_bytes;
                const Clock::time_point t0 = Clock::now();
                GpuTicket ticket;
                const Status submitted = gpu.submitBatch(batch.data(), static_cast<std::uint32_t>(n), mode,
                                                         GpuQuery::Pairs, ticket);
                row.status = submitted;
                if (submitted != Status::Ok && submitted != Status::DeviceLost) break; // not started
                OutBuffer<GpuPair> out =
                    OutBuffer<GpuPair>::over(items.data(), static_cast<std::uint32_t>(items.size()));
                const Status collected = gpu.collect(ticket, &out, nullptr); // a started batch is collected
                if (submitted == Status::Ok) row.status = collected;
                row.gpu_ms = std::min(row.gpu_ms, msSince(t0));
                row.device_ms =
                    std::min(row.device_ms, static_cast<double>(gpu.stats().last_batch_device_ns) * 1e-6);
                row.upload_bytes = gpu.stats().upload_bytes - uploaded;
                row.found = out.count;
                gpu_hash = pairHash(out.items, out.count);
                if (row.status != Status::Ok) break;
            }
            row.equal = row.status == Status::Ok && gpu_hash == pairHash(cpu1.all.data(), cpu1.all.size()) &&
                        pairHash(cpun.all.data(), cpun.all.size()) == gpu_hash;
            std::printf("%-12s %3d jobs: %11" PRIu64 " pairs handed over, %7" PRIu64
                        " found, GPU==CPU %s, upload %8" PRIu64
                        " B, device %9.3f ms, end to end %9.3f ms, CPU 1 thread %9.3f ms, "
                        "%u threads %9.3f ms, speedup %6.2fx / %6.2fx%s\n",
                        row.mode, n, row.handed_over, row.found, row.equal ? "yes" : "NO", row.upload_bytes,
                        row.device_ms, row.gpu_ms, row.cpu1_ms, hw, row.cpun_ms, row.cpu1_ms / row.gpu_ms,
                        row.cpun_ms / row.gpu_ms, row.status == Status::Ok ? "" : " (status not Ok)");
            rows.push_back(row);
        }
    }

    // The worst scene's frame reports, when given.
    std::string worst_json[3];
    bool have_worst = worst[0] != nullptr && worst[1] != nullptr && worst[2] != nullptr;
    for (int k = 0; k < 3 && have_worst; ++k) {
        worst_json[k] = readFile(worst[k]);
        have_worst = !worst_json[k].empty();
    }
    double mm[3] = {0, 0, 0}, wait = 0, frame_cpu[3] = {0, 0, 0};
    bool worst_equal = false;
    double allocations = 0;
    double device_ms = -1.0; // the device's time a step (a timed run), -1 when not measured
    std::string gpu_status;
    if (have_worst) {
        std::string hash[3];
        for (int k = 0; k < 3; ++k) {
            mm[k] = meanMs(worst_json[k], "mesh_mesh", true);
            frame_cpu[k] = meanMs(worst_json[k], "total_thread_cpu", false);
            hash[k] =
                support::jsonString(worst_json[k], support::jsonMember(worst_json[k], "hit_stream_hash"));
        }
        wait = meanMs(worst_json[2], "gpu_wait", true);
        mm[2] += wait; // with the device, the phase is the wait plus the summaries
        (void)support::jsonNumber(worst_json[2], support::jsonMember(worst_json[2], "allocations"),
                                  allocations);
        gpu_status = support::jsonString(
            worst_json[2],
            support::jsonMember(worst_json[2], "status", support::jsonMember(worst_json[2], "gpu")));
        worst_equal = !hash[0].empty() && hash[0] == hash[2] && hash[1] == hash[2];
        const std::string timed = worst_timed != nullptr ? readFile(worst_timed) : std::string();
        if (!timed.empty() &&
            !support::jsonNumber(
                timed, support::jsonMember(timed, "device_ms_per_step", support::jsonMember(timed, "gpu")),
                device_ms))
            device_ms = -1.0;
        std::printf(
            "worst scene, mesh-mesh phase mean: CPU 1 thread %.3f ms, %u threads %.3f ms, GPU %.3f ms "
            "(wait %.3f); speedup %.2fx / %.2fx; frame-thread CPU %.3f ms without, %.3f ms with the "
            "device (%.2fx); hashes %s; allocations during frames with the device %.0f; collider %s\n",
            mm[0], hw, mm[1], mm[2], wait, mm[0] / mm[2], mm[1] / mm[2], frame_cpu[0], frame_cpu[2],
            frame_cpu[0] / frame_cpu[2], worst_equal ? "equal" : "DIFFER", allocations, gpu_status.c_str());
        if (device_ms >= 0.0)
            std::printf("worst scene, the device's time a step (timestamps, a separate run): %.3f ms\n",
                        device_ms);
    }

    if (json_path != nullptr) {
        std::FILE* f = std::fopen(json_path, "w");
        if (f == nullptr) {
            std::fprintf(stderr, "flak_bench_gpu: cannot write %s\n", json_path);
            return 1;
        }
        std::fprintf(
            f,
            "{\n  \"device\": {\"name\": %s, \"type\": \"%s\", \"vendor_id\": %u, \"driver\": \"%s\", "
            "\"vulkan\": \"%u.%u\", \"fp32_gflops\": %s, \"fp32_device_timed\": %s, \"cpu_type\": %s},\n",
            support::jsonText(vulkan.deviceName()).c_str(), deviceTypeName(vulkan.deviceType()),
            vulkan.vendorId(), driverVersionText(vulkan.vendorId(), vulkan.driverVersion()).c_str(),
            VK_API_VERSION_MAJOR(vulkan.apiVersion()), VK_API_VERSION_MINOR(vulkan.apiVersion()),
            rate.measured ? std::to_string(rate.gflops).c_str() : "null",
            rate.device_timed ? "true" : "false", cpu_device ? "true" : "false");
        std::fprintf(f, "  \"passed_over\": [");
        for (std::size_t k = 0; k < vulkan.skippedDevices().size(); ++k)
            std::fprintf(f, "%s%s", k ? ", " : "", support::jsonText(vulkan.skippedDevices()[k]).c_str());
        std::fprintf(f, "],\n  \"collider\": \"%s\",\n  \"gpu_result\": %s,\n",
                     fell_back ? statusName(create_status) : "gpu",
                     cpu_device || fell_back ? "false" : "true");
        std::fprintf(f, "  \"cpu\": {\"model\": %s, \"threads\": %u},\n  \"repeat\": %d,\n",
                     support::jsonText(support::cpuModel()).c_str(), hw, repeat);
        std::fprintf(f, "  \"workloads\": [\n");
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const Row& r = rows[k];
            std::fprintf(f,
                         "    {\"mode\": \"%s\", \"jobs\": %d, \"pairs_handed_over\": %" PRIu64
                         ", \"pairs_found\": %" PRIu64 ", \"gpu_equals_cpu\": %s, \"status\": \"%s\", "
                         "\"upload_bytes\": %" PRIu64
                         ", \"device_ms\": %.4f, \"end_to_end_ms\": %.4f, \"cpu_1_thread_ms\": %.4f, "
                         "\"cpu_all_threads_ms\": %.4f, \"speedup_vs_1_thread\": %.3f, "
                         "\"speedup_vs_all_threads\": %.3f}%s\n",
                         r.mode, r.jobs, r.handed_over, r.found, r.equal ? "true" : "false",
                         statusName(r.status), r.upload_bytes, r.device_ms, r.gpu_ms, r.cpu1_ms, r.cpun_ms,
                         r.cpu1_ms / r.gpu_ms, r.cpun_ms / r.gpu_ms, k + 1 < rows.size() ? "," : "");
        }
        std::fprintf(f, "  ]");
        if (have_worst)
            std::fprintf(
                f,
                ",\n  \"worst_scene\": {\"mesh_mesh_cpu_1_thread_ms\": %.4f, "
                "\"mesh_mesh_cpu_all_threads_ms\": "
                "%.4f, \"mesh_mesh_gpu_ms\": %.4f, \"gpu_wait_ms\": %.4f, \"speedup_vs_1_thread\": %.3f, "
                "\"speedup_vs_all_threads\": %.3f, \"frame_thread_cpu_ms_without\": %.4f, "
                "\"frame_thread_cpu_ms_with\": %.4f, \"frame_thread_cpu_ratio\": %.3f, "
                "\"hashes_equal\": %s, \"allocations_with_gpu\": %.0f, \"collider\": %s, "
                "\"mesh_mesh_device_ms\": %s}",
                mm[0], mm[1], mm[2], wait, mm[0] / mm[2], mm[1] / mm[2], frame_cpu[0], frame_cpu[2],
                frame_cpu[0] / frame_cpu[2], worst_equal ? "true" : "false", allocations,
                support::jsonText(gpu_status).c_str(),
                device_ms >= 0.0 ? std::to_string(device_ms).c_str() : "null");
        std::fprintf(f, "\n}\n");
        std::fclose(f);
    }
    bool all_equal = worst_equal || !have_worst;
    for (const Row& r : rows) all_equal = all_equal && r.equal;
    return all_equal ? 0 : 3;
}
