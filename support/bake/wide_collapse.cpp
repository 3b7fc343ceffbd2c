#include "wide_collapse.h"

#include <flak/bvh/mesh_blob.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace flak::bake {

namespace {

double surfaceArea(const BvhNode& n) {
    const double x = static_cast<double>(n.hi[0] - n.lo[0]), y = static_cast<double>(n.hi[1] - n.lo[1]),
                 z = static_cast<double>(n.hi[2] - n.lo[2]);
    return x * y + y * z + z * x;
}

// The choice of which binary nodes become wide nodes (Ylitie, Karras, Laine 2017, "Efficient
// Incoherent Ray Traversal on GPUs Through Compressed Wide BVHs", section 4.1): for every binary
// node n and i = 1..8, cost[n][i] is the least SAH cost of covering n's subtree with at most i
// roots, a root being a leaf or a wide node whose children cover its subtree with at most 8
// roots. Leaves stay the baker's leaves.
struct Collapse {
    static constexpr double kNodeCost = 1.0;     // visiting a wide node
    static constexpr double kTriangleCost = 0.3; // testing one triangle
    struct Entry {
        double cost;
        std::int8_t split; // i roots: > 0 left gets `split`, right i - split; 0 n is the root; -1 as i - 1
    };
    std::vector<Entry> table; // 9 per binary node, [1..8] used
    const std::vector<BvhNode>& binary;

    explicit Collapse(const std::vector<BvhNode>& nodes) : table(nodes.size() * 9), binary(nodes) {
        for (std::size_t n = nodes.size(); n-- > 0;) { // children before parents
            Entry* e = &table[9 * n];
            const double area = surfaceArea(nodes[n]);
            if (isLeaf(nodes[n])) {
                for (int i = 1; i <= 8; ++i) e[i] = {area * kTriangleCost * leafCount(nodes[n]), 0};
                continue;
            }
            const std::size_t l = n + 1, r = l + skipOf(nodes[l]);
            const Entry* el = &table[9 * l];
            const Entry* er = &table[9 * r];
            Entry dist[9];
            for (int i = 2; i <= 8; ++i) {
                dist[i] = {el[1].cost + er[i - 1].cost, 1};
                for (int k = 2; k < i; ++k)
                    if (el[k].cost + er[i - k].cost < dist[i].cost)
                        dist[i] = {el[k].cost + er[i - k].cost, static_cast<std::int8_t>(k)};
            }
            e[1] = {area * kNodeCost + dist[8].cost, 0};
            for (int i = 2; i <= 8; ++i)
                e[i] = dist[i].cost < e[i - 1].cost ? dist[i] : Entry{e[i - 1].cost, -1};
        }
    }

    // The roots covering n's subtree with at most i of them, in depth-first order.
    void roots(std::uint32_t n, int i, std::vector<std::uint32_t>& out) const {
        const Entry& e = table[9 * std::size_t{n} + static_cast<std::size_t>(i)];
        if (e.split < 0) return roots(n, i - 1, out);
        if (e.split == 0) return out.push_back(n);
        const std::uint32_t l = n + 1, r = l + skipOf(binary[l]);
        roots(l, e.split, out);
        roots(r, i - e.split, out);
    }

    // The children of a wide node over binary node n: its subtree's best cover by at most 8.
    std::vector<std::uint32_t> children(std::uint32_t n) const {
        std::vector<std::uint32_t> out;
        if (isLeaf(binary[n])) {
            out.push_back(n); // a tree that is one leaf: the root holds it
            return out;
        }
        const std::uint32_t l = n + 1, r = l + skipOf(binary[l]);
        int best_k = 1;
        double best = table[9 * std::size_t{l} + 1].cost + table[9 * std::size_t{r} + 7].cost;
        for (int k = 2; k < 8; ++k) {
            const double c = table[9 * std::size_t{l} + static_cast<std::size_t>(k)].cost +
                             table[9 * std::size_t{r} + static_cast<std::size_t>(8 - k)].cost;
            if (c < best) best = c, best_k = k;
        }
        roots(l, best_k, out);
        roots(r, 8 - best_k, out);
        return out;
    }
};

} // namespace

std::vector<WideNode> collapseWide(const std::vector<BvhNode>& binary) {
    std::vector<WideNode> wide;
    if (binary.empty()) return wide;
    // Top down, in depth-first preorder: each node's binary children and the links.
    std::vector<std::vector<std::uint32_t>> opened;
    struct Work {
        std::uint32_t binary_node;
        std::size_t parent; // wide node whose slot points here (unused for the root)
        std::uint32_t slot;
    };
    const Collapse collapse(binary);
    std::vector<Work> work{{0u, 0u, 0u}};
    while (!work.empty()) {
        const Work item = work.back();
        work.pop_back();
        const std::size_t index = wide.size();
        if (index > 0) wide[item.parent].child[item.slot] = static_cast<std::uint32_t>(index);
        wide.push_back(WideNode{});
        opened.push_back(collapse.children(item.binary_node));
        const std::vector<std::uint32_t>& children = opened.back();
        for (std::size_t c = 0; c < children.size(); ++c)
            if (isLeaf(binary[children[c]])) wide.back().child[c] = binary[children[c]].info;
        for (std::size_t c = children.size(); c-- > 0;) // popped in slot order: depth-first preorder
            if (!isLeaf(binary[children[c]]))
                work.push_back({children[c], index, static_cast<std::uint32_t>(c)});
    }
    // Child boxes, top down (a parent comes before its children): each node's frame is the box
    // its parent's slot decodes to, the root's the root's own box.
    std::vector<BvhNode> frames(wide.size());
    frames[0] = binary[0];
    for (std::size_t i = 0; i < wide.size(); ++i) {
        BvhNode boxes[kWideChildren];
        const std::uint32_t count = static_cast<std::uint32_t>(opened[i].size());
        for (std::uint32_t c = 0; c < count; ++c) boxes[c] = binary[opened[i][c]];
        setWideBoxes(frames[i].lo, frames[i].hi, boxes, count, wide[i]);
        for (std::uint32_t c = 0; c < count; ++c)
            if ((wide[i].child[c] & kLeafBit) == 0) frames[wide[i].child[c]] = wideChildNode(wide[i], c);
    }
    return wide;
}

void setWideBoxes(const std::uint16_t frame_lo[3], const std::uint16_t frame_hi[3], const BvhNode* boxes,
                  std::uint32_t count, WideNode& out) {
    for (int k = 0; k < 3; ++k) {
        const std::int32_t base = frame_lo[k], span = frame_hi[k] - base;
        std::uint32_t shift = 0;
        while ((span >> shift) > 255) ++shift;
        out.base[k] = frame_lo[k];
        out.step[k] = static_cast<std::uint16_t>(1u << shift);
        for (std::uint32_t c = 0; c < kWideChildren; ++c) {
            const bool used = c < count;
            out.lo[k][c] = static_cast<std::uint8_t>(used ? (boxes[c].lo[k] - base) >> shift : 255);
            out.hi[k][c] = static_cast<std::uint8_t>(used ? (boxes[c].hi[k] - base) >> shift : 0);
        }
    }
    for (std::uint8_t& p : out.padding) p = 0;
}

std::uint32_t wideDepth(const std::vector<WideNode>& wide) {
    std::vector<std::uint32_t> depth(wide.size(), 1u); // children come after their parent
    std::uint32_t deepest = wide.empty() ? 0u : 1u;
    for (std::size_t i = 0; i < wide.size(); ++i)
        for (std::size_t c = 0; c < kWideChildren && wide[i].child[c] != 0; ++c)
            if ((wide[i].child[c] & kLeafBit) == 0) {
                depth[wide[i].child[c]] = depth[i] + 1u;
                deepest = std::max(deepest, depth[i] + 1u);
            }
    return deepest;
}

} // namespace flak::bake
