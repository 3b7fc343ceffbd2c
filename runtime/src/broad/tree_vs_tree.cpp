// flak — pairs between two dynamic trees (static vs dynamic), stackless.
#include <flak/broad/dynamic_tree.h>

#include "broad/pair_sink.h"
#include "broad/tree_product_walk.h"

namespace flak {

// The two trees walked against each other without a stack (tree_product_walk.h).
Status findTreePairs(const DynamicTree& first, const DynamicTree& second, OutBuffer<TreePair>& inout_pairs,
                     const PairFilter& filter) {
    if (&first == &second) return Status::InvalidArgument;
    PairSink sink = PairSink::over(inout_pairs);
    if (first.m_proxy_count > 0 && second.m_proxy_count > 0) {
        const TreeProxy* records_a = first.m_records;
        const TreeProxy* records_b = second.m_records;
        if (first.m_filtered == 0 && second.m_filtered == 0 && filter.accept == nullptr) {
            walkLeafPairs<
                false>(first.m_nodes, second.m_nodes, [&](const TreeNode& leaf_a, const TreeNode& leaf_b) {
                sink.add(ProxyId{leaf_a.child & ~kTreeLeafBit, 0}, ProxyId{leaf_b.child & ~kTreeLeafBit, 0});
            });
            fillGenerations(sink.pairs, sink.written(), records_a, records_b);
        } else {
            const std::uint64_t* user_a = first.m_user;
            const std::uint64_t* user_b = second.m_user;
            walkLeafPairs<
                false>(first.m_nodes, second.m_nodes, [&](const TreeNode& leaf_a, const TreeNode& leaf_b) {
                const std::uint32_t index_a = leaf_a.child & ~kTreeLeafBit;
                const std::uint32_t index_b = leaf_b.child & ~kTreeLeafBit;
                const TreeProxy& record_a = records_a[index_a];
                const TreeProxy& record_b = records_b[index_b];
                if (acceptsPair(record_a, record_b) &&
                    callerAccepts(filter, user_a[index_a], user_b[index_b]))
                    sink.add(ProxyId{index_a, record_a.generation}, ProxyId{index_b, record_b.generation});
            });
        }
    }
    return sink.finish(inout_pairs);
}

} // namespace flak
