// Wall polygons from a mesh slice: the mesh cut by the horizontal plane z = height.
#pragma once

#include "source_mesh.h"
#include "wall_build.h"

#include <cstdint>
#include <vector>

namespace flak::bake {

/// Cuts the prepared (welded) mesh with the plane z = height and returns the cut's closed loops as
/// wall polygons: loops nested an even number of times are outer rings, the others holes of the
/// loop just outside them. A vertex exactly at the height counts as below (so the cut never passes
/// through a vertex). Each crossing edge gives one point (computed once per edge from its two
/// vertices in index order, so neighbouring triangles agree bit for bit). Fails with a message
/// when the cut is empty or not a set of closed loops (an open or non-manifold mesh there). A
/// closed loop of fewer than 3 distinct points (a part of no thickness, such as two faces back to
/// back) has no area to wall: it is left out and counted in out_dropped_loops (may be null).
BakeError sliceMesh(const SourceMesh& mesh, double height, std::vector<WallPolygon>& out,
                    std::uint32_t* out_dropped_loops = nullptr);

} // namespace flak::bake
