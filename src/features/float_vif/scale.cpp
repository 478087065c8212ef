// float_vif's per-scale filters, statistic and sums (spec: float_vif.md §4-§7).
#include "features/float_vif/scale.hpp"

// Let GCC evaluate both sides of a float select (if-conversion) in the lane loops: FP exception
// flags are never read here, and this flag changes no value (unlike -ffast-math's other parts).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "common/cpu.hpp"
#include "common/isa.hpp"

namespace vqtwin::float_vif {
namespace {

// The widest kernel (ks = 360/97 at scale 0: 65 taps).
constexpr int kMaxTaps = 65;

// libvmaf's reflect-101, applied once: -q for q < 0, 2n - q - 2 for q >= n.
inline int reflect101(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 2 : q); }

// `row` holds w samples at row[0..w); fill r mirrored samples on each side (row[-r..-1], row[w..w+r)).
void pad_reflect101(float* row, int w, int r) {
  for (int m = 1; m <= r; ++m) {
    row[-m] = row[m];
    row[w - 1 + m] = row[w - 1 - m];
  }
}

#if defined(__GNUC__)
// GCC/Clang vector extension: 8 float lanes, each operation one IEEE rounding per lane (SSE2 pairs or
// one AVX2 register, whichever set the row loops are built for).
// Loads and stores are memcpy (unaligned, no aliasing issue), written inline: a function taking or
// returning this type would have a different ABI in the SSE2 and AVX2 builds.
typedef float Lanes8 __attribute__((vector_size(32)));
#define VQTWIN_LOAD8(dst, src) std::memcpy(&(dst), (src), sizeof(Lanes8))
#define VQTWIN_STORE8(dst, src) std::memcpy((dst), &(src), sizeof(Lanes8))
#endif

}  // namespace

namespace portable {
#define VQTWIN_ISA_FN
constexpr const char* kIsaName = "portable";
#include "features/float_vif/scale_rows.inc"
#undef VQTWIN_ISA_FN
}  // namespace portable

#if VQTWIN_X86_VARIANTS
namespace avx2 {
#define VQTWIN_ISA_FN VQTWIN_TARGET_AVX2
constexpr const char* kIsaName = "avx2";
#include "features/float_vif/scale_rows.inc"
#undef VQTWIN_ISA_FN
}  // namespace avx2
#endif

ScaleKernels scale_kernels_for(unsigned cpu_flags) {
#if VQTWIN_X86_VARIANTS
  if (cpu::allows(cpu_flags, cpu::kAvx2)) return avx2::kKernels;
#endif
  return portable::kKernels;
}

ScaleSums scale_sums(const ScaleKernels& k, const FloatPlane& ref, const FloatPlane& dis,
                     std::span<const float> kernel, const StatParams& params, ScaleScratch& scratch) {
  const int w = ref.w;
  const int h = ref.h;
  const int r = int(kernel.size()) / 2;
  // Valid kernel scales give at most 65 taps (360/97 at scale 0).
  if (kernel.size() > std::size_t(kMaxTaps)) throw std::logic_error("float_vif: kernel wider than 65 taps");
  const std::size_t padded = std::size_t(w + 2 * r);
  scratch.rows.resize(5 * padded + 7 * std::size_t(w));
  float* vert[5];
  float* filt[5];
  for (int m = 0; m < 5; ++m) {
    vert[m] = scratch.rows.data() + std::size_t(m) * padded + std::size_t(r);
    filt[m] = scratch.rows.data() + 5 * padded + std::size_t(m) * std::size_t(w);
  }
  float* num_row = scratch.rows.data() + 5 * padded + 5 * std::size_t(w);
  float* den_row = num_row + w;

  float acc_num = 0.0f;
  float acc_den = 0.0f;
  for (int i = 0; i < h; ++i) {
    k.vertical_moments(ref, dis, i, kernel, vert[0], vert[1], vert[2], vert[3], vert[4]);
    for (int m = 0; m < 5; ++m) {
      pad_reflect101(vert[m], w, r);
      k.horizontal(vert[m], kernel, filt[m], w, 1);
    }
    k.statistic_row(filt[0], filt[1], filt[2], filt[3], filt[4], params, num_row, den_row, w);
    // The order-dependent part: the row's values in column order, then the rows in order.
    float row_num = 0.0f;
    float row_den = 0.0f;
    for (int j = 0; j < w; ++j) {
      row_num += num_row[j];
      row_den += den_row[j];
    }
    acc_num += row_num;
    acc_den += row_den;
  }
  return {acc_num, acc_den};
}

void blur_decimate(const ScaleKernels& k, const FloatPlane& src, std::span<const float> kernel, FloatPlane& dst,
                   ScaleScratch& scratch) {
  const int r = int(kernel.size()) / 2;
  dst.resize(src.w / 2, src.h / 2);
  scratch.rows.resize(std::size_t(src.w + 2 * r));
  float* vert = scratch.rows.data() + r;
  for (int i = 0; i < dst.h; ++i) {
    k.vertical_plain(src, 2 * i, kernel, vert);
    pad_reflect101(vert, src.w, r);
    k.horizontal(vert, kernel, dst.row(i), dst.w, 2);
  }
}

}  // namespace vqtwin::float_vif
