#pragma once
// float_ansnr's row loops as a kernel table (common/cpu.hpp): one body built for the baseline,
// x86-64-v3 and x86-64-v4. Each lane does the scalar sequence of fp32 operations of its sample
// (common/vector.hpp), so every build gives the same bits (tests/cpu_check/late_features.cpp).
namespace vqtwin::float_ansnr {

// Mirrored columns each side of a padded row (the 5-tap filter's reach).
inline constexpr int kPad = 2;
// Rows whose sums run side by side.
inline constexpr int kBand = 8;

struct FilterKernels {
  const char* name;
  // dst[x] = sum over filter rows r of (sum over taps t of f[r][t] * rows[r][x - N/2 + t]), each
  // partial sum from 0 in tap order, each row's sum added to the total from 0 in row order; rows
  // padded by kPad on both sides. filter_ref: the 3x3 reference filter, filter_dis: the 5x5 one.
  void (*filter_ref)(const float* const* rows, float* dst, int w);
  void (*filter_dis)(const float* const* rows, float* dst, int w);
  // Row sums of ref^2 and (ref - dis)^2 for n <= kBand rows, each from 0 in column order.
  void (*row_sums)(const float* const* ref, const float* const* dis, int n, int w, float* sig, float* noise);
};

// filter_kernels_for(0) is the portable build (the reference), filter_kernels_for(cpu::flags())
// the one to run.
FilterKernels filter_kernels_for(unsigned cpu_flags);

}  // namespace vqtwin::float_ansnr
