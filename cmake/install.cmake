# `cmake --install build --prefix P` (and `make install`): the weft CLI, the compiler
# wrappers, the public headers, the runtime libweft.so, a CMake package (weft::weft,
# weft::cli, weft_add_test and weft_instrument after find_package(weft CONFIG REQUIRED))
# and a pkg-config file; the weft(1) man page (cmake/man.cmake) and the docs.
include(CMakePackageConfigHelpers)
set(WEFT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/weft)

set_target_properties(weft_cli PROPERTIES EXPORT_NAME cli)
install(TARGETS weft EXPORT weftTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# libweft.so loads it from its own directory when a report needs symbols.
install(TARGETS weft_symbolizer LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS weft_cli EXPORT weftTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/weft DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(EXPORT weftTargets NAMESPACE weft:: DESTINATION ${WEFT_CMAKE_DIR})
if(WEFT_BUILD_MAN)
  install(FILES ${WEFT_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
# README's links into docs/ keep working in the installed copy.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES docs/tutorial.md docs/choosing-a-strategy.md docs/troubleshooting.md docs/json.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(FILES docs/schema/weft-result.schema.json DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs/schema)

configure_package_config_file(cmake/weftConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/weftConfig.cmake INSTALL_DESTINATION ${WEFT_CMAKE_DIR})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/weftConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/weftConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/weftConfigVersion.cmake cmake/weft.cmake
        DESTINATION ${WEFT_CMAKE_DIR})

# The wrappers and weft.pc hold absolute paths, so they are written at install time, for
# the prefix actually installed to (`--prefix` may differ from CMAKE_INSTALL_PREFIX).
install(CODE "
  set(WEFT_SOURCE_DIR \"${PROJECT_SOURCE_DIR}\")
  set(WEFT_STAGE_DIR \"${CMAKE_CURRENT_BINARY_DIR}/install-stage\")
  set(WEFT_VERSION \"${PROJECT_VERSION}\")
  set(WEFT_REL_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
  set(WEFT_REL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(WEFT_REL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")")
install(SCRIPT cmake/install_configured.cmake)
