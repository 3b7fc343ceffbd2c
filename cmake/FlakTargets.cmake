# Helpers that give every flak target the same warnings, sanitizers and runtime rules.

# Warnings and sanitizers for any target flak builds (runtime, tests, tools, samples).
function(flak_target_options target)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    return()
  endif()
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    # Implicit narrowing and sign changes are warnings in every target: runtime, baker, tools,
    # samples, platform layer and tests.
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wconversion)
    if(FLAK_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
    if(FLAK_SANITIZE)
      # g++ leaves float-cast-overflow out of `undefined`; clang has it there already.
      target_compile_options(${target} PRIVATE -fsanitize=address,undefined,float-cast-overflow
                                               -fno-sanitize-recover=all
                                               -fno-omit-frame-pointer)
      target_link_options(${target} PRIVATE -fsanitize=address,undefined,float-cast-overflow)
    endif()
    if(FLAK_TSAN)
      target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
      target_link_options(${target} PRIVATE -fsanitize=thread)
    endif()
    if(FLAK_FUZZ)
      # Coverage for libFuzzer in every flak object (the fuzz targets add -fsanitize=fuzzer).
      target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
    endif()
  endif()
endfunction()

# A runtime room: a static library flak_<room>, exported as flak::<room>, built with the runtime's
# rules (no exceptions, no RTTI, no FP contraction) and registered for the
# allocation-symbol check.
#   flak_add_runtime_library(<room> SOURCES ... [DEPS flak_x ...])
function(flak_add_runtime_library room)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  set(target flak_${room})
  add_library(${target} STATIC ${ARG_SOURCES})
  add_library(flak::${room} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${room} POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/runtime/include> $<INSTALL_INTERFACE:include>
    PRIVATE ${PROJECT_SOURCE_DIR}/runtime/src)
  target_link_libraries(${target} PUBLIC flak_runtime_defs ${ARG_DEPS})
  flak_target_options(${target})
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -fno-exceptions -fno-rtti)
    if(FLAK_SANITIZE)
      # Instrumented archives need the sanitizer runtimes wherever they are linked.
      target_link_options(${target} INTERFACE -fsanitize=address,undefined)
    endif()
    if(FLAK_TSAN)
      target_link_options(${target} INTERFACE -fsanitize=thread)
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY FLAK_RUNTIME_LIBRARIES ${target})
endfunction()
