#pragma once
// integer_ssim's frame compute: exact integer Gaussian moments of every window, the double window
// term, their raster-order double sum (the front, front.hpp, divides it by the total weight).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "features/integer_ssim/math.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::integer_ssim {

// Taps that fall outside the picture are dropped, which for the moments is the same as reading 0:
// rows are padded with kRadius zeros on each side and the filters run unguarded; only the weight
// sum W needs the truncation, and it factors into (columns used) x (rows used).
//
// Acc holds a moment exactly: 8-bit moments are below 256 * 256 * 255^2 < 2^32, so uint32 (which
// vectorises well) suffices there; deeper samples need 64 bits (256 * 256 * 65535^2 < 2^48).
template <class Acc>
struct Scratch {
  int width = 0;
  std::size_t padded = 0;
  std::vector<Acc> in;    // 5 zero-padded rows: s, d, s*s, s*d, d*d
  std::vector<Acc> ring;  // kTaps x 5 horizontally filtered rows
  std::vector<Acc> col;   // 5 vertically filtered rows
  std::vector<double> term;
  std::vector<std::int64_t> w_col;  // weight used per column

  void size_for(int w) {
    if (w == width) return;
    width = w;
    padded = std::size_t(w) + 2 * kRadius;
    in.assign(5 * padded, 0);
    ring.assign(std::size_t(kTaps) * 5 * w, 0);
    col.assign(5 * std::size_t(w), 0);
    term.assign(std::size_t(w), 0.0);
    w_col.assign(std::size_t(w), 0);
    for (int x = 0; x < w; ++x) {
      std::int64_t sum = 0;
      for (int k = 0; k < kTaps; ++k) {
        const int c = x - kRadius + k;
        if (c >= 0 && c < w) sum += kKernel[k];
      }
      w_col[x] = sum;
    }
  }
  Acc* ring_row(int slot, int m) { return ring.data() + (std::size_t(slot) * 5 + m) * width; }
};

// The memory of one frame in flight (8-bit pictures use the uint32 moments, deeper ones uint64).
struct Workspace {
  Scratch<std::uint32_t> narrow;
  Scratch<std::uint64_t> wide;
};

// The frame's term sum, built for the baseline, x86-64-v3 and x86-64-v4 from one body (integer
// moments, then the same double operations per lane), so every build gives the same bits
// (tests/cpu_check).
struct ScoreKernels {
  const char* name;
  // Luma of ref and dist (same format, bit depth 8..16): the raster-order double sum of every
  // window's term. One workspace per concurrent call.
  double (*term_sum)(Workspace& ws, const Picture& ref, const Picture& dist);
};

// The table for a set of cpu:: flags (common/cpu.hpp). score_kernels_for(0) is the portable build
// (the reference); score_kernels_for(cpu::flags()) the one to run.
ScoreKernels score_kernels_for(unsigned cpu_flags);

// score_kernels_for(cpu::flags()).term_sum with the calling thread's own workspace: the CPU's
// frame sum for tests that hold no context (the extractor takes a pooled Workspace).
double frame_term_sum(const Picture& ref, const Picture& dist);

}  // namespace vqtwin::integer_ssim
