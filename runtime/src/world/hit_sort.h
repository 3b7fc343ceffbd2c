// flak — sorting a step's hits by the hit sort key without allocating or recursing.
#pragma once

#include <flak/arena.h>
#include <flak/world/hit.h>

#include <cstdint>

namespace flak {

/// Bytes of arena scratch sortHits needs for `count` hits.
std::size_t sortHitsScratchBytes(std::uint32_t count);

/// Sorts hits[0..count) by hitLess, stable: a bottom-up merge sort (no recursion) through a
/// buffer from `scratch` (given back before returning). Without room in `scratch` it falls back
/// to an insertion sort in place (same order, slower).
void sortHits(Hit* hits, std::uint32_t count, Arena& scratch);

} // namespace flak
