// The baked data a scene uses: enemy meshes, the player ship with its sphere cluster, level
// meshes and the wall set, each baked in memory through the baker library and viewed in place.
#pragma once

#include "wall_build.h"

#include <flak/bvh/mesh_blob.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/wall_set.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace flak::scenes {

struct SceneParams;

/// Blob bytes at a 16-byte aligned address, and the views into them.
struct BakedBlob {
    std::vector<unsigned char> storage;
    unsigned char* data = nullptr;
    std::size_t size = 0;
    Blob blob;     ///< the opened container
    MeshBlob mesh; ///< its mesh (empty when the blob has none)
    /// Copies `bytes` to an aligned address, opens them and loads the mesh if there is one. False
    /// with a message on failure.
    bool load(const std::vector<unsigned char>& bytes, std::string& error);
};

struct SceneAssets {
    std::vector<std::unique_ptr<BakedBlob>> enemy_meshes; ///< enemy ship types
    std::unique_ptr<BakedBlob> player_mesh;               ///< the player ship, with its cluster section
    SphereCluster player_cluster;                         ///< view into player_mesh's bytes
    double cluster_coverage_percent = 0;                  ///< what the baker's fit reported
    double cluster_max_overshoot = 0;
    std::vector<std::unique_ptr<BakedBlob>> level_meshes; ///< static asteroids
    std::vector<Transform> level_placements;
    std::unique_ptr<BakedBlob> walls_blob;        ///< a walls-only blob
    WallSet walls;                                ///< view into walls_blob's bytes
    std::vector<bake::WallPolygon> wall_polygons; ///< as laid out (for drawing)
};

/// Bakes every asset of a scene from its parameters and seed (deterministic). False with a
/// message on failure.
bool buildSceneAssets(const SceneParams& params, std::uint64_t seed, SceneAssets& out, std::string& error);

} // namespace flak::scenes
