#pragma once
// ciede's per-pixel math over batches of pixels (batch.cpp), bit-identical to math.hpp's to_lab() and
// ciede2000() element by element.
#include <cstdint>

#include "features/ciede/math.hpp"

namespace vqtwin::ciede {

inline constexpr int kBatch = 64;

// out[k] = ciede2000(c1[k], c2[k]) for k < n <= kBatch. (The portable builds; the unit tests hold them to
// math.hpp's scalar functions.)
void ciede2000_batch(const Lab* c1, const Lab* c2, int n, float* out);

// out[k] = to_lab(y[k], u[k], v[k], bpc) for k < n <= 2 * kBatch.
void to_lab_batch(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n, unsigned bpc,
                  Lab* out);

// Both as a kernel table (common/cpu.hpp): the same bodies built for the baseline, x86-64-v3 and
// x86-64-v4 (tests/cpu_check/late_features.cpp holds each build to the portable one, bit for bit).
struct BatchKernels {
  const char* name;
  void (*ciede2000)(const Lab* c1, const Lab* c2, int n, float* out);
  void (*to_lab)(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n, unsigned bpc,
                 Lab* out);
};

// batch_kernels_for(0) is the portable build (the reference), batch_kernels_for(cpu::flags()) the
// one to run.
BatchKernels batch_kernels_for(unsigned cpu_flags);

}  // namespace vqtwin::ciede
