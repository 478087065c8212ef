// psnr_hvs's block loop (see kernels.hpp and cells.hpp).
#include "features/psnr_hvs/kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "common/cpu.hpp"
#include "common/vector.hpp"

// The vector block code is inlined within this file (see cells.hpp): GCC's wide-vector ABI note does not apply.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace vqtwin::psnr_hvs {
namespace {

// kLanes blocks of block row y (blocks bx0, bx0 + 1, ...; lanes past `n` are zero blocks), their terms
// added to `total` in block order.
template <class T>
VQTWIN_ALWAYS_INLINE float block_group(const Picture& ref, const Picture& dist, int plane, int y, int bx0, int n,
                                       const Tables& t, float total) {
  alignas(64) std::int32_t s[64][kLanes] = {};
  alignas(64) std::int32_t d[64][kLanes] = {};
  for (int i = 0; i < 8; ++i) {
    const T* rr = ref.row<T>(plane, y + i);
    const T* dr = dist.row<T>(plane, y + i);
    for (int l = 0; l < n; ++l) {
      const int x = 7 * (bx0 + l);
      for (int j = 0; j < 8; ++j) {
        s[i * 8 + j][l] = rr[x + j];
        d[i * 8 + j][l] = dr[x + j];
      }
    }
  }
  VInt vs[64], vd[64];
  std::memcpy(vs, s, sizeof s);
  std::memcpy(vd, d, sizeof d);
  VFloat terms[64];
  block_terms<VInt, VFloat>(vs, vd, t, terms);
  alignas(64) float out[64][kLanes];
  std::memcpy(out, terms, sizeof out);
  for (int l = 0; l < n; ++l)
    for (int k = 0; k < 64; ++k) total += out[k][l];
  return total;
}

template <class T>
VQTWIN_ALWAYS_INLINE PlaneSum plane_sum(const Picture& ref, const Picture& dist, int plane, int w, int h,
                                        const Tables& t) {
  const int nbx = block_count(w), nby = block_count(h);
  float total = 0;
  for (int by = 0; by < nby; ++by)
    for (int bx0 = 0; bx0 < nbx; bx0 += kLanes)
      total = block_group<T>(ref, dist, plane, 7 * by, bx0, std::min(kLanes, nbx - bx0), t, total);
  return {total, 64 * nbx * nby};
}

// The builds (common/isa.hpp).
#define VQTWIN_HVS_BUILD(SUFFIX, ATTR)                                                                          \
  ATTR PlaneSum plane_sum8_##SUFFIX(const Picture& r, const Picture& d, int p, int w, int h, const Tables& t) {  \
    return plane_sum<std::uint8_t>(r, d, p, w, h, t);                                                          \
  }                                                                                                            \
  ATTR PlaneSum plane_sum16_##SUFFIX(const Picture& r, const Picture& d, int p, int w, int h, const Tables& t) { \
    return plane_sum<std::uint16_t>(r, d, p, w, h, t);                                                         \
  }
VQTWIN_HVS_BUILD(portable, )
#if VQTWIN_X86_VARIANTS
VQTWIN_HVS_BUILD(v3, VQTWIN_TARGET_V3)
VQTWIN_HVS_BUILD(v4, VQTWIN_TARGET_V4)
#endif
#undef VQTWIN_HVS_BUILD

}  // namespace

BlockKernels block_kernels_for(unsigned cpu_flags) {
  BlockKernels k{"portable", plane_sum8_portable, plane_sum16_portable};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", plane_sum8_v3, plane_sum16_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", plane_sum8_v4, plane_sum16_v4};
#endif
  return k;
}

}  // namespace vqtwin::psnr_hvs
