# CUDA is optional: AUTO turns it on when a CUDA compiler is found.
# The twins are built for Hopper (sm_90 machine code) plus PTX for compute_75, which the driver
# compiles for any newer GPU; the CUDA runtime is linked statically so a binary built here runs on
# any machine with a driver. Device code never contracts a*b+c (-fmad=false): the twins must give
# the CPU reference's numbers, which come from separately rounded operations.
include(CheckLanguage)
set(VQTWIN_HAVE_CUDA OFF)
if(VQTWIN_CUDA STREQUAL "ON" OR VQTWIN_CUDA STREQUAL "AUTO")
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "90-real;75-virtual")
    endif()
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    enable_language(CUDA)
    # CMake 3.25 predates nvcc 13 and does not know its C++20 flag: tell it.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(VQTWIN_HAVE_CUDA ON)
  elseif(VQTWIN_CUDA STREQUAL "ON")
    message(FATAL_ERROR "VQTWIN_CUDA=ON but no CUDA compiler was found")
  endif()
endif()
message(STATUS "vqtwin: CUDA twins ${VQTWIN_HAVE_CUDA}")

function(vqtwin_cuda_options target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-fmad=false --expt-relaxed-constexpr -Xcompiler=-ffp-contract=off
      $<$<BOOL:${VQTWIN_WERROR}>:-Werror=all-warnings>>)
endfunction()
