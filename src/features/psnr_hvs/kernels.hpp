#pragma once
// psnr_hvs's plane sums as a kernel table (common/cpu.hpp): one body (kLanes blocks side by side in
// GCC vectors, each lane one block doing cells.hpp's scalar sequence exactly; the blocks' terms then
// added into the plane's fp32 total in libvmaf's order) built for the baseline, x86-64-v3 and
// x86-64-v4. Every build gives the same bits (tests/cpu_check/late_features.cpp).
#include "features/psnr_hvs/math.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::psnr_hvs {

struct PlaneSum {
  float total = 0;  // the fp32 sum of every block's 64 terms, in libvmaf's order
  int count = 0;    // the number of terms
};

struct BlockKernels {
  const char* name;
  // Plane `plane` (w x h samples as libvmaf's pictures hold it) of 8-bit / 16-bit pictures.
  PlaneSum (*plane_sum8)(const Picture& ref, const Picture& dist, int plane, int w, int h, const Tables& t);
  PlaneSum (*plane_sum16)(const Picture& ref, const Picture& dist, int plane, int w, int h, const Tables& t);
};

// block_kernels_for(0) is the portable build (the reference), block_kernels_for(cpu::flags()) the
// one to run.
BlockKernels block_kernels_for(unsigned cpu_flags);

}  // namespace vqtwin::psnr_hvs
