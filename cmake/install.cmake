# Installs the generated headers, libd3dcap, the d3dcap tool, a pkg-config file
# and a CMake package, so that external programs can build against d3dcap.
include(CMakePackageConfigHelpers)

install(FILES ${D3DCAP_D3D_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/d3dcap)
install(TARGETS d3dcap d3dcap_headers EXPORT d3dcapTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT d3dcapTargets NAMESPACE d3dcap:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/d3dcap)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/d3dcapConfig.cmake.in
  ${PROJECT_BINARY_DIR}/d3dcapConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/d3dcap)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/d3dcapConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/d3dcapConfig.cmake ${PROJECT_BINARY_DIR}/d3dcapConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/d3dcap)

# The .pc file finds its prefix from where it lies, so the install can move.
file(RELATIVE_PATH D3DCAP_PC_PREFIX_FROM_PCFILEDIR /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${CMAKE_CURRENT_LIST_DIR}/d3dcap.pc.in ${PROJECT_BINARY_DIR}/d3dcap.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/d3dcap.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
