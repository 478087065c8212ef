#include "features/integer_vif/pipeline.hpp"

#include <cstdint>
#include <vector>

#include "features/integer_vif/log_table.hpp"

namespace vqtwin::integer_vif {
namespace {

constexpr int kMaxHalf = (kMaxTaps - 1) / 2;

// A row buffer with room for the mirror on both sides.
struct PaddedRow {
  std::vector<std::uint32_t> storage;
  std::uint32_t* at0 = nullptr;  // column 0
  void resize(int w) {
    storage.assign(std::size_t(w) + 2 * kMaxHalf, 0);
    at0 = storage.data() + kMaxHalf;
  }
};

// Reflect-101 in place: p[-c] = p[c], p[w-1+c] = p[w-1-c] for c = 1..half (needs w > half).
void mirror_row(std::uint32_t* p, int w, int half) {
  for (int c = 1; c <= half; ++c) {
    p[-c] = p[c];
    p[w - 1 + c] = p[w - 1 - c];
  }
}

struct Workspace {
  int width = -1;
  PaddedRow a_x, a_y, b_xx, b_yy, b_xy;
  std::vector<std::int32_t> sigma1, sigma2, sigma12;
  // Scales 1..3 of both planes (index 0 unused), rows of `width_s` samples.
  std::vector<std::uint16_t> scaled_x[kNumScales], scaled_y[kNumScales];

  void prepare(int w, int h) {
    if (w != width) {
      for (PaddedRow* r : {&a_x, &a_y, &b_xx, &b_yy, &b_xy}) r->resize(w);
      sigma1.assign(std::size_t(w), 0);
      sigma2.assign(std::size_t(w), 0);
      sigma12.assign(std::size_t(w), 0);
      width = w;
    }
    for (int s = 1; s < kNumScales; ++s) {
      const std::size_t n = std::size_t(w >> s) * std::size_t(h >> s);
      scaled_x[s].resize(n);
      scaled_y[s].resize(n);
    }
  }
};

template <class T>
void vertical_moments(const RowKernels& k, const T* const* rx, const T* const* ry, Kernel f, int w, MomentShifts sh,
                      Workspace& ws) {
  if constexpr (sizeof(T) == 1)
    k.vertical_moments_u8(rx, ry, f, w, sh, ws.a_x.at0, ws.a_y.at0, ws.b_xx.at0, ws.b_yy.at0, ws.b_xy.at0);
  else
    k.vertical_moments_u16(rx, ry, f, w, sh, ws.a_x.at0, ws.a_y.at0, ws.b_xx.at0, ws.b_yy.at0, ws.b_xy.at0);
}

template <class T>
void vertical_mean(const RowKernels& k, const T* const* rows, Kernel f, int w, Shift sh, std::uint32_t* out) {
  if constexpr (sizeof(T) == 1) k.vertical_mean_u8(rows, f, w, sh, out);
  else k.vertical_mean_u16(rows, f, w, sh, out);
}

// The sums of one scale: per output row, the vertical pass over the mirrored input rows, the
// horizontal pass over the mirrored moment rows, then the per-pixel statistic.
template <class T>
Accum scale_sums(const RowKernels& k, Workspace& ws, const T* x, std::ptrdiff_t stride_x, const T* y,
                 std::ptrdiff_t stride_y, int w, int h, int bpc, int scale, double gain_limit) {
  const Kernel f = kernel_of(scale);
  const MomentShifts sh = moment_shifts(bpc, scale);
  const std::uint16_t* table = log2_table();
  const T* rx[kMaxTaps];
  const T* ry[kMaxTaps];
  Accum acc;
  for (int i = 0; i < h; ++i) {
    for (int t = 0; t < f.size; ++t) {
      const std::ptrdiff_t r = mirror(i - f.half + t, h);
      rx[t] = x + r * stride_x;
      ry[t] = y + r * stride_y;
    }
    vertical_moments<T>(k, rx, ry, f, w, sh, ws);
    for (PaddedRow* r : {&ws.a_x, &ws.a_y, &ws.b_xx, &ws.b_yy, &ws.b_xy}) mirror_row(r->at0, w, f.half);
    k.horizontal_moments(ws.a_x.at0, ws.a_y.at0, ws.b_xx.at0, ws.b_yy.at0, ws.b_xy.at0, f, w, ws.sigma1.data(),
                         ws.sigma2.data(), ws.sigma12.data());
    k.statistic(ws.sigma1.data(), ws.sigma2.data(), ws.sigma12.data(), w, gain_limit, table, acc);
  }
  return acc;
}

// Scale from_scale + 1 of one plane: filter with the next scale's kernel, keep even rows/columns.
template <class T>
void downsample(const RowKernels& k, Workspace& ws, const T* x, std::ptrdiff_t stride, int w, int h, int bpc,
                int from_scale, std::uint16_t* out) {
  const Kernel f = kernel_of(from_scale + 1);
  const Shift sh = downsample_shift(bpc, from_scale);
  const int out_w = w / 2, out_h = h / 2;
  const T* rows[kMaxTaps];
  std::uint32_t* v = ws.a_x.at0;  // free between scales
  for (int i = 0; i < out_h; ++i) {
    for (int t = 0; t < f.size; ++t) rows[t] = x + std::ptrdiff_t(mirror(2 * i - f.half + t, h)) * stride;
    vertical_mean<T>(k, rows, f, w, sh, v);
    mirror_row(v, w, f.half);
    k.horizontal_mean_even(v, f, out_w, out + std::ptrdiff_t(i) * out_w);
  }
}

template <class T>
std::array<Accum, kNumScales> frame_sums_t(const RowKernels& k, const FrameSetup& s, const T* x0, const T* y0,
                                           std::ptrdiff_t stride_x0, std::ptrdiff_t stride_y0) {
  thread_local Workspace ws;
  ws.prepare(s.width, s.height);
  std::array<Accum, kNumScales> out{};
  int w = s.width, h = s.height;
  if (!s.skip_scale0) out[0] = scale_sums<T>(k, ws, x0, stride_x0, y0, stride_y0, w, h, s.bpc, 0, s.gain_limit);
  downsample<T>(k, ws, x0, stride_x0, w, h, s.bpc, 0, ws.scaled_x[1].data());
  downsample<T>(k, ws, y0, stride_y0, w, h, s.bpc, 0, ws.scaled_y[1].data());
  for (int scale = 1; scale < kNumScales; ++scale) {
    w /= 2;
    h /= 2;
    const std::uint16_t* x = ws.scaled_x[scale].data();
    const std::uint16_t* y = ws.scaled_y[scale].data();
    out[scale] = scale_sums<std::uint16_t>(k, ws, x, w, y, w, w, h, s.bpc, scale, s.gain_limit);
    if (scale + 1 < kNumScales) {
      downsample<std::uint16_t>(k, ws, x, w, w, h, s.bpc, scale, ws.scaled_x[scale + 1].data());
      downsample<std::uint16_t>(k, ws, y, w, w, h, s.bpc, scale, ws.scaled_y[scale + 1].data());
    }
  }
  return out;
}

}  // namespace

std::array<Accum, kNumScales> frame_sums(const RowKernels& kernels, const FrameSetup& setup, LumaPlane ref,
                                         LumaPlane dist) {
  if (setup.bpc == 8)
    return frame_sums_t<std::uint8_t>(kernels, setup, static_cast<const std::uint8_t*>(ref.data),
                                      static_cast<const std::uint8_t*>(dist.data), ref.stride, dist.stride);
  return frame_sums_t<std::uint16_t>(kernels, setup, static_cast<const std::uint16_t*>(ref.data),
                                     static_cast<const std::uint16_t*>(dist.data), ref.stride, dist.stride);
}

}  // namespace vqtwin::integer_vif
