#include "features/float_ansnr/kernels.hpp"

#include "common/cpu.hpp"
#include "common/vector.hpp"
#include "features/float_ansnr/math.hpp"

namespace vqtwin::float_ansnr {
namespace {

template <int N>
VQTWIN_ALWAYS_INLINE void filter_body(const float* const* rows, const float* f, float* __restrict dst, int w) {
  for (int x = 0; x < w; ++x) dst[x] = 0.0f;
  for (int r = 0; r < N; ++r) {
    const float* s = rows[r] - N / 2;
    const float* c = f + r * N;
    VQTWIN_IVDEP
    for (int x = 0; x < w; ++x) {
      float inner = 0.0f;
      for (int t = 0; t < N; ++t) inner += c[t] * s[x + t];
      dst[x] += inner;
    }
  }
}

VQTWIN_ALWAYS_INLINE void row_sums_body(const float* const* ref, const float* const* dis, int n, int w, float* sig,
                                        float* noise) {
  float s[kBand] = {}, e[kBand] = {};
  if (n == kBand) {
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < kBand; ++k) {
        const float r = ref[k][x], d = dis[k][x];
        s[k] += r * r;
        e[k] += (r - d) * (r - d);
      }
  } else {
    for (int k = 0; k < n; ++k)
      for (int x = 0; x < w; ++x) {
        const float r = ref[k][x], d = dis[k][x];
        s[k] += r * r;
        e[k] += (r - d) * (r - d);
      }
  }
  for (int k = 0; k < n; ++k) {
    sig[k] = s[k];
    noise[k] = e[k];
  }
}

// The builds (common/isa.hpp).
#define VQTWIN_ANSNR_BUILD(SUFFIX, ATTR)                                                                       \
  ATTR void filter_ref_##SUFFIX(const float* const* rows, float* dst, int w) {                                \
    filter_body<kRefWidth>(rows, kRefFilter, dst, w);                                                         \
  }                                                                                                           \
  ATTR void filter_dis_##SUFFIX(const float* const* rows, float* dst, int w) {                                \
    filter_body<kDisWidth>(rows, kDisFilter, dst, w);                                                         \
  }                                                                                                           \
  ATTR void row_sums_##SUFFIX(const float* const* ref, const float* const* dis, int n, int w, float* sig,     \
                              float* noise) {                                                                 \
    row_sums_body(ref, dis, n, w, sig, noise);                                                                \
  }
VQTWIN_ANSNR_BUILD(portable, )
#if VQTWIN_X86_VARIANTS
VQTWIN_ANSNR_BUILD(v3, VQTWIN_TARGET_V3)
VQTWIN_ANSNR_BUILD(v4, VQTWIN_TARGET_V4)
#endif
#undef VQTWIN_ANSNR_BUILD

}  // namespace

FilterKernels filter_kernels_for(unsigned cpu_flags) {
  FilterKernels k{"portable", filter_ref_portable, filter_dis_portable, row_sums_portable};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", filter_ref_v3, filter_dis_v3, row_sums_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", filter_ref_v4, filter_dis_v4, row_sums_v4};
#endif
  return k;
}

}  // namespace vqtwin::float_ansnr
