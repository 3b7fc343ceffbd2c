#include <flak/bvh/mesh_leaf_pairs.h>

#include <flak/bvh/mesh_mesh.h>

#include "bvh/tandem_walk.h"

namespace flak {

// The tandem walk of mesh_mesh.cpp (tandem_walk.h), stopping at the leaf pairs instead of testing
// their triangles: the same walk, hence the same leaf pairs. The per-triangle box filter of
// walkPairs is only a filter (it never drops an intersecting pair), so it is left to the
// consumer's triangle test.
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
    detail::walkLeafPairs(a, b, b_to_a, visit);
    return full ? Status::BufferFull : Status::Ok;
}

} // namespace flak
