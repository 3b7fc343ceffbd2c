// flak — dynamic tree: full rebuild by binned SAH (level load).
#include <flak/assert.h>
#include <flak/broad/dynamic_tree.h>
#include <flak/memory_requirements.h>

#include "broad/tree_walk.h"

#include <limits>

namespace flak {
namespace {

constexpr int kBins = 16;

// One proxy while the tree is rebuilt (56 bytes): its boxes travel with it through the partitions.
struct BuildEntry {
    Aabb fat;
    Aabb tight;
    std::uint32_t proxy;
    std::uint32_t pad; // keeps the entry a multiple of 8 bytes
};

// The proxies [begin, end) that a slot's subtree will hold, and where its children pair goes.
struct BuildRange {
    std::uint32_t begin;
    std::uint32_t end;
    std::uint32_t child_pair;
};

float computeCentroid(const BuildEntry& entry, int axis) { return entry.fat.min[axis] + entry.fat.max[axis]; }

int findBin(float centroid, float low, float scale) {
    const float position = (centroid - low) * scale;
    // Clamped before the conversion, NaN to bin 0: boxes near FLT_MAX have an infinite centroid
    // sum, the extent is then infinite, scale 0 and position inf * 0 = NaN, whose conversion to
    // int is undefined. Same bins as truncating and then clamping for every other value.
    const float last = static_cast<float>(kBins - 1);
    const float clamped = position > 0.0f ? (position < last ? position : last) : 0.0f;
    return static_cast<int>(clamped);
}

// Wald 2007: bin the centroids of [begin, end) into kBins slabs per axis, sweep the bin bounds
// from both sides, and take the split with the lowest count_left * area_left +
// count_right * area_right. Partitions the range in place and returns the split index; equal
// centroids (no axis to bin along) split at the middle of the range.
std::uint32_t splitRange(BuildEntry* entries, std::uint32_t begin, std::uint32_t end) {
    Aabb centroids;
    setEmpty(centroids);
    for (std::uint32_t i = begin; i < end; ++i) {
        Vec3 c;
        add(entries[i].fat.min, entries[i].fat.max, c);
        expand(c, centroids);
    }
    float best_cost = std::numeric_limits<float>::infinity();
    int best_axis = -1;
    int best_bin = 0;
    for (int axis = 0; axis < 3; ++axis) {
        const float extent = centroids.max[axis] - centroids.min[axis];
        if (!(extent > 0.0f)) continue;
        const float scale = static_cast<float>(kBins) / extent;
        std::uint32_t counts[kBins] = {};
        Aabb boxes[kBins];
        for (Aabb& box : boxes) setEmpty(box);
        for (std::uint32_t i = begin; i < end; ++i) {
            const int bin = findBin(computeCentroid(entries[i], axis), centroids.min[axis], scale);
            ++counts[bin];
            merge(boxes[bin], entries[i].fat, boxes[bin]);
        }
        // Right-to-left sweep first, then left-to-right evaluating each split after bin k.
        float right_area[kBins];
        std::uint32_t right_count[kBins];
        Aabb sweep;
        setEmpty(sweep);
        std::uint32_t count = 0;
        for (int k = kBins - 1; k > 0; --k) {
            merge(sweep, boxes[k], sweep);
            count += counts[k];
            right_area[k] = count > 0 ? treeArea(sweep) : 0.0f;
            right_count[k] = count;
        }
        setEmpty(sweep);
        count = 0;
        for (int k = 0; k < kBins - 1; ++k) {
            merge(sweep, boxes[k], sweep);
            count += counts[k];
            if (count == 0 || right_count[k + 1] == 0) continue;
            const float cost = static_cast<float>(count) * treeArea(sweep) +
                               static_cast<float>(right_count[k + 1]) * right_area[k + 1];
            if (cost < best_cost) {
                best_cost = cost;
                best_axis = axis;
                best_bin = k;
            }
        }
    }
    if (best_axis < 0) return begin + (end - begin) / 2;
    const float scale = static_cast<float>(kBins) / (centroids.max[best_axis] - centroids.min[best_axis]);
    std::uint32_t left = begin, right = end;
    while (left < right) {
        if (findBin(computeCentroid(entries[left], best_axis), centroids.min[best_axis], scale) <= best_bin) {
            ++left;
        } else {
            --right;
            const BuildEntry held = entries[left];
            entries[left] = entries[right];
            entries[right] = held;
        }
    }
    return left;
}

} // namespace

std::size_t DynamicTree::rebuildScratchBytes(std::uint32_t proxy_capacity) {
    MemoryRequirements requirements;
    requirements.add(sizeof(BuildEntry) * proxy_capacity, alignof(BuildEntry));
    requirements.add(sizeof(BuildRange) * 2 * static_cast<std::size_t>(proxy_capacity), alignof(BuildRange));
    return requirements.bytes;
}

// Top-down with no recursion and no stack, into a depth-first layout of node pairs: a subtree of
// n leaves owns n - 1 pairs, so when a node of the range [begin, end) splits at `split`, its
// children pair P is followed by the pairs of the first child's subtree (split - begin - 1 of
// them) and then those of the second child's. Every node's slot is below its children's, so one
// pass over the slots in increasing order finds each range already written by its parent. Each
// subtree then occupies a contiguous run of slots, which is what the pair search and the queries
// walk through.
Status DynamicTree::rebuild(Arena& scratch) {
    if (m_nodes == nullptr) return Status::InvalidArgument;
    if (m_proxy_count == 0) return Status::Ok;
    const ArenaMarker marker = scratch.mark();
    BuildEntry* entries = scratch.allocateArray<BuildEntry>(m_proxy_count);
    BuildRange* ranges = scratch.allocateArray<BuildRange>(m_slot_count);
    if (entries == nullptr || ranges == nullptr) {
        (void)scratch.rewind(marker);
        return Status::OutOfMemory;
    }
    std::uint32_t count = 0;
    for (std::uint32_t i = 0; i < m_proxy_capacity; ++i) {
        const TreeProxy& record = m_records[i];
        if (record.node == kTreeFreeNode) continue;
        entries[count].fat = m_fat[i];
        entries[count].tight = m_nodes[record.node].box;
        entries[count].proxy = i;
        entries[count].pad = 0;
        ++count;
    }
    FLAK_ASSERT(count == m_proxy_count, "dynamic tree: live records differ from the count");

    m_nodes[0].parent = kTreeNullNode;
    ranges[0] = BuildRange{0, count, 2};
    const std::uint32_t used_end = 2 * count; // slots [2, 2 count) hold the count - 1 pairs
    for (std::uint32_t slot = 0; slot < used_end; slot = slot == 0 ? 2 : slot + 1) {
        const BuildRange range = ranges[slot];
        TreeNode& node = m_nodes[slot];
        if (range.end - range.begin == 1) {
            const BuildEntry& entry = entries[range.begin];
            node.box = entry.tight;
            node.child = kTreeLeafBit | entry.proxy;
            m_records[entry.proxy].node = slot;
            continue;
        }
        setEmpty(node.box);
        for (std::uint32_t i = range.begin; i < range.end; ++i) merge(node.box, entries[i].fat, node.box);
        const std::uint32_t split = splitRange(entries, range.begin, range.end);
        const std::uint32_t pair = range.child_pair;
        m_nodes[pair].parent = slot;
        m_nodes[pair + 1].parent = slot;
        ranges[pair] = BuildRange{range.begin, split, pair + 2};
        ranges[pair + 1] = BuildRange{split, range.end, pair + 2 + 2 * (split - range.begin - 1)};
        node.child = pair;
    }
    freePairsFrom(used_end); // the pairs past the tree
    (void)scratch.rewind(marker);
    return Status::Ok;
}

} // namespace flak
