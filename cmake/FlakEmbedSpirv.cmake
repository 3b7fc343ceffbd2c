# Script mode: writes a C++ source holding a SPIR-V module as 32-bit words.
#   cmake -DINPUT=<file.spv> -DOUTPUT=<file.cpp> -DNAME=<symbol> -P FlakEmbedSpirv.cmake
# SPIR-V is a stream of little-endian words as glslc writes it on every host flak builds on; the
# bytes are regrouped into words here, so the array is the module on a little-endian target.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR rem "${hex_len} % 8")
if(hex_len EQUAL 0 OR NOT rem EQUAL 0)
  message(FATAL_ERROR "${INPUT} is not a whole number of 32-bit words")
endif()
math(EXPR word_count "${hex_len} / 8")
string(REGEX REPLACE "(..)(..)(..)(..)" "0x\\4\\3\\2\\1u," words "${hex}")
string(REGEX REPLACE "((0x[0-9a-f]+u,){8})" "\\1\n    " words "${words}")
file(WRITE "${OUTPUT}.tmp"
"// Generated from ${INPUT} by cmake/FlakEmbedSpirv.cmake: do not edit.
#include <cstddef>
#include <cstdint>

namespace flak::gpu {
extern const std::uint32_t ${NAME}[];
extern const std::size_t ${NAME}Words;
alignas(16) const std::uint32_t ${NAME}[] = {
    ${words}
};
const std::size_t ${NAME}Words = ${word_count};
} // namespace flak::gpu
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
