#include <flak/bvh/mesh_leaf_pairs.h>

#include <flak/bvh/mesh_mesh.h>

#include "bvh/tandem_walk.h"

namespace flak {

// The tandem walk of mesh_mesh.cpp (tandem_walk.h), stopping at the leaf pairs instead of testing
// their triangles, without its second test of B's nodes in A's frame (the device walk finds these
// leaf pairs, not that subset of them). That test and the per-triangle box filter of walkPairs are
// only filters (neither drops an intersecting pair), so they are left to the consumer's triangle
// test.
Status meshMeshLeafPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a,
                         OutBuffer<MeshLeafPair>& inout_pairs) {
    bool full = false;
    auto visit = [&](const BvhNode& na, const BvhNode& nb, std::uint32_t, float) {
        MeshLeafPair p;
        p.a_first = leafFirst(na);
        p.a_count = leafCount(na);
        p.b_first = leafFirst(nb);
        p.b_count = leafCount(nb);
        if (!inout_pairs.append(p)) full = true;
        return false;
    };
    detail::walkLeafPairs<false>(a, b, b_to_a, visit);
    return full ? Status::BufferFull : Status::Ok;
}

} // namespace flak
