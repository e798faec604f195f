# Run by `cmake --install` (see install.cmake): writes weft-cc, weft-c++ and weft.pc for
# the prefix being installed to, then installs them (DESTDIR honoured).
foreach(dir BINDIR LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${WEFT_REL_${dir}}")
    set(WEFT_${dir} "${WEFT_REL_${dir}}")
  else()
    set(WEFT_${dir} "${CMAKE_INSTALL_PREFIX}/${WEFT_REL_${dir}}")
  endif()
endforeach()
set(WEFT_PREFIX "${CMAKE_INSTALL_PREFIX}")

foreach(wrapper weft-cc weft-c++)
  configure_file("${WEFT_SOURCE_DIR}/src/cli/weft-cc.in" "${WEFT_STAGE_DIR}/${wrapper}" @ONLY)
endforeach()
file(INSTALL "${WEFT_STAGE_DIR}/weft-cc" "${WEFT_STAGE_DIR}/weft-c++"
     DESTINATION "${WEFT_BINDIR}"
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                      WORLD_READ WORLD_EXECUTE)

configure_file("${WEFT_SOURCE_DIR}/cmake/weft.pc.in" "${WEFT_STAGE_DIR}/weft.pc" @ONLY)
file(INSTALL "${WEFT_STAGE_DIR}/weft.pc" DESTINATION "${WEFT_LIBDIR}/pkgconfig")
