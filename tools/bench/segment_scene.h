// Scene (c) of docs/bench_scenes.md: segment closest-hit queries against one mesh; flak and,
// when built in, Embree (rtcIntersect1) and Bullet (rayTest on a btBvhTriangleMeshShape).
#pragma once

#include "flak_support/mesh_gen.h"
#include "scene_mesh.h"

#include <string>

namespace flak::bench {

int runSegmentScene(const std::string& name, const test::Mesh& mesh, const SceneBake& how, long count,
                    int rounds, bool json);

} // namespace flak::bench
