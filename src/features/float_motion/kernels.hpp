#pragma once
// float_motion's row kernels. The same source is compiled twice (portable x86-64 / any CPU, and
// AVX2 on x86-64); both compute every output with the same fp32 operations in the same order
// (lanes only widen the loop over pixels, no FMA), so they agree bit for bit, which
// tests/cpu_check checks.
#include <cstddef>
#include <cstdint>

namespace vqtwin::float_motion {

struct Kernels {
  const char* name;
  // dst[x] = f[0]*rows[0][x] + ... + f[N-1]*rows[N-1][x], added left to right (N = 3 or 5).
  void (*columns3)(const float* const* rows, const float* f, float* dst, int w);
  void (*columns5)(const float* const* rows, const float* f, float* dst, int w);
  // dst[x] = f[0]*src[x] + ... + f[N-1]*src[x+N-1] (src holds the row with its mirrored margins).
  void (*row3)(const float* src, const float* f, float* dst, int w);
  void (*row5)(const float* src, const float* f, float* dst, int w);
  // libvmaf's picture_copy with offset -128: v - 128, or v / scale - 128 (exact).
  void (*convert8)(const std::uint8_t* src, float* dst, int w);
  void (*convert16)(const std::uint16_t* src, float scale, float* dst, int w);
  // `rows` rows of |a - b| (row stride `stride`), each summed left to right from 0 in fp32, added
  // to `total` in row order; returns the new total.
  float (*sad_rows)(const float* a, const float* b, std::ptrdiff_t stride, int w, int rows, float total);
};

// The table for a set of cpu:: flags (common/cpu.hpp). kernels_for(0) is the portable build (the
// reference); kernels_for(cpu::flags()) the one to run.
Kernels kernels_for(unsigned cpu_flags);

}  // namespace vqtwin::float_motion
