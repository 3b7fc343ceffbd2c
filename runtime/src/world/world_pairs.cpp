// flak — ordering and filtering broad-phase pairs for the narrow phase.
#include "world_pairs.h"

namespace flak {

bool bodyLess(const BodyId& x, const BodyId& y) {
    if (x.kind != y.kind) return x.kind < y.kind;
    return x.index < y.index;
}

namespace {

BodyId bodyOfProxy(const WorldState& s, const DynamicTree& tree, const ProxyId& proxy) {
    ProxyDesc desc;
    if (tree.getProxy(proxy, desc) != Status::Ok) return BodyId{};
    return liveBodyId(s, userKind(desc.user_value), userIndex(desc.user_value));
}

bool isShip(BodyKind kind) { return kind == BodyKind::Enemy || kind == BodyKind::Player; }

bool classifyPair(const WorldState& s, const TreePair& pair, bool from_static, BodyPair& out_pair) {
    BodyId a = bodyOfProxy(s, from_static ? s.static_tree : s.moving_tree, pair.a);
    BodyId b = bodyOfProxy(s, s.moving_tree, pair.b);
    if (a.isNull() || b.isNull()) return false; // the search's PairFilter has applied the filters
    if (isShip(a.kind) && isShip(b.kind)) {
        if (bodyLess(b, a)) {
            const BodyId t = a;
            a = b;
            b = t;
        }
        out_pair.kind = PairKind::ShipShip;
    } else if (a.kind == BodyKind::Walls && isShip(b.kind)) {
        const BodyId t = a;
        a = b;
        b = t;
        out_pair.kind = PairKind::ShipWalls;
    } else {
        return false; // the masks keep every other kind out of the searches
    }
    out_pair.a = a;
    out_pair.b = b;
    return true;
}

bool pairIsTestable(void* state, std::uint64_t value_a, std::uint64_t value_b) {
    const WorldState& s = *static_cast<const WorldState*>(state);
    const BodyId a = liveBodyId(s, userKind(value_a), userIndex(value_a));
    const BodyId b = liveBodyId(s, userKind(value_b), userIndex(value_b));
    return !a.isNull() && !b.isNull() && interacts(bodyFilter(s, a), bodyFilter(s, b));
}

} // namespace

PairFilter testablePairs(const WorldState& state) {
    PairFilter filter;
    filter.accept = pairIsTestable;
    filter.user = const_cast<WorldState*>(&state); // read only: pairIsTestable takes it back as const
    return filter;
}

void classifyPairs(WorldState& s, std::uint32_t moving_pair_count) {
    s.body_pair_count = 0;
    s.body_pairs = s.scratch.allocateArray<BodyPair>(s.pair_count);
    if (s.body_pairs == nullptr) return; // sized by stepScratchBytes: does not happen
    for (std::uint32_t i = 0; i < s.pair_count; ++i) {
        if (classifyPair(s, s.pairs[i], i >= moving_pair_count, s.body_pairs[s.body_pair_count]))
            ++s.body_pair_count;
    }
}

} // namespace flak
