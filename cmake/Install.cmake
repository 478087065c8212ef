# What `cmake --install` puts where (GNUInstallDirs), and the two ways a consumer finds the library.
include(CMakePackageConfigHelpers)

install(TARGETS vqtwin RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS vqtwin_shared vqtwin_static EXPORT vqtwinTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/vqtwin DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# libvmaf's models, for users and other tools that look for the files (vqtwin itself has them built in).
install(FILES ${PROJECT_SOURCE_DIR}/models/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/vqtwin/models)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/ DESTINATION ${CMAKE_INSTALL_DATADIR}/vqtwin/models
        FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_SOURCE_DIR}/docs/vqtwin.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# CMake package: vqtwin::vqtwin (shared) and vqtwin::vqtwin_static.
set(VQTWIN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/vqtwin)
install(EXPORT vqtwinTargets NAMESPACE vqtwin:: FILE vqtwinTargets.cmake DESTINATION ${VQTWIN_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vqtwinConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/vqtwinConfig.cmake INSTALL_DESTINATION ${VQTWIN_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vqtwinConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/vqtwinConfig.cmake ${PROJECT_BINARY_DIR}/vqtwinConfigVersion.cmake
        DESTINATION ${VQTWIN_CMAKE_DIR})

# pkg-config: the shared library needs nothing more; a static link (--static) needs the C++ runtime, libm,
# the thread library and FFmpeg's libraries, listed as private. FFmpeg's as plain -l flags, not
# Requires.private: that would ask for FFmpeg's own static dependencies, which Debian does not ship, while
# libvqtwin.a links FFmpeg's shared libraries well.
set(VQTWIN_PC_LIBS_PRIVATE "-lstdc++ -lm -lpthread")
if(VQTWIN_HAVE_FFMPEG)
  string(PREPEND VQTWIN_PC_LIBS_PRIVATE "-lavformat -lavcodec -lswscale -lavutil ")
endif()
# A CUDA build's libvqtwin.a holds the twins' host code, which calls the CUDA runtime: the static one
# (as the CMake package links it), from the toolkit's folder, with what it needs of the system.
if(VQTWIN_HAVE_CUDA)
  find_package(CUDAToolkit REQUIRED)
  string(PREPEND VQTWIN_PC_LIBS_PRIVATE "-L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt ")
endif()
# Relocatable: the prefix is found from the .pc file's own folder (pkgconf's ${pcfiledir}), so a
# `cmake --install build --prefix DIR` tree works where it lands. Relative paths as ${prefix}/..., absolute
# ones as they are.
set(VQTWIN_PC_PREFIX "\${pcfiledir}/..")
string(REPLACE "/" ";" vqtwin_libdir_parts "${CMAKE_INSTALL_LIBDIR}")
foreach(part IN LISTS vqtwin_libdir_parts)
  string(APPEND VQTWIN_PC_PREFIX "/..")
endforeach()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(VQTWIN_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(VQTWIN_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(VQTWIN_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/vqtwin.pc.in ${PROJECT_BINARY_DIR}/vqtwin.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/vqtwin.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
