#include "features/float_ms_ssim/pyramid.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "common/cpu.hpp"
#include "common/vector.hpp"
#include "features/float_ms_ssim/math.hpp"
#include "features/float_ssim/math.hpp"

namespace vqtwin::float_ms_ssim {
namespace {

// Even/odd split of mirrored source row r (r already in range), cached in its slot.
VQTWIN_ALWAYS_INLINE const float* split_row(Scratch& sc, const float* src, int r) {
  const int slot = r % kCacheSlots;
  float* even = sc.rows.data() + std::size_t(slot) * 2 * sc.half_len;
  if (sc.tag[slot] != r) {
    sc.tag[slot] = r;
    float* odd = even + sc.half_len;
    const int width = sc.width;
    const float* s = src + std::size_t(r) * width;
    auto at = [&](int c) { return s[unsigned(c) < unsigned(width) ? c : float_ssim::mirror(c, width)]; };
    // Column 2j - 4 (even) and 2j - 3 (odd): direct inside the row, mirrored near its ends.
    const int n = int(sc.half_len);
    const int j_begin = 2, j_end = std::max(j_begin, std::min(n, (width + 3) / 2));
    for (int j = 0; j < j_begin; ++j) {
      even[j] = at(2 * j - kLpfRadius);
      odd[j] = at(2 * j + 1 - kLpfRadius);
    }
    const float* __restrict base = s - kLpfRadius;
    VQTWIN_IVDEP
    for (int j = j_begin; j < j_end; ++j) {
      even[j] = base[2 * j];
      odd[j] = base[2 * j + 1];
    }
    for (int j = j_end; j < n; ++j) {
      even[j] = at(2 * j - kLpfRadius);
      odd[j] = at(2 * j + 1 - kLpfRadius);
    }
  }
  return even;
}

// Plain scalar code in the reference order; GCC vectorises it across x (one lane per output).
VQTWIN_ALWAYS_INLINE void decimate(Scratch& sc, const float* src, int w, int h, float* dst) {
  const int ow = half_size(w), oh = half_size(h);
  // Source rows of the 9 taps: tap (v, t) of output x reads rows[v][t & 1][x + t/2].
  const float* rows[kLpfTaps][2];
  for (int y = 0; y < oh; ++y, dst += ow) {
    for (int v = 0; v < kLpfTaps; ++v) {
      rows[v][0] = split_row(sc, src, float_ssim::mirror(2 * y + v - kLpfRadius, h));
      rows[v][1] = rows[v][0] + sc.half_len;
    }
    // Row v of the window for every output, then row v + 1: each output still adds its 81 taps
    // in the reference order, and only 9 weights are live at a time.
    double* __restrict acc = sc.acc.data();
    for (int x = 0; x < ow; ++x) acc[x] = 0.0;
#pragma GCC unroll 1
    for (int v = 0; v < kLpfTaps; ++v) {
      const float* __restrict e = rows[v][0];
      const float* __restrict o = rows[v][1];
      const int dy = v - kLpfRadius;
      VQTWIN_IVDEP
      for (int x = 0; x < ow; ++x) {
        double a = acc[x];
        a += double(e[x] * lpf_weight(dy, -4));
        a += double(o[x] * lpf_weight(dy, -3));
        a += double(e[x + 1] * lpf_weight(dy, -2));
        a += double(o[x + 1] * lpf_weight(dy, -1));
        a += double(e[x + 2] * lpf_weight(dy, 0));
        a += double(o[x + 2] * lpf_weight(dy, 1));
        a += double(e[x + 3] * lpf_weight(dy, 2));
        a += double(o[x + 3] * lpf_weight(dy, 3));
        a += double(e[x + 4] * lpf_weight(dy, 4));
        acc[x] = a;
      }
    }
    VQTWIN_IVDEP
    for (int x = 0; x < ow; ++x) dst[x] = float(acc[x]);
  }
}

// The builds of decimate (common/isa.hpp): the same body, vectorised for each set.
void decimate_portable(Scratch& sc, const float* src, int w, int h, float* dst) {
  sc.size_for(w);
  decimate(sc, src, w, h, dst);
}
#if VQTWIN_X86_VARIANTS
VQTWIN_TARGET_V3 void decimate_v3(Scratch& sc, const float* src, int w, int h, float* dst) {
  sc.size_for(w);
  decimate(sc, src, w, h, dst);
}
VQTWIN_TARGET_V4 void decimate_v4(Scratch& sc, const float* src, int w, int h, float* dst) {
  sc.size_for(w);
  decimate(sc, src, w, h, dst);
}
#endif

}  // namespace

void Scratch::size_for(int w) {
  width = w;
  half_len = std::size_t(half_size(w)) + kLpfRadius;
  if (rows.size() < std::size_t(kCacheSlots) * 2 * half_len) rows.resize(std::size_t(kCacheSlots) * 2 * half_len);
  for (int& t : tag) t = -1;
  if (acc.size() < std::size_t(half_size(w))) acc.resize(std::size_t(half_size(w)));
}

PyramidKernels pyramid_kernels_for(unsigned cpu_flags) {
  PyramidKernels k{"portable", decimate_portable};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", decimate_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", decimate_v4};
#endif
  return k;
}

}  // namespace vqtwin::float_ms_ssim
