// integer VIF kernels, portable reference: every sum in uint64, in tap order, exactly as the spec
// defines it, over row buffers mirrored in place. The AVX2 set must reproduce these integers.
#include <cstring>

#include "features/integer_vif/kernels.hpp"

namespace vqtwin::integer_vif {

void* Scratch::get(int slot, std::size_t bytes) {
  std::vector<unsigned char>& m = mem_[slot];
  if (m.size() < bytes + 64) m.resize(bytes + 64);
  const auto addr = reinterpret_cast<std::uintptr_t>(m.data());
  return m.data() + ((64 - addr % 64) % 64);
}

namespace {

constexpr int kMaxHalf = (kMaxTaps - 1) / 2;

// Reflect-101 in place: p[-c] = p[c], p[w-1+c] = p[w-1-c] for c = 1..half (needs w > half).
void mirror_row(std::uint32_t* p, int w, int half) {
  for (int c = 1; c <= half; ++c) {
    p[-c] = p[c];
    p[w - 1 + c] = p[w - 1 - c];
  }
}

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
    // libvmaf keeps the means in 16 bits (a no-op for samples below 2^bpc, a wrap above).
    a_x[j] = std::uint16_t((sx + sh.mean.round) >> sh.mean.shift);
    a_y[j] = std::uint16_t((sy + sh.mean.round) >> sh.mean.shift);
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

void statistic(const std::int32_t* sigma1, const std::int32_t* sigma2, const std::int32_t* sigma12, int n,
               double gain_limit, const std::uint16_t* log_table, Accum& acc) {
  for (int j = 0; j < n; ++j) accumulate_pixel(sigma1[j], sigma2[j], sigma12[j], gain_limit, log_table, acc);
}

// Per output row: the vertical pass over the mirrored input rows, the horizontal pass over the
// mirrored moment rows, then the per-pixel statistic.
template <class T>
Accum scale_sums(const T* x, std::ptrdiff_t stride_x, const T* y, std::ptrdiff_t stride_y, const ScaleArgs& a,
                 Scratch& s) {
  const Kernel f = kernel_of(a.scale);
  const MomentShifts sh = moment_shifts(a.bpc, a.scale);
  const std::size_t row = std::size_t(a.w) + 2 * kMaxHalf;
  auto* mem = static_cast<std::uint32_t*>(s.get(0, 5 * row * sizeof(std::uint32_t)));
  std::uint32_t* m[5];
  for (int i = 0; i < 5; ++i) m[i] = mem + std::size_t(i) * row + kMaxHalf;
  auto* sig = static_cast<std::int32_t*>(s.get(1, 3 * std::size_t(a.w) * sizeof(std::int32_t)));
  std::int32_t* s1 = sig;
  std::int32_t* s2 = sig + a.w;
  std::int32_t* s12 = sig + 2 * a.w;
  const T* rx[kMaxTaps];
  const T* ry[kMaxTaps];
  Accum acc;
  for (int i = 0; i < a.h; ++i) {
    for (int t = 0; t < f.size; ++t) {
      const std::ptrdiff_t r = mirror(i - f.half + t, a.h);
      rx[t] = x + r * stride_x;
      ry[t] = y + r * stride_y;
    }
    vertical_moments<T>(rx, ry, f, a.w, sh, m[0], m[1], m[2], m[3], m[4]);
    for (std::uint32_t* p : m) mirror_row(p, a.w, f.half);
    horizontal_moments(m[0], m[1], m[2], m[3], m[4], f, a.w, s1, s2, s12);
    statistic(s1, s2, s12, a.w, a.gain_limit, a.log_table, acc);
  }
  return acc;
}

// Filter with the next scale's kernel (vertical, rounded; horizontal, rounded), keep even
// rows and columns.
template <class T>
void downsample(const T* x, std::ptrdiff_t stride, int w, int h, int bpc, int from_scale, std::uint16_t* out,
                Scratch& s) {
  const Kernel f = kernel_of(from_scale + 1);
  const Shift sh = downsample_shift(bpc, from_scale);
  const int out_w = w / 2, out_h = h / 2;
  auto* v = static_cast<std::uint32_t*>(s.get(0, (std::size_t(w) + 2 * kMaxHalf) * sizeof(std::uint32_t))) +
            kMaxHalf;
  for (int i = 0; i < out_h; ++i) {
    for (int j = 0; j < w; ++j) {
      std::uint64_t sum = 0;
      for (int t = 0; t < f.size; ++t)
        sum += std::uint64_t(f.taps[t]) * x[std::ptrdiff_t(mirror(2 * i - f.half + t, h)) * stride + j];
      v[j] = std::uint16_t((sum + sh.round) >> sh.shift);  // 16 bits, as libvmaf keeps it
    }
    mirror_row(v, w, f.half);
    std::uint16_t* o = out + std::ptrdiff_t(i) * out_w;
    for (int j = 0; j < out_w; ++j) {
      std::uint64_t sum = 0;
      for (int t = 0; t < f.size; ++t) sum += std::uint64_t(f.taps[t]) * v[2 * j - f.half + t];
      o[j] = std::uint16_t((sum + 32768) >> 16);
    }
  }
}

const KernelSet kScalar = {
    .name = "scalar",
    .scale_sums_u8 = scale_sums<std::uint8_t>,
    .scale_sums_u16 = scale_sums<std::uint16_t>,
    .downsample_u8 = downsample<std::uint8_t>,
    .downsample_u16 = downsample<std::uint16_t>,
    .statistic = statistic,
};

}  // namespace

const KernelSet& reference_kernels() { return kScalar; }

}  // namespace vqtwin::integer_vif
