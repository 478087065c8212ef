#pragma once
// The compute kernels of integer VIF, one set per instruction set: a portable set
// (kernels_scalar.cpp, the reference) and an AVX2 set (kernels_avx2.cpp). Both compute the same
// integers (every step is exact integer arithmetic except the per-pixel double block, whose IEEE
// operations are lane-wise identical), so the choice never changes a result; the unit tests compare
// them on random and extreme planes.
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
};

const KernelSet& scalar_kernels();
// nullptr when the CPU (or the compiler) has no AVX2.
const KernelSet* avx2_kernels();
// nullptr without AVX-512 F/BW/DQ/VL/VNNI: the AVX2 set with 32-column scale-0 vertical,
// horizontal and statistic passes.
const KernelSet* avx512_kernels();
// The fastest set this CPU runs.
const KernelSet& best_kernels();

}  // namespace vqtwin::integer_vif
