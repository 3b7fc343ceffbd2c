// flak — dynamic tree: region, sphere and segment queries, all stackless.
#include <flak/broad/dynamic_tree.h>
#include <flak/geom/segment_aabb.h>
#include <flak/geom/sphere_aabb.h>

#include "broad/tree_walk.h"

#include <cmath>

namespace flak {

namespace {

// A leaf reached by a region query: through the category filter to the caller's visitor, counted.
// Returns the visitor's answer (false ends the walk); filtered leaves continue it.
bool reportLeaf(const TreeProxy* records, const TreeNode& leaf, std::uint32_t mask, ProxyVisitor visit,
                void* user, std::uint32_t& visits) {
    const TreeProxy& record = records[leaf.child & ~kTreeLeafBit];
    if ((record.category & mask) == 0) return true;
    ++visits;
    return visit(user, ProxyId{leaf.child & ~kTreeLeafBit, record.generation});
}

} // namespace

std::uint32_t DynamicTree::queryBox(const Aabb& region, std::uint32_t mask, ProxyVisitor visit,
                                    void* user) const {
    if (m_proxy_count == 0 || visit == nullptr) return 0;
    // NaN fails these comparisons too; infinite but ordered bounds are a valid (huge) region.
    if (!(region.min.x <= region.max.x && region.min.y <= region.max.y && region.min.z <= region.max.z))
        return 0;
    std::uint32_t visits = 0;
    walkSubtree(
        m_nodes, 0, [&](const Aabb& box) { return overlaps(region, box); },
        [&](std::uint32_t, const TreeNode& leaf) {
            return reportLeaf(m_records, leaf, mask, visit, user, visits);
        });
    return visits;
}

std::uint32_t DynamicTree::querySphere(const Sphere& sphere, std::uint32_t mask, ProxyVisitor visit,
                                       void* user) const {
    if (m_proxy_count == 0 || visit == nullptr) return 0;
    if (!isFinite(sphere.center) || !std::isfinite(sphere.radius) || sphere.radius < 0.0f) return 0;
    std::uint32_t visits = 0;
    walkSubtree(
        m_nodes, 0, [&](const Aabb& box) { return sphereAabbOverlap(sphere, box); },
        [&](std::uint32_t, const TreeNode& leaf) {
            return reportLeaf(m_records, leaf, mask, visit, user, visits);
        });
    return visits;
}

namespace {

// Which child of the pair (first, first + 1) a segment along `dir` visits first: the one whose
// centre comes first along the direction (the sign of dir . (centre_b - centre_a)). A pure
// function of the two boxes and the direction, so the walk recomputes it on the way back up
// instead of remembering it (no stack).
inline std::uint32_t pickNearChild(const TreeNode* nodes, std::uint32_t first, const Vec3& dir) {
    const Aabb& a = nodes[first].box;
    const Aabb& b = nodes[first + 1].box;
    const float gap = dir.x * ((b.min.x + b.max.x) - (a.min.x + a.max.x)) +
                      dir.y * ((b.min.y + b.max.y) - (a.min.y + a.max.y)) +
                      dir.z * ((b.min.z + b.max.z) - (a.min.z + a.max.z));
    return gap < 0.0f ? first + 1 : first;
}

// geom/segment_aabb.cpp's allowance on the exit parameter (Ize 2013), repeated here so internal
// nodes are tested by exactly the arithmetic of segmentAabb(): a box that holds a leaf the geom
// test reports is never skipped.
constexpr float kExitRoundUp = 1.0f + 1.0f / 1048576.0f;

// One slab axis of geom's clip(): the sign of the inverse picks the near plane (Williams et al.).
inline void clipAxis(float origin, float inv, float low, float high, float& t_enter, float& t_exit) {
    const bool negative = inv < 0.0f;
    const float t_near = ((negative ? high : low) - origin) * inv;
    const float t_far = ((negative ? low : high) - origin) * inv;
    t_enter = t_near > t_enter ? t_near : t_enter;
    t_exit = t_far < t_exit ? t_far : t_exit;
}

// segmentAabbOverlap() for boxes known to be valid (every node box of the tree), inline: the
// walk spends half its time here, and the call and the validity checks were a third of that.
inline bool crossesNode(const SlabSegment& s, const Aabb& box) {
    float t_enter = 0.0f;
    float t_exit = s.t_max;
    clipAxis(s.origin.x, s.inv_delta.x, box.min.x, box.max.x, t_enter, t_exit);
    clipAxis(s.origin.y, s.inv_delta.y, box.min.y, box.max.y, t_enter, t_exit);
    clipAxis(s.origin.z, s.inv_delta.z, box.min.z, box.max.z, t_enter, t_exit);
    return t_enter <= t_exit * kExitRoundUp;
}

} // namespace

// Ordered stackless walk with clipping: the classic "nearer child first" order of ray tracers,
// recovered on the way up by recomputing pickNearChild() instead of remembering it. Children are
// tested from their parent with the current t_max, and a farther child is tested only when the
// nearer one is finished, so a hit that clipped the segment prunes it. Leaves are visited from
// their parent; the walk only steps onto internal nodes.
std::uint32_t DynamicTree::querySegment(const Vec3& p0, const Vec3& p1, std::uint32_t mask,
                                        SegmentVisitor visit, void* user) const {
    if (m_proxy_count == 0 || visit == nullptr) return 0;
    SlabSegment segment;
    prepareSegment(p0, p1, segment);
    if (!segment.valid) return 0;
    Vec3 dir;
    sub(p1, p0, dir);
    std::uint32_t visits = 0;
    // Tests a node against the segment as clipped so far; for a leaf that passes, visits it.
    // Returns false when the visitor stopped the query.
    bool stopped = false;
    const auto test = [&](std::uint32_t slot) -> bool {
        const TreeNode& node = m_nodes[slot];
        if (!isLeaf(node)) return crossesNode(segment, node.box);
        float t_enter = 0.0f, t_exit = 0.0f;
        if (!segmentAabb(segment, node.box, t_enter, t_exit)) return false;
        const std::uint32_t index = node.child & ~kTreeLeafBit;
        const TreeProxy& record = m_records[index];
        if ((record.category & mask) == 0) return false;
        ++visits;
        const float t_new = visit(user, ProxyId{index, record.generation}, t_enter, segment.t_max);
        if (t_new < 0.0f)
            stopped = true;
        else if (t_new < segment.t_max)
            segment.t_max = t_new;
        return false;
    };
    if (!test(0) || stopped) return visits; // a leaf root was visited by test()
    std::uint32_t current = 0;
    for (;;) {
        // `current` is internal and passed: try its nearer child.
        std::uint32_t finished = pickNearChild(m_nodes, m_nodes[current].child, dir);
        if (test(finished)) {
            current = finished;
            continue;
        }
        if (stopped) return visits;
        // Finished `finished`: from a nearer child go to the farther one, from a farther go up.
        for (;;) {
            if (finished == 0) return visits;
            if (finished == pickNearChild(m_nodes, finished & ~1u, dir)) {
                const std::uint32_t far = finished ^ 1u;
                if (test(far)) break;
                if (stopped) return visits;
                finished = far;
                continue;
            }
            finished = m_nodes[finished].parent;
        }
        current = finished ^ 1u;
    }
}

} // namespace flak
