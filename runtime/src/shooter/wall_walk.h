// Internal: the escape-index walk over a wall set's 2D tree, and per-edge helpers.
#pragma once

#include <flak/shooter/wall_set.h>

#include "shooter/shooter_slack.h"

namespace flak::detail {

/// Walks the tree (blob_format.h's escape-index loop over WallNode): `enter(node)` decides whether
/// a node's box is entered; at a leaf, `edge(id)` is called for its edges in increasing id and
/// returns false to stop the walk. No stack, one forward loop.
template <typename Enter, typename Edge>
inline void walkWalls(const WallSet& walls, Enter&& enter, Edge&& edge) {
    std::uint32_t i = 0;
    while (i < walls.node_count) {
        const WallNode& n = walls.nodes[i];
        if (!enter(n)) {
            i += (n.info & kLeafBit) != 0 ? 1u : n.info;
            continue;
        }
        if ((n.info & kLeafBit) != 0) {
            const std::uint32_t first = n.info & 0x03FFFFFFu, count = ((n.info >> 26) & 0x1Fu) + 1u;
            for (std::uint32_t e = first; e < first + count; ++e)
                if (!edge(e)) return;
        }
        ++i;
    }
}

/// Node test against the box [lo, hi] (closed).
inline bool nodeOverlaps(const WallNode& n, const Vec2& lo, const Vec2& hi) {
    return n.min[0] <= hi.x && lo.x <= n.max[0] && n.min[1] <= hi.y && lo.y <= n.max[1];
}

/// Margin of a query at `scale` (its magnitudes and the set's): the slack of shooter_slack.h.
inline float wallMargin(const WallSet& walls, float scale) {
    const float s = std::fmax(scale, std::fmax(largestAbs(walls.bounds_min), largestAbs(walls.bounds_max)));
    return static_cast<float>(shooterSlack(s));
}

/// The right-hand normal of edge a -> b (out of the solid: the solid is on every edge's left);
/// false for a zero-length edge.
inline bool outwardNormal(const Vec2& a, const Vec2& b, Vec2& out) {
    const Vec2 e{b.x - a.x, b.y - a.y};
    return normalize(Vec2{e.y, -e.x}, out);
}

} // namespace flak::detail
