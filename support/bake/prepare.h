// Cleaning a source mesh before the build: coordinate checks, vertex welding, degenerate drop.
#pragma once

#include "source_mesh.h"

namespace flak::bake {

struct PrepareOptions {
    double max_abs_coordinate = 1.0e7; ///< larger coordinates are rejected as absurd
    bool keep_degenerate = false;      ///< keep zero-area triangles (they are dropped by default)
};

/// Rejects NaN/Inf/absurd coordinates and out-of-range indices (error names the first offender),
/// welds bit-identical positions (after folding -0 to +0), drops zero-area triangles unless asked
/// to keep them, and removes vertices no triangle uses. Counts go into the mesh's fields.
BakeError prepareMesh(SourceMesh& mesh, const PrepareOptions& options);

} // namespace flak::bake
