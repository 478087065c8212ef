#pragma once
// One frame of integer VIF: the four scales' exact sums from the two luma planes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

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

// The memory of one frame in flight: the scale 1..3 planes of both pictures and the kernels'
// scratch (grown to the first frame's size, then reused).
struct Workspace {
  std::vector<std::uint16_t> scaled_x[kNumScales], scaled_y[kNumScales];  // index 0 unused
  Scratch scratch;
};

// The sums of scales 0..3 (scale 0 left zero when skip_scale0). One workspace per concurrent call.
// Requires width, height >= kMinPlaneSize.
std::array<Accum, kNumScales> frame_sums(const KernelSet& kernels, const FrameSetup& setup, LumaPlane ref,
                                         LumaPlane dist, Workspace& ws);

}  // namespace vqtwin::integer_vif
