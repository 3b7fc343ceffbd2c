#include <flak/bvh/mesh_mesh.h>

#include "bvh/contact_summary.h"
#include "bvh/tandem_walk.h"

#include <flak/geom/tri_tri.h>

namespace flak {

namespace {

constexpr std::uint32_t kBatches = kMaxLeafTriangles / 4;

// One B leaf's triangles in A's frame, ready for the batched tri-tri test.
struct LeafBatch {
    TriangleBatch4 batch[kBatches];
    Aabb box[kBatches]; ///< each batch's triangles, grown by the margin
    Vec3 v[kMaxLeafTriangles][3];
    std::uint32_t first = 0;
    std::uint32_t count = 0;
};

void buildLeafBatch(const MeshBlob& b, const BvhNode& leaf, const Transform& b_to_a, float margin, LeafBatch& out) {
    out.first = leafFirst(leaf);
    out.count = leafCount(leaf);
    for (std::uint32_t q = 0; q * 4 < out.count; ++q) {
        clearBatch(out.batch[q]);
        setEmpty(out.box[q]);
    }
    for (std::uint32_t k = 0; k < out.count; ++k) {
        Vec3 p[3];
        triangleVertices(b, out.first + k, p[0], p[1], p[2]);
        transformPoints(b_to_a, p, 3, out.v[k]);
        const std::uint32_t q = k / 4;
        setBatchTriangle(static_cast<int>(k % 4), out.v[k][0], out.v[k][1], out.v[k][2], out.batch[q]);
        for (int c = 0; c < 3; ++c) expand(out.v[k][c], out.box[q]);
    }
    for (std::uint32_t q = 0; q * 4 < out.count; ++q) inflate(out.box[q], margin, out.box[q]);
}

// The walk of the header (tandem_walk.h) down to triangles: each B leaf's triangles are taken into
// A's frame once per visit of a new B leaf, then tested four at a time against every triangle of
// the A leaf after a per-triangle box filter. sink(a_tri, A vertices, b_tri, B vertices in A)
// returns true to stop.
template <class Sink>
void walkPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a, Sink& sink) {
    LeafBatch leaf;
    std::uint32_t built_for = 0xFFFFFFFFu; // B leaf node whose triangles `leaf` holds
    auto visit = [&](const BvhNode& na, const BvhNode& nb, std::uint32_t b_index, float margin) {
        if (built_for != b_index) {
            buildLeafBatch(b, nb, b_to_a, margin, leaf);
            built_for = b_index;
        }
        const std::uint32_t end = leafFirst(na) + leafCount(na);
        for (std::uint32_t ta = leafFirst(na); ta < end; ++ta) {
            Vec3 va[3];
            triangleVertices(a, ta, va[0], va[1], va[2]);
            Aabb tri_box;
            fromPoints(va, 3, tri_box);
            for (std::uint32_t q = 0; q * 4 < leaf.count; ++q) {
                if (!overlaps(tri_box, leaf.box[q])) continue;
                unsigned mask = triTriOverlap4(va[0], va[1], va[2], leaf.batch[q]);
                while (mask != 0u) {
                    const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(mask));
                    mask &= mask - 1u;
                    const std::uint32_t kb = q * 4 + lane;
                    if (sink(ta, va, leaf.first + kb, leaf.v[kb])) return true;
                }
            }
        }
        return false;
    };
    detail::walkLeafPairs(a, b, b_to_a, visit);
}

struct AnySink {
    bool found = false;
    bool operator()(std::uint32_t, const Vec3*, std::uint32_t, const Vec3*) {
        found = true;
        return true;
    }
};

struct PairSink {
    PairBuffer* buffer;
    bool full = false;
    bool operator()(std::uint32_t ta, const Vec3*, std::uint32_t tb, const Vec3*) {
        if (buffer->count < buffer->capacity) {
            TrianglePair& p = buffer->items[buffer->count++];
            p.a = ta;
            p.b = tb;
        } else {
            ++buffer->overflow;
            full = true;
        }
        return false;
    }
};

// The summary's sums over the walk's pairs.
struct SummarySink {
    detail::SummarySums sums;
    bool operator()(std::uint32_t, const Vec3* va, std::uint32_t, const Vec3* vb) {
        sums.add(va, vb);
        return false;
    }
};

} // namespace

bool meshMeshAnyContact(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a) {
    AnySink sink;
    walkPairs(a, b, b_to_a, sink);
    return sink.found;
}

Status meshMeshPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a, PairBuffer& inout_pairs) {
    PairSink sink{&inout_pairs};
    walkPairs(a, b, b_to_a, sink);
    return sink.full ? Status::BufferFull : Status::Ok;
}

bool meshMeshSummary(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a, MeshContactSummary& out_summary) {
    SummarySink sink;
    walkPairs(a, b, b_to_a, sink);
    return sink.sums.finish(out_summary);
}

} // namespace flak
