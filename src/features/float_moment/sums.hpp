#pragma once
// float_moment's exact integer sums of one luma plane (math.hpp says when they give libvmaf's double
// sums), as a kernel table (common/cpu.hpp): one body built for the baseline, x86-64-v3 and
// x86-64-v4. Integer sums: every build gives the same numbers (tests/cpu_check/late_features.cpp).
#include <cstddef>
#include <cstdint>

namespace vqtwin::float_moment {

struct IntegerSums {
  std::uint64_t first = 0;   // sum of v
  std::uint64_t second = 0;  // sum of v^2
  std::uint32_t any = 0;     // the OR of every sample (says whether one lies above the bit depth)
};

struct SumKernels {
  const char* name;
  // Over w x h samples, rows `stride` samples apart.
  IntegerSums (*sums8)(const std::uint8_t* p, std::ptrdiff_t stride, int w, int h);
  IntegerSums (*sums16)(const std::uint16_t* p, std::ptrdiff_t stride, int w, int h);
};

// sum_kernels_for(0) is the portable build (the reference), sum_kernels_for(cpu::flags()) the one
// to run.
SumKernels sum_kernels_for(unsigned cpu_flags);

}  // namespace vqtwin::float_moment
