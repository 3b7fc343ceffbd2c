// Test support for runtime/gpu: a headless device with validation on (per test process), a
// collider over it, and the CPU oracle (triTriOverlap over all pairs / meshMeshPairs), sorted.
#pragma once

#include "geom/tri_tri_classify.h"
#include "query_meshes.h"
#include "support/oracle.h"

#include <flak/bvh/mesh_mesh.h>
#include <flak/geom/tri_tri.h>
#include <flak/gpu/gpu_collider.h>
#include <flak/platform/vulkan_headless.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace flak {
// In flak (GpuPair's namespace) so that std algorithms and gtest find them.
inline bool operator==(const GpuPair& x, const GpuPair& y) {
    return x.job == y.job && x.a == y.a && x.b == y.b;
}
inline std::ostream& operator<<(std::ostream& os, const GpuPair& p) {
    return os << "(job " << p.job << ", a " << p.a << ", b " << p.b << ")";
}
} // namespace flak

namespace flak::test {

inline bool pairLess(const GpuPair& x, const GpuPair& y) {
    return std::tie(x.job, x.a, x.b) < std::tie(y.job, y.a, y.b);
}
/// A collider with its memory.
struct ColliderBox {
    std::vector<unsigned char> storage;
    GpuCollider collider;
    Status create_status = Status::Ok;

    ColliderBox(const GpuColliderConfig& config, const GpuDeviceInfo* device) {
        const std::size_t bytes = GpuCollider::requiredBytes(config);
        storage.resize(bytes + 16);
        void* p = storage.data() + ((16 - (reinterpret_cast<std::uintptr_t>(storage.data()) & 15u)) & 15u);
        create_status = collider.create(config, device, p, bytes);
    }
    ~ColliderBox() { collider.destroy(); }
};

/// Keeps every loaded Mesa Vulkan driver (libvulkan_<name>.so) and layer (libVkLayer_<name>.so)
/// mapped for the life of the process. The loader unloads them at vkDestroyInstance; under
/// LeakSanitizer their own static allocations (lavapipe: a few 128-byte blocks; the validation
/// layer with synchronization validation: some kilobytes) then look leaked, since the globals that
/// pointed at them are gone, and LSan cannot name (or suppress) a frame of an unloaded module.
/// An extra reference (dlopen RTLD_NOLOAD) keeps the drivers' allocations reachable (no report)
/// and the layer's frames nameable: tests/gpu/validation_layer.lsan.supp (the sanitize preset's
/// LSAN_OPTIONS) names the state the validation layer itself keeps past vkDestroyInstance.
inline void pinVulkanDrivers() {
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void*) {
            if (info->dlpi_name != nullptr && (std::strstr(info->dlpi_name, "/libvulkan_") != nullptr ||
                                               std::strstr(info->dlpi_name, "/libVkLayer_") != nullptr))
                (void)dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD);
            return 0;
        },
        nullptr);
}

/// Every test gets its own device with the validation layers, and fails on any message.
class GpuTest : public ::testing::Test {
protected:
    void SetUp() override {
        platform::VulkanHeadlessOptions options;
        options.validation = true;
        const Status s = vulkan.create(options);
        ASSERT_EQ(s, Status::Ok) << vulkan.error();
        pinVulkanDrivers();
        device = vulkan.deviceInfo();
    }
    void TearDown() override {
        boxes.clear();
        vulkan.destroy();
        EXPECT_EQ(vulkan.validationErrors(), 0u);
        EXPECT_EQ(vulkan.validationWarnings(), 0u);
        for (const std::string& m : vulkan.validationMessages()) ADD_FAILURE() << "validation: " << m;
    }
    GpuCollider& makeCollider(const GpuColliderConfig& config, Status expect = Status::Ok) {
        boxes.push_back(std::make_unique<ColliderBox>(config, &device));
        EXPECT_EQ(boxes.back()->create_status, expect) << statusName(boxes.back()->create_status);
        return boxes.back()->collider;
    }
    /// The device is Mesa's llvmpipe (lavapipe), whose shaders stop every loop after 65,535
    /// iterations in all: the tests that need a walk cut short can only expect one there.
    bool driverCutsLongLoops() const { return vulkan.deviceName().rfind("llvmpipe", 0) == 0; }

    platform::VulkanHeadless vulkan;
    GpuDeviceInfo device;
    std::vector<std::unique_ptr<ColliderBox>> boxes;
};

/// The CPU's pairs of one job by brute force: triTriOverlap(A triangle, B triangle mapped by
/// transformPoint), the oracle meshMeshPairs is checked against.
inline void bruteForcePairs(const BakedMesh& a, const BakedMesh& b, const Transform& b_to_a,
                            std::uint32_t job, std::vector<GpuPair>& out) {
    std::vector<std::array<Vec3, 3>> tb(b.tris.size());
    for (std::size_t k = 0; k < b.tris.size(); ++k)
        for (std::size_t c = 0; c < 3; ++c) transformPoint(b_to_a, b.tris[k][c], tb[k][c]);
    for (std::uint32_t i = 0; i < a.tris.size(); ++i)
        for (std::uint32_t k = 0; k < tb.size(); ++k)
            if (triTriOverlap(a.tris[i][0], a.tris[i][1], a.tris[i][2], tb[k][0], tb[k][1], tb[k][2]))
                out.push_back(GpuPair{job, i, k});
}

/// meshMeshPairs of one job, as GpuPair.
inline void walkPairs(const BakedMesh& a, const BakedMesh& b, const Transform& b_to_a, std::uint32_t job,
                      std::vector<GpuPair>& out) {
    std::vector<TrianglePair> items(a.tris.size() * b.tris.size() + 1);
    OutBuffer<TrianglePair> buffer;
    buffer.items = items.data();
    buffer.capacity = static_cast<std::uint32_t>(items.size());
    EXPECT_EQ(meshMeshPairs(a.blob, b.blob, b_to_a, buffer), Status::Ok);
    for (std::uint32_t k = 0; k < buffer.count; ++k) out.push_back(GpuPair{job, items[k].a, items[k].b});
}

/// The pairs in one sorted list and not the other (at most `limit` of each), with the A triangle
/// and the B triangle in A's frame as hex floats: what a device that disagrees with the CPU is
/// shown with, so the pair can be replayed on the CPU. `meshes(job)` gives the job's two meshes.
template <class Meshes>
std::string pairDifference(const std::vector<GpuPair>& got, const std::vector<GpuPair>& expect,
                           const std::vector<GpuJobDesc>& jobs, Meshes&& meshes, std::size_t limit = 4) {
    std::string text;
    auto describe = [&](const char* what, const std::vector<GpuPair>& from,
                        const std::vector<GpuPair>& other) {
        std::vector<GpuPair> only;
        std::set_difference(from.begin(), from.end(), other.begin(), other.end(), std::back_inserter(only),
                            pairLess);
        for (std::size_t i = 0; i < only.size() && i < limit; ++i) {
            const GpuPair& p = only[i];
            const GpuJobDesc& job = jobs[p.job];
            const auto [pa, pb] = meshes(p.job);
            const BakedMesh& a = *pa;
            const BakedMesh& b = *pb;
            Vec3 v[6] = {a.tris[p.a][0], a.tris[p.a][1], a.tris[p.a][2]};
            for (std::size_t c = 0; c < 3; ++c) transformPoint(job.b_to_a, b.tris[p.b][c], v[3 + c]);
            char line[640];
            int n = std::snprintf(line, sizeof line, "%s: job %u (%s x %s) a %u b %u:", what, p.job,
                                  a.name.c_str(), b.name.c_str(), p.a, p.b);
            for (const Vec3& x : v)
                n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), " (%a, %a, %a)",
                                   static_cast<double>(x.x), static_cast<double>(x.y),
                                   static_cast<double>(x.z));
            text += line;
            text += "\n";
        }
        if (only.size() > limit) text += std::string(what) + ": " + std::to_string(only.size()) + " in all\n";
    };
    describe("device only", got, expect);
    describe("CPU only", expect, got);
    return text;
}

/// The device's crossing flags against the CPU's classification: every pair flagged
/// kGpuPairCrossing is one classifyTriTri finds Crossing (B mapped by the job's transform).
/// `meshes(job)` gives the job's two meshes. Returns how many pairs were flagged.
template <class Meshes>
std::size_t checkCrossingFlags(const std::vector<GpuPair>& got, const std::vector<GpuJobDesc>& jobs,
                               Meshes&& meshes) {
    std::size_t flagged = 0;
    for (const GpuPair& p : got) {
        if ((p.flags & kGpuPairCrossing) == 0u) continue;
        ++flagged;
        const auto [a, b] = meshes(p.job);
        Vec3 v[3];
        for (std::size_t c = 0; c < 3; ++c) transformPoint(jobs[p.job].b_to_a, b->tris[p.b][c], v[c]);
        EXPECT_EQ(detail::classifyTriTri(a->tris[p.a][0], a->tris[p.a][1], a->tris[p.a][2], v[0], v[1], v[2]),
                  detail::TriTriKind::Crossing)
            << p;
    }
    return flagged;
}

/// Submits, collects and returns the sorted pairs (collect's order), checking the status.
inline std::vector<GpuPair> runBatch(GpuCollider& collider, const std::vector<GpuJobDesc>& jobs,
                                     GpuBatchMode mode, std::uint32_t capacity = 1u << 22,
                                     Status expect = Status::Ok) {
    GpuTicket ticket;
    EXPECT_EQ(collider.submitBatch(jobs.data(), static_cast<std::uint32_t>(jobs.size()), mode,
                                   GpuQuery::Pairs, ticket),
              Status::Ok);
    std::vector<GpuPair> items(capacity);
    OutBuffer<GpuPair> out;
    out.items = items.data();
    out.capacity = capacity;
    const Status s = collider.collect(ticket, &out, nullptr);
    EXPECT_EQ(s, expect) << statusName(s);
    items.resize(out.count);
    return items;
}

} // namespace flak::test
