#pragma once
// One frame of integer VIF: the four scales' exact sums from the two luma planes.
#include <array>
#include <cstddef>

#include "features/integer_vif/kernels.hpp"
#include "features/integer_vif/math.hpp"

namespace vqtwin::integer_vif {

// A luma plane as stored: uint8_t samples for bpc 8, uint16_t otherwise; stride in samples.
struct LumaPlane {
  const void* data;
  std::ptrdiff_t stride;
};

struct FrameSetup {
  int width = 0;
  int height = 0;
  int bpc = 8;
  double gain_limit = 100.0;
  bool skip_scale0 = false;
};

// The sums of scales 0..3 (scale 0 left zero when skip_scale0). Thread-safe: every call uses the
// calling thread's own buffers. Requires width, height >= kMinPlaneSize.
std::array<Accum, kNumScales> frame_sums(const KernelSet& kernels, const FrameSetup& setup, LumaPlane ref,
                                         LumaPlane dist);

}  // namespace vqtwin::integer_vif
