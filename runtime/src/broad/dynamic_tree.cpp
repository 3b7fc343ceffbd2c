// flak — dynamic tree: memory layout, proxies (create, destroy, move), node pairs.
#include <flak/align.h>
#include <flak/assert.h>
#include <flak/broad/dynamic_tree.h>

#include "broad/pair_sink.h"
#include "broad/tree_walk.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

namespace flak {
namespace {

constexpr std::size_t kNodeBytesPerProxy = 2 * sizeof(TreeNode); // one pair of slots per proxy

bool isValidConfig(const DynamicTreeConfig& config) {
    return config.proxy_capacity >= 1 && config.proxy_capacity <= DynamicTree::kMaxProxies &&
           std::isfinite(config.margin) && config.margin >= 0.0f &&
           std::isfinite(config.velocity_extension) && config.velocity_extension >= 0.0f;
}

std::size_t recordBytes(std::uint32_t capacity) {
    return alignUp(sizeof(TreeProxy) * capacity, kMinAlignment);
}
std::size_t fatBytes(std::uint32_t capacity) { return alignUp(sizeof(Aabb) * capacity, kMinAlignment); }
// count * per + slack fits in size_t: always on 64-bit hosts, so written as a function of size_t
// values (the same test on a uint32_t count is one compilers flag as always false there).
bool fitsInSize(std::size_t count, std::size_t per, std::size_t slack) {
    return count <= (SIZE_MAX - slack) / per;
}
std::size_t userBytes(std::uint32_t capacity) {
    return alignUp(sizeof(std::uint64_t) * capacity, kMinAlignment);
}

} // namespace

std::size_t DynamicTree::requiredBytes(const DynamicTreeConfig& config) {
    if (config.proxy_capacity < 1 || config.proxy_capacity > kMaxProxies) return 0;
    const std::uint32_t n = config.proxy_capacity;
    constexpr std::size_t kBytesPerProxy =
        kNodeBytesPerProxy + sizeof(TreeProxy) + sizeof(Aabb) + sizeof(std::uint64_t);
    if (!fitsInSize(n, kBytesPerProxy, 4 * DynamicTree::kAlignment)) return 0; // 32-bit hosts
    return alignUp(kNodeBytesPerProxy * n + recordBytes(n) + fatBytes(n) + userBytes(n),
                   DynamicTree::kAlignment);
}

// The highest generation a new init() goes on from (see init).
constexpr std::uint32_t kGenerationRestart = 0x80000000u;

Status DynamicTree::init(void* memory, std::size_t bytes, const DynamicTreeConfig& config) {
    m_nodes = nullptr;
    m_records = nullptr;
    m_fat = nullptr;
    m_user = nullptr;
    m_slot_count = 0;
    m_proxy_capacity = 0;
    m_proxy_count = 0;
    m_proxy_free = kTreeNullNode;
    m_free_pair = kTreeNullNode;
    m_retired = 0;
    m_filtered = 0;
    m_reinserts = 0;
    m_inserts = 0;
    m_rotations = 0;
    if (memory == nullptr) return Status::NullMemory;
    if (!isAligned(memory, kAlignment)) return Status::Misaligned;
    if (!isValidConfig(config)) return Status::InvalidArgument;
    const std::size_t needed = requiredBytes(config);
    if (needed == 0) return Status::InvalidArgument; // the size does not fit in size_t (32-bit hosts)
    if (bytes < needed) return Status::TooSmall;
    unsigned char* base = static_cast<unsigned char*>(memory);
    m_config = config;
    m_nodes = reinterpret_cast<TreeNode*>(base);
    const std::uint32_t n = config.proxy_capacity;
    m_records = reinterpret_cast<TreeProxy*>(base + kNodeBytesPerProxy * n);
    m_fat = reinterpret_cast<Aabb*>(base + kNodeBytesPerProxy * n + recordBytes(n));
    m_user = reinterpret_cast<std::uint64_t*>(base + kNodeBytesPerProxy * n + recordBytes(n) + fatBytes(n));
    m_slot_count = 2 * config.proxy_capacity;
    m_proxy_capacity = config.proxy_capacity;
    // Generations go on from the highest this tree has handed out, so no id from before this
    // init matches a proxy made after it (0 marks a retired slot). Past kGenerationRestart they
    // start from 1 again instead: every slot then keeps at least 2^31 reuses before it retires
    // (starting just below the wrap would retire them all within a few).
    const std::uint32_t first = m_top_generation < kGenerationRestart ? m_top_generation + 1u : 1u;
    for (std::uint32_t i = 0; i < m_proxy_capacity; ++i) {
        m_records[i].node = kTreeFreeNode;
        m_records[i].generation = first;
    }
    clear();
    return Status::Ok;
}

void DynamicTree::clear() {
    if (m_nodes == nullptr) return; // no successful init: nothing to clear
    for (std::uint32_t i = 0; i < m_proxy_capacity; ++i) {
        TreeProxy& record = m_records[i];
        if (record.node == kTreeFreeNode) continue;
        // A live proxy: its ids go stale (a slot whose generation would wrap is retired).
        record.node = kTreeFreeNode;
        if (record.generation == 0xFFFFFFFFu) {
            record.generation = 0;
            ++m_retired;
        } else {
            ++record.generation;
        }
    }
    // The free list in index order, so a fresh tree hands out 0, 1, 2, ... (deterministic).
    m_proxy_free = kTreeNullNode;
    m_proxy_count = 0;
    m_filtered = 0;
    for (std::uint32_t i = m_proxy_capacity; i-- > 0;) {
        TreeProxy& record = m_records[i];
        if (record.generation == 0) continue; // retired for good
        record.mask = m_proxy_free;
        m_proxy_free = i;
    }
    resetNodes();
}

void DynamicTree::resetNodes() {
    // Slot 0 is the root (free while the tree is empty); slot 1 is never used.
    m_nodes[0].parent = kTreeFreeNode;
    m_nodes[0].child = kTreeNullNode;
    m_nodes[1].parent = kTreeFreeNode;
    m_nodes[1].child = kTreeNullNode;
    freePairsFrom(2);
}

void DynamicTree::freePairsFrom(std::uint32_t first_free) {
    // Built from the top down so pairs are handed out in ascending order (deterministic layout).
    m_free_pair = kTreeNullNode;
    for (std::uint32_t slot = m_slot_count; slot >= first_free + 2 && slot >= 4; slot -= 2) {
        const std::uint32_t first = slot - 2;
        m_nodes[first].parent = kTreeFreeNode;
        m_nodes[first + 1].parent = kTreeFreeNode;
        m_nodes[first + 1].child = kTreeNullNode;
        m_nodes[first].child = m_free_pair;
        m_free_pair = first;
    }
}

std::uint32_t DynamicTree::allocatePair() {
    const std::uint32_t first = m_free_pair;
    // A tree with n proxies uses n - 1 pairs; capacity - 1 exist, so this cannot run dry.
    FLAK_ASSERT(first != kTreeNullNode, "dynamic tree: node pairs exhausted (internal error)");
    m_free_pair = m_nodes[first].child;
    return first;
}

void DynamicTree::freePair(std::uint32_t first) {
    m_nodes[first].parent = kTreeFreeNode;
    m_nodes[first + 1].parent = kTreeFreeNode;
    m_nodes[first + 1].child = kTreeNullNode;
    m_nodes[first].child = m_free_pair;
    m_free_pair = first;
}

TreeProxy* DynamicTree::findProxy(const ProxyId& id) {
    if (id.isNull() || id.index >= m_proxy_capacity) return nullptr;
    TreeProxy& record = m_records[id.index];
    if (record.node == kTreeFreeNode || record.generation != id.generation) return nullptr;
    return &record;
}

const TreeProxy* DynamicTree::findProxy(const ProxyId& id) const {
    return const_cast<DynamicTree*>(this)->findProxy(id);
}

void DynamicTree::makeFatBox(const Aabb& box, const Vec3& displacement, Aabb& out_fat) const {
    inflate(box, m_config.margin, out_fat);
    if (m_config.velocity_extension > 0.0f) {
        Vec3 reach;
        scale(displacement, m_config.velocity_extension, reach);
        for (int axis = 0; axis < 3; ++axis) {
            if (reach[axis] < 0.0f)
                out_fat.min[axis] += reach[axis];
            else
                out_fat.max[axis] += reach[axis];
        }
    }
    // A box near the ends of the float range grows past them: held at the largest finite
    // values, so the fat box still holds the tight one and every test on it stays finite.
    for (int axis = 0; axis < 3; ++axis) {
        out_fat.min[axis] = std::max(out_fat.min[axis], -FLT_MAX);
        out_fat.max[axis] = std::min(out_fat.max[axis], FLT_MAX);
    }
}

void DynamicTree::getEnclosingBox(std::uint32_t slot, Aabb& out_box) const {
    const TreeNode& node = m_nodes[slot];
    if (isLeaf(node))
        out_box = m_fat[node.child & ~kTreeLeafBit];
    else
        out_box = node.box;
}

void DynamicTree::relink(std::uint32_t slot) {
    const TreeNode& node = m_nodes[slot];
    if (isLeaf(node)) {
        m_records[node.child & ~kTreeLeafBit].node = slot;
    } else {
        m_nodes[node.child].parent = slot;
        m_nodes[node.child + 1].parent = slot;
    }
}

Status DynamicTree::createProxy(const ProxyDesc& desc, ProxyId& out_id) {
    out_id = ProxyId{};
    if (!isValidTreeBox(desc.box)) return Status::InvalidArgument;
    if (m_proxy_free == kTreeNullNode) return Status::PoolFull;
    const std::uint32_t index = m_proxy_free;
    TreeProxy& record = m_records[index];
    m_proxy_free = record.mask;
    record.category = desc.category;
    record.mask = desc.mask;
    if (!acceptsAll(desc.category, desc.mask)) ++m_filtered;
    m_user[index] = desc.user_value;
    makeFatBox(desc.box, Vec3{}, m_fat[index]);
    ++m_proxy_count;
    insertLeaf(index, desc.box);
    out_id = ProxyId{index, record.generation};
    if (record.generation > m_top_generation) m_top_generation = record.generation;
    return Status::Ok;
}

Status DynamicTree::destroyProxy(const ProxyId& id) {
    if (id.isNull()) return Status::NullHandle;
    TreeProxy* record = findProxy(id);
    if (record == nullptr) return Status::StaleHandle;
    removeLeaf(record->node);
    record->node = kTreeFreeNode;
    --m_proxy_count;
    if (!acceptsAll(record->category, record->mask)) --m_filtered;
    if (record->generation == 0xFFFFFFFFu) {
        record->generation = 0; // retired: a wrapped generation would revive old ids
        ++m_retired;
        return Status::Ok;
    }
    ++record->generation;
    record->mask = m_proxy_free;
    m_proxy_free = id.index;
    return Status::Ok;
}

Status DynamicTree::moveProxy(const ProxyId& id, const Aabb& box, const Vec3& displacement) {
    if (id.isNull()) return Status::NullHandle;
    TreeProxy* record = findProxy(id);
    if (record == nullptr) return Status::StaleHandle;
    if (!isValidTreeBox(box) || !isFinite(displacement)) return Status::InvalidArgument;
    Aabb& fat = m_fat[id.index];
    if (contains(fat, box)) {
        bool keep = true;
        if (m_config.velocity_extension > 0.0f) {
            // Box2D's shrink rule: a fat box more than four margins beyond the one this move
            // would give is left over from a fast move that stopped; refit it.
            Aabb fresh, huge;
            makeFatBox(box, displacement, fresh);
            inflate(fresh, 4.0f * m_config.margin, huge);
            keep = contains(huge, fat);
        }
        if (keep) {
            m_nodes[record->node].box = box;
            return Status::Ok;
        }
    }
    const std::uint32_t index = id.index;
    removeLeaf(record->node);
    makeFatBox(box, displacement, fat);
    insertLeaf(index, box);
    ++m_reinserts;
    return Status::Ok;
}

Status DynamicTree::setProxyFilter(const ProxyId& id, std::uint32_t category, std::uint32_t mask) {
    if (id.isNull()) return Status::NullHandle;
    TreeProxy* record = findProxy(id);
    if (record == nullptr) return Status::StaleHandle;
    if (!acceptsAll(record->category, record->mask)) --m_filtered;
    if (!acceptsAll(category, mask)) ++m_filtered;
    record->category = category;
    record->mask = mask;
    return Status::Ok;
}

Status DynamicTree::getProxy(const ProxyId& id, ProxyDesc& out_desc) const {
    if (id.isNull()) return Status::NullHandle;
    const TreeProxy* record = findProxy(id);
    if (record == nullptr) return Status::StaleHandle;
    out_desc.box = m_nodes[record->node].box;
    out_desc.user_value = m_user[id.index];
    out_desc.category = record->category;
    out_desc.mask = record->mask;
    return Status::Ok;
}

Status DynamicTree::getFatBox(const ProxyId& id, Aabb& out_box) const {
    if (id.isNull()) return Status::NullHandle;
    const TreeProxy* record = findProxy(id);
    if (record == nullptr) return Status::StaleHandle;
    out_box = m_fat[id.index];
    return Status::Ok;
}

} // namespace flak
