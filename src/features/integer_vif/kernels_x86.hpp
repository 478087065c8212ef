#pragma once
// What integer VIF's two x86 kernel sets share (kernels_avx2.cpp, kernels_avx512.cpp): the row
// buffer layout, the paired taps, the row drivers, and the AVX2 passes the AVX-512 set hands the
// columns its 32-wide blocks leave (these start at a column j0). Internal to the two files and
// kernels.cpp.
#include <cstdint>
#include <cstring>

#include "features/integer_vif/kernels.hpp"

namespace vqtwin::integer_vif::x86 {

inline constexpr int kMaxHalf = (kMaxTaps - 1) / 2;
inline constexpr int kSlack = 32;  // int16 elements readable past the mirrored end of a plane row

// The taps of a kernel as pairs for vpmaddwd: pair i covers taps offset[i] and offset[i] + 1.
struct PairTaps {
  int n = 0;
  int offset[9] = {};
  std::int32_t coef[9] = {};  // (c1 << 16) | c0, both <= 32767
};

constexpr PairTaps pair_taps(Kernel k) {
  PairTaps p;
  auto add = [&](int off, std::uint32_t c0, std::uint32_t c1) {
    p.offset[p.n] = off;
    p.coef[p.n] = std::int32_t((c1 << 16) | c0);
    ++p.n;
  };
  if (k.taps[k.half] > 32767) {
    // Only the 3-tap kernel: (f0, f1/2) at taps 0,1 and (f1/2, f2) at taps 1,2.
    const std::uint32_t c = k.taps[1] / 2u;
    add(0, k.taps[0], c);
    add(1, k.taps[1] - c, k.taps[2]);
  } else {
    for (int t = 0; t < k.size; t += 2) add(t, k.taps[t], t + 1 < k.size ? k.taps[t + 1] : 0u);
  }
  return p;
}

// Calls fn.template operator()<scale>() with the scale of kernel k as a compile-time constant, so
// the tap loops unroll and the coefficients become constants.
template <class Fn>
void with_scale(Kernel k, Fn&& fn) {
  switch (k.size) {
    case 17: fn.template operator()<0>(); break;
    case 9: fn.template operator()<1>(); break;
    case 5: fn.template operator()<2>(); break;
    default: fn.template operator()<3>(); break;
  }
}

// Kernels whose taps all fit an int16 (17, 9, 5): each load at an even offset o serves both the even
// outputs (taps o, o+1) and the odd outputs (taps o-1, o), halving the loads.
struct SharedTaps {
  int n = 0;
  int offset[9] = {};
  std::int32_t even[9] = {}, odd[9] = {};
};

constexpr SharedTaps shared_taps(Kernel k) {
  SharedTaps st;
  auto tap = [&](int t) -> std::uint32_t { return t >= 0 && t < k.size ? k.taps[t] : 0u; };
  for (int o = 0; o < k.size; o += 2) {
    st.offset[st.n] = o;
    st.even[st.n] = std::int32_t((tap(o + 1) << 16) | tap(o));
    st.odd[st.n] = std::int32_t((tap(o) << 16) | tap(o - 1));
    ++st.n;
  }
  return st;
}

// The 8 planes of one row, offset int16, column 0 at index 0, mirrored `half` both sides.
enum Plane { kAx, kAy, kBxxLo, kBxxHi, kByyLo, kByyHi, kBxyLo, kBxyHi, kNumPlanes };

struct PlaneRows {
  std::int16_t* p[kNumPlanes];
};

inline void mirror16(std::int16_t* p, int w, int half) {
  for (int c = 1; c <= half; ++c) {
    p[-c] = p[c];
    p[w - 1 + c] = p[w - 1 - c];
  }
}

// ---- the AVX2 passes, from column j0 to w (kernels_avx2.cpp) ----------------------------------

// Vertical pass of scale 0 over 8-bit rows (the 17-tap kernel), into the 8 offset int16 planes.
void vertical_u8(const std::uint8_t* const* rx, const std::uint8_t* const* ry, int j0, int w, MomentShifts sh,
                 const PlaneRows& pr);
void vertical_u16(const std::uint16_t* const* rx, const std::uint16_t* const* ry, Kernel k, int j0, int w,
                  MomentShifts sh, const PlaneRows& pr);
// Horizontal pass: the sigmas of columns j0..w-1 (permuted within 16-column blocks).
void horizontal(const PlaneRows& pr, Kernel k, int j0, int w, std::int32_t* s1, std::int32_t* s2,
                std::int32_t* s12);
// KernelSet::statistic.
void statistic(const std::int32_t* sigma1, const std::int32_t* sigma2, const std::int32_t* sigma12, int n,
               double gain_limit, const std::uint16_t* table, Accum& acc);
// Downsampling: the vertical mean of columns j0..w-1 (offset int16), and the even outputs j0..out_w-1
// of the horizontal mean.
void vertical_mean(const std::uint8_t* const* rows, Kernel k, int j0, int w, Shift sh, std::int16_t* out);
void vertical_mean(const std::uint16_t* const* rows, Kernel k, int j0, int w, Shift sh, std::int16_t* out);
void horizontal_mean_even(Kernel k, const std::int16_t* v, int j0, int out_w, std::uint16_t* out);

// ---- the row drivers --------------------------------------------------------------------------
// Passes provides, for whole rows: vertical(rx, ry, k, w, sh, pr) for uint8_t and uint16_t rows,
// horizontal(pr, k, w, s1, s2, s12), statistic (as KernelSet's), vertical_mean(rows, k, w, sh, out)
// and horizontal_mean_even(k, v, out_w, out).

template <class Passes, class T>
Accum scale_sums(const T* x, std::ptrdiff_t stride_x, const T* y, std::ptrdiff_t stride_y, const ScaleArgs& a,
                 Scratch& s) {
  const Kernel f = kernel_of(a.scale);
  const MomentShifts sh = moment_shifts(a.bpc, a.scale);
  const std::size_t row = std::size_t(a.w) + 2 * kMaxHalf + kSlack;
  auto* mem = static_cast<std::int16_t*>(s.get(0, kNumPlanes * row * sizeof(std::int16_t)));
  std::memset(mem, 0, kNumPlanes * row * sizeof(std::int16_t));  // the slack is read with coefficient 0
  PlaneRows pr;
  for (int i = 0; i < kNumPlanes; ++i) pr.p[i] = mem + std::size_t(i) * row + kMaxHalf;
  auto* sig = static_cast<std::int32_t*>(s.get(1, 3 * std::size_t(a.w) * sizeof(std::int32_t)));
  std::int32_t* s1 = sig;
  std::int32_t* s2 = sig + a.w;
  std::int32_t* s12 = sig + 2 * a.w;
  const T* rx[kMaxTaps];
  const T* ry[kMaxTaps];
  Accum acc;
  for (int i = 0; i < a.h; ++i) {
    for (int t = 0; t < f.size; ++t) {
      const std::ptrdiff_t r = mirror(i - f.half + t, a.h);
      rx[t] = x + r * stride_x;
      ry[t] = y + r * stride_y;
    }
    Passes::vertical(rx, ry, f, a.w, sh, pr);
    for (std::int16_t* p : pr.p) mirror16(p, a.w, f.half);
    Passes::horizontal(pr, f, a.w, s1, s2, s12);
    Passes::statistic(s1, s2, s12, a.w, a.gain_limit, a.log_table, acc);
  }
  return acc;
}

template <class Passes, class T>
void downsample(const T* x, std::ptrdiff_t stride, int w, int h, int bpc, int from_scale, std::uint16_t* out,
                Scratch& s) {
  const Kernel f = kernel_of(from_scale + 1);
  const Shift sh = downsample_shift(bpc, from_scale);
  const int out_w = w / 2, out_h = h / 2;
  const std::size_t row = std::size_t(w) + 2 * kMaxHalf + kSlack;
  auto* mem = static_cast<std::int16_t*>(s.get(2, row * sizeof(std::int16_t)));
  std::memset(mem, 0, row * sizeof(std::int16_t));
  std::int16_t* v = mem + kMaxHalf;
  const T* rows[kMaxTaps];
  for (int i = 0; i < out_h; ++i) {
    for (int t = 0; t < f.size; ++t) rows[t] = x + std::ptrdiff_t(mirror(2 * i - f.half + t, h)) * stride;
    Passes::vertical_mean(rows, f, w, sh, v);
    mirror16(v, w, f.half);
    Passes::horizontal_mean_even(f, v, out_w, out + std::ptrdiff_t(i) * out_w);
  }
}

// The sets' entries (dav1d's init style: each overrides what it speeds up; kernels.cpp decides).
void init_avx2(KernelSet& k);
void init_avx512(KernelSet& k);

}  // namespace vqtwin::integer_vif::x86
