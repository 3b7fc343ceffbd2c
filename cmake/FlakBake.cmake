# flak_bake(<target> INPUT <mesh> OUTPUT <blob> [OPTIONS <flak_bake options>...])
#
# Adds a build step that bakes <mesh> into <blob> with flak_bake, and a custom target <target>
# that depends on it. Each call is one independent build-graph edge, so Ninja/Make bake assets in
# parallel and re-bake only when the mesh, the options or the baker change.
# FLAK_BAKE_EXECUTABLE may point at a prebuilt baker (for cross builds); by default the flak_bake
# target of this build is used.
function(flak_bake target)
  cmake_parse_arguments(ARG "" "INPUT;OUTPUT" "OPTIONS" ${ARGN})
  if(NOT ARG_INPUT OR NOT ARG_OUTPUT)
    message(FATAL_ERROR "flak_bake(${target}): INPUT and OUTPUT are required")
  endif()
  get_filename_component(input "${ARG_INPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(output "${ARG_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  if(FLAK_BAKE_EXECUTABLE)
    set(baker "${FLAK_BAKE_EXECUTABLE}")
    set(baker_dep "${FLAK_BAKE_EXECUTABLE}")
  elseif(TARGET flak_bake)
    set(baker $<TARGET_FILE:flak_bake>)
    set(baker_dep flak_bake)
  else()
    message(FATAL_ERROR "flak_bake(${target}): no baker (build flak with Assimp, or set FLAK_BAKE_EXECUTABLE)")
  endif()
  get_filename_component(output_dir "${output}" DIRECTORY)
  add_custom_command(
    OUTPUT "${output}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${output_dir}"
    COMMAND ${baker} "${input}" -o "${output}" --quiet ${ARG_OPTIONS}
    DEPENDS "${input}" ${baker_dep}
    COMMENT "Baking ${ARG_INPUT}"
    VERBATIM)
  add_custom_target(${target} DEPENDS "${output}")
endfunction()
