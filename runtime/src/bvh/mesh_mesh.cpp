#include <flak/bvh/mesh_mesh.h>

#include "bvh/contact_summary.h"
#include "bvh/tandem_walk.h"
#include "bvh/triangle_lanes.h"

#include <flak/geom/tri_tri.h>
#include <flak/math/simd.h>

#include <limits>

namespace flak {

namespace {

constexpr std::uint32_t kBatches = kMaxLeafTriangles / 4;
static_assert(kMaxLeafTriangles < 32, "a leaf's lanes are one 32-bit mask (triTriOverlapLanes)");

// One B leaf's triangles in A's frame, ready for the batched tri-tri test, with each triangle's
// box (grown by the margin) in the same lane layout for the box filter (1216 bytes).
struct LeafBatch {
    TriangleBatch4 batch[kBatches];
    alignas(16) float lo[kBatches][3][4]; ///< lo[batch][axis][lane]; NaN for a lane without a triangle
    alignas(16) float hi[kBatches][3][4];
    std::uint32_t first = 0;
    std::uint32_t count = 0;
};

// Lane k of a batch: B's triangle first + 4q + k, read into lanes as the single-mesh queries read
// a leaf (loadTriangleQuad, either vertex mode) and taken into A's frame four lanes at a time, with
// transformPoint's operations ((c0 x + c1 y) + c2 z) + t in its order, so every vertex has the bits
// transformPoints would give it. A lane without a triangle gets NaN coordinates, so that its
// vertices, plane and box are NaN: loadTriangleQuad fills it with the first triangle, and adding
// `pad` (-0 in a used lane, which leaves every float as it is, NaN in the others) replaces those.
void buildLeafBatch(const MeshBlob& b, const BvhNode& leaf, const Transform& b_to_a, float margin,
                    LeafBatch& out) {
    out.first = leafFirst(leaf);
    out.count = leafCount(leaf);
    const std::uint32_t batches = (out.count + 3u) / 4u;
    F4 m[3][3], t[3], grow;
    for (int j = 0; j < 3; ++j) {
        f4Splat(b_to_a.rotation.c0[j], m[0][j]);
        f4Splat(b_to_a.rotation.c1[j], m[1][j]);
        f4Splat(b_to_a.rotation.c2[j], m[2][j]);
        f4Splat(b_to_a.translation[j], t[j]);
    }
    f4Splat(margin, grow);
    constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
    for (std::uint32_t q = 0; q < batches; ++q) {
        TriangleBatch4& batch = out.batch[q];
        const std::uint32_t used = out.count - 4u * q < 4u ? out.count - 4u * q : 4u;
        TriangleLanes lanes;
        detail::loadTriangleQuad(b, out.first + 4u * q, used, lanes);
        F4 pad;
        f4Set(-0.0f, used > 1u ? -0.0f : kNaN, used > 2u ? -0.0f : kNaN, used > 3u ? -0.0f : kNaN, pad);
        F4 lo[3], hi[3];
        for (int i = 0; i < 3; ++i) {
            F4 x, y, z;
            f4Load(lanes.v[i][0], x);
            f4Load(lanes.v[i][1], y);
            f4Load(lanes.v[i][2], z);
            f4Add(x, pad, x);
            f4Add(y, pad, y);
            f4Add(z, pad, z);
            for (int j = 0; j < 3; ++j) {
                F4 r, s;
                f4Mul(m[0][j], x, r);
                f4Mul(m[1][j], y, s);
                f4Add(r, s, r);
                f4Mul(m[2][j], z, s);
                f4Add(r, s, r);
                f4Add(r, t[j], r);
                f4Store(r, batch.v[i][j]);
                if (i == 0) {
                    lo[j] = r;
                    hi[j] = r;
                } else { // a NaN lane stays NaN (min and max keep their second operand)
                    f4Min(r, lo[j], lo[j]);
                    f4Max(r, hi[j], hi[j]);
                }
            }
        }
        finishBatch(used, batch);
        for (int j = 0; j < 3; ++j) {
            f4Sub(lo[j], grow, lo[j]);
            f4Add(hi[j], grow, hi[j]);
            f4Store(lo[j], out.lo[q][j]);
            f4Store(hi[j], out.hi[q][j]);
        }
    }
}

// The lanes (bit 4q + k) among `candidates` whose triangle box overlaps `box` (closed, as
// overlaps() of aabb.h; a NaN bound never overlaps). Batches without a candidate are not read.
unsigned overlappingLanes(const LeafBatch& leaf, const Aabb& box, unsigned candidates) {
    unsigned lanes = 0u;
#if defined(FLAK_SIMD_SSE2)
    const __m128 min_x = _mm_set1_ps(box.min.x), min_y = _mm_set1_ps(box.min.y),
                 min_z = _mm_set1_ps(box.min.z);
    const __m128 max_x = _mm_set1_ps(box.max.x), max_y = _mm_set1_ps(box.max.y),
                 max_z = _mm_set1_ps(box.max.z);
    for (unsigned q = 0, rest = candidates; rest != 0u; ++q, rest >>= 4u) {
        if ((rest & 0xFu) == 0u) continue;
        const __m128 x = _mm_and_ps(_mm_cmple_ps(_mm_load_ps(leaf.lo[q][0]), max_x),
                                    _mm_cmple_ps(min_x, _mm_load_ps(leaf.hi[q][0])));
        const __m128 y = _mm_and_ps(_mm_cmple_ps(_mm_load_ps(leaf.lo[q][1]), max_y),
                                    _mm_cmple_ps(min_y, _mm_load_ps(leaf.hi[q][1])));
        const __m128 z = _mm_and_ps(_mm_cmple_ps(_mm_load_ps(leaf.lo[q][2]), max_z),
                                    _mm_cmple_ps(min_z, _mm_load_ps(leaf.hi[q][2])));
        lanes |= static_cast<unsigned>(_mm_movemask_ps(_mm_and_ps(_mm_and_ps(x, y), z))) << (4u * q);
    }
    lanes &= candidates;
#else
    for (unsigned q = 0, rest = candidates; rest != 0u; ++q, rest >>= 4u) {
        if ((rest & 0xFu) == 0u) continue;
        for (unsigned k = 0; k < 4u; ++k) {
            bool in = true;
            for (int j = 0; j < 3; ++j)
                in = in && leaf.lo[q][j][k] <= box.max[j] && box.min[j] <= leaf.hi[q][j][k];
            lanes |= static_cast<unsigned>(in) << (4u * q + k);
        }
    }
    lanes &= candidates;
#endif
    return lanes;
}

// The walk of the header (tandem_walk.h) down to triangles: each B leaf's triangles are taken into
// A's frame once per visit of a new B leaf, with a box per triangle. At each A leaf, the B
// triangles whose boxes miss the A leaf's box (grown by the margin) are left out for the whole
// leaf; each A triangle is then tested against the B triangles whose boxes its own box overlaps,
// four lanes at a time. Box filters only: a pair triTriOverlap accepts lies within the margin, so
// its boxes overlap. sink(a_tri, A vertices, b_tri, B vertices in A, crossing) returns true to stop;
// `crossing` (asked for by Sink::kWantsCrossing) says the pair crosses in 3D (triTriOverlapLanes).
template <class Sink>
void walkPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a, Sink& sink) {
    LeafBatch leaf;
    std::uint32_t built_for = 0xFFFFFFFFu; // the key of the B leaf whose triangles `leaf` holds
    // The A leaf's triangles that pass the box filter (declared once: Vec3 zero-fills).
    Vec3 kept_v[kMaxLeafTriangles][3];
    auto visit = [&](const BvhNode& na, const BvhNode& nb, std::uint32_t b_index, float margin) {
        if (built_for != b_index) {
            buildLeafBatch(b, nb, b_to_a, margin, leaf);
            built_for = b_index;
        }
        Aabb a_box;
        nodeBounds(a, na, a_box);
        inflate(a_box, margin, a_box);
        const unsigned leaf_lanes = overlappingLanes(leaf, a_box, (1u << leaf.count) - 1u);
        if (leaf_lanes == 0u) return false;
        // The box filter for every A triangle first, keeping those with lanes left (appended
        // without a branch: which ones survive is not predictable), then their triangle tests.
        unsigned kept_lanes[kMaxLeafTriangles];
        std::uint32_t kept_tri[kMaxLeafTriangles];
        std::uint32_t kept = 0;
        const std::uint32_t end = leafFirst(na) + leafCount(na);
        for (std::uint32_t ta = leafFirst(na); ta < end; ++ta) {
            Vec3* va = kept_v[kept];
            triangleVertices(a, ta, va[0], va[1], va[2]);
            Aabb tri_box;
            fromPoints(va, 3, tri_box);
            const unsigned lanes = overlappingLanes(leaf, tri_box, leaf_lanes);
            kept_lanes[kept] = lanes;
            kept_tri[kept] = ta;
            kept += lanes != 0u ? 1u : 0u;
        }
        for (std::uint32_t c = 0; c < kept; ++c) {
            const std::uint32_t ta = kept_tri[c];
            const Vec3* va = kept_v[c];
            std::uint32_t crossing = 0u;
            unsigned mask = triTriOverlapLanes(va[0], va[1], va[2], leaf.batch, kept_lanes[c],
                                               Sink::kWantsCrossing ? &crossing : nullptr);
            while (mask != 0u) {
                const std::uint32_t kb = static_cast<std::uint32_t>(__builtin_ctz(mask));
                mask &= mask - 1u;
                const TriangleBatch4& batch = leaf.batch[kb / 4u];
                const std::uint32_t k = kb % 4u;
                Vec3 vb[3];
                for (int i = 0; i < 3; ++i) set(batch.v[i][0][k], batch.v[i][1][k], batch.v[i][2][k], vb[i]);
                if (sink(ta, va, leaf.first + kb, vb, ((crossing >> kb) & 1u) != 0u)) return true;
            }
        }
        return false;
    };
    detail::walkLeafPairs<true>(a, b, b_to_a, visit);
}

struct AnySink {
    static constexpr bool kWantsCrossing = false;
    bool found = false;
    bool operator()(std::uint32_t, const Vec3*, std::uint32_t, const Vec3*, bool) {
        found = true;
        return true;
    }
};

struct PairSink {
    static constexpr bool kWantsCrossing = false;
    OutBuffer<TrianglePair>* buffer;
    bool full = false;
    bool operator()(std::uint32_t ta, const Vec3*, std::uint32_t tb, const Vec3*, bool) {
        if (!buffer->append(TrianglePair{ta, tb})) full = true;
        return false;
    }
};

// The summary's sums over the walk's pairs. A triangle's normal is computed once per run of
// pairs with the same A triangle (the walk gives them in a row) and once per B triangle while it
// stays in a small cache of the last ones seen: the same values, fewer computations.
struct SummarySink {
    static constexpr bool kWantsCrossing = true;
    SummarySink(const Aabb& a_box, const Transform& b_to_a) : sums(a_box, b_to_a) {}
    detail::SummarySums sums;
    std::uint32_t a_tri = 0xFFFFFFFFu;
    detail::TriangleNormal a_normal;
    static constexpr std::uint32_t kCache = 32; // a power of two
    std::uint32_t b_tri[kCache] = {};
    bool b_valid[kCache] = {};
    detail::TriangleNormal b_normal[kCache];

    bool operator()(std::uint32_t ta, const Vec3* va, std::uint32_t tb, const Vec3* vb, bool crossing) {
        if (ta != a_tri) {
            a_tri = ta;
            a_normal.compute(va);
        }
        const std::uint32_t slot = tb & (kCache - 1u);
        if (!b_valid[slot] || b_tri[slot] != tb) {
            b_valid[slot] = true;
            b_tri[slot] = tb;
            b_normal[slot].compute(vb);
        }
        sums.add(va, vb, a_normal, b_normal[slot], crossing);
        return false;
    }
};

} // namespace

bool meshMeshAnyContact(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a) {
    AnySink sink;
    walkPairs(a, b, b_to_a, sink);
    return sink.found;
}

Status meshMeshPairs(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a,
                     OutBuffer<TrianglePair>& inout_pairs) {
    PairSink sink{&inout_pairs};
    walkPairs(a, b, b_to_a, sink);
    return sink.full ? Status::BufferFull : Status::Ok;
}

bool meshMeshSummary(const MeshBlob& a, const MeshBlob& b, const Transform& b_to_a,
                     MeshContactSummary& out_summary) {
    SummarySink sink(a.bounds, b_to_a);
    walkPairs(a, b, b_to_a, sink);
    return sink.sums.finish(out_summary);
}

} // namespace flak
