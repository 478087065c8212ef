#pragma once
// SpEED's full-size work one output at a time, for the device twin (cuda.cu): one sample to float,
// one sample of the anti-alias blur's vertical pass at a kept row, one of its horizontal pass at a
// kept column. Each is the CPU's loop body for that output (kernels.cpp's to_float / columns,
// core.cpp's filter_at): accumulators from 0.0f, taps ascending, products rounded before the add,
// reflect-101 applied once. tests/unit/speed_cells_test.cpp runs them on the host against
// Speed::decimate, bit for bit.
#include <cstdint>

#include "core/hd.hpp"
#include "features/float_vif/cells.hpp"

namespace vqtwin::speed::cells {

inline constexpr int kStep = 16;  // every 16th sample is kept (1 << kScales)

// libvmaf's picture_copy with offset -128: v + -128 (8-bit), v / scaler + -128 (deeper).
VQTWIN_HD inline float to_float(std::uint8_t v, float) { return float(v) + -128.0f; }
VQTWIN_HD inline float to_float(std::uint16_t v, float scaler) { return float(v) / scaler + -128.0f; }

// The vertical pass at row y (a kept row), column x of a packed w x h plane.
VQTWIN_HD inline float column_at(const float* src, int w, int h, const float* f, int taps, int y, int x) {
  const int half = taps / 2;
  float acc = 0.0f;
  for (int t = 0; t < taps; ++t) acc += f[t] * src[(long long)float_vif::reflect101(y - half + t, h) * w + x];
  return acc;
}

// The horizontal pass at column x (a kept column) of one vertically filtered row of w samples.
VQTWIN_HD inline float row_at(const float* row, int w, const float* f, int taps, int x) {
  const int half = taps / 2;
  float acc = 0.0f;
  for (int t = 0; t < taps; ++t) acc += f[t] * row[float_vif::reflect101(x - half + t, w)];
  return acc;
}

}  // namespace vqtwin::speed::cells
