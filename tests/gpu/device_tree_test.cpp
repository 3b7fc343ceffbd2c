// The tree a mesh gets on the device (gpu/device_tree.h), on the CPU: a binary copy of the blob's
// wide tree that is a well-formed depth-first tree (each node's info its subtree's size), whose
// boxes hold the boxes below them, whose leaves are the wide tree's leaves in order with their
// boxes, and whose groups are the CPU walk's; and the device walk's steps run on the CPU over the
// copies find the CPU walk's very leaf pairs (on the device: GpuTest.RealMeshesDeviceWalkEqualsCpuWalk).
#include "gpu/device_tree.h"

#include "query_meshes.h"

#include "support/oracle.h"

#include <flak/bvh/mesh_leaf_pairs.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

namespace flak::test {
namespace {

struct Copied {
    BvhNode node;
    bool group;
};

std::vector<Copied> deviceCopy(const MeshBlob& m) {
    std::vector<Copied> out;
    gpu::forEachDeviceNode(m, [&](const BvhNode& n, bool group) { out.push_back(Copied{n, group}); });
    return out;
}

bool holds(const BvhNode& outer, const BvhNode& inner) {
    for (int k = 0; k < 3; ++k)
        if (inner.lo[k] < outer.lo[k] || inner.hi[k] > outer.hi[k]) return false;
    return true;
}

// The wide tree's leaves in walk order (node, slot), and the groups of the CPU wide walk, stated
// from its rule: a node whose leaves hold at most kWideGroupTriangles triangles in at most
// GroupLeaves::kCapacity leaves, or a leaf above every such node; as (first triangle, triangles).
void wideLeavesAndGroups(const MeshBlob& m, std::vector<BvhNode>& leaves,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>>& groups) {
    struct Entry {
        std::uint32_t node;
        bool in_group;
    };
    std::vector<Entry> stack{{0u, false}};
    while (!stack.empty()) {
        const Entry e = stack.back();
        stack.pop_back();
        const WideNode& n = m.wide_nodes[e.node];
        const gpu::DeviceSubtree sub = gpu::deviceSubtree(m, e.node);
        const std::uint32_t span = detail::wideTriangleSpan(m, e.node);
        bool in_group = e.in_group;
        if (!in_group && span <= detail::kWideGroupTriangles &&
            sub.leaves <= detail::GroupLeaves::kCapacity) {
            std::uint32_t first = e.node;
            while ((first & kLeafBit) == 0) first = m.wide_nodes[first].child[0];
            groups.emplace_back(leafInfoFirst(first), span);
            in_group = true;
        }
        for (std::uint32_t c = wideCount(n); c-- > 0;) {
            const std::uint32_t ref = n.child[c];
            if ((ref & kLeafBit) == 0) stack.push_back(Entry{ref, in_group});
        }
        // The leaves go in as met and are put in triangle order at the end: the wide tree's
        // leaves cover the triangles in order.
        for (std::uint32_t c = 0; c < wideCount(n); ++c) {
            const std::uint32_t ref = n.child[c];
            if ((ref & kLeafBit) == 0) continue;
            leaves.push_back(wideChildNode(n, c));
            if (!in_group) groups.emplace_back(leafInfoFirst(ref), leafInfoCount(ref));
        }
    }
    const auto by_first = [](const BvhNode& a, const BvhNode& b) { return leafFirst(a) < leafFirst(b); };
    std::sort(leaves.begin(), leaves.end(), by_first);
    std::sort(groups.begin(), groups.end());
}

void expectWellFormed(const std::vector<Copied>& nodes, const std::string& name) {
    ASSERT_FALSE(nodes.empty()) << name;
    EXPECT_EQ(skipOf(nodes[0].node), nodes.size()) << name;
    // Each internal node's children: consecutive subtrees that fill its range, boxes inside its.
    for (std::uint32_t i = 0; i < nodes.size(); ++i) {
        const BvhNode& n = nodes[i].node;
        if (isLeaf(n)) continue;
        const std::uint32_t end = i + skipOf(n);
        ASSERT_LE(end, nodes.size()) << name << " node " << i;
        ASSERT_GE(skipOf(n), 2u) << name << " node " << i;
        for (std::uint32_t c = i + 1; c < end; c += skipOf(nodes[c].node)) {
            EXPECT_TRUE(holds(n, nodes[c].node)) << name << " node " << i << " child " << c;
            ASSERT_LE(c + skipOf(nodes[c].node), end) << name << " node " << i << " child " << c;
        }
    }
}

// The test meshes, leaves of 1 to 16 triangles: with leaves of one or two triangles, nodes of at
// most 512 triangles have more leaves than a group holds, so their children are the groups.
TEST(DeviceTree, BlobGoesUpAsABinaryCopyWithTheCpuWalksGroups) {
    std::vector<const BakedMesh*> meshes;
    for (const auto& m : queryMeshes()) meshes.push_back(m.get());
    auto leaf1 = bakeMesh("icosphere4-leaf1", icosphere(4, 1.0f), true, false, 1);
    // The GPU cut test's mesh.
    auto leaf2 = bakeMesh("torus-leaf2", torus(40, 20), true, false, 2);
    meshes.push_back(leaf1.get());
    meshes.push_back(leaf2.get());
    for (const BakedMesh* m : meshes) {
        const std::vector<Copied> nodes = deviceCopy(m->blob);
        expectWellFormed(nodes, m->name);
        std::vector<BvhNode> want_leaves;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> want_groups;
        wideLeavesAndGroups(m->blob, want_leaves, want_groups);
        // A full binary tree over the same leaves.
        EXPECT_EQ(nodes.size(), 2u * want_leaves.size() - 1u) << m->name;
        std::vector<BvhNode> leaves;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> groups;
        std::uint32_t group_end = 0;
        for (std::uint32_t i = 0; i < nodes.size(); ++i) {
            const BvhNode& n = nodes[i].node;
            if (isLeaf(n)) leaves.push_back(n);
            if (!nodes[i].group) continue;
            EXPECT_GE(i, group_end) << m->name << ": groups nest at node " << i;
            group_end = i + skipOf(n);
            // The group's triangles: from its first leaf's first to its last leaf's end.
            std::uint32_t first = ~0u, end = 0;
            for (std::uint32_t k = i; k < group_end; ++k)
                if (isLeaf(nodes[k].node)) {
                    first = std::min(first, leafFirst(nodes[k].node));
                    end = std::max(end, leafFirst(nodes[k].node) + leafCount(nodes[k].node));
                }
            groups.emplace_back(first, end - first);
        }
        ASSERT_EQ(leaves.size(), want_leaves.size()) << m->name;
        for (std::size_t k = 0; k < leaves.size(); ++k)
            EXPECT_EQ(std::memcmp(&leaves[k], &want_leaves[k], sizeof(BvhNode)), 0)
                << m->name << " leaf " << k;
        EXPECT_EQ(leafFirst(leaves.back()) + leafCount(leaves.back()), m->blob.triangle_count) << m->name;
        std::sort(groups.begin(), groups.end());
        EXPECT_TRUE(groups == want_groups)
            << m->name << ": " << groups.size() << " groups against " << want_groups.size();
        // Every triangle in exactly one group.
        std::uint32_t next = 0;
        for (const auto& g : groups) {
            EXPECT_EQ(g.first, next) << m->name;
            next = g.first + g.second;
        }
        EXPECT_EQ(next, m->blob.triangle_count) << m->name;
        // With the small leaves, some group is a node whose parent had at most 512 triangles but
        // too many leaves.
        bool children_grouped = false;
        for (std::uint32_t i = 0; i < m->blob.wide_node_count; ++i)
            if (detail::wideTriangleSpan(m->blob, i) <= detail::kWideGroupTriangles &&
                gpu::deviceSubtree(m->blob, i).leaves > detail::GroupLeaves::kCapacity)
                children_grouped = true;
        EXPECT_TRUE(children_grouped || (m != leaf1.get() && m != leaf2.get())) << m->name;
    }
}

// The device walk (shaders/mesh_walk.comp) run on the CPU over the copies, step for step: the
// leaf pairs it finds, as (A first, A count, B first, B count), sorted.
std::vector<std::array<std::uint32_t, 4>> emulatedDeviceLeafPairs(const MeshBlob& a, const MeshBlob& b,
                                                                  const Transform& b_to_a) {
    std::vector<std::array<std::uint32_t, 4>> out;
    detail::TandemSetup setup;
    if (!detail::prepareTandemWalk(a, b, b_to_a, setup)) return out;
    detail::TandemFrames frames;
    detail::makeTandemFrames(a, b, b_to_a, setup.margin, frames);
    const std::vector<Copied> an = deviceCopy(a), bn = deviceCopy(b);
    for (std::uint32_t gi = 0; gi < an.size(); ++gi) {
        if (!an[gi].group) continue;
        const BvhNode& g = an[gi].node;
        if (!detail::nodeOverlaps(g, setup.b_root_q)) continue;
        detail::QuantBox gq;
        detail::groupIntoB(frames, setup, g, gq);
        std::uint32_t k = 0;
        while (k < bn.size()) {
            const BvhNode& nb = bn[k].node;
            if (!detail::nodeOverlaps(nb, gq)) {
                k += skipOf(nb);
                continue;
            }
            ++k;
            if (!isLeaf(nb)) continue;
            detail::QuantBox q;
            detail::nodeToGrid(frames.b_into_a, nb, q);
            for (std::uint32_t i = gi; i < gi + skipOf(g);) {
                if (!detail::nodeOverlaps(an[i].node, q)) {
                    i += skipOf(an[i].node);
                    continue;
                }
                if (isLeaf(an[i].node))
                    out.push_back(
                        {leafFirst(an[i].node), leafCount(an[i].node), leafFirst(nb), leafCount(nb)});
                ++i;
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The walk the device makes over the copies finds the CPU walk's leaf pairs, on every pair of test
// meshes that vary the walk (the slivers, Wuson and the quantized icosphere vary the kernels) and
// a torus of two-triangle leaves (groups of a too-big node's children), B placed touching A. (On
// the device: GpuTest.RealMeshesDeviceWalkEqualsCpuWalk.)
TEST(DeviceTree, EmulatedDeviceWalkFindsTheCpuWalksLeafPairs) {
    auto leaf2 = bakeMesh("torus-leaf2", torus(40, 20), true, false, 2);
    std::vector<const BakedMesh*> meshes;
    for (const auto& m : queryMeshes())
        if (m->name != "slivers" && m->name != "wuson" && m->name != "icosphere3-quantized")
            meshes.push_back(m.get());
    meshes.push_back(leaf2.get());
    std::vector<MeshLeafPair> leaves(1u << 18);
    std::uint64_t seed = 0, pairs = 0;
    for (const BakedMesh* a : meshes)
        for (const BakedMesh* b : meshes)
            for (int r = 0; r < 3; ++r) {
                SplitMix64 rng = caseRng(0xDE71CEull, ++seed);
                Transform t;
                randomTransform(rng, 0.0f, t);
                Vec3 pa, pb, mb;
                pointOnTriangle(*a, static_cast<std::uint32_t>(rng.next() % a->tris.size()), rng, pa);
                pointOnTriangle(*b, static_cast<std::uint32_t>(rng.next() % b->tris.size()), rng, pb);
                transformVector(t, pb, mb);
                sub(pa, mb, t.translation);
                OutBuffer<MeshLeafPair> out = OutBuffer<MeshLeafPair>::over(leaves.data(), 1u << 18);
                ASSERT_EQ(meshMeshLeafPairs(a->blob, b->blob, t, out), Status::Ok);
                std::vector<std::array<std::uint32_t, 4>> cpu;
                for (std::uint32_t k = 0; k < out.count; ++k)
                    cpu.push_back({out.items[k].a_first, out.items[k].a_count, out.items[k].b_first,
                                   out.items[k].b_count});
                std::sort(cpu.begin(), cpu.end());
                const auto device = emulatedDeviceLeafPairs(a->blob, b->blob, t);
                ASSERT_TRUE(device == cpu) << a->name << " x " << b->name << " pose " << r << ": CPU "
                                           << cpu.size() << " leaf pairs, device " << device.size();
                pairs += cpu.size();
            }
    EXPECT_GT(pairs, 10000u);
}

} // namespace
} // namespace flak::test
