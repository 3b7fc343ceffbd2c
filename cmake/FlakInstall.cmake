# Install rules and the CMake package, so a game can find_package(flak) and link flak::runtime.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(flak_runtime_libraries GLOBAL PROPERTY FLAK_RUNTIME_LIBRARIES)
install(TARGETS flak_runtime_defs flak_math flak_runtime ${flak_runtime_libraries}
        EXPORT flakTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/flak DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/include/flak/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/flak)

# pkg-config (flak.pc) for builds that do not use CMake: the flags flak::runtime carries.
set(flak_pc_cflags "")
if(FLAK_SIMD STREQUAL "none")
  string(APPEND flak_pc_cflags " -DFLAK_SIMD_NONE")
endif()
if(NOT FLAK_AVX2)
  string(APPEND flak_pc_cflags " -DFLAK_NO_AVX2")
endif()
# As flak_runtime_defs: always with FLAK_ASSERTS, else in Debug (a pkg-config consumer has no
# configuration of its own to follow, so it gets the one flak was built in; $<CONFIG:Debug>
# ignores case, and so does this). A multi-config generator has no single build type: its
# flak.pc follows FLAK_ASSERTS alone.
string(TOUPPER "${CMAKE_BUILD_TYPE}" flak_build_type)
if(FLAK_ASSERTS OR flak_build_type STREQUAL "DEBUG")
  string(APPEND flak_pc_cflags " -DFLAK_ENABLE_ASSERTS")
endif()
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  string(APPEND flak_pc_cflags " -ffp-contract=off")
endif()
string(STRIP "${flak_pc_cflags}" flak_pc_cflags)
# Instrumented archives need the sanitizer runtimes wherever they are linked (as flak::runtime's
# link options say).
set(flak_pc_libs "")
if(FLAK_SANITIZE)
  set(flak_pc_libs " -fsanitize=address,undefined")
elseif(FLAK_TSAN)
  set(flak_pc_libs " -fsanitize=thread")
endif()
# The prefix relative to the file's own place, so an install moved with --prefix still works.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(flak_pc_prefix "${CMAKE_INSTALL_PREFIX}")
else()
  set(flak_pc_prefix "\${pcfiledir}/..")
  string(REPLACE "/" ";" flak_libdir_parts "${CMAKE_INSTALL_LIBDIR}")
  foreach(part IN LISTS flak_libdir_parts)
    string(APPEND flak_pc_prefix "/..")
  endforeach()
endif()
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(flak_pc_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(flak_pc_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/flak.pc.in ${PROJECT_BINARY_DIR}/flak.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/flak.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(EXPORT flakTargets NAMESPACE flak:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/flak)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/flakConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/flakConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/flak)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/flakConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/flakConfig.cmake ${PROJECT_BINARY_DIR}/flakConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FlakBake.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/flak)

# The baker, when this build has it (Assimp found): installed with its own export set, so the
# package's flak_bake() works with no FLAK_BAKE_EXECUTABLE, and a package built without Assimp
# still loads (flakConfig includes the tool targets only if they are there).
if(TARGET flak_bake)
  install(TARGETS flak_bake EXPORT flakToolTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT flakToolTargets NAMESPACE flak:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/flak)
endif()
