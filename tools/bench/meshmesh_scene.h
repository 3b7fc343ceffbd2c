// Scene (d) of docs/bench_scenes.md: a mesh against a posed copy of itself; all intersecting
// triangle pairs and any contact per pose; flak and, when built in, Bullet's GImpact (all pairs)
// and FCL (all pairs and any contact, BVHModel<OBBRSS>).
#pragma once

#include "flak_support/mesh_gen.h"
#include "scene_mesh.h"

#include <string>

namespace flak::bench {

int runMeshMeshScene(const std::string& name, const test::Mesh& mesh, const SceneBake& how, long count,
                     int rounds, bool json);

} // namespace flak::bench
