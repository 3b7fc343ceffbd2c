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

/// sin^2 of triangle (a, b, c)'s angle at a, in double from the float inputs: |ab x ac|^2 /
/// (|ab|^2 |ac|^2), 0 for a zero-length edge. Exactly 0 when the triangle has zero area (finite
/// inputs: the squares of float differences cannot underflow in double).
double cornerSinSq(const Vec3& a, const Vec3& b, const Vec3& c);

} // namespace flak::bake
