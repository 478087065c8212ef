#include "features/float_motion/blur.hpp"

#include <cstdint>

#include "common/luma_float.hpp"
#include "features/float_motion/math.hpp"

namespace vqtwin::float_motion {
namespace {

// The SAD runs on groups of this many finished rows, while they are still in cache.
constexpr int kSadGroup = 8;

}  // namespace

PlaneBlur::PlaneBlur(int width, int height, int filter_size, const Kernels& kernels)
    : k_(kernels), w_(width), h_(height), taps_(taps_read(filter_size)), identity_(filter_size == 1), scale_(1.0f) {
  rows_.resize(std::size_t(5) * std::size_t(w_));
  padded_.resize(std::size_t(w_) + 4);
}

template <class T>
const float* PlaneBlur::source_row(const Picture& pic, int p, int y) {
  while (converted_up_to_ < y) {
    ++converted_up_to_;
    float* dst = &rows_[std::size_t(converted_up_to_ % 5) * w_];
    if constexpr (sizeof(T) == 1) k_.convert8(pic.row<T>(p, converted_up_to_), dst, w_);
    else k_.convert16(pic.row<T>(p, converted_up_to_), scale_, dst, w_);
  }
  return &rows_[std::size_t(y % 5) * w_];
}

template <class T>
float PlaneBlur::run_typed(const Picture& pic, int p, float* out, const float* prev) {
  const int w = w_, h = h_, r = taps_ / 2;
  const float* f = taps_ == 3 ? kTaps3 : kTaps5;
  converted_up_to_ = -1;
  float total = 0;
  int sad_from = 0;
  for (int y = 0; y < h; ++y) {
    float* dst = out + std::ptrdiff_t(y) * w;
    if (identity_) {
      // [0 0 1 0 0] returns every sample unchanged: 0*x adds only zeros to 1*x (see kernels.inc).
      if constexpr (sizeof(T) == 1) k_.convert8(pic.row<T>(p, y), dst, w);
      else k_.convert16(pic.row<T>(p, y), scale_, dst, w);
    } else {
      const float* rows[5];
      for (int k = 0; k < taps_; ++k) rows[k] = source_row<T>(pic, p, reflect101(y - r + k, h));
      float* mid = padded_.data() + r;
      (taps_ == 3 ? k_.columns3 : k_.columns5)(rows, f, mid, w);
      for (int m = 1; m <= r; ++m) {
        mid[-m] = mid[m];
        mid[w - 1 + m] = mid[w - 1 - m];
      }
      (taps_ == 3 ? k_.row3 : k_.row5)(padded_.data(), f, dst, w);
    }
    if (prev && (y + 1 - sad_from == kSadGroup || y == h - 1)) {
      const std::ptrdiff_t at = std::ptrdiff_t(sad_from) * w;
      total = k_.sad_rows(out + at, prev + at, w, w, y + 1 - sad_from, total);
      sad_from = y + 1;
    }
  }
  return total;
}

float PlaneBlur::run(const Picture& pic, int p, float* out, const float* prev) {
  const int bpc = pic.format().bitdepth;
  scale_ = luma_scale(bpc);
  return bpc > 8 ? run_typed<std::uint16_t>(pic, p, out, prev) : run_typed<std::uint8_t>(pic, p, out, prev);
}

float sad_total(const float* a, const float* b, int w, int h, const Kernels& kernels) {
  return kernels.sad_rows(a, b, w, w, h, 0.0f);
}

HalfResampler::HalfResampler(int w, int h) : w_(w), h_(h), dw_(half_size(w)), dh_(half_size(h)) {
  for (int x = 0; x < dw_; ++x) {
    const BilinearTap t = bilinear_tap(x, w_, dw_);
    x0_.push_back(t.i0);
    x1_.push_back(t.i1);
    fx_.push_back(t.frac);
  }
  for (int y = 0; y < dh_; ++y) {
    const BilinearTap t = bilinear_tap(y, h_, dh_);
    y0_.push_back(t.i0);
    y1_.push_back(t.i1);
    fy_.push_back(t.frac);
  }
}

void HalfResampler::run(const float* src, float* dst) const {
  for (int y = 0; y < dh_; ++y) {
    const float* r0 = src + std::ptrdiff_t(y0_[y]) * w_;
    const float* r1 = src + std::ptrdiff_t(y1_[y]) * w_;
    const float dy = fy_[y];
    float* d = dst + std::ptrdiff_t(y) * dw_;
    for (int x = 0; x < dw_; ++x) {
      const int a = x0_[x], b = x1_[x];
      const float dx = fx_[x];
      d[x] = bilinear_at(r0, r1, a, b, dx, dy);
    }
  }
}

}  // namespace vqtwin::float_motion
