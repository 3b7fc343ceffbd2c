// The shooter scene: queries per second of the shooter shapes (sphere clusters, wall sets, beams,
// swept bullets), and the reason clusters exist: a sphere-cluster ship (29 spheres fitted to the
// mesh by the baker) against the enemy mesh, versus the same pair as mesh-vs-mesh.
#pragma once

#include "flak_support/mesh_gen.h"

#include <string>

namespace flak::bench {

int runShooterScene(const std::string& name, const test::Mesh& mesh, long count, int rounds, bool json);

} // namespace flak::bench
