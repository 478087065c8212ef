#include "features/integer_ssim/moments.hpp"

#include "common/cpu.hpp"
#include "common/vector.hpp"
#include "features/integer_ssim/math.hpp"

namespace vqtwin::integer_ssim {
namespace {

// Integer arithmetic: exact in any order, so these loops are free to vectorise.
template <class Sample, class Acc>
VQTWIN_ALWAYS_INLINE void horizontal(Scratch<Acc>& sc, const Sample* s, const Sample* d, int slot) {
  const int w = sc.width;
  Acc* __restrict q[5];
  for (int m = 0; m < 5; ++m) q[m] = sc.in.data() + m * sc.padded + kRadius;
  VQTWIN_IVDEP
  for (int x = 0; x < w; ++x) {
    const Acc a = s[x], b = d[x];
    q[0][x] = a;
    q[1][x] = b;
    q[2][x] = a * a;
    q[3][x] = a * b;
    q[4][x] = b * b;
  }
  for (int m = 0; m < 5; ++m) {
    const Acc* __restrict in = q[m] - kRadius;
    Acc* __restrict out = sc.ring_row(slot, m);
    VQTWIN_IVDEP
    for (int x = 0; x < w; ++x) {
      Acc sum = 0;
#pragma GCC unroll 9
      for (int k = 0; k < kTaps; ++k) sum += Acc(kKernel[k]) * in[x + k];
      out[x] = sum;
    }
  }
}

template <class Sample, class Acc>
VQTWIN_ALWAYS_INLINE double term_sum(Scratch<Acc>& sc, const Picture& ref, const Picture& dist) {
  const int w = sc.width, h = ref.height(0);
  const int bpc = ref.format().bitdepth;
  const double peak = double((1u << bpc) - 1u);
  const double peak_sq = peak * peak;

  for (int r = 0; r < kRadius && r < h; ++r)
    horizontal<Sample, Acc>(sc, ref.row<Sample>(0, r), dist.row<Sample>(0, r), r % kTaps);

  double sum = 0.0;
  for (int y = 0; y < h; ++y) {
    const int next = y + kRadius;
    if (next < h) horizontal<Sample, Acc>(sc, ref.row<Sample>(0, next), dist.row<Sample>(0, next), next % kTaps);
    // Vertical taps over the rows that exist.
    const int k_begin = y < kRadius ? kRadius - y : 0;
    const int k_end = (y + kRadius < h) ? kTaps : kTaps - (y + kRadius - h + 1);
    std::int64_t w_row = 0;
    for (int k = k_begin; k < k_end; ++k) w_row += kKernel[k];
    for (int m = 0; m < 5; ++m) {
      Acc* __restrict out = sc.col.data() + std::size_t(m) * w;
      if (k_begin == 0 && k_end == kTaps) {
        const Acc* rows[kTaps];
        for (int k = 0; k < kTaps; ++k) rows[k] = sc.ring_row((y - kRadius + k) % kTaps, m);
        VQTWIN_IVDEP
        for (int x = 0; x < w; ++x) {
          Acc acc = 0;
#pragma GCC unroll 9
          for (int k = 0; k < kTaps; ++k) acc += Acc(kKernel[k]) * rows[k][x];
          out[x] = acc;
        }
        continue;
      }
      for (int x = 0; x < w; ++x) out[x] = 0;
      for (int k = k_begin; k < k_end; ++k) {
        const Acc vk = Acc(kKernel[k]);
        const Acc* __restrict src = sc.ring_row((y - kRadius + k) % kTaps, m);
        VQTWIN_IVDEP
        for (int x = 0; x < w; ++x) out[x] += vk * src[x];
      }
    }
    const Acc* mux = sc.col.data();
    const Acc* muy = mux + w;
    const Acc* x2 = muy + w;
    const Acc* xy = x2 + w;
    const Acc* y2 = xy + w;
    VQTWIN_IVDEP
    for (int x = 0; x < w; ++x) {
      const Moments mo{std::int64_t(mux[x]), std::int64_t(muy[x]), std::int64_t(x2[x]),
                       std::int64_t(xy[x]),  std::int64_t(y2[x]),  sc.w_col[x] * w_row};
      sc.term[x] = window_term(mo, peak_sq);
    }
    // Raster order, one double sum: the result is not rounded afterwards, so order is visible.
    // (The weights' sum is exact in any order: math.hpp, weight_total.)
    for (int x = 0; x < w; ++x) sum += sc.term[x];
  }
  return sum;
}

// The builds of the frame's term sum (common/isa.hpp): the same body, vectorised for each set.
VQTWIN_ALWAYS_INLINE double score_any(Workspace& ws, const Picture& ref, const Picture& dist) {
  if (ref.format().bitdepth <= 8) {
    ws.narrow.size_for(ref.width(0));
    return term_sum<std::uint8_t, std::uint32_t>(ws.narrow, ref, dist);
  }
  ws.wide.size_for(ref.width(0));
  return term_sum<std::uint16_t, std::uint64_t>(ws.wide, ref, dist);
}

double score_portable(Workspace& ws, const Picture& ref, const Picture& dist) { return score_any(ws, ref, dist); }
#if VQTWIN_X86_VARIANTS
VQTWIN_TARGET_V3 double score_v3(Workspace& ws, const Picture& ref, const Picture& dist) {
  return score_any(ws, ref, dist);
}
VQTWIN_TARGET_V4 double score_v4(Workspace& ws, const Picture& ref, const Picture& dist) {
  return score_any(ws, ref, dist);
}
#endif

}  // namespace

ScoreKernels score_kernels_for(unsigned cpu_flags) {
  ScoreKernels k{"portable", score_portable};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", score_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", score_v4};
#endif
  return k;
}

double frame_term_sum(const Picture& ref, const Picture& dist) {
  thread_local Workspace ws;
  return score_kernels_for(cpu::flags()).term_sum(ws, ref, dist);
}

}  // namespace vqtwin::integer_ssim
