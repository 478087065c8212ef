#pragma once
// float_vif's per-scale work on tightly packed float planes (spec float_vif.md §4, §5, §7):
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

struct ScaleSums {
  float num = 0.0f;
  float den = 0.0f;
};

// Row buffers reused from call to call (one per thread).
struct ScaleScratch {
  std::vector<float> rows;
};

// Σ num and Σ den of one scale: filters ref, dis, ref², dis², ref·dis with `kernel` over the whole
// plane, applies the statistic per pixel, sums each row in float and the rows in order.
// Needs kernel.size() / 2 < min(w, h) (reflect-101 applied once).
ScaleSums scale_sums(const FloatPlane& ref, const FloatPlane& dis, std::span<const float> kernel,
                     const StatParams& params, ScaleScratch& scratch);

// dst = every second sample (rows and columns) of src filtered with `kernel`: floor(w/2) x floor(h/2).
void blur_decimate(const FloatPlane& src, std::span<const float> kernel, FloatPlane& dst, ScaleScratch& scratch);

}  // namespace vqtwin::float_vif
