#pragma once
// integer motion's frame-pair SAD (spec: integer_motion.md §3): the 5-tap integer blur of the
// difference of two luma planes, summed in absolute value. Exact integer arithmetic, so the
// portable, AVX2 and x86-64-v4 builds of the loop agree by construction (and tests/cpu_check checks it).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/cpu.hpp"

namespace vqtwin::integer_motion {

struct SadKernels {
  const char* name;
  // `row` holds w + 4 int32 (a vertically filtered row with its mirrored samples), `hl` 2 * (w + 4) floats
  // (its high and low bytes, for the horizontal pass).
  std::uint64_t (*sad8)(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                        std::ptrdiff_t cur_stride, int w, int h, int bpc, std::int32_t* row, float* hl);
  // out_of_range: a sample of either plane is 2^bpc or more (then 64-bit sums below 16 bits too).
  std::uint64_t (*sad16)(const std::uint16_t* prev, std::ptrdiff_t prev_stride, const std::uint16_t* cur,
                         std::ptrdiff_t cur_stride, int w, int h, int bpc, bool out_of_range, std::int32_t* row,
                         float* hl);
};
// The table for a set of cpu:: flags (common/cpu.hpp). sad_kernels_for(0) is the portable build (the
// reference); sad_kernels_for(cpu::flags()) the one to run.
SadKernels sad_kernels_for(unsigned cpu_flags);

// Computes SADs of w x h planes (row strides in samples); owns its row scratch, so one user at a
// time. 8-bit planes are uint8_t, deeper ones (9 to 16 bits) uint16_t.
class DiffBlurSad {
 public:
  // `kernels` defaults to the table cpu::flags() allows when the object is made.
  DiffBlurSad(int w, int h, int bpc, const SadKernels& kernels = sad_kernels_for(cpu::flags()));
  std::uint64_t operator()(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                           std::ptrdiff_t cur_stride);
  std::uint64_t operator()(const std::uint16_t* prev, std::ptrdiff_t prev_stride, const std::uint16_t* cur,
                           std::ptrdiff_t cur_stride, bool out_of_range = false);

 private:
  SadKernels k_;
  int w_, h_, bpc_;
  std::vector<std::int32_t> row_;  // one vertically filtered row, with two mirrored samples each side
  std::vector<float> hl_;          // that row split into high and low bytes
};

}  // namespace vqtwin::integer_motion
