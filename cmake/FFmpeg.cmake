# FFmpeg's libraries (Debian: libavformat-dev libavcodec-dev libswscale-dev libavutil-dev), found by
# their headers and libraries (no pkg-config needed). Defines the target vqtwin::ffmpeg and
# VQTWIN_HAVE_FFMPEG when VQTWIN_FFMPEG is ON; a missing library is a configure error that says how to
# install it or build without.
set(VQTWIN_HAVE_FFMPEG OFF)
if(VQTWIN_FFMPEG)
  set(vqtwin_ffmpeg_missing "")
  set(vqtwin_ffmpeg_libs "")
  foreach(lib avformat avcodec swscale avutil)
    find_path(VQTWIN_${lib}_INCLUDE_DIR lib${lib}/${lib}.h PATH_SUFFIXES ffmpeg)
    find_library(VQTWIN_${lib}_LIBRARY ${lib})
    if(NOT VQTWIN_${lib}_INCLUDE_DIR OR NOT VQTWIN_${lib}_LIBRARY)
      list(APPEND vqtwin_ffmpeg_missing lib${lib}-dev)
    else()
      list(APPEND vqtwin_ffmpeg_libs ${VQTWIN_${lib}_LIBRARY})
    endif()
  endforeach()
  if(vqtwin_ffmpeg_missing)
    string(REPLACE ";" " " vqtwin_ffmpeg_missing "${vqtwin_ffmpeg_missing}")
    message(FATAL_ERROR "vqtwin reads compressed video through FFmpeg: apt-get install ${vqtwin_ffmpeg_missing}, "
                        "or configure with -DVQTWIN_FFMPEG=OFF (y4m and raw .yuv input only, no --scale)")
  endif()
  add_library(vqtwin_ffmpeg INTERFACE)
  add_library(vqtwin::ffmpeg ALIAS vqtwin_ffmpeg)
  target_include_directories(vqtwin_ffmpeg SYSTEM INTERFACE ${VQTWIN_avformat_INCLUDE_DIR})
  if(VQTWIN_LAZY_FFMPEG)
    # The libraries are dlopen()ed by src/common/lazy_ffmpeg.cpp when first used (found above all the
    # same, so that a build without them fails here, as before).
    target_link_libraries(vqtwin_ffmpeg INTERFACE ${CMAKE_DL_LIBS})
  else()
    target_link_libraries(vqtwin_ffmpeg INTERFACE ${vqtwin_ffmpeg_libs})
  endif()
  set(VQTWIN_HAVE_FFMPEG ON)
endif()
