# flak_bake(<target> INPUT <mesh> OUTPUT <blob> [OPTIONS <flak_bake options>...] [DEPENDS <files>...])
#
# Adds a build step that bakes <mesh> into <blob> with flak_bake, and a custom target <target>
# that depends on it. Each call is one independent build-graph edge, so Ninja/Make bake assets in
# parallel and re-bake only when the mesh, its side files, the options or the baker change.
# A .gltf input's external buffers (the "uri" of each entry of "buffers", read at configure time)
# are dependencies too; DEPENDS adds any other file the bake reads.
# The baker: FLAK_BAKE_EXECUTABLE if set (a prebuilt baker, for cross builds), else the flak_bake
# target of this build (add_subdirectory with FLAK_BUILD_TOOLS), else the installed
# flak::flak_bake of find_package(flak).
function(flak_bake target)
  cmake_parse_arguments(ARG "" "INPUT;OUTPUT" "OPTIONS;DEPENDS" ${ARGN})
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
  elseif(TARGET flak::flak_bake)
    set(baker $<TARGET_FILE:flak::flak_bake>)
    set(baker_dep $<TARGET_FILE:flak::flak_bake>)
  else()
    message(FATAL_ERROR "flak_bake(${target}): no baker (build flak with Assimp, or set FLAK_BAKE_EXECUTABLE)")
  endif()
  set(side_files "")
  foreach(dep IN LISTS ARG_DEPENDS)
    get_filename_component(dep "${dep}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND side_files "${dep}")
  endforeach()
  if(input MATCHES "\\.[gG][lL][tT][fF]$" AND EXISTS "${input}")
    get_filename_component(input_dir "${input}" DIRECTORY)
    file(READ "${input}" gltf)
    string(JSON buffers ERROR_VARIABLE no_buffers LENGTH "${gltf}" buffers)
    if(NOT no_buffers AND buffers GREATER 0)
      math(EXPR last "${buffers} - 1")
      foreach(i RANGE ${last})
        string(JSON uri ERROR_VARIABLE no_uri GET "${gltf}" buffers ${i} uri)
        if(NOT no_uri AND NOT uri MATCHES "^data:")
          list(APPEND side_files "${input_dir}/${uri}")
        endif()
      endforeach()
    endif()
  endif()
  get_filename_component(output_dir "${output}" DIRECTORY)
  add_custom_command(
    OUTPUT "${output}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${output_dir}"
    COMMAND ${baker} "${input}" -o "${output}" --quiet ${ARG_OPTIONS}
    DEPENDS "${input}" ${side_files} ${baker_dep}
    COMMENT "Baking ${ARG_INPUT}"
    VERBATIM)
  add_custom_target(${target} DEPENDS "${output}")
endfunction()
