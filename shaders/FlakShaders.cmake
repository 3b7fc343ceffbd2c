# Compiles flak's compute shaders to SPIR-V at build time (glslc, warnings as errors), checks each
# module with spirv-val, and turns it into a C++ source (cmake/FlakEmbedSpirv.cmake) that the GPU
# library (or a GPU tool) compiles in: no shader file is read at run time.
#   flak_embed_shader(<out_cpp_var> SOURCE <file.comp> NAME <symbol>)
set(FLAK_SHADER_DIR ${CMAKE_CURRENT_LIST_DIR} CACHE INTERNAL "flak's shader sources")

function(flak_embed_shader out_var)
  cmake_parse_arguments(ARG "" "SOURCE;NAME" "" ${ARGN})
  get_filename_component(stem ${ARG_SOURCE} NAME_WE)
  set(spv ${CMAKE_CURRENT_BINARY_DIR}/shaders/${stem}.spv)
  set(cpp ${CMAKE_CURRENT_BINARY_DIR}/shaders/${stem}_spirv.cpp)
  set(dep ${CMAKE_CURRENT_BINARY_DIR}/shaders/${stem}.d)
  add_custom_command(
    OUTPUT ${spv}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/shaders
    COMMAND ${FLAK_GLSLC} -Werror --target-env=vulkan1.1 -fshader-stage=compute -I ${FLAK_SHADER_DIR}
            -MD -MF ${dep} -o ${spv} ${FLAK_SHADER_DIR}/${ARG_SOURCE}
    COMMAND ${FLAK_SPIRV_VAL} --target-env vulkan1.1 ${spv}
    DEPENDS ${FLAK_SHADER_DIR}/${ARG_SOURCE} ${FLAK_SHADER_DIR}/flak_gpu_layout.h
    DEPFILE ${dep}
    COMMENT "glslc + spirv-val ${ARG_SOURCE}"
    VERBATIM)
  add_custom_command(
    OUTPUT ${cpp}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${spv} -DOUTPUT=${cpp} -DNAME=${ARG_NAME}
            -P ${PROJECT_SOURCE_DIR}/cmake/FlakEmbedSpirv.cmake
    DEPENDS ${spv} ${PROJECT_SOURCE_DIR}/cmake/FlakEmbedSpirv.cmake
    COMMENT "embed ${stem}.spv"
    VERBATIM)
  set(${out_var} ${cpp} PARENT_SCOPE)
endfunction()
