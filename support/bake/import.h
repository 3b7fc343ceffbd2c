// Reading meshes through Assimp (OBJ, glTF 2.0, FBX, STL, PLY and the rest it knows).
#pragma once

#include "source_mesh.h"

#include <cstddef>
#include <string>
#include <vector>

namespace flak::bake {

struct ImportOptions {
    double scale = 1.0;
    int axes[3] = {1, 2, 3};         ///< output axis k = sign(axes[k]) * input axis |axes[k]| (1 = x)
    std::vector<std::string> meshes; ///< keep only meshes with these names or indices (empty: all);
                                     ///< a value that selects no triangle mesh fails the import
    std::string node;                ///< keep only this node's subtree (empty: whole scene)
};

/// Parses "x,-z,y" style axis specs into ImportOptions::axes; false when it is not a permutation.
bool parseAxes(const std::string& spec, int out_axes[3]);

/// Imports every triangle of the selected meshes with node transforms applied, then scale and
/// axis conversion, in double. Material ids are Assimp's per-mesh material indices. Running out
/// of memory throws std::bad_alloc, also where Assimp caught it from its reader; every other
/// failure is the returned error.
BakeError importMesh(const std::string& path, const ImportOptions& options, SourceMesh& out);

/// importMesh for a file already in memory; `format` is its extension ("obj", "glb", ...).
BakeError importMeshFromMemory(const void* data, std::size_t size, const std::string& format,
                               const ImportOptions& options, SourceMesh& out);

} // namespace flak::bake
