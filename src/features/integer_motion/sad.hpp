#pragma once
// integer motion's frame-pair SAD (spec/integer_motion.md §3): the 5-tap integer blur of the
// difference of two luma planes, summed in absolute value. Exact integer arithmetic.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vqtwin::integer_motion {

// Computes SADs of w x h planes (both planes' row stride in samples); owns its row scratch, so one
// user at a time. T is uint8_t (8-bit) or uint16_t (bpc 10, 12 or 16).
class DiffBlurSad {
 public:
  DiffBlurSad(int w, int h, int bpc);
  std::uint64_t operator()(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                           std::ptrdiff_t cur_stride);
  std::uint64_t operator()(const std::uint16_t* prev, std::ptrdiff_t prev_stride, const std::uint16_t* cur,
                           std::ptrdiff_t cur_stride);

 private:
  int w_, h_, bpc_;
  std::vector<std::int32_t> row_;  // one vertically filtered row, with two mirrored samples each side
};

}  // namespace vqtwin::integer_motion
