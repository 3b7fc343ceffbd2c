// flak — dynamic tree: the invariant check used by tests and debug builds.
#include <flak/broad/dynamic_tree.h>

#include "broad/pair_sink.h"
#include "broad/tree_walk.h"

namespace flak {
namespace {

bool fail(TreeReport& report, const char* what, std::uint32_t node) {
    report.what = what;
    report.node = node;
    return false;
}

} // namespace

bool DynamicTree::validate(TreeReport& out_report) const {
    out_report = TreeReport{};
    if (m_nodes == nullptr) return fail(out_report, "tree not initialised", 0);
    const std::uint32_t pair_count = m_proxy_capacity - 1; // pairs beyond the root's slots

    // Free list of node pairs: even, in range, marked free, no cycle.
    for (std::uint32_t pair = m_free_pair; pair != kTreeNullNode; pair = m_nodes[pair].child) {
        if ((pair & 1u) != 0 || pair < 2 || pair + 1 >= m_slot_count)
            return fail(out_report, "free list links outside the pairs", pair);
        if (m_nodes[pair].parent != kTreeFreeNode || m_nodes[pair + 1].parent != kTreeFreeNode)
            return fail(out_report, "node on the free list is not marked free", pair);
        if (++out_report.free_pairs > pair_count) return fail(out_report, "free list has a cycle", pair);
    }
    if (m_nodes[1].parent != kTreeFreeNode) return fail(out_report, "slot 1 is in use", 1);

    // Proxy records: live ones counted here, leaves matched against them below.
    std::uint32_t live = 0, free_records = 0, filtered = 0;
    for (std::uint32_t i = 0; i < m_proxy_capacity; ++i) {
        if (m_records[i].node == kTreeFreeNode) continue;
        ++live;
        if (!acceptsAll(m_records[i].category, m_records[i].mask)) ++filtered;
    }
    if (filtered != m_filtered) return fail(out_report, "count of filtering proxies is off", 0);
    for (std::uint32_t i = m_proxy_free; i != kTreeNullNode; i = m_records[i].mask) {
        if (i >= m_proxy_capacity || m_records[i].node != kTreeFreeNode || m_records[i].generation == 0)
            return fail(out_report, "proxy free list holds a live or retired record", i);
        if (++free_records > m_proxy_capacity) return fail(out_report, "proxy free list has a cycle", i);
    }
    if (live != m_proxy_count) return fail(out_report, "live proxy records differ from the count", 0);
    if (live + free_records + m_retired != m_proxy_capacity)
        return fail(out_report, "proxy records lost (neither live, free nor retired)", 0);

    if (m_nodes[0].parent == kTreeFreeNode) {
        if (m_proxy_count != 0) return fail(out_report, "empty root but live proxies", 0);
        if (out_report.free_pairs != pair_count) return fail(out_report, "empty tree but pairs in use", 0);
        return true;
    }
    if (m_nodes[0].parent != kTreeNullNode) return fail(out_report, "root has a parent", 0);

    // Stackless walk over every node; links are checked on the way down, so the way up is safe.
    double area_sum = 0.0;
    std::uint32_t depth = 0;
    std::uint32_t current = 0;
    for (;;) {
        const TreeNode& node = m_nodes[current];
        if (!isLeaf(node)) {
            const std::uint32_t child = node.child;
            if ((child & 1u) != 0 || child < 2 || child + 1 >= m_slot_count)
                return fail(out_report, "child index outside the pairs or not even", current);
            if (m_nodes[child].parent != current || m_nodes[child + 1].parent != current)
                return fail(out_report, "child's parent link does not point back", current);
            if (++out_report.internal_count > pair_count)
                return fail(out_report, "more internal nodes than pairs (cycle)", current);
            for (std::uint32_t k = 0; k < 2; ++k) {
                Aabb child_box;
                getEnclosingBox(child + k, child_box);
                if (!contains(node.box, child_box))
                    return fail(out_report, "node box does not contain a child's (fat) box", current);
            }
            area_sum += static_cast<double>(treeArea(node.box));
            current = child;
            ++depth;
            continue;
        }
        const std::uint32_t index = node.child & ~kTreeLeafBit;
        if (index >= m_proxy_capacity) return fail(out_report, "leaf names a proxy out of range", current);
        const TreeProxy& record = m_records[index];
        if (record.node != current) return fail(out_report, "proxy does not point back at its leaf", current);
        if (!isValidTreeBox(node.box)) return fail(out_report, "leaf box is not a valid box", current);
        if (!isValidTreeBox(m_fat[index])) return fail(out_report, "fat box is not a valid box", current);
        if (!contains(m_fat[index], node.box))
            return fail(out_report, "fat box does not contain tight box", current);
        ++out_report.leaf_count;
        if (depth > out_report.height) out_report.height = depth;
        while (current != 0 && (current & 1u) != 0) {
            current = m_nodes[current].parent;
            --depth;
        }
        if (current == 0) break;
        ++current;
    }
    if (out_report.leaf_count != m_proxy_count) return fail(out_report, "leaves differ from live proxies", 0);
    if (out_report.internal_count + 1 != out_report.leaf_count)
        return fail(out_report, "internal nodes are not leaves - 1", 0);
    if (out_report.free_pairs + out_report.internal_count != pair_count)
        return fail(out_report, "node pairs lost (neither in the tree nor free)", 0);
    const double root_area = static_cast<double>(treeArea(m_nodes[0].box));
    out_report.sah_cost = root_area > 0.0 ? area_sum / root_area : 0.0;
    return true;
}

} // namespace flak
