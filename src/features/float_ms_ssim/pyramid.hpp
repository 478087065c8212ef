#pragma once
// One step of float_ms_ssim's pyramid (spec: float_ms_ssim.md §4).
#include <cstddef>
#include <vector>

namespace vqtwin::float_ms_ssim {

// Outputs sit on even source columns, so tap dx of output x reads source column 2x + dx. Splitting
// each mirrored, padded source row into its even and odd samples makes those reads contiguous:
// column 2x + dx = padded index 2x + t (t = dx + 4) = even[x + t/2] or odd[x + t/2].
inline constexpr int kCacheSlots = 16;  // > 9 rows of one window, a power of two for the modulo

// The row cache of one decimation (one per concurrent call, reused between calls).
struct Scratch {
  int width = 0;
  std::size_t half_len = 0;
  std::vector<float> rows;  // kCacheSlots x (even, odd)
  int tag[kCacheSlots];     // the source row in each slot, -1 for none
  std::vector<double> acc;  // the output row's running sums

  void size_for(int w);
};

// The decimation, built for the baseline, x86-64-v3 and x86-64-v4 from one body; each lane does the
// scalar operations of its sample, so every build gives the same bits (tests/cpu_check).
struct PyramidKernels {
  const char* name;
  // `src` is a packed w x h plane; `dst` receives half_size(w) x half_size(h) packed samples, each
  // the 9x9 low-pass centred on source (2x, 2y): rows outer, columns inner, both ascending, the
  // float product sample * weight added to a double sum, edges mirrored (-1 -> 0, n -> n-1), the
  // sum rounded to float once. Needs w, h >= 5 (one reflection reaches at most 4 samples in); dst
  // must not overlap src.
  void (*lpf_decimate)(Scratch& scratch, const float* src, int w, int h, float* dst);
};

// The table for a set of cpu:: flags (common/cpu.hpp). pyramid_kernels_for(0) is the portable build
// (the reference); pyramid_kernels_for(cpu::flags()) the one to run.
PyramidKernels pyramid_kernels_for(unsigned cpu_flags);

}  // namespace vqtwin::float_ms_ssim
