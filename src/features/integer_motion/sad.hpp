#pragma once
// integer motion's frame-pair SAD (spec: integer_motion.md §3): the 5-tap integer blur of the
// difference of two luma planes, summed in absolute value. Exact integer arithmetic, so the portable
// build (the reference) and the AVX2 / AVX-512 kernels (sad_avx2.cpp, sad_avx512.cpp) agree by
// construction, and tests/cpu_check checks it bit for bit.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/cpu.hpp"

namespace vqtwin::integer_motion {

// Row scratch of one SAD at a time, sized for width w by its constructor.
struct SadScratch {
  explicit SadScratch(int w);
  // The portable pass: one vertically filtered row with two mirrored samples each side, and that row
  // split into high and low bytes (2 * (w + 4) floats).
  std::vector<std::int32_t> row;
  std::vector<float> hl;
  // The vector kernels: a ring of 8 rows of prev - cur (int16, `ring_stride` apart, zero past w), and
  // one vertically filtered row V as its low 16 bits `v16` and its high part `k16` = (V - v16) / 65536,
  // both with kPad samples before column 0 and room for a whole vector past the end.
  static constexpr int kPad = 8;
  int ring_stride;
  std::vector<std::int16_t> ring, v16, k16;
};

struct SadKernels {
  const char* name;
  // `keep` (may be null): where cur's samples are copied, packed (row stride w), while they are read.
  std::uint64_t (*sad8)(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                        std::ptrdiff_t cur_stride, std::uint8_t* keep, int w, int h, SadScratch& s);
  // prev_out_of_range: a sample of prev is (or may be) 2^bpc or more; cur's samples are checked here,
  // and *cur_out_of_range (when given) says whether one is. Either selects the 64-bit sums below 16 bits.
  std::uint64_t (*sad16)(const std::uint16_t* prev, std::ptrdiff_t prev_stride, const std::uint16_t* cur,
                         std::ptrdiff_t cur_stride, std::uint16_t* keep, int w, int h, int bpc, bool prev_out_of_range,
                         bool* cur_out_of_range, SadScratch& s);
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
  // `keep` (may be null): receives a packed copy (row stride w) of cur, made while cur is read.
  std::uint64_t operator()(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                           std::ptrdiff_t cur_stride, std::uint8_t* keep = nullptr);
  // prev_out_of_range: a sample of prev is (or may be) 2^bpc or more; *cur_out_of_range (when given)
  // receives whether one of cur's is (found while cur is read).
  std::uint64_t operator()(const std::uint16_t* prev, std::ptrdiff_t prev_stride, const std::uint16_t* cur,
                           std::ptrdiff_t cur_stride, bool prev_out_of_range = false, std::uint16_t* keep = nullptr,
                           bool* cur_out_of_range = nullptr);

 private:
  SadKernels k_;
  int w_, h_, bpc_;
  SadScratch s_;
};

}  // namespace vqtwin::integer_motion
