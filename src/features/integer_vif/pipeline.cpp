#include "features/integer_vif/pipeline.hpp"

#include "features/integer_vif/log_table.hpp"

namespace vqtwin::integer_vif {
namespace {

// Scales 1..3 from the scale-1 planes in ws; out[0] as given.
std::array<Accum, kNumScales> frame_sums_from_scale1(const KernelSet& k, const FrameSetup& s, Workspace& ws,
                                                     std::array<Accum, kNumScales> out) {
  ScaleArgs a{s.width, s.height, s.bpc, 0, s.gain_limit, log2_table()};
  for (int scale = 1; scale < kNumScales; ++scale) {
    a.w /= 2;
    a.h /= 2;
    a.scale = scale;
    const std::uint16_t* x = ws.scaled_x[scale].data();
    const std::uint16_t* y = ws.scaled_y[scale].data();
    out[scale] = k.scale_sums_u16(x, a.w, y, a.w, a, ws.scratch);
    if (scale + 1 < kNumScales) {
      k.downsample_u16(x, a.w, a.w, a.h, a.bpc, scale, ws.scaled_x[scale + 1].data(), ws.scratch);
      k.downsample_u16(y, a.w, a.w, a.h, a.bpc, scale, ws.scaled_y[scale + 1].data(), ws.scratch);
    }
  }
  return out;
}

template <class T>
std::array<Accum, kNumScales> frame_sums_t(const KernelSet& k, const FrameSetup& s, const T* x0,
                                           std::ptrdiff_t stride_x0, const T* y0, std::ptrdiff_t stride_y0,
                                           Workspace& ws) {
  for (int scale = 1; scale < kNumScales; ++scale) {
    const std::size_t n = std::size_t(s.width >> scale) * std::size_t(s.height >> scale);
    ws.scaled_x[scale].resize(n);
    ws.scaled_y[scale].resize(n);
  }
  std::array<Accum, kNumScales> out{};
  ScaleArgs a{s.width, s.height, s.bpc, 0, s.gain_limit, log2_table()};
  if constexpr (sizeof(T) == 1) {
    if (!s.skip_scale0 && k.scale_sums_down_u8 != nullptr) {  // scale 0 and scale 1 in one pass
      out[0] = k.scale_sums_down_u8(x0, stride_x0, y0, stride_y0, a, ws.scaled_x[1].data(), ws.scaled_y[1].data(),
                                    ws.scratch);
      return frame_sums_from_scale1(k, s, ws, out);
    }
  }
  if (!s.skip_scale0) {
    if constexpr (sizeof(T) == 1) out[0] = k.scale_sums_u8(x0, stride_x0, y0, stride_y0, a, ws.scratch);
    else out[0] = k.scale_sums_u16(x0, stride_x0, y0, stride_y0, a, ws.scratch);
  }
  // With vif_skip_scale0 the scale-0 statistics are skipped, not the downsampling.
  if constexpr (sizeof(T) == 1) {
    k.downsample_u8(x0, stride_x0, a.w, a.h, a.bpc, 0, ws.scaled_x[1].data(), ws.scratch);
    k.downsample_u8(y0, stride_y0, a.w, a.h, a.bpc, 0, ws.scaled_y[1].data(), ws.scratch);
  } else {
    k.downsample_u16(x0, stride_x0, a.w, a.h, a.bpc, 0, ws.scaled_x[1].data(), ws.scratch);
    k.downsample_u16(y0, stride_y0, a.w, a.h, a.bpc, 0, ws.scaled_y[1].data(), ws.scratch);
  }
  return frame_sums_from_scale1(k, s, ws, out);
}

}  // namespace

std::array<Accum, kNumScales> frame_sums(const KernelSet& kernels, const FrameSetup& setup, LumaPlane ref,
                                         LumaPlane dist, Workspace& ws) {
  if (setup.bpc == 8)
    return frame_sums_t<std::uint8_t>(kernels, setup, static_cast<const std::uint8_t*>(ref.data), ref.stride,
                                      static_cast<const std::uint8_t*>(dist.data), dist.stride, ws);
  return frame_sums_t<std::uint16_t>(kernels, setup, static_cast<const std::uint16_t*>(ref.data), ref.stride,
                                     static_cast<const std::uint16_t*>(dist.data), dist.stride, ws);
}

}  // namespace vqtwin::integer_vif
