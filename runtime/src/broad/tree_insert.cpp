// flak — dynamic tree: leaf insertion by surface-area cost, leaf removal, refitting.
#include <flak/assert.h>
#include <flak/broad/dynamic_tree.h>

#include "broad/tree_walk.h"

namespace flak {

// Sibling choice: the surface-area heuristic with branch and bound (Bittner et al. 2013), in the
// single-path form of Catto's dynamic tree (Box2D v3). Making node S the sibling of the new fat
// box D costs area(S u D) for the new parent plus the growth area(A u D) - area(A) of every
// ancestor A of S. The walk goes down one path, always into the child with the lower bound on
// what its subtree could cost, and stops when neither child's bound beats the best cost found:
// no stack, and O(depth) work.
std::uint32_t DynamicTree::findBestSibling(const Aabb& fat) const {
    const float area_new = treeArea(fat);
    Aabb root_box, merged;
    getEnclosingBox(0, root_box);
    merge(root_box, fat, merged);
    float best_cost = treeArea(merged);
    std::uint32_t best = 0;
    float inherited = 0.0f; // growth of the ancestors of the children looked at next
    // Exact ties (identical boxes: every choice costs the same) take the side from a hash of the
    // insertion count, one bit per level, both for the best sibling and for the way down, a leaf
    // included: identical boxes then go down a random path to a random leaf and split it, which
    // fills the tree like a trie of random keys (depth O(log n)) instead of a chain.
    std::uint32_t tie_bits = m_inserts * 0x9E3779B9u;
    tie_bits ^= tie_bits >> 16;
    std::uint32_t slot = 0;
    while (!isLeaf(m_nodes[slot])) {
        const TreeNode& node = m_nodes[slot];
        merge(node.box, fat, merged);
        inherited += treeArea(merged) - treeArea(node.box);

        float lower[2];
        bool leaf[2];
        const std::uint32_t tie_side = tie_bits & 1u;
        tie_bits = (tie_bits >> 1) | (tie_bits << 31);
        for (std::uint32_t k = 0; k < 2; ++k) {
            const std::uint32_t child = node.child + k;
            // A leaf's own box is its tight box; its fat box would cost a proxy-record read per
            // candidate, and the search only needs costs to compare, so the tight box stands in.
            const Aabb& child_box = m_nodes[child].box;
            merge(child_box, fat, merged);
            const float direct = treeArea(merged);
            const float cost = direct + inherited;
            if (cost < best_cost || (cost == best_cost && k == tie_side)) {
                best_cost = cost;
                best = child;
            }
            leaf[k] = isLeaf(m_nodes[child]);
            // Below this child the new parent costs at least area_new and the child itself grows;
            // a leaf has nothing below it, so its bound is its own cost (the way down stops there).
            lower[k] = leaf[k] ? cost : inherited + (direct - treeArea(child_box)) + area_new;
        }
        std::uint32_t k = lower[1] < lower[0] ? 1u : 0u;
        if (lower[0] == lower[1]) k = tie_side;
        if (leaf[k] || lower[k] > best_cost) break;
        slot = node.child + k;
    }
    return best;
}

void DynamicTree::insertLeaf(std::uint32_t proxy_index, const Aabb& tight) {
    TreeProxy& record = m_records[proxy_index];
    if (m_nodes[0].parent == kTreeFreeNode) {
        // Empty tree: the leaf is the root.
        m_nodes[0].box = tight;
        m_nodes[0].parent = kTreeNullNode;
        m_nodes[0].child = kTreeLeafBit | proxy_index;
        record.node = 0;
        return;
    }
    // The sibling's slot becomes the new parent, so nothing above it is relinked; the sibling
    // moves into the first slot of a fresh pair and the new leaf into the second.
    const std::uint32_t sibling = findBestSibling(m_fat[proxy_index]);
    ++m_inserts;
    const std::uint32_t pair = allocatePair();
    m_nodes[pair] = m_nodes[sibling];
    m_nodes[pair].parent = sibling;
    relink(pair);
    TreeNode& leaf = m_nodes[pair + 1];
    leaf.box = tight;
    leaf.parent = sibling;
    leaf.child = kTreeLeafBit | proxy_index;
    record.node = pair + 1;
    m_nodes[sibling].child = pair;
    refitUpwards(sibling, true);
}

void DynamicTree::removeLeaf(std::uint32_t slot) {
    if (slot == 0) {
        m_nodes[0].parent = kTreeFreeNode;
        m_nodes[0].child = kTreeNullNode;
        return;
    }
    // The sibling takes the parent's slot (keeping the parent's own link), and the pair is freed.
    const std::uint32_t parent = m_nodes[slot].parent;
    const std::uint32_t grandparent = m_nodes[parent].parent;
    m_nodes[parent] = m_nodes[slot ^ 1u];
    m_nodes[parent].parent = grandparent;
    relink(parent);
    freePair(slot & ~1u);
    // Ancestors may shrink; stop at the first one whose box does not change.
    for (std::uint32_t up = grandparent; up != kTreeNullNode; up = m_nodes[up].parent) {
        TreeNode& node = m_nodes[up];
        Aabb first, second, box;
        getEnclosingBox(node.child, first);
        getEnclosingBox(node.child + 1, second);
        merge(first, second, box);
        if (equal(box.min, node.box.min) && equal(box.max, node.box.max)) break;
        node.box = box;
    }
}

// Refits from `slot` to the root, rotating each node on the way when asked. Above the first node
// whose box did not change nothing else changes either: the walk stops there (after its
// rotation), so a reinsert next to where the proxy was costs a few levels, not the whole depth.
void DynamicTree::refitUpwards(std::uint32_t slot, bool rotate_nodes) {
    for (std::uint32_t up = slot; up != kTreeNullNode; up = m_nodes[up].parent) {
        TreeNode& node = m_nodes[up];
        Aabb first, second, box;
        getEnclosingBox(node.child, first);
        getEnclosingBox(node.child + 1, second);
        merge(first, second, box);
        const bool unchanged = equal(box.min, node.box.min) && equal(box.max, node.box.max);
        node.box = box;
        if (rotate_nodes && rotate(up)) ++m_rotations;
        if (unchanged && up != slot) break;
    }
}

} // namespace flak
