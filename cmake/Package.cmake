# `cpack -G DEB` in a build folder: vqtwin_<version>_<arch>.deb with what `cmake --install` installs (the CLI,
# both libraries, the headers, the pkg-config and CMake files, the models, the man page), under /usr. Its
# Depends come from dpkg-shlibdeps (Debian's dpkg-dev) on the binaries; FFmpeg's libraries are loaded when
# first needed (dlopen), so they are recommended rather than required.
set(CPACK_PACKAGE_NAME vqtwin)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "vqtwin")
set(CPACK_PACKAGE_CONTACT "vqtwin maintainers <vqtwin@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "video quality metrics (VMAF, PSNR, SSIM, ...) with libvmaf's numbers, bit for bit")
set(CPACK_PACKAGE_DESCRIPTION
    "vqtwin computes the metrics of Netflix's libvmaf 3.2 with its exact numbers, on the CPU and on GPUs, faster: a command-line tool compatible with the vmaf CLI, and a C++/C library.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION video)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(VQTWIN_HAVE_FFMPEG AND VQTWIN_LAZY_FFMPEG)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libavformat59, libavcodec59, libswscale6, libavutil57")
endif()
include(CPack)
