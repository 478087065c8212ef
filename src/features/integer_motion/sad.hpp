#pragma once
// integer motion's frame-pair SAD (spec/integer_motion.md §3): the 5-tap integer blur of the
// difference of two luma planes, summed in absolute value. Exact integer arithmetic, so the
// portable and the AVX2 builds of the loop agree by construction (and the tests check it).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vqtwin::integer_motion {

struct SadKernels {
  const char* name;
  std::uint64_t (*sad8)(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                        std::ptrdiff_t cur_stride, int w, int h, int bpc, std::int32_t* row);
  // out_of_range: a sample of either plane is 2^bpc or more (then 64-bit sums below 16 bits too).
  std::uint64_t (*sad16)(const std::uint16_t* prev, std::ptrdiff_t prev_stride, const std::uint16_t* cur,
                         std::ptrdiff_t cur_stride, int w, int h, int bpc, bool out_of_range, std::int32_t* row);
};
const SadKernels& best_sad_kernels();
const SadKernels& portable_sad_kernels();

// Computes SADs of w x h planes (row strides in samples); owns its row scratch, so one user at a
// time. 8-bit planes are uint8_t, deeper ones (9 to 16 bits) uint16_t.
class DiffBlurSad {
 public:
  DiffBlurSad(int w, int h, int bpc, const SadKernels& kernels = best_sad_kernels());
  std::uint64_t operator()(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                           std::ptrdiff_t cur_stride);
  std::uint64_t operator()(const std::uint16_t* prev, std::ptrdiff_t prev_stride, const std::uint16_t* cur,
                           std::ptrdiff_t cur_stride, bool out_of_range = false);

 private:
  const SadKernels* k_;
  int w_, h_, bpc_;
  std::vector<std::int32_t> row_;  // one vertically filtered row, with two mirrored samples each side
};

}  // namespace vqtwin::integer_motion
