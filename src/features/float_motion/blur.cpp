#include "features/float_motion/blur.hpp"

#include <cmath>
#include <cstdint>

#include "features/float_motion/math.hpp"

namespace vqtwin::float_motion {
namespace {

// Reflect without repeating the edge sample (-1 -> 1, n -> n-2), libvmaf's convolution edges.
inline int reflect101(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

// Each output is f[0]*x[0] + f[1]*x[1] + ... added left to right in fp32, every product and sum
// rounded once (built with -ffp-contract=off). libvmaf starts the sum from 0.0f; dropping that
// leading "0 +" can only turn a -0 result into +0 (x + 0 == x for x != 0), and the sign of a zero
// never reaches a score: every blurred value is only ever subtracted and taken |.|.
template <int N>
void filter_columns(const float* const* rows, const float* f, float* __restrict dst, int w) {
  for (int x = 0; x < w; ++x) {
    float acc = f[0] * rows[0][x];
    for (int k = 1; k < N; ++k) acc = acc + f[k] * rows[k][x];
    dst[x] = acc;
  }
}

template <int N>
void filter_row(const float* src, const float* f, float* __restrict dst, int w) {
  for (int x = 0; x < w; ++x) {
    float acc = f[0] * src[x];
    for (int k = 1; k < N; ++k) acc = acc + f[k] * src[x + k];
    dst[x] = acc;
  }
}

template <class T>
void convert_row(const T* src, float scale, float* __restrict dst, int w) {
  // libvmaf's picture_copy with offset -128: (float)v / scale + (-128), exact for every depth.
  if (scale == 1.0f) {
    for (int x = 0; x < w; ++x) dst[x] = float(src[x]) - 128.0f;
  } else {
    for (int x = 0; x < w; ++x) dst[x] = float(src[x]) / scale - 128.0f;
  }
}

// Rows [y0, y1) of |a - b|: each row summed left to right from 0 in fp32, then added to `total`
// in row order. Four rows run side by side (independent chains, each in its own order).
float add_sad_rows(const float* a, const float* b, int w, int y0, int y1, float total) {
  int y = y0;
  for (; y + 4 <= y1; y += 4) {
    const float* a0 = a + std::ptrdiff_t(y) * w;
    const float* b0 = b + std::ptrdiff_t(y) * w;
    const float *a1 = a0 + w, *a2 = a1 + w, *a3 = a2 + w;
    const float *b1 = b0 + w, *b2 = b1 + w, *b3 = b2 + w;
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int x = 0; x < w; ++x) {
      s0 = s0 + std::fabs(a0[x] - b0[x]);
      s1 = s1 + std::fabs(a1[x] - b1[x]);
      s2 = s2 + std::fabs(a2[x] - b2[x]);
      s3 = s3 + std::fabs(a3[x] - b3[x]);
    }
    total = total + s0;
    total = total + s1;
    total = total + s2;
    total = total + s3;
  }
  for (; y < y1; ++y) {
    const float* ar = a + std::ptrdiff_t(y) * w;
    const float* br = b + std::ptrdiff_t(y) * w;
    float s = 0;
    for (int x = 0; x < w; ++x) s = s + std::fabs(ar[x] - br[x]);
    total = total + s;
  }
  return total;
}

}  // namespace

PlaneBlur::PlaneBlur(int width, int height, int filter_size)
    : w_(width), h_(height), taps_(taps_read(filter_size)), identity_(filter_size == 1), scale_(1.0f) {
  rows_.resize(std::size_t(5) * std::size_t(w_));
  padded_.resize(std::size_t(w_) + 4);
}

template <class T>
const float* PlaneBlur::source_row(const Picture& pic, int p, int y) {
  while (converted_up_to_ < y) {
    ++converted_up_to_;
    convert_row(pic.row<T>(p, converted_up_to_), scale_, &rows_[std::size_t(converted_up_to_ % 5) * w_], w_);
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
      // [0 0 1 0 0] returns every sample unchanged: 0*x adds only zeros to 1*x (see above).
      convert_row(pic.row<T>(p, y), scale_, dst, w);
    } else {
      const float* rows[5];
      for (int k = 0; k < taps_; ++k) rows[k] = source_row<T>(pic, p, reflect101(y - r + k, h));
      float* mid = padded_.data() + r;
      if (taps_ == 3) filter_columns<3>(rows, f, mid, w);
      else filter_columns<5>(rows, f, mid, w);
      for (int m = 1; m <= r; ++m) {
        mid[-m] = mid[m];
        mid[w - 1 + m] = mid[w - 1 - m];
      }
      if (taps_ == 3) filter_row<3>(padded_.data(), f, dst, w);
      else filter_row<5>(padded_.data(), f, dst, w);
    }
    if (prev && (y + 1 - sad_from == 4 || y == h - 1)) {
      total = add_sad_rows(out, prev, w, sad_from, y + 1, total);
      sad_from = y + 1;
    }
  }
  return total;
}

float PlaneBlur::run(const Picture& pic, int p, float* out, const float* prev) {
  const int bpc = pic.format().bitdepth;
  scale_ = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : bpc == 16 ? 256.0f : 1.0f;
  return bpc > 8 ? run_typed<std::uint16_t>(pic, p, out, prev) : run_typed<std::uint8_t>(pic, p, out, prev);
}

float sad_total(const float* a, const float* b, int w, int h) { return add_sad_rows(a, b, w, 0, h, 0.0f); }

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
      // Weight products first, then times the sample, the four terms added left to right.
      d[x] = (1 - dy) * (1 - dx) * r0[a] + (1 - dy) * dx * r0[b] + dy * (1 - dx) * r1[a] + dy * dx * r1[b];
    }
  }
}

}  // namespace vqtwin::float_motion
