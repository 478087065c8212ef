#pragma once
// The compute kernels of integer VIF as one table: the portable reference (kernels_scalar.cpp), which
// the AVX2 set (kernels_avx2.cpp) and the AVX-512 set (kernels_avx512.cpp) override where the CPU
// flags allow (kernels.cpp). All compute the same integers (every step is exact integer arithmetic
// except the per-pixel double block, whose IEEE operations are lane-wise identical), so the choice
// never changes a result; tests/cpu_check compares every set on the machine with the reference.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "features/integer_vif/math.hpp"

namespace vqtwin::integer_vif {

// Per-thread scratch memory a kernel set carves its row buffers from (kept between frames).
class Scratch {
 public:
  // `bytes` bytes, 64-byte aligned, in slot `slot` (0..kSlots-1); contents are not preserved
  // across calls with a larger size.
  void* get(int slot, std::size_t bytes);
  static constexpr int kSlots = 4;

 private:
  std::vector<unsigned char> mem_[kSlots];
};

struct ScaleArgs {
  int w = 0;
  int h = 0;
  int bpc = 8;
  int scale = 0;
  double gain_limit = 100.0;
  const std::uint16_t* log_table = nullptr;
};

struct KernelSet {
  const char* name;
  // The four sums of one scale over planes x (ref) and y (dist), w x h, strides in samples.
  // u8 planes occur at scale 0 of 8-bit input only.
  Accum (*scale_sums_u8)(const std::uint8_t* x, std::ptrdiff_t stride_x, const std::uint8_t* y,
                         std::ptrdiff_t stride_y, const ScaleArgs& a, Scratch& s);
  Accum (*scale_sums_u16)(const std::uint16_t* x, std::ptrdiff_t stride_x, const std::uint16_t* y,
                          std::ptrdiff_t stride_y, const ScaleArgs& a, Scratch& s);
  // Scale from_scale + 1 of one w x h plane: (w/2) x (h/2) samples written to `out` (stride w/2).
  void (*downsample_u8)(const std::uint8_t* x, std::ptrdiff_t stride, int w, int h, int bpc, int from_scale,
                        std::uint16_t* out, Scratch& s);
  void (*downsample_u16)(const std::uint16_t* x, std::ptrdiff_t stride, int w, int h, int bpc, int from_scale,
                         std::uint16_t* out, Scratch& s);
  // accumulate_pixel over n pixels (unclamped sigmas).
  void (*statistic)(const std::int32_t* sigma1, const std::int32_t* sigma2, const std::int32_t* sigma12, int n,
                    double gain_limit, const std::uint16_t* log_table, Accum& acc);
  // Optional (nullptr where a set has none): scale_sums_u8 (a.scale 0) that also writes what
  // downsample_u8 writes for x into down_x and for y into down_y, from the rows it reads anyway.
  Accum (*scale_sums_down_u8)(const std::uint8_t* x, std::ptrdiff_t stride_x, const std::uint8_t* y,
                              std::ptrdiff_t stride_y, const ScaleArgs& a, std::uint16_t* down_x,
                              std::uint16_t* down_y, Scratch& s) = nullptr;
};

// The table for a set of cpu:: flags (common/cpu.hpp): the reference, then each instruction set the
// flags allow. kernels_for(0) is the reference; kernels_for(cpu::flags()) the one to run.
KernelSet kernels_for(unsigned cpu_flags);
// The reference table (kernels_scalar.cpp); kernels_for starts from it.
const KernelSet& reference_kernels();

}  // namespace vqtwin::integer_vif
