// flak — the tree a mesh has on the device, for the device walk (shaders/mesh_walk.comp): binary
// nodes in depth-first order, each internal node's info its subtree's node count (BvhNode's skip
// form), and the groups of mesh A that one walk invocation each takes against B.
//
// A blob's wide tree goes up as a binary copy of it, so that the device finds the very leaf pairs
// of the CPU's walk (walkLeafPairs):
// - each wide node becomes a node whose box is the union of its children's, over a balanced binary
//   tree of nodes for runs of its children (each box the union of the run's), down to the
//   children themselves: a leaf keeps its slot's box and leaf info, a wide child is copied the
//   same way;
// - the groups are the CPU walk's: a wide node whose leaves hold at most kWideGroupTriangles
//   triangles in at most GroupLeaves::kCapacity leaves, or a leaf above every such node.
// The device tests a group's box against B's root box, which is the CPU walk's test for taking a
// group; every box holds the boxes below it, so both walks reach the same B leaves for a group
// (those whose boxes overlap the group's) and test them against the same A leaves.
// Registration time only: the copy is made while staging, no memory besides two fixed stacks.
#pragma once

#include "bvh/tandem_walk.h"

#include <cstdint>

namespace flak::gpu {

/// Nodes and leaves of wide node `node`'s subtree in the device's copy.
struct DeviceSubtree {
    std::uint32_t nodes = 0;
    std::uint32_t leaves = 0;
};

inline DeviceSubtree deviceSubtree(const MeshBlob& m, std::uint32_t node) {
    DeviceSubtree out;
    std::uint32_t stack[kWideStack + kWideChildren];
    std::uint32_t pending = 0;
    stack[pending++] = node;
    while (pending > 0) {
        const WideNode& n = m.wide_nodes[stack[--pending]];
        const std::uint32_t count = wideCount(n);
        out.nodes += count > 1u ? count - 1u : 1u; // the node and its runs (a lone child: the node)
        for (std::uint32_t c = 0; c < count; ++c) {
            if ((n.child[c] & kLeafBit) != 0) {
                ++out.leaves;
            } else {
                FLAK_ASSERT(pending < kWideStack, "the loader bounds the wide tree's depth");
                stack[pending++] = n.child[c];
            }
        }
    }
    out.nodes += out.leaves;
    return out;
}

/// Calls visit(node, group) for every node of the device's copy of `m`'s tree, in depth-first
/// order; `group` is true at the nodes that are groups.
template <class Visit> void forEachDeviceNode(const MeshBlob& m, Visit&& visit) {
    if (m.wide_node_count == 0) return;
    struct Run {
        std::uint32_t node;
        std::uint32_t lo, hi; // children lo .. hi - 1
    };
    // Runs still to copy: at most ceil(log2(count)) <= count - 1 of a node while its first
    // child's subtree is copied (one more for a lone child), so the loader's bound holds.
    Run stack[kWideStack + 2];
    std::uint32_t pending = 0;
    std::uint32_t index = 0, group_end = 0; // nodes copied so far; the end of the current group
    const auto push_halves = [&](std::uint32_t node, std::uint32_t lo, std::uint32_t hi) {
        FLAK_ASSERT(pending + 2u <= kWideStack + 2u, "the loader bounds the wide tree's depth");
        const std::uint32_t mid = lo + (hi - lo) / 2u;
        stack[pending++] = Run{node, mid, hi};
        stack[pending++] = Run{node, lo, mid};
    };
    const auto copy_node = [&](std::uint32_t node) {
        const WideNode& n = m.wide_nodes[node];
        const std::uint32_t count = wideCount(n);
        const DeviceSubtree sub = deviceSubtree(m, node);
        BvhNode out = detail::wideUnionNode(n);
        out.info = sub.nodes;
        const bool group = index >= group_end && sub.leaves <= detail::GroupLeaves::kCapacity &&
                           detail::wideTriangleSpan(m, node) <= detail::kWideGroupTriangles;
        if (group) group_end = index + sub.nodes;
        visit(out, group);
        ++index;
        if (count == 1u) {
            FLAK_ASSERT(pending < kWideStack + 2u, "the loader bounds the wide tree's depth");
            stack[pending++] = Run{node, 0, 1};
        } else {
            push_halves(node, 0, count);
        }
    };
    copy_node(0);
    while (pending > 0) {
        const Run r = stack[--pending];
        const WideNode& n = m.wide_nodes[r.node];
        if (r.hi - r.lo == 1u) {
            const std::uint32_t ref = n.child[r.lo];
            if ((ref & kLeafBit) == 0) {
                copy_node(ref);
                continue;
            }
            const bool group = index >= group_end; // a leaf above every group
            if (group) group_end = index + 1u;
            visit(wideChildNode(n, r.lo), group);
            ++index;
            continue;
        }
        std::int32_t lo[3], hi[3];
        wideChildGrid(n, r.lo, lo, hi);
        std::uint32_t nodes = r.hi - r.lo - 1u; // the run's own nodes
        for (std::uint32_t c = r.lo; c < r.hi; ++c) {
            std::int32_t clo[3], chi[3];
            wideChildGrid(n, c, clo, chi);
            for (int k = 0; k < 3; ++k) {
                lo[k] = clo[k] < lo[k] ? clo[k] : lo[k];
                hi[k] = chi[k] > hi[k] ? chi[k] : hi[k];
            }
            nodes += (n.child[c] & kLeafBit) != 0 ? 1u : deviceSubtree(m, n.child[c]).nodes;
        }
        BvhNode out{};
        for (int k = 0; k < 3; ++k) {
            out.lo[k] = static_cast<std::uint16_t>(lo[k]);
            out.hi[k] = static_cast<std::uint16_t>(hi[k]);
        }
        out.info = nodes;
        visit(out, false);
        ++index;
        push_halves(r.node, r.lo, r.hi);
    }
}

} // namespace flak::gpu
