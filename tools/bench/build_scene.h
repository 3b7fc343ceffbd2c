// Scene (a) of docs/bench_scenes.md: build the static acceleration structure; time, bytes, ratios.
#pragma once

#include "flak_support/mesh_gen.h"

#include <string>

namespace flak::bench {

int runBuildScene(const std::string& name, const test::Mesh& mesh, int repeat, bool json);

} // namespace flak::bench
