// integer VIF row kernels, portable reference: every sum in uint64, in tap order, exactly as the
// spec defines it. The AVX2 set must reproduce these integers.
#include "features/integer_vif/kernels.hpp"

namespace vqtwin::integer_vif {
namespace {

template <class T>
void vertical_moments(const T* const* rows_x, const T* const* rows_y, Kernel k, int w, MomentShifts sh,
                      std::uint32_t* a_x, std::uint32_t* a_y, std::uint32_t* b_xx, std::uint32_t* b_yy,
                      std::uint32_t* b_xy) {
  for (int j = 0; j < w; ++j) {
    std::uint64_t sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int t = 0; t < k.size; ++t) {
      const std::uint64_t f = k.taps[t];
      const std::uint64_t x = rows_x[t][j], y = rows_y[t][j];
      sx += f * x;
      sy += f * y;
      sxx += f * (x * x);
      syy += f * (y * y);
      sxy += f * (x * y);
    }
    a_x[j] = std::uint32_t((sx + sh.mean.round) >> sh.mean.shift);
    a_y[j] = std::uint32_t((sy + sh.mean.round) >> sh.mean.shift);
    b_xx[j] = std::uint32_t((sxx + sh.square.round) >> sh.square.shift);
    b_yy[j] = std::uint32_t((syy + sh.square.round) >> sh.square.shift);
    b_xy[j] = std::uint32_t((sxy + sh.square.round) >> sh.square.shift);
  }
}

void horizontal_moments(const std::uint32_t* a_x, const std::uint32_t* a_y, const std::uint32_t* b_xx,
                        const std::uint32_t* b_yy, const std::uint32_t* b_xy, Kernel k, int w, std::int32_t* sigma1,
                        std::int32_t* sigma2, std::int32_t* sigma12) {
  for (int j = 0; j < w; ++j) {
    std::uint64_t mx = 0, my = 0, exx = 0, eyy = 0, exy = 0;
    for (int t = 0; t < k.size; ++t) {
      const std::uint64_t f = k.taps[t];
      const int c = j - k.half + t;
      mx += f * a_x[c];
      my += f * a_y[c];
      exx += f * b_xx[c];
      eyy += f * b_yy[c];
      exy += f * b_xy[c];
    }
    exx = (exx + 32768) >> 16;
    eyy = (eyy + 32768) >> 16;
    exy = (exy + 32768) >> 16;
    // mx, my < 2^32: the products and the rounding stay below 2^64.
    const std::uint64_t pxx = (mx * mx + 0x80000000u) >> 32;
    const std::uint64_t pyy = (my * my + 0x80000000u) >> 32;
    const std::uint64_t pxy = (mx * my + 0x80000000u) >> 32;
    sigma1[j] = std::int32_t(std::int64_t(exx) - std::int64_t(pxx));
    sigma2[j] = std::int32_t(std::int64_t(eyy) - std::int64_t(pyy));
    sigma12[j] = std::int32_t(std::int64_t(exy) - std::int64_t(pxy));
  }
}

void statistic(const std::int32_t* sigma1, const std::int32_t* sigma2, const std::int32_t* sigma12, int w,
               double gain_limit, const std::uint16_t* log_table, Accum& acc) {
  for (int j = 0; j < w; ++j) accumulate_pixel(sigma1[j], sigma2[j], sigma12[j], gain_limit, log_table, acc);
}

template <class T>
void vertical_mean(const T* const* rows, Kernel k, int w, Shift sh, std::uint32_t* out) {
  for (int j = 0; j < w; ++j) {
    std::uint64_t s = 0;
    for (int t = 0; t < k.size; ++t) s += std::uint64_t(k.taps[t]) * rows[t][j];
    out[j] = std::uint32_t((s + sh.round) >> sh.shift);
  }
}

void horizontal_mean_even(const std::uint32_t* v, Kernel k, int out_w, std::uint16_t* out) {
  for (int j = 0; j < out_w; ++j) {
    std::uint64_t s = 0;
    for (int t = 0; t < k.size; ++t) s += std::uint64_t(k.taps[t]) * v[2 * j - k.half + t];
    out[j] = std::uint16_t((s + 32768) >> 16);
  }
}

const RowKernels kScalar = {
    .name = "scalar",
    .vertical_moments_u8 = vertical_moments<std::uint8_t>,
    .vertical_moments_u16 = vertical_moments<std::uint16_t>,
    .horizontal_moments = horizontal_moments,
    .statistic = statistic,
    .vertical_mean_u8 = vertical_mean<std::uint8_t>,
    .vertical_mean_u16 = vertical_mean<std::uint16_t>,
    .horizontal_mean_even = horizontal_mean_even,
};

}  // namespace

const RowKernels& scalar_kernels() { return kScalar; }

}  // namespace vqtwin::integer_vif
