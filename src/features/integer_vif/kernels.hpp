#pragma once
// The row kernels of integer VIF. pipeline.cpp drives them row by row; a portable set
// (kernels_scalar.cpp, the reference) and an AVX2 set (kernels_avx2.cpp) compute the same
// integers, so the choice between them never changes a result (tested).
//
// Row buffers of the horizontal passes are mirrored in place: a pointer `p` to column 0 is valid
// from p[-half] to p[w - 1 + half].
#include <cstdint>

#include "features/integer_vif/math.hpp"

namespace vqtwin::integer_vif {

struct RowKernels {
  const char* name;

  // Vertical pass of the five local moments for one output row: rows_x[t], rows_y[t] are the
  // (already mirrored) input rows of tap t. Writes w values of a_x, a_y (means, <= 65535) and
  // b_xx, b_yy, b_xy (second moments, < 2^32), each rounded and shifted as `sh` says.
  void (*vertical_moments_u8)(const std::uint8_t* const* rows_x, const std::uint8_t* const* rows_y, Kernel k,
                              int w, MomentShifts sh, std::uint32_t* a_x, std::uint32_t* a_y, std::uint32_t* b_xx,
                              std::uint32_t* b_yy, std::uint32_t* b_xy);
  void (*vertical_moments_u16)(const std::uint16_t* const* rows_x, const std::uint16_t* const* rows_y, Kernel k,
                               int w, MomentShifts sh, std::uint32_t* a_x, std::uint32_t* a_y, std::uint32_t* b_xx,
                               std::uint32_t* b_yy, std::uint32_t* b_xy);

  // Horizontal pass over mirrored rows: the signed sigma1, sigma2 (not clamped), sigma12 of w pixels.
  void (*horizontal_moments)(const std::uint32_t* a_x, const std::uint32_t* a_y, const std::uint32_t* b_xx,
                             const std::uint32_t* b_yy, const std::uint32_t* b_xy, Kernel k, int w,
                             std::int32_t* sigma1, std::int32_t* sigma2, std::int32_t* sigma12);

  // Adds the contributions of w pixels to `acc` (accumulate_pixel for each).
  void (*statistic)(const std::int32_t* sigma1, const std::int32_t* sigma2, const std::int32_t* sigma12, int w,
                    double gain_limit, const std::uint16_t* log_table, Accum& acc);

  // Vertical pass of the anti-alias filter: out[j] = (sum_t f[t] rows[t][j] + round) >> shift (<= 65535).
  void (*vertical_mean_u8)(const std::uint8_t* const* rows, Kernel k, int w, Shift sh, std::uint32_t* out);
  void (*vertical_mean_u16)(const std::uint16_t* const* rows, Kernel k, int w, Shift sh, std::uint32_t* out);

  // Horizontal pass at even columns over a mirrored row: out[j] = (sum_t f[t] v[2j - half + t] + 32768) >> 16
  // for j < out_w.
  void (*horizontal_mean_even)(const std::uint32_t* v, Kernel k, int out_w, std::uint16_t* out);
};

const RowKernels& scalar_kernels();
// nullptr when the CPU (or the build) has no AVX2.
const RowKernels* avx2_kernels();
// The fastest set this CPU runs.
const RowKernels& best_kernels();

}  // namespace vqtwin::integer_vif
