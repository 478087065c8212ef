#pragma once
// SpEED's plane loops as a kernel table (common/cpu.hpp): one body built for the baseline, x86-64-v3 and
// x86-64-v4. Each lane does its sample's scalar sequence of fp32 operations (common/vector.hpp), so every
// build gives the same bits (tests/cpu_check/late_features.cpp).
#include <cstdint>

namespace vqtwin::speed {

struct SpeedKernels {
  const char* name;
  // out[c] = sum over k < taps of f[k] * rows[k][c], from 0 in tap order, for c < w (a vertical pass).
  void (*columns)(const float* const* rows, const float* f, int taps, float* out, int w);
  // libvmaf's picture_copy with offset -128: out[x] = v + -128 (8-bit), v / scaler + -128 (deeper).
  void (*to_float8)(const std::uint8_t* in, float* out, int w);
  void (*to_float16)(const std::uint16_t* in, float scaler, float* out, int w);
  // a[x] -= b[x] (speed_temporal's frame differences).
  void (*subtract)(float* a, const float* b, int w);
};

// speed_kernels_for(0) is the portable build (the reference), speed_kernels_for(cpu::flags()) the one to
// run.
SpeedKernels speed_kernels_for(unsigned cpu_flags);

}  // namespace vqtwin::speed
