// flak — dynamic tree: every overlapping pair of one tree, each once, stackless.
#include <flak/broad/dynamic_tree.h>

#include "broad/pair_sink.h"
#include "broad/tree_product_walk.h"

namespace flak {

// The tree walked against itself without a stack (tree_product_walk.h). Leaf boxes are the tight
// boxes, so a leaf pair that reaches `emit` overlaps exactly. When no proxy filters and the caller
// gives no PairFilter (the usual case) pairs are written as bare indices and their generations
// filled in by a second pass, so the walk never waits on a proxy record; otherwise the filters
// read both records (and the caller's, both user values) per pair.
Status DynamicTree::findPairs(OutBuffer<TreePair>& inout_pairs, const PairFilter& filter) const {
    PairSink sink = PairSink::over(inout_pairs);
    if (m_proxy_count >= 2) {
        const TreeProxy* records = m_records;
        if (m_filtered == 0 && filter.accept == nullptr) {
            walkLeafPairs<true>(m_nodes, m_nodes, [&](const TreeNode& leaf_a, const TreeNode& leaf_b) {
                const std::uint32_t index_a = leaf_a.child & ~kTreeLeafBit;
                const std::uint32_t index_b = leaf_b.child & ~kTreeLeafBit;
                // Lower index first, chosen without a (50/50, so mispredicted) branch.
                const bool swap = index_b < index_a;
                sink.add(ProxyId{swap ? index_b : index_a, 0}, ProxyId{swap ? index_a : index_b, 0});
            });
            fillGenerations(sink.pairs, sink.written(), records, records);
        } else {
            const std::uint64_t* user = m_user;
            walkLeafPairs<true>(m_nodes, m_nodes, [&](const TreeNode& leaf_a, const TreeNode& leaf_b) {
                std::uint32_t index_a = leaf_a.child & ~kTreeLeafBit;
                std::uint32_t index_b = leaf_b.child & ~kTreeLeafBit;
                if (index_b < index_a) {
                    const std::uint32_t t = index_a;
                    index_a = index_b;
                    index_b = t;
                }
                const TreeProxy& record_a = records[index_a];
                const TreeProxy& record_b = records[index_b];
                if (!acceptsPair(record_a, record_b) || !callerAccepts(filter, user[index_a], user[index_b]))
                    return;
                sink.add(ProxyId{index_a, record_a.generation}, ProxyId{index_b, record_b.generation});
            });
        }
    }
    return sink.finish(inout_pairs);
}

} // namespace flak
