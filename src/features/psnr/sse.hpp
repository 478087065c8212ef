#pragma once
// Exact integer sum of squared differences of one plane (order-independent: integer sums).
//
// The table (common/cpu.hpp's pattern): one body built for the baseline, x86-64-v3 and x86-64-v4;
// every build gives the same integer (tests/cpu_check/psnr.cpp holds them to the portable one).
#include <cstddef>
#include <cstdint>

#include "vqtwin/picture.hpp"

namespace vqtwin::psnr {

struct SseKernels {
  const char* name;
  // Sum over the rows of (a[x] - b[x])^2, x < w; `stride`s in samples.
  std::uint64_t (*sse8)(const std::uint8_t* a, std::ptrdiff_t a_stride, const std::uint8_t* b,
                        std::ptrdiff_t b_stride, int w, int h);
  std::uint64_t (*sse16)(const std::uint16_t* a, std::ptrdiff_t a_stride, const std::uint16_t* b,
                         std::ptrdiff_t b_stride, int w, int h);
};

// The table for a set of cpu:: flags: sse_kernels_for(0) is the portable build (the reference),
// sse_kernels_for(cpu::flags()) the one to run.
SseKernels sse_kernels_for(unsigned cpu_flags);

// The scored region of plane `plane` (as libvmaf's pictures hold it) through `k`.
std::uint64_t plane_sse(const SseKernels& k, const Picture& ref, const Picture& dist, int plane);

}  // namespace vqtwin::psnr
