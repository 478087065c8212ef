#pragma once
// Single-scale SSIM of two float planes (spec: float_ssim.md §5-§9), shared by float_ssim and every
// level of float_ms_ssim.
#include <cstddef>
#include <vector>

#include "features/float_ssim/math.hpp"

namespace vqtwin::float_ssim {

// The five moment planes: mu_ref, mu_dist, ref^2, dist^2, ref*dist.
inline constexpr int kMoments = 5;
// Spare samples after each row: rows of different planes start apart (no loop reads them).
inline constexpr int kPad = 64;

// Buffers for one plane width, reused from frame to frame (one per frame in flight).
struct Scratch {
  int width = 0;
  int map_w = 0;
  std::size_t in_len = 0;
  std::vector<float> in;      // ref^2, dist^2, ref*dist of one source row (float products)
  std::vector<float> ring;    // kWindow x kMoments horizontally filtered rows
  std::vector<float> moment;  // kMoments vertically filtered rows
  std::vector<float> stats;   // var_r, var_d, cov, sqrt(var_r var_d) of one map row
  std::vector<double> lcs;    // l*c*s, l, c, s of one map row

  // float_ms_ssim calls with five widths per frame: buffers only grow, and every element a call
  // reads was written earlier in the same call, so stale contents never matter.
  void size_for(int w) {
    if (w == width) return;
    width = w;
    map_w = w - (kWindow - 1);
    in_len = std::size_t(w) + kPad;
    const std::size_t mw = std::size_t(map_w) + kPad;
    grow(in, 3 * in_len);
    grow(ring, std::size_t(kWindow) * kMoments * mw);
    grow(moment, kMoments * mw);
    grow(stats, 4 * mw);
    grow(lcs, 4 * mw);
  }
  template <class T>
  static void grow(std::vector<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
  }
  std::size_t map_len() const { return std::size_t(map_w) + kPad; }
  float* in_row(int m) { return in.data() + std::size_t(m) * in_len; }
  float* ring_row(int slot, int m) { return ring.data() + (std::size_t(slot) * kMoments + m) * map_len(); }
  float* moment_row(int m) { return moment.data() + std::size_t(m) * map_len(); }
  float* stats_row(int i) { return stats.data() + std::size_t(i) * map_len(); }
  double* lcs_row(int i) { return lcs.data() + std::size_t(i) * map_len(); }
};

// The SSIM loop, built for the baseline, x86-64-v3 and x86-64-v4 from one body; each lane does the
// scalar operations of its sample, so every build gives the same bits (tests/cpu_check).
struct SsimKernels {
  const char* name;
  // `ref` and `dist` are packed w x h planes, w and h >= kWindow. The 11x11 Gaussian is applied on
  // the "valid" region only: the SSIM map is (w-10) x (h-10). Returns the four means, each the
  // raster-order double sum divided by the map size and rounded to float. One scratch per
  // concurrent call.
  Means (*means)(Scratch& scratch, const float* ref, const float* dist, int w, int h);
};

// The table for a set of cpu:: flags (common/cpu.hpp). ssim_kernels_for(0) is the portable build
// (the reference); ssim_kernels_for(cpu::flags()) the one to run.
SsimKernels ssim_kernels_for(unsigned cpu_flags);

}  // namespace vqtwin::float_ssim
