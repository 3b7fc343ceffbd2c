// Scene (f) of docs/bench_scenes.md: every query of runtime/bvh on the two trees a blob can hold,
// the binary tree (Nodes) and the wide tree (WideNodes), on the same queries in the same process,
// with a digest of every answer that must be equal.
#pragma once

#include "flak_support/mesh_gen.h"

#include <string>

namespace flak::bench {

/// Runs the queries whose names contain `only` (all when empty).
int runTreesScene(const std::string& name, const test::Mesh& mesh, long count, int rounds, bool json,
                  const std::string& only = "");

} // namespace flak::bench
