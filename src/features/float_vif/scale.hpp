#pragma once
// float_vif's per-scale work on tightly packed float planes (spec: float_vif.md §4, §5, §7):
// the five separable filters fused row by row, the per-pixel statistic, the float sums, and the
// blur + decimation between scales. Every output sample is computed exactly as libvmaf's scalar
// filter does (taps ascending, vertical then horizontal, reflect-101 edges); only the loop nest
// differs (columns innermost, which lets the compiler use SIMD lanes without changing any lane's
// order of operations).
#include <span>
#include <vector>

#include "core/float_plane.hpp"
#include "features/float_vif/math.hpp"

namespace vqtwin::float_vif {

using FloatPlane = vqtwin::FloatPlane;

// Row buffers reused from call to call (one per frame in flight).
struct ScaleScratch {
  std::vector<float> rows;
};

// The row loops, built for the baseline and for AVX2 from one source (scale_rows.inc).
struct ScaleKernels {
  const char* name;
  // Vertical pass of the five filters at output row i: per column, acc = 0, then acc += k[t] * S
  // for t ascending, S = x, y, x*x, y*y, x*y.
  void (*vertical_moments)(const FloatPlane& ref, const FloatPlane& dis, int i, std::span<const float> k, float* m1,
                           float* m2, float* xx, float* yy, float* xy);
  // Plain vertical pass of one plane at row i.
  void (*vertical_plain)(const FloatPlane& src, int i, std::span<const float> k, float* out);
  // Horizontal pass over a padded row: out[j] = sum_t k[t] * in[step*j - r + t], t ascending.
  void (*horizontal)(const float* in, std::span<const float> k, float* out, int n, int step);
  // The per-pixel statistic of one row.
  void (*statistic_row)(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy,
                        const StatParams& params, float* num, float* den, int w);
};

// The table for a set of cpu:: flags (common/cpu.hpp). scale_kernels_for(0) is the portable build
// (the reference); scale_kernels_for(cpu::flags()) the one to run.
ScaleKernels scale_kernels_for(unsigned cpu_flags);

// Σ num and Σ den of one scale: filters ref, dis, ref², dis², ref·dis with `kernel` over the whole
// plane, applies the statistic per pixel, sums each row in float and the rows in order.
// Needs kernel.size() / 2 < min(w, h) (reflect-101 applied once).
ScaleSums scale_sums(const ScaleKernels& k, const FloatPlane& ref, const FloatPlane& dis,
                     std::span<const float> kernel, const StatParams& params, ScaleScratch& scratch);

// dst = every second sample (rows and columns) of src filtered with `kernel`: floor(w/2) x floor(h/2).
void blur_decimate(const ScaleKernels& k, const FloatPlane& src, std::span<const float> kernel, FloatPlane& dst,
                   ScaleScratch& scratch);

}  // namespace vqtwin::float_vif
