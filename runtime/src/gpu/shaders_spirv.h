// flak — private: the collider's shaders as SPIR-V words, compiled at build time and embedded
// (cmake/FlakEmbedSpirv.cmake): the pair pass (shaders/tri_pairs.comp) and the device walk
// (shaders/mesh_walk.comp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace flak::gpu {

extern const std::uint32_t kTriPairsSpirv[];
extern const std::size_t kTriPairsSpirvWords;
extern const std::uint32_t kMeshWalkSpirv[];
extern const std::size_t kMeshWalkSpirvWords;

} // namespace flak::gpu
