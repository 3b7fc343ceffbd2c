// flak — dynamic tree: tree rotations that lower the surface-area cost.
#include <flak/broad/dynamic_tree.h>

#include "broad/tree_walk.h"

namespace flak {
namespace {

enum class Rotation { None, BF, BG, CD, CE, DF, DG };

float computeMergedArea(const Aabb& a, const Aabb& b) {
    Aabb merged;
    merge(a, b, merged);
    return treeArea(merged);
}

} // namespace

// Rotations of Kensler 2008 / Kopta et al. 2012 in the form Box2D v3 uses: at node A with
// children B and C (grandchildren D, E under B and F, G under C), swapping a child with a
// grandchild on the other side (or two grandchildren) keeps A's box and changes only the box of
// the child that receives the new node. The swap that lowers the sum of those areas most is
// applied; none when no swap lowers it.
bool DynamicTree::rotate(std::uint32_t slot) {
    const TreeNode& a = m_nodes[slot];
    const std::uint32_t b = a.child;
    const std::uint32_t c = b + 1;
    const bool b_leaf = isLeaf(m_nodes[b]);
    const bool c_leaf = isLeaf(m_nodes[c]);
    if (b_leaf && c_leaf) return false;

    Aabb box_b, box_c;
    getEnclosingBox(b, box_b);
    getEnclosingBox(c, box_c);
    const float area_b = treeArea(box_b);
    const float area_c = treeArea(box_c);
    Aabb box_d, box_e, box_f, box_g;
    if (!b_leaf) {
        getEnclosingBox(m_nodes[b].child, box_d);
        getEnclosingBox(m_nodes[b].child + 1, box_e);
    }
    if (!c_leaf) {
        getEnclosingBox(m_nodes[c].child, box_f);
        getEnclosingBox(m_nodes[c].child + 1, box_g);
    }

    Rotation best = Rotation::None;
    float best_delta = 0.0f;
    const auto consider = [&](Rotation rotation, float delta) {
        if (delta < best_delta) {
            best_delta = delta;
            best = rotation;
        }
    };
    if (!c_leaf) {
        consider(Rotation::BF, computeMergedArea(box_b, box_g) - area_c); // C becomes (G, B)
        consider(Rotation::BG, computeMergedArea(box_b, box_f) - area_c); // C becomes (F, B)
    }
    if (!b_leaf) {
        consider(Rotation::CD, computeMergedArea(box_c, box_e) - area_b); // B becomes (C, E)
        consider(Rotation::CE, computeMergedArea(box_c, box_d) - area_b); // B becomes (D, C)
    }
    if (!b_leaf && !c_leaf) {
        consider(Rotation::DF,
                 computeMergedArea(box_f, box_e) + computeMergedArea(box_d, box_g) - area_b - area_c);
        consider(Rotation::DG,
                 computeMergedArea(box_g, box_e) + computeMergedArea(box_f, box_d) - area_b - area_c);
    }
    // A strict gain only: rounding ties must not make rotations flip back and forth.
    if (best == Rotation::None || !(best_delta < -1e-6f * (area_b + area_c))) return false;

    const std::uint32_t d = b_leaf ? kTreeNullNode : m_nodes[b].child;
    const std::uint32_t f = c_leaf ? kTreeNullNode : m_nodes[c].child;
    switch (best) {
    case Rotation::BF: swapNodes(b, f); break;
    case Rotation::BG: swapNodes(b, f + 1); break;
    case Rotation::CD: swapNodes(c, d); break;
    case Rotation::CE: swapNodes(c, d + 1); break;
    case Rotation::DF: swapNodes(d, f); break;
    case Rotation::DG: swapNodes(d, f + 1); break;
    case Rotation::None: break;
    }
    // Refit the children of A that gained a node (A's own box is unchanged).
    for (std::uint32_t child = b; child <= c; ++child) {
        TreeNode& node = m_nodes[child];
        if (isLeaf(node)) continue;
        Aabb first, second;
        getEnclosingBox(node.child, first);
        getEnclosingBox(node.child + 1, second);
        merge(first, second, node.box);
    }
    return true;
}

// Exchanges what two slots hold; each slot keeps its parent link (its position in the tree).
void DynamicTree::swapNodes(std::uint32_t slot_a, std::uint32_t slot_b) {
    TreeNode& a = m_nodes[slot_a];
    TreeNode& b = m_nodes[slot_b];
    const TreeNode held = a;
    a.box = b.box;
    a.child = b.child;
    b.box = held.box;
    b.child = held.child;
    relink(slot_a);
    relink(slot_b);
}

} // namespace flak
