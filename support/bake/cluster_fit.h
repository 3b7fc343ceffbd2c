// Fitting a sphere cluster to a mesh (a ship's collision proxy), and measuring the fit.
//
// Method: the surface is sampled on a barycentric grid per triangle (every vertex included, grid
// step at most `spacing`); N seeds by farthest-point sampling, Lloyd (k-means) iterations, then
// rounds of minimax refinement: each sample goes to the sphere it is deepest inside, each sphere
// moves to the approximate smallest ball of its samples (Badoiu-Clarkson core-set iterations),
// keeping the round with the least total volume; last, each sphere slides inwards along its
// patch's mean normal to the offset (of a few) where it sticks out of the mesh least (measured on
// the baked blob). Every radius is the farthest of its samples plus
// the covering pad (the grid step / sqrt(3): every point of a grid triangle lies that close to one
// of its corners), rounded up to float, so every point of the surface is covered, not only the
// samples. Deterministic: same mesh, same spheres.
#pragma once

#include "source_mesh.h"

#include <flak/bvh/mesh_blob.h>
#include <flak/math/sphere.h>

#include <cstdint>
#include <vector>

namespace flak::bake {

struct ClusterFitOptions {
    std::uint32_t spheres = 16; ///< N, 1..kMaxClusterSpheres (the command line takes 8..64)
    double spacing = 0.0;       ///< surface grid step; 0: the mesh's box diagonal / 100
    std::uint32_t rounds = 8;   ///< minimax refinement rounds
};

/// The fitted cluster and how well it fits.
struct ClusterFit {
    std::vector<Sphere> spheres;
    double coverage_percent =
        0.0; ///< vertices, fit samples and 20,000 random surface points inside some sphere
    double max_overshoot =
        0.0; ///< farthest a sphere surface point outside the mesh lies from it (mesh units)
    double volume_ratio =
        0.0;                  ///< volume of the spheres' union / the mesh's volume (0 when the mesh has none)
    double mesh_volume = 0.0; ///< |signed volume| of the mesh (divergence theorem)
    double union_volume = 0.0;         ///< grid estimate of the union's volume
    std::uint32_t samples = 0;         ///< surface samples the fit used
    std::uint32_t coverage_points = 0; ///< points the coverage was measured on
};

/// Fits options.spheres spheres to the prepared mesh. `blob` is the same mesh baked (used to
/// measure the overshoot: inside/outside by ray parity, distance by bisection on sphereAnyHit).
BakeError fitSphereCluster(const SourceMesh& mesh, const MeshBlob& blob, const ClusterFitOptions& options,
                           ClusterFit& out);

} // namespace flak::bake
