// flak — a broad-phase pair seen as two bodies in the order the narrow phase wants them.
#pragma once

#include "world_state.h"

namespace flak {

/// What the narrow phase does with a pair (bullets and beams are not in the pair searches: they
/// query the trees themselves, world_shots.cpp).
enum class PairKind : std::uint8_t {
    ShipShip,  ///< a < b by (kind, index): Enemy before Player
    ShipWalls, ///< a = the ship, b = the wall set
};

/// (kind, index) order of bodies: the order hits and candidate lists use.
bool bodyLess(const BodyId& x, const BodyId& y);

/// A pair with its bodies ordered.
struct BodyPair {
    BodyId a;
    BodyId b;
    PairKind kind = PairKind::ShipShip;
};

/// The pair searches' PairFilter: keeps the pairs of live bodies whose collision filters meet
/// (body.h: interacts), so pairs the narrow phase would never test take no room in max_pairs.
PairFilter testablePairs(const WorldState& state);

/// Turns the step's broad-phase pairs (state.pairs: the moving tree's self search first, then
/// the static-vs-moving search) into body pairs in state.body_pairs (scratch for max_pairs,
/// allocated here for the rest of the step), ordered for the narrow phase.
void classifyPairs(WorldState& state, std::uint32_t moving_pair_count);

} // namespace flak
