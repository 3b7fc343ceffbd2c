// flak — private: the pair shader (shaders/tri_pairs.comp) as SPIR-V words, compiled at build time
// and embedded (cmake/FlakEmbedSpirv.cmake).
#pragma once

#include <cstddef>
#include <cstdint>

namespace flak::gpu {

extern const std::uint32_t kTriPairsSpirv[];
extern const std::size_t kTriPairsSpirvWords;

} // namespace flak::gpu
