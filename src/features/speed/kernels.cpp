#include "features/speed/kernels.hpp"

#include "common/cpu.hpp"
#include "common/vector.hpp"

namespace vqtwin::speed {
namespace {

VQTWIN_ALWAYS_INLINE void columns_body(const float* const* rows, const float* f, int taps, float* __restrict out,
                                       int w) {
  for (int c = 0; c < w; ++c) out[c] = 0.0f;
  for (int k = 0; k < taps; ++k) {
    const float* __restrict r = rows[k];
    const float fk = f[k];
    VQTWIN_IVDEP
    for (int c = 0; c < w; ++c) out[c] += fk * r[c];
  }
}

VQTWIN_ALWAYS_INLINE void to_float8_body(const std::uint8_t* __restrict in, float* __restrict out, int w) {
  for (int x = 0; x < w; ++x) out[x] = float(in[x]) + -128.0f;
}

VQTWIN_ALWAYS_INLINE void to_float16_body(const std::uint16_t* __restrict in, float scaler, float* __restrict out,
                                          int w) {
  for (int x = 0; x < w; ++x) out[x] = float(in[x]) / scaler + -128.0f;
}

VQTWIN_ALWAYS_INLINE void subtract_body(float* __restrict a, const float* __restrict b, int w) {
  for (int x = 0; x < w; ++x) a[x] -= b[x];
}

// The builds (common/isa.hpp).
#define VQTWIN_SPEED_BUILD(SUFFIX, ATTR)                                                                  \
  ATTR void columns_##SUFFIX(const float* const* rows, const float* f, int taps, float* out, int w) {     \
    columns_body(rows, f, taps, out, w);                                                                 \
  }                                                                                                      \
  ATTR void to_float8_##SUFFIX(const std::uint8_t* in, float* out, int w) { to_float8_body(in, out, w); } \
  ATTR void to_float16_##SUFFIX(const std::uint16_t* in, float scaler, float* out, int w) {               \
    to_float16_body(in, scaler, out, w);                                                                 \
  }                                                                                                      \
  ATTR void subtract_##SUFFIX(float* a, const float* b, int w) { subtract_body(a, b, w); }
VQTWIN_SPEED_BUILD(portable, )
#if VQTWIN_X86_VARIANTS
VQTWIN_SPEED_BUILD(v3, VQTWIN_TARGET_V3)
VQTWIN_SPEED_BUILD(v4, VQTWIN_TARGET_V4)
#endif
#undef VQTWIN_SPEED_BUILD

}  // namespace

SpeedKernels speed_kernels_for(unsigned cpu_flags) {
  SpeedKernels k{"portable", columns_portable, to_float8_portable, to_float16_portable, subtract_portable};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", columns_v3, to_float8_v3, to_float16_v3, subtract_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", columns_v4, to_float8_v4, to_float16_v4, subtract_v4};
#endif
  return k;
}

}  // namespace vqtwin::speed
