// flak — dynamic tree: every overlapping pair of one tree, each once, stackless.
#include <flak/broad/dynamic_tree.h>

#include "broad/pair_sink.h"
#include "broad/tree_product_walk.h"

namespace flak {

// The tree walked against itself without a stack (tree_product_walk.h). Leaf boxes are the tight
// boxes, so a leaf pair that reaches `emit` overlaps exactly. When no proxy filters (the usual
// case) pairs are written as bare indices and their generations filled in by a second pass, so
// the walk never waits on a proxy record; otherwise the filter reads both records per pair.
Status DynamicTree::findPairs(OutBuffer<TreePair>& inout_pairs) const {
    PairSink sink = PairSink::over(inout_pairs);
    if (m_proxy_count >= 2) {
        const TreeProxy* records = m_records;
        if (m_filtered == 0) {
            walkLeafPairs<true>(m_nodes, m_nodes, [&](const TreeNode& leaf_a, const TreeNode& leaf_b) {
                const std::uint32_t index_a = leaf_a.child & ~kTreeLeafBit;
                const std::uint32_t index_b = leaf_b.child & ~kTreeLeafBit;
                // Lower index first, chosen without a (50/50, so mispredicted) branch.
                const bool swap = index_b < index_a;
                sink.add(ProxyId{swap ? index_b : index_a, 0}, ProxyId{swap ? index_a : index_b, 0});
            });
            fillGenerations(sink.pairs, sink.written(), records, records);
        } else {
            walkLeafPairs<true>(m_nodes, m_nodes, [&](const TreeNode& leaf_a, const TreeNode& leaf_b) {
                const std::uint32_t index_a = leaf_a.child & ~kTreeLeafBit;
                const std::uint32_t index_b = leaf_b.child & ~kTreeLeafBit;
                const TreeProxy& record_a = records[index_a];
                const TreeProxy& record_b = records[index_b];
                if (!acceptsPair(record_a, record_b)) return;
                const bool swap = index_b < index_a;
                sink.add(ProxyId{swap ? index_b : index_a, swap ? record_b.generation : record_a.generation},
                         ProxyId{swap ? index_a : index_b, swap ? record_a.generation : record_b.generation});
            });
        }
    }
    return sink.finish(inout_pairs);
}

} // namespace flak
