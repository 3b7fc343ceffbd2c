cmake_minimum_required(VERSION 3.21)
# flak.pc gives a build without CMake the macros flak::runtime gives a CMake consumer of the same
# configuration: flak built in Debug compiles its inline headers' checks (FLAK_ENABLE_ASSERTS),
# and so must code that includes them (the build type in any case, as $<CONFIG:Debug> takes it);
# flak built in Release does not. Configured only.
foreach(type Debug debug Release)
  file(REMOVE_RECURSE ${WORK}/${type})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${FLAK_SOURCE} -B ${WORK}/${type} -G ${GENERATOR}
                          -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=${type} -DFLAK_BUILD_TESTS=OFF
                          -DFLAK_BUILD_TOOLS=OFF -DFLAK_BUILD_BENCHMARKS=OFF -DFLAK_BUILD_SAMPLES=OFF
                          -DFLAK_INSTALL=ON
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring flak in ${type} failed:\n${err}")
  endif()
  file(STRINGS ${WORK}/${type}/flak.pc cflags REGEX "^Cflags:")
  string(TOUPPER "${type}" upper)
  if(upper STREQUAL "DEBUG" AND NOT cflags MATCHES "-DFLAK_ENABLE_ASSERTS")
    message(FATAL_ERROR "a build of type ${type}: its flak.pc leaves out FLAK_ENABLE_ASSERTS")
  elseif(type STREQUAL "Release" AND cflags MATCHES "-DFLAK_ENABLE_ASSERTS")
    message(FATAL_ERROR "a Release build's flak.pc defines FLAK_ENABLE_ASSERTS: ${cflags}")
  endif()
endforeach()
message("flak.pc: the assert macro follows the build type")
