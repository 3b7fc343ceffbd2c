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
