// Test harness of the dynamic tree: a tree in its own aligned block, a mirror of every live proxy,
// and brute-force oracles (O(n) queries, O(n^2) pairs) to compare each traversal against.
#pragma once

#include <flak/broad/dynamic_tree.h>
#include <flak/geom/segment_aabb.h>
#include <flak/geom/sphere_aabb.h>

#include "flak_support/split_mix.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

namespace flak::test::broad {

struct AlignedFree {
    void operator()(void* p) const { std::free(p); }
};

/// An id as a comparable key.
inline std::uint64_t keyOf(const ProxyId& id) { return (std::uint64_t(id.generation) << 32) | id.index; }

/// Owns a DynamicTree and its memory, and mirrors the live proxies for the oracles.
class TreeHarness {
public:
    explicit TreeHarness(std::uint32_t capacity, float margin = 0.1f, float velocity_extension = 0.0f) {
        config.proxy_capacity = capacity;
        config.margin = margin;
        config.velocity_extension = velocity_extension;
        bytes = DynamicTree::requiredBytes(config);
        memory.reset(std::aligned_alloc(DynamicTree::kAlignment, (bytes + 63) / 64 * 64));
        status = tree.init(memory.get(), bytes, config);
    }

    Status create(const ProxyDesc& desc, ProxyId& out_id) {
        const Status s = tree.createProxy(desc, out_id);
        if (s == Status::Ok) live[keyOf(out_id)] = Entry{out_id, desc};
        return s;
    }
    Status destroy(const ProxyId& id) {
        const Status s = tree.destroyProxy(id);
        if (s == Status::Ok) live.erase(keyOf(id));
        return s;
    }
    Status move(const ProxyId& id, const Aabb& box, const Vec3& displacement) {
        const Status s = tree.moveProxy(id, box, displacement);
        if (s == Status::Ok) live[keyOf(id)].desc.box = box;
        return s;
    }
    std::vector<ProxyId> ids() const {
        std::vector<ProxyId> out;
        for (const auto& [key, entry] : live) out.push_back(entry.id);
        return out;
    }

    // ---- oracles -------------------------------------------------------------------------------
    std::set<std::uint64_t> bruteBox(const Aabb& region, std::uint32_t mask) const {
        std::set<std::uint64_t> out;
        for (const auto& [key, e] : live)
            if ((e.desc.category & mask) != 0 && overlaps(region, e.desc.box)) out.insert(key);
        return out;
    }
    std::set<std::uint64_t> bruteSphere(const Sphere& sphere, std::uint32_t mask) const {
        std::set<std::uint64_t> out;
        for (const auto& [key, e] : live)
            if ((e.desc.category & mask) != 0 && sphereAabbOverlap(sphere, e.desc.box)) out.insert(key);
        return out;
    }
    std::set<std::uint64_t> bruteSegment(const Vec3& p0, const Vec3& p1, std::uint32_t mask) const {
        std::set<std::uint64_t> out;
        SlabSegment seg;
        prepareSegment(p0, p1, seg);
        for (const auto& [key, e] : live)
            if ((e.desc.category & mask) != 0 && segmentAabbOverlap(seg, e.desc.box)) out.insert(key);
        return out;
    }
    /// Smallest entry parameter over all boxes the segment touches (2 when none).
    float bruteClosest(const Vec3& p0, const Vec3& p1, std::uint32_t mask) const {
        SlabSegment seg;
        prepareSegment(p0, p1, seg);
        float best = 2.0f;
        for (const auto& [key, e] : live) {
            float t0 = 0, t1 = 0;
            if ((e.desc.category & mask) != 0 && segmentAabb(seg, e.desc.box, t0, t1))
                best = std::min(best, t0);
        }
        return best;
    }
    std::set<std::pair<std::uint64_t, std::uint64_t>> brutePairs() const {
        std::set<std::pair<std::uint64_t, std::uint64_t>> out;
        std::vector<const Entry*> all;
        for (const auto& [key, e] : live) all.push_back(&e);
        for (std::size_t i = 0; i < all.size(); ++i)
            for (std::size_t j = i + 1; j < all.size(); ++j) {
                const Entry& a = *all[i];
                const Entry& b = *all[j];
                if (!overlaps(a.desc.box, b.desc.box)) continue;
                if ((a.desc.category & b.desc.mask) == 0 || (b.desc.category & a.desc.mask) == 0) continue;
                out.insert(orderedKey(a.id, b.id));
            }
        return out;
    }
    static std::pair<std::uint64_t, std::uint64_t> orderedKey(const ProxyId& a, const ProxyId& b) {
        return a.index < b.index ? std::make_pair(keyOf(a), keyOf(b)) : std::make_pair(keyOf(b), keyOf(a));
    }

    // ---- the tree's answers, as sets -----------------------------------------------------------
    std::set<std::uint64_t> treeBox(const Aabb& region, std::uint32_t mask,
                                    std::uint32_t* out_visits = nullptr) const {
        Collect c;
        const std::uint32_t visits = tree.queryBox(region, mask, &Collect::visit, &c);
        if (out_visits) *out_visits = visits;
        EXPECT_EQ(visits, c.keys.size());
        return c.unique();
    }
    std::set<std::uint64_t> treeSphere(const Sphere& sphere, std::uint32_t mask) const {
        Collect c;
        const std::uint32_t visits = tree.querySphere(sphere, mask, &Collect::visit, &c);
        EXPECT_EQ(visits, c.keys.size());
        return c.unique();
    }
    std::set<std::uint64_t> treeSegment(const Vec3& p0, const Vec3& p1, std::uint32_t mask) const {
        Collect c;
        const std::uint32_t visits = tree.querySegment(p0, p1, mask, &Collect::visitSegment, &c);
        EXPECT_EQ(visits, c.keys.size());
        return c.unique();
    }
    float treeClosest(const Vec3& p0, const Vec3& p1, std::uint32_t mask) const {
        float best = 2.0f;
        tree.querySegment(p0, p1, mask, &closestVisit, &best);
        return best;
    }
    std::set<std::pair<std::uint64_t, std::uint64_t>>
    treePairs(std::vector<TreePair>* out_list = nullptr) const {
        std::vector<TreePair> pairs(live.size() * 8 + 16);
        OutBuffer<TreePair> found = OutBuffer<TreePair>::over(pairs.data(), std::uint32_t(pairs.size()));
        Status s = tree.findPairs(found);
        if (s == Status::BufferFull) {
            pairs.resize(found.count + found.dropped);
            found = OutBuffer<TreePair>::over(pairs.data(), std::uint32_t(pairs.size()));
            s = tree.findPairs(found);
        }
        EXPECT_EQ(s, Status::Ok);
        EXPECT_EQ(found.dropped, 0u);
        pairs.resize(found.count);
        std::set<std::pair<std::uint64_t, std::uint64_t>> out;
        for (const TreePair& p : pairs) {
            EXPECT_LT(p.a.index, p.b.index) << "pair not ordered";
            const auto key = std::make_pair(keyOf(p.a), keyOf(p.b));
            EXPECT_TRUE(out.insert(key).second) << "pair reported twice: " << p.a.index << "," << p.b.index;
        }
        if (out_list) *out_list = pairs;
        return out;
    }

    /// Validates and returns the report; a failure is a test failure naming what broke.
    TreeReport check(const char* where = "") const {
        TreeReport report;
        const bool ok = tree.validate(report);
        EXPECT_TRUE(ok) << where << ": " << (report.what ? report.what : "?") << " at node " << report.node;
        EXPECT_EQ(report.leaf_count, live.size());
        return report;
    }

    struct Entry {
        ProxyId id;
        ProxyDesc desc;
    };
    DynamicTreeConfig config;
    std::size_t bytes = 0;
    std::unique_ptr<void, AlignedFree> memory;
    DynamicTree tree;
    Status status = Status::Ok;
    std::map<std::uint64_t, Entry> live;

private:
    struct Collect {
        std::vector<std::uint64_t> keys;
        std::set<std::uint64_t> unique() const {
            std::set<std::uint64_t> out(keys.begin(), keys.end());
            EXPECT_EQ(out.size(), keys.size()) << "a proxy was visited twice";
            return out;
        }
        static bool visit(void* user, const ProxyId& id) {
            static_cast<Collect*>(user)->keys.push_back(keyOf(id));
            return true;
        }
        static float visitSegment(void* user, const ProxyId& id, float, float t_max) {
            static_cast<Collect*>(user)->keys.push_back(keyOf(id));
            return t_max;
        }
    };
    static float closestVisit(void* user, const ProxyId&, float t_enter, float) {
        float& best = *static_cast<float*>(user);
        best = std::min(best, t_enter);
        return t_enter; // clip: nothing beyond the closest hit so far matters
    }
};

/// A random box: centre uniform in [lo, hi]^3 (z flattened when flat), half extents in
/// [min_half, max_half].
inline Aabb randomBox(SplitMix64& rng, float lo, float hi, float min_half, float max_half,
                      bool flat = false) {
    Aabb b;
    const float cx = rng.rangef(lo, hi), cy = rng.rangef(lo, hi), cz = flat ? 0.0f : rng.rangef(lo, hi);
    const float hx = rng.rangef(min_half, max_half), hy = rng.rangef(min_half, max_half);
    const float hz = flat ? 0.0f : rng.rangef(min_half, max_half);
    b.min = Vec3{cx - hx, cy - hy, cz - hz};
    b.max = Vec3{cx + hx, cy + hy, cz + hz};
    return b;
}

} // namespace flak::test::broad
