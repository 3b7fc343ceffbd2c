// Scene (b) of docs/bench_scenes.md: sphere any-hit queries against one mesh; flak and, when
// built in, Embree (rtcPointQuery with a sphere-triangle callback) and Bullet (contactTest of a
// btSphereShape against a btBvhTriangleMeshShape) on the same queries in the same process.
#pragma once

#include "flak_support/mesh_gen.h"
#include "scene_mesh.h"

#include <string>

namespace flak::bench {

int runSphereScene(const std::string& name, const test::Mesh& mesh, const SceneBake& how, long count,
                   int rounds, bool json);

} // namespace flak::bench
