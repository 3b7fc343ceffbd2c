// flak — the broad phase: a dynamic AABB tree with parent links and stackless traversals.
//
// Method: Catto's dynamic tree (Box2D; GDC 2019 "Dynamic BVH") with the surface-area insertion
// cost and branch-and-bound sibling search of Bittner et al. 2013, "Fast insertion-based
// optimization of bounding volume hierarchies"; tree rotations after Kensler 2008 and Kopta et al.
// 2012, "Fast, effective BVH updates for animated scenes"; a full rebuild by Wald's binned SAH
// (2007, "On fast construction of SAH-based bounding volume hierarchies"); pair searches by the
// simultaneous tree-vs-tree descent of Bullet's btDbvt::collideTT. Every traversal walks with
// parent links and no stack (the Xbox 360 field report): memory use is constant whatever the
// tree's depth. Node layout and the walk are described in tree_node.h.
#pragma once

#include <flak/arena.h>
#include <flak/broad/tree_node.h>
#include <flak/broad/tree_pair.h>
#include <flak/broad/tree_proxy.h>
#include <flak/broad/tree_report.h>
#include <flak/math/aabb.h>
#include <flak/math/sphere.h>
#include <flak/math/vec3.h>
#include <flak/out_buffer.h>
#include <flak/status.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// Sizes and fattening of a DynamicTree. Plain value.
struct DynamicTreeConfig {
    std::uint32_t proxy_capacity = 0; ///< most proxies at once; 1 .. DynamicTree::kMaxProxies
    float margin = 0.1f;              ///< fat box = tight box grown by this on every side (world units, >= 0)
    /// Fat boxes also reach this many displacements ahead along the motion passed to moveProxy()
    /// (Box2D's b2_aabbMultiplier idea); 0 turns the extension off. Dimensionless, >= 0.
    float velocity_extension = 0.0f;
};

/// Called for each proxy a box or sphere query finds. Return false to stop the query early.
using ProxyVisitor = bool (*)(void* user, const ProxyId& proxy);

/// Called for each proxy a segment query finds. `t_enter` is where the segment p0 + t (p1 - p0)
/// enters the proxy's tight box, `t_max` the current end of the segment. Return the new end:
/// `t_max` to go on, a smaller value in [0, t_max] to clip (a closest-hit search returns its hit's
/// t, and boxes beyond it are skipped from then on), or a negative value to stop the query.
using SegmentVisitor = float (*)(void* user, const ProxyId& proxy, float t_enter, float t_max);

/// Dynamic AABB tree over caller memory (see requiredBytes). Proxies are tight boxes with a user
/// value and category/mask bits; the tree keeps a fat box per proxy so small moves cost nothing.
///
/// Memory: everything lives in the block handed to init(); nothing is allocated, nothing grows.
/// At capacity: createProxy() answers PoolFull and the tree is unchanged; moveProxy() never fails
/// for want of room (a proxy's nodes are reused). Pair searches write into a caller buffer and
/// count what did not fit.
/// Threads: the const queries and pair searches only read, so any number may run at once; every
/// non-const call needs exclusive access.
class DynamicTree {
public:
    /// Alignment of the memory block init() expects (one node pair per cache line).
    static constexpr std::size_t kAlignment = 64;
    /// Largest proxy_capacity (leaf bits and slot indices must fit in 31 bits).
    static constexpr std::uint32_t kMaxProxies = (1u << 30) - 1u;

    /// Bytes of memory init() needs for `config`: 112 per proxy (two 32-byte node slots, a
    /// 16-byte record, a 24-byte fat box, an 8-byte user value), rounded up to 64. 0 when the
    /// capacity is out of range (or the size would not fit in size_t).
    static std::size_t requiredBytes(const DynamicTreeConfig& config);

    /// Bytes of arena space rebuild() needs for a tree of `proxy_capacity` proxies (as requested
    /// from an Arena, padding included).
    static std::size_t rebuildScratchBytes(std::uint32_t proxy_capacity);

    DynamicTree() = default;
    DynamicTree(const DynamicTree&) = delete;
    DynamicTree& operator=(const DynamicTree&) = delete;

    /// Lays the tree out in [memory, memory + bytes) and empties it. `memory` must be aligned to
    /// kAlignment and hold requiredBytes(config). Ids handed out before, in this block or another,
    /// go stale: a tree initialised again gives its proxies generations above every one it gave
    /// before (a fresh tree starts at 1, so its ids repeat from run to run), until it has handed
    /// out generations past 2^31: an init after that starts from 1 again, and an id kept from
    /// before could then match a new proxy. NullMemory,
    /// Misaligned, TooSmall, or InvalidArgument (capacity 0 or above kMaxProxies, negative or
    /// non-finite margin/extension, or a block size that does not fit in size_t); on failure the
    /// tree is unusable (capacity 0) until a successful init.
    [[nodiscard]] Status init(void* memory, std::size_t bytes, const DynamicTreeConfig& config);

    /// Adds a proxy and writes its id. Its fat box is the tight box grown by the margin; it is
    /// inserted where the surface-area cost is lowest, then rotations run up the path.
    /// PoolFull (null id, nothing changed) at capacity; InvalidArgument for a box with NaN/Inf or
    /// min > max on an axis. Any finite box is taken: a fat box that would grow past float's
    /// range is held at its largest finite values, and surface areas beyond float's range count
    /// as FLT_MAX, so queries still find every proxy (insertion costs among such boxes tie).
    [[nodiscard]] Status createProxy(const ProxyDesc& desc, ProxyId& out_id);

    /// Removes a proxy; its id becomes stale. NullHandle / StaleHandle change nothing.
    [[nodiscard]] Status destroyProxy(const ProxyId& id);

    /// Gives a proxy a new tight box. `displacement` is its motion this step (world units), used
    /// only by the velocity extension. While the new box stays inside the fat box this writes one
    /// box and touches nothing else; otherwise the proxy's leaf is taken out and inserted again
    /// with a new fat box (never fails for room). With a velocity extension it also reinserts to
    /// shrink a fat box more than four margins bigger than the move needs (after a fast move
    /// stops). NullHandle, StaleHandle, InvalidArgument (bad box or non-finite displacement):
    /// nothing changed.
    [[nodiscard]] Status moveProxy(const ProxyId& id, const Aabb& box, const Vec3& displacement);

    /// Replaces a proxy's category and mask bits (takes effect in the next query or search).
    [[nodiscard]] Status setProxyFilter(const ProxyId& id, std::uint32_t category, std::uint32_t mask);

    /// Writes a proxy's tight box, user value, category and mask.
    [[nodiscard]] Status getProxy(const ProxyId& id, ProxyDesc& out_desc) const;

    /// Writes a proxy's fat box (the box the tree's internal nodes bound).
    [[nodiscard]] Status getFatBox(const ProxyId& id, Aabb& out_box) const;

    /// Removes every proxy; all ids become stale. Capacity and configuration are kept. Does
    /// nothing on a tree without a successful init.
    void clear();

    /// Rebuilds the whole tree top-down by binned SAH over the fat boxes (level load): 16 bins
    /// per axis, one proxy per leaf, nodes laid out depth-first (a node's children follow it, the
    /// first child's subtree before the second's). No recursion and no stack: the node array
    /// itself is the work queue. Proxy ids stay valid. Needs rebuildScratchBytes(capacity()) from
    /// `scratch` (given back before returning); OutOfMemory leaves the tree as it was;
    /// InvalidArgument on a tree without a successful init.
    [[nodiscard]] Status rebuild(Arena& scratch);

    /// Visits every proxy whose tight box overlaps the closed box `region` and whose category
    /// has a bit of `mask`, in walk order: at each node, its leaf children (first, second), then
    /// its internal children's subtrees (first, second). Returns the number of visits. A region
    /// with NaN or min > max visits nothing.
    std::uint32_t queryBox(const Aabb& region, std::uint32_t mask, ProxyVisitor visit, void* user) const;

    /// Visits every proxy whose tight box touches the closed ball (exact sphere-box distance),
    /// filtered by `mask` like queryBox. NaN/Inf or a negative radius visits nothing.
    std::uint32_t querySphere(const Sphere& sphere, std::uint32_t mask, ProxyVisitor visit, void* user) const;

    /// Visits the proxies whose tight boxes the segment p0 -> p1 touches, nearer child first
    /// (the child whose centre comes first along the segment), filtered by `mask`. Each visit may clip the
    /// segment (see SegmentVisitor), which prunes every box beyond the new end. Box tests are conservative
    /// slab tests (geom/segment_aabb.h). Returns the number of visits; NaN/Inf visits nothing.
    std::uint32_t querySegment(const Vec3& p0, const Vec3& p1, std::uint32_t mask, SegmentVisitor visit,
                               void* user) const;

    /// Finds every pair of proxies of this tree whose tight boxes overlap and whose filters
    /// accept each other ((category_a & mask_b) and (category_b & mask_a) both non-zero), each
    /// pair once, with a.index < b.index. Method: the tree walked against itself like
    /// btDbvt::collideTT, but stackless (pairs of nodes moved over with parent links, slot parity
    /// and a depth difference). Order: depth first over pairs of nodes, the children of a node
    /// against itself taken as (first, first), (first, second), (second, second), and of two
    /// different nodes as (first, first), (first, second), (second, first), (second, second).
    /// Deterministic for a given sequence of calls. Appends the pairs to inout_pairs from its
    /// count on and counts those that do not fit in its dropped: Ok, or BufferFull when some were
    /// dropped (those written are the first ones of the full answer). `filter` (tree_pair.h) may
    /// leave out more pairs: those it refuses are neither written nor counted.
    [[nodiscard]] Status findPairs(OutBuffer<TreePair>& inout_pairs, const PairFilter& filter = {}) const;

    /// Checks every invariant: parent and child links, pair alignment, leaf <-> proxy links,
    /// boxes containing the children's fat boxes (internal) and fat boxes containing tight boxes
    /// (leaves), the free list, and the counts. Fills the report (height, SAH cost, counts);
    /// returns true when valid. Walks the tree stacklessly; O(nodes). A tree that has had no
    /// successful init() is not valid (false, what = "tree not initialised").
    bool validate(TreeReport& out_report) const;

    std::uint32_t proxyCount() const { return m_proxy_count; }  ///< live proxies
    std::uint32_t capacity() const { return m_proxy_capacity; } ///< proxy capacity
    /// Proxy slots lost for good to generation wrap (after 2^32 - 1 reuses of one slot; a wrapped
    /// generation could make an old id valid again, so the slot is retired instead).
    std::uint32_t retiredProxies() const { return m_retired; }
    const DynamicTreeConfig& config() const { return m_config; } ///< as given to init
    std::uint64_t reinsertCount() const { return m_reinserts; }  ///< moves that left the fat box, ever
    std::uint64_t rotationCount() const { return m_rotations; }  ///< rotations applied, ever
    /// The node array (slot 0 is the root when proxyCount() > 0), for tools and debug drawing.
    const TreeNode* nodes() const { return m_nodes; }
    std::uint32_t nodeSlots() const { return m_slot_count; } ///< length of nodes()

private:
    friend Status findTreePairs(const DynamicTree& first, const DynamicTree& second,
                                OutBuffer<TreePair>& inout_pairs, const PairFilter& filter);

    TreeProxy* findProxy(const ProxyId& id);
    const TreeProxy* findProxy(const ProxyId& id) const;
    void makeFatBox(const Aabb& box, const Vec3& displacement, Aabb& out_fat) const;
    void getEnclosingBox(std::uint32_t slot, Aabb& out_box) const;
    void relink(std::uint32_t slot);
    std::uint32_t allocatePair();
    void freePair(std::uint32_t first);
    void resetNodes();
    void freePairsFrom(std::uint32_t first_free); ///< pairs [first_free, slot count) become the free list
    std::uint32_t findBestSibling(const Aabb& fat) const;
    void insertLeaf(std::uint32_t proxy_index, const Aabb& tight);
    void removeLeaf(std::uint32_t slot);
    void refitUpwards(std::uint32_t slot, bool rotate_nodes);
    bool rotate(std::uint32_t slot);
    void swapNodes(std::uint32_t slot_a, std::uint32_t slot_b);

    TreeNode* m_nodes = nullptr; // 2 * capacity slots, 64-byte aligned
    std::uint32_t m_slot_count = 0;
    std::uint32_t m_free_pair = kTreeNullNode; // even slot of the first free pair
    TreeProxy* m_records = nullptr;            // proxy_capacity records; free ones chain through `mask`
    Aabb* m_fat = nullptr;                     // fat box per proxy
    std::uint64_t* m_user = nullptr;           // user value per proxy
    std::uint32_t m_proxy_capacity = 0;
    std::uint32_t m_proxy_count = 0;
    std::uint32_t m_proxy_free = kTreeNullNode; // first free record
    std::uint32_t m_retired = 0;
    std::uint32_t m_filtered = 0; // live proxies whose filter can refuse a pair (see acceptsAll)
    DynamicTreeConfig m_config;
    std::uint64_t m_reinserts = 0; // 64 bits: 2^32 moves can come within hours of a busy game
    std::uint64_t m_rotations = 0;
    std::uint32_t m_inserts = 0;        // leaf insertions, ever (seeds the tie-break; wraps harmlessly)
    std::uint32_t m_top_generation = 0; // the highest generation handed out, kept across init()
};

/// Finds every pair (a in `first`, b in `second`) whose tight boxes overlap and whose filters
/// accept each other: the static-vs-dynamic search. The two trees are walked against each other
/// without a stack, in the order findPairs() describes for two different nodes. Appends to
/// inout_pairs as findPairs() does: Ok, or BufferFull when some were dropped. The two trees
/// must be distinct objects (InvalidArgument otherwise; use findPairs() for a self search).
/// `filter` as for findPairs(), with a's user value from `first`. Read-only on both trees.
[[nodiscard]] Status findTreePairs(const DynamicTree& first, const DynamicTree& second,
                                   OutBuffer<TreePair>& inout_pairs, const PairFilter& filter = {});

} // namespace flak
