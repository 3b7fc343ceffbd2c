#include "tree_scene.h"

#include <flak/arena.h>
#include <flak/broad/dynamic_tree.h>
#include <flak/geom/segment_aabb.h>

#include "flak_support/split_mix.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#if defined(FLAK_BENCH_BOX2D)
#include <box2d/b2_dynamic_tree.h>
#endif
#if defined(FLAK_BENCH_BULLET)
#include <BulletCollision/BroadphaseCollision/btDbvt.h>
#endif

namespace flak::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kProxies = 10000;
constexpr double kMovingFraction = 0.2;
// Fat-box margin of this scene (world units): a proxy moves at most 0.1 per axis per frame, so a
// margin of three frames' motion. flak runs with it; Box2D keeps its compiled-in b2_aabbExtension
// (0.1, plus 4x the displacement); Bullet runs twice, with btDbvtBroadphase's gDbvtMargin (0.05)
// and with this margin.
constexpr float kSceneMargin = 0.3f;
constexpr std::uint32_t kRegionQueries = 100000;
constexpr std::uint32_t kSegmentQueries = 100000;

struct Move {
    std::uint32_t proxy;
    float dx;
    float dy;
};

// docs/bench_scenes.md (e), exactly: the initial boxes, then per frame the moves in proxy order.
struct ChurnScript {
    std::vector<Aabb> boxes;
    std::vector<std::uint32_t> frame_begin; // frames + 1 offsets into moves
    std::vector<Move> moves;
};

ChurnScript makeScript(int frames) {
    ChurnScript s;
    test::SplitMix64 rng(0x5EED0004u);
    s.boxes.resize(kProxies);
    for (Aabb& b : s.boxes) {
        const double cx = rng.range(0, 500), cy = rng.range(0, 500);
        const double hx = rng.range(0.5, 5), hy = rng.range(0.5, 5);
        b.min = Vec3{float(cx - hx), float(cy - hy), 0.0f};
        b.max = Vec3{float(cx + hx), float(cy + hy), 0.0f};
    }
    for (int f = 0; f < frames; ++f) {
        s.frame_begin.push_back(std::uint32_t(s.moves.size()));
        for (std::uint32_t i = 0; i < kProxies; ++i) {
            if (rng.u() < kMovingFraction) {
                const double dx = (2 * rng.u() - 1) * 0.1;
                const double dy = (2 * rng.u() - 1) * 0.1;
                s.moves.push_back(Move{i, float(dx), float(dy)});
            }
        }
    }
    s.frame_begin.push_back(std::uint32_t(s.moves.size()));
    return s;
}

inline void applyMove(const Move& m, Aabb& b) {
    b.min.x += m.dx;
    b.max.x += m.dx;
    b.min.y += m.dy;
    b.max.y += m.dy;
}

// The tight-box test every library's candidates go through (closed boxes, like flak's).
inline bool tightOverlap(const Aabb& a, const Aabb& b) { return overlaps(a, b); }

struct Region {
    Aabb box;
};
struct Segment {
    Vec3 p0, p1;
};

// Query sets of this benchmark (not among the shared scenes; defined here): regions with centre uniform
// in [0,500]^2 and half extents range(1,10); segments with origin uniform in [0,500]^2, direction
// angle 2 pi u(), length range(5,50). All at z = 0, like the proxies.
std::vector<Region> makeRegions() {
    test::SplitMix64 rng(0x5EED0E01u);
    std::vector<Region> out(kRegionQueries);
    for (Region& r : out) {
        const double cx = rng.range(0, 500), cy = rng.range(0, 500);
        const double hx = rng.range(1, 10), hy = rng.range(1, 10);
        r.box.min = Vec3{float(cx - hx), float(cy - hy), 0.0f};
        r.box.max = Vec3{float(cx + hx), float(cy + hy), 0.0f};
    }
    return out;
}
std::vector<Segment> makeSegments() {
    test::SplitMix64 rng(0x5EED0E02u);
    std::vector<Segment> out(kSegmentQueries);
    for (Segment& s : out) {
        const double ox = rng.range(0, 500), oy = rng.range(0, 500);
        const double phi = 2.0 * M_PI * rng.u();
        const double len = rng.range(5, 50);
        s.p0 = Vec3{float(ox), float(oy), 0.0f};
        s.p1 = Vec3{float(ox + len * std::cos(phi)), float(oy + len * std::sin(phi)), 0.0f};
    }
    return out;
}

struct ChurnResult {
    bool ran = false;
    std::vector<double> frame_ms;
    std::vector<double> move_ms; // the moves part of each frame
    std::uint64_t pairs_total = 0;
    std::uint32_t pairs_last = 0;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> last_pairs; // sorted, (low, high)
    std::uint64_t reinserts = 0;
    double region_ns = 0, segment_ns = 0, closest_ns = 0;
    std::uint64_t region_hits = 0, segment_hits = 0;
    double closest_sum = 0; // sum over segments of the closest entry t (2 when none)
    std::string note;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}
double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0.0 : s / double(v.size());
}
double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Runs a pass of `count` queries three times (`pass` returns its hit count) and keeps the fastest:
// a query set is short enough that one busy moment on a shared machine would dominate a mean.
template <typename Pass> double bestNsPerQuery(std::size_t count, std::uint64_t& out_hits, Pass&& pass) {
    double best = 0;
    for (int repeat = 0; repeat < 3; ++repeat) {
        const auto t0 = Clock::now();
        out_hits = pass();
        const double ns = msSince(t0) * 1e6 / double(count);
        if (repeat == 0 || ns < best) best = ns;
    }
    return best;
}

void sortPairs(std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
    for (auto& p : pairs)
        if (p.first > p.second) std::swap(p.first, p.second);
    std::sort(pairs.begin(), pairs.end());
}

// ---- flak ---------------------------------------------------------------------------------------
struct AlignedFree {
    void operator()(void* p) const { std::free(p); }
};

// flak's DynamicTree: proxies created in index order, then (with `rebuild_at_load`) one
// binned-SAH rebuild() as a level load would do; per frame moveProxy() for each move and one
// findPairs() into a caller buffer.
ChurnResult runFlak(const ChurnScript& script, const std::vector<Region>& regions,
                    const std::vector<Segment>& segments, bool rebuild_at_load) {
    ChurnResult r;
    r.ran = true;
    DynamicTreeConfig config;
    config.proxy_capacity = kProxies;
    config.margin = kSceneMargin;
    const std::size_t bytes = DynamicTree::requiredBytes(config);
    std::unique_ptr<void, AlignedFree> memory(
        std::aligned_alloc(DynamicTree::kAlignment, (bytes + 63) / 64 * 64));
    DynamicTree tree;
    if (tree.init(memory.get(), bytes, config) != Status::Ok) return r;
    std::vector<Aabb> boxes = script.boxes;
    std::vector<ProxyId> ids(kProxies);
    for (std::uint32_t i = 0; i < kProxies; ++i) {
        ProxyDesc d;
        d.box = boxes[i];
        d.user_value = i;
        if (tree.createProxy(d, ids[i]) != Status::Ok) return r;
    }
    if (rebuild_at_load) {
        std::vector<unsigned char> scratch_memory(DynamicTree::rebuildScratchBytes(kProxies) + kMinAlignment);
        Arena scratch;
        void* aligned =
            scratch_memory.data() +
            (kMinAlignment - reinterpret_cast<std::uintptr_t>(scratch_memory.data()) % kMinAlignment) %
                kMinAlignment;
        if (scratch.init(aligned, DynamicTree::rebuildScratchBytes(kProxies)) != Status::Ok ||
            tree.rebuild(scratch) != Status::Ok)
            return r;
    }
    std::vector<TreePair> pairs(1u << 18);
    const int frames = int(script.frame_begin.size()) - 1;
    OutBuffer<TreePair> found = OutBuffer<TreePair>::over(pairs.data(), std::uint32_t(pairs.size()));
    for (int f = 0; f < frames; ++f) {
        const auto t0 = Clock::now();
        for (std::uint32_t k = script.frame_begin[std::size_t(f)]; k < script.frame_begin[std::size_t(f) + 1];
             ++k) {
            const Move& m = script.moves[k];
            applyMove(m, boxes[m.proxy]);
            (void)tree.moveProxy(ids[m.proxy], boxes[m.proxy], Vec3{m.dx, m.dy, 0.0f});
        }
        r.move_ms.push_back(msSince(t0));
        found.clear();
        (void)tree.findPairs(found);
        r.frame_ms.push_back(msSince(t0));
        r.pairs_total += found.count + found.dropped;
        r.pairs_last = found.count + found.dropped;
        if (found.dropped != 0) r.note = "pair buffer too small";
    }
    // Proxy index i is proxy i here (fresh tree, created in order).
    for (std::uint32_t k = 0; k < found.count; ++k)
        r.last_pairs.emplace_back(pairs[k].a.index, pairs[k].b.index);
    sortPairs(r.last_pairs);
    r.reinserts = tree.reinsertCount();

    r.region_ns = bestNsPerQuery(regions.size(), r.region_hits, [&] {
        std::uint64_t hits = 0;
        for (const Region& q : regions)
            hits += tree.queryBox(
                q.box, ~0u, [](void*, const ProxyId&) { return true; }, nullptr);
        return hits;
    });
    r.segment_ns = bestNsPerQuery(segments.size(), r.segment_hits, [&] {
        std::uint64_t hits = 0;
        for (const Segment& q : segments)
            hits += tree.querySegment(
                q.p0, q.p1, ~0u, [](void*, const ProxyId&, float, float t_max) { return t_max; }, nullptr);
        return hits;
    });
    std::uint64_t closest_visits = 0;
    r.closest_ns = bestNsPerQuery(segments.size(), closest_visits, [&] {
        std::uint64_t visits = 0;
        r.closest_sum = 0;
        for (const Segment& q : segments) {
            float best = 2.0f;
            visits += tree.querySegment(
                q.p0, q.p1, ~0u,
                [](void* user, const ProxyId&, float t_enter, float) {
                    float& b = *static_cast<float*>(user);
                    if (t_enter < b) b = t_enter;
                    return t_enter;
                },
                &best);
            r.closest_sum += best;
        }
        return visits;
    });
    return r;
}

// ---- Box2D 2.4: b2DynamicTree -------------------------------------------------------------------
#if defined(FLAK_BENCH_BOX2D)
b2AABB toB2(const Aabb& b) {
    b2AABB out;
    out.lowerBound.Set(b.min.x, b.min.y);
    out.upperBound.Set(b.max.x, b.max.y);
    return out;
}

struct Box2dPairQuery {
    const b2DynamicTree* tree;
    const std::vector<Aabb>* boxes;
    std::vector<std::pair<std::uint32_t, std::uint32_t>>* pairs;
    std::uint32_t self;
    bool QueryCallback(int32 proxy_id) {
        const auto other = std::uint32_t(reinterpret_cast<std::uintptr_t>(tree->GetUserData(proxy_id)));
        if (other > self && tightOverlap((*boxes)[self], (*boxes)[other])) pairs->emplace_back(self, other);
        return true;
    }
};

struct Box2dRegionQuery {
    const b2DynamicTree* tree;
    const std::vector<Aabb>* boxes;
    const Aabb* region;
    std::uint64_t hits = 0;
    bool QueryCallback(int32 proxy_id) {
        const auto i = std::uint32_t(reinterpret_cast<std::uintptr_t>(tree->GetUserData(proxy_id)));
        if (tightOverlap(*region, (*boxes)[i])) ++hits;
        return true;
    }
};

struct Box2dRayQuery {
    const b2DynamicTree* tree;
    const std::vector<Aabb>* boxes;
    SlabSegment segment;
    std::uint64_t hits = 0;
    float RayCastCallback(const b2RayCastInput& input, int32 proxy_id) {
        const auto i = std::uint32_t(reinterpret_cast<std::uintptr_t>(tree->GetUserData(proxy_id)));
        if (segmentAabbOverlap(segment, (*boxes)[i])) ++hits;
        return input.maxFraction;
    }
};

// Box2D 2.4's dynamic tree used as its b2BroadPhase does for moves (MoveProxy with the
// displacement: fat box = tight + b2_aabbExtension, reinsert when the tight box leaves it); the
// pair search queries the tree with every proxy's tight box (b2BroadPhase::UpdatePairs only
// queries moved proxies and reports new pairs, which is not "all pairs every frame"). Each pair
// is seen from both ends; the one with the higher index is kept after the tight-box test.
ChurnResult runBox2d(const ChurnScript& script, const std::vector<Region>& regions,
                     const std::vector<Segment>& segments) {
    ChurnResult r;
    r.ran = true;
    b2DynamicTree tree;
    std::vector<Aabb> boxes = script.boxes;
    std::vector<int32> ids(kProxies);
    for (std::uint32_t i = 0; i < kProxies; ++i)
        ids[i] = tree.CreateProxy(toB2(boxes[i]), reinterpret_cast<void*>(std::uintptr_t(i)));
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    pairs.reserve(1u << 18);
    const int frames = int(script.frame_begin.size()) - 1;
    for (int f = 0; f < frames; ++f) {
        const auto t0 = Clock::now();
        for (std::uint32_t k = script.frame_begin[std::size_t(f)]; k < script.frame_begin[std::size_t(f) + 1];
             ++k) {
            const Move& m = script.moves[k];
            applyMove(m, boxes[m.proxy]);
            if (tree.MoveProxy(ids[m.proxy], toB2(boxes[m.proxy]), b2Vec2(m.dx, m.dy))) ++r.reinserts;
        }
        r.move_ms.push_back(msSince(t0));
        pairs.clear();
        Box2dPairQuery query{&tree, &boxes, &pairs, 0};
        for (std::uint32_t i = 0; i < kProxies; ++i) {
            query.self = i;
            tree.Query(&query, toB2(boxes[i]));
        }
        r.frame_ms.push_back(msSince(t0));
        r.pairs_total += pairs.size();
        r.pairs_last = std::uint32_t(pairs.size());
    }
    r.last_pairs = pairs;
    sortPairs(r.last_pairs);
    r.region_ns = bestNsPerQuery(regions.size(), r.region_hits, [&] {
        Box2dRegionQuery query{&tree, &boxes, nullptr};
        for (const Region& q : regions) {
            query.region = &q.box;
            tree.Query(&query, toB2(q.box));
        }
        return query.hits;
    });
    r.segment_ns = bestNsPerQuery(segments.size(), r.segment_hits, [&] {
        Box2dRayQuery query{&tree, &boxes, SlabSegment{}};
        for (const Segment& q : segments) {
            prepareSegment(q.p0, q.p1, query.segment);
            b2RayCastInput input;
            input.p1.Set(q.p0.x, q.p0.y);
            input.p2.Set(q.p1.x, q.p1.y);
            input.maxFraction = 1.0f;
            tree.RayCast(&query, input);
        }
        return query.hits;
    });
    return r;
}
#endif

// ---- Bullet: btDbvt -----------------------------------------------------------------------------
#if defined(FLAK_BENCH_BULLET)
btDbvtVolume toBt(const Aabb& b) {
    return btDbvtVolume::FromMM(btVector3(b.min.x, b.min.y, b.min.z), btVector3(b.max.x, b.max.y, b.max.z));
}

struct BulletPairs : btDbvt::ICollide {
    const std::vector<Aabb>* boxes = nullptr;
    std::vector<std::pair<std::uint32_t, std::uint32_t>>* pairs = nullptr;
    void Process(const btDbvtNode* a, const btDbvtNode* b) override {
        const auto i = std::uint32_t(a->dataAsInt), j = std::uint32_t(b->dataAsInt);
        if (tightOverlap((*boxes)[i], (*boxes)[j])) pairs->emplace_back(i, j);
    }
};

struct BulletRegion : btDbvt::ICollide {
    const std::vector<Aabb>* boxes = nullptr;
    const Aabb* region = nullptr;
    std::uint64_t hits = 0;
    void Process(const btDbvtNode* leaf) override {
        if (tightOverlap(*region, (*boxes)[std::uint32_t(leaf->dataAsInt)])) ++hits;
    }
};

struct BulletRay : btDbvt::ICollide {
    const std::vector<Aabb>* boxes = nullptr;
    SlabSegment segment;
    std::uint64_t hits = 0;
    void Process(const btDbvtNode* leaf) override {
        if (segmentAabbOverlap(segment, (*boxes)[std::uint32_t(leaf->dataAsInt)])) ++hits;
    }
};

// Bullet's btDbvt used as btDbvtBroadphase uses its dynamic set: leaves inserted with the tight
// box (and, with `optimize_at_load`, one optimizeTopDown() as btDbvtBroadphase::optimize() does);
// a move that leaves the leaf's box calls update(leaf, box, velocity 0 (m_prediction = 0),
// margin), which refits with the margin (btDbvtBroadphase's gDbvtMargin is 0.05); one
// optimizeIncremental(1) pass per frame; then the self tree-vs-tree search collideTT(root, root)
// reports each overlapping leaf pair once, filtered by the tight boxes.
ChurnResult runBullet(const ChurnScript& script, const std::vector<Region>& regions,
                      const std::vector<Segment>& segments, btScalar margin, bool optimize_at_load) {
    ChurnResult r;
    r.ran = true;
    btDbvt tree;
    std::vector<Aabb> boxes = script.boxes;
    std::vector<btDbvtNode*> leaves(kProxies);
    for (std::uint32_t i = 0; i < kProxies; ++i) {
        leaves[i] = tree.insert(toBt(boxes[i]), nullptr);
        leaves[i]->dataAsInt = int(i);
    }
    if (optimize_at_load) tree.optimizeTopDown();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    pairs.reserve(1u << 18);
    BulletPairs policy;
    policy.boxes = &boxes;
    policy.pairs = &pairs;
    const int frames = int(script.frame_begin.size()) - 1;
    for (int f = 0; f < frames; ++f) {
        const auto t0 = Clock::now();
        for (std::uint32_t k = script.frame_begin[std::size_t(f)]; k < script.frame_begin[std::size_t(f) + 1];
             ++k) {
            const Move& m = script.moves[k];
            applyMove(m, boxes[m.proxy]);
            btDbvtVolume volume = toBt(boxes[m.proxy]);
            if (tree.update(leaves[m.proxy], volume, btVector3(0, 0, 0), margin)) ++r.reinserts;
        }
        tree.optimizeIncremental(1);
        r.move_ms.push_back(msSince(t0));
        pairs.clear();
        tree.collideTT(tree.m_root, tree.m_root, policy);
        r.frame_ms.push_back(msSince(t0));
        r.pairs_total += pairs.size();
        r.pairs_last = std::uint32_t(pairs.size());
    }
    r.last_pairs = pairs;
    sortPairs(r.last_pairs);
    r.region_ns = bestNsPerQuery(regions.size(), r.region_hits, [&] {
        BulletRegion query;
        query.boxes = &boxes;
        for (const Region& q : regions) {
            query.region = &q.box;
            tree.collideTV(tree.m_root, toBt(q.box), query);
        }
        return query.hits;
    });
    r.segment_ns = bestNsPerQuery(segments.size(), r.segment_hits, [&] {
        BulletRay query;
        query.boxes = &boxes;
        for (const Segment& q : segments) {
            prepareSegment(q.p0, q.p1, query.segment);
            btDbvt::rayTest(tree.m_root, btVector3(q.p0.x, q.p0.y, q.p0.z), btVector3(q.p1.x, q.p1.y, q.p1.z),
                            query);
        }
        return query.hits;
    });
    return r;
}
#endif

struct Library {
    const char* name;
    const char* setup;
    bool peer;
    ChurnResult result;
};

void printRow(const Library& lib, double flak_ms) {
    const ChurnResult& r = lib.result;
    if (!r.ran) {
        std::printf("  %-16s not built in (install its -dev package and reconfigure)\n", lib.name);
        return;
    }
    const double med = median(r.frame_ms);
    std::printf("  %-16s %7.3f ms/frame (mean %6.3f, moves %5.3f)  %6u pairs  %7.0f reinserts  x%5.2f  | "
                "region %6.1f ns "
                "(%llu hits)  segment %6.1f ns (%llu hits)\n",
                lib.name, med, mean(r.frame_ms), median(r.move_ms), r.pairs_last, double(r.reinserts),
                med / flak_ms, r.region_ns, (unsigned long long)r.region_hits, r.segment_ns,
                (unsigned long long)r.segment_hits);
}

void printJson(const Library& lib, double flak_ms, bool last) {
    const ChurnResult& r = lib.result;
    if (!r.ran) {
        std::printf("    \"%s\": null%s\n", lib.name, last ? "" : ",");
        return;
    }
    const double med = median(r.frame_ms);
    std::printf(
        "    \"%s\": {\"setup\": \"%s\", \"ms_per_frame\": %.4f, \"ms_per_frame_mean\": %.4f, "
        "\"move_ms_per_frame\": %.4f, \"pairs_last_frame\": %u, \"pairs_all_frames\": %llu, "
        "\"reinserts\": %llu, \"flak_speedup\": %.3f, \"region_ns_per_query\": %.1f, \"region_hits\": %llu, "
        "\"segment_ns_per_query\": %.1f, \"segment_hits\": %llu}%s\n",
        lib.name, lib.setup, med, mean(r.frame_ms), median(r.move_ms), r.pairs_last,
        (unsigned long long)r.pairs_total, (unsigned long long)r.reinserts, med / flak_ms, r.region_ns,
        (unsigned long long)r.region_hits, r.segment_ns, (unsigned long long)r.segment_hits, last ? "" : ",");
}

// Runs one library and folds a round into its accumulated result (frame times pooled over rounds;
// counts must repeat exactly).
void accumulate(ChurnResult&& round, ChurnResult& into) {
    if (!into.ran) {
        into = std::move(round);
        return;
    }
    into.frame_ms.insert(into.frame_ms.end(), round.frame_ms.begin(), round.frame_ms.end());
    into.move_ms.insert(into.move_ms.end(), round.move_ms.begin(), round.move_ms.end());
    into.region_ns = std::min(into.region_ns, round.region_ns);
    into.segment_ns = std::min(into.segment_ns, round.segment_ns);
    into.closest_ns = std::min(into.closest_ns, round.closest_ns);
    if (round.pairs_total != into.pairs_total || round.last_pairs != into.last_pairs)
        into.note = "rounds disagree";
}

} // namespace

int runTreeScene(int frames, int rounds, bool json) {
    const ChurnScript script = makeScript(frames);
    const std::vector<Region> regions = makeRegions();
    const std::vector<Segment> segments = makeSegments();
    Library libs[] = {
        {"flak", "margin 0.3, rebuild() at load", false, {}},
        {"flak_no_rebuild", "margin 0.3, insertion only", false, {}},
        {"box2d", "b2DynamicTree, b2_aabbExtension 0.1 + 4x displacement, query per proxy", true, {}},
        {"btdbvt", "btDbvt, gDbvtMargin 0.05, optimizeIncremental(1) per frame, collideTT", true, {}},
        {"btdbvt_margin03", "btDbvt, margin 0.3, optimizeTopDown() at load, then as btdbvt", true, {}},
    };
    // Rounds interleave the libraries, so load from other processes on a shared machine spreads
    // over all of them instead of landing on one.
    for (int round = 0; round < rounds; ++round) {
        accumulate(runFlak(script, regions, segments, true), libs[0].result);
        accumulate(runFlak(script, regions, segments, false), libs[1].result);
#if defined(FLAK_BENCH_BOX2D)
        accumulate(runBox2d(script, regions, segments), libs[2].result);
#endif
#if defined(FLAK_BENCH_BULLET)
        accumulate(runBullet(script, regions, segments, 0.05f, false), libs[3].result);
        accumulate(runBullet(script, regions, segments, kSceneMargin, true), libs[4].result);
#endif
    }
    const ChurnResult& flak = libs[0].result;
    // Every library must report the same pairs and hits: the last frame pair by pair, the other
    // frames by count.
    bool agree = flak.ran && flak.note.empty();
    for (const Library& lib : libs) {
        if (!lib.result.ran) continue;
        agree = agree && lib.result.note.empty() && lib.result.last_pairs == flak.last_pairs &&
                lib.result.pairs_total == flak.pairs_total && lib.result.region_hits == flak.region_hits &&
                lib.result.segment_hits == flak.segment_hits;
    }
    const double flak_ms = median(flak.frame_ms);
    double fastest_peer = 0;
    const char* fastest_name = "";
    for (const Library& lib : libs) {
        if (!lib.peer || !lib.result.ran) continue;
        const double ms = median(lib.result.frame_ms);
        if (fastest_peer == 0 || ms < fastest_peer) {
            fastest_peer = ms;
            fastest_name = lib.name;
        }
    }
    if (json) {
        std::printf(
            "{\"scene\": \"tree\", \"proxies\": %u, \"frames\": %d, \"rounds\": %d, \"node_bytes\": %zu, "
            "\"ms_per_frame\": %.4f, \"pairs_last_frame\": %u, \"fastest_peer\": \"%s\", "
            "\"speedup_vs_fastest_peer\": %.3f, \"region_ns_per_query\": %.1f, \"segment_ns_per_query\": "
            "%.1f, "
            "\"closest_segment_ns_per_query\": %.1f, \"agree\": %s,\n  \"libraries\": {\n",
            kProxies, frames, rounds, sizeof(TreeNode), flak_ms, flak.pairs_last, fastest_name,
            fastest_peer > 0 ? fastest_peer / flak_ms : 0.0, flak.region_ns, flak.segment_ns, flak.closest_ns,
            agree ? "true" : "false");
        const std::size_t count = sizeof(libs) / sizeof(libs[0]);
        for (std::size_t i = 0; i < count; ++i) printJson(libs[i], flak_ms, i + 1 == count);
        std::printf("  }\n}\n");
    } else {
        std::printf(
            "tree churn (docs/bench_scenes.md, e): %u proxies, %d frames x %d rounds, 20%% moving; ms per "
            "frame = moves + "
            "all pairs (median over frames); flak node %zu bytes\n",
            kProxies, frames, rounds, sizeof(TreeNode));
        for (const Library& lib : libs) printRow(lib, flak_ms);
        std::printf("  flak closest-hit segment (clipping as hits shorten it): %.1f ns per query\n",
                    flak.closest_ns);
        if (fastest_peer > 0)
            std::printf("  flak speedup vs the fastest peer (%s): %.2fx\n", fastest_name,
                        fastest_peer / flak_ms);
        std::printf("  libraries agree on every pair and hit count: %s\n", agree ? "yes" : "NO");
        for (const Library& lib : libs) std::printf("  %-16s %s\n", lib.name, lib.setup);
    }
    return agree ? 0 : 1;
}

} // namespace flak::bench
