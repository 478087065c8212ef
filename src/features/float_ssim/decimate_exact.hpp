#pragma once
// float_ssim's sample conversion and box decimation, one output per call, straight from the raw
// samples, for the CUDA twin (and tested on the host against decimate.cpp in CI).
//
// The CPU (decimate.cpp, spec §4) adds the float products p = f32(sample * w) into a double and
// rounds the sum to float once. Here the same products are added exactly as integers in units of
// 2^-45 and the integer is rounded to float once: the same value, because (the spec's lemma, widened
// to every 16-bit word a picture may hold) samples are multiples of 2^-8 and w = f32(1/s^2) >= 2^-14
// for s <= 128, so every non-zero p is at least 2^-22 and a multiple of 2^-45. In range (samples
// below 256) every partial sum stays below 256, so the CPU's double sum is exact. libvmaf also
// accepts 10- and 12-bit words of 2^bpc or more (core/sample_range.hpp): samples then reach 16383.75
// (10-bit, multiples of 2^-2, so every p is a multiple of 2^-39) or 4095.94 (12-bit, 2^-41), and
// the sums stay below 2^14 and 2^12: 53 bits again, the CPU's double sum is still exact. Below 2^14,
// p * 2^45 is an integer below 2^59, so an int64 holds every sum. Both sides round the same exact
// number to float with round-to-nearest-even; no floating-point addition is involved here, so no
// addition order can matter. (The spec's units of 2^-52 would overflow for out-of-range words.)
#include <cstdint>

#include "core/hd.hpp"
#include "features/float_ssim/math.hpp"

namespace vqtwin::float_ssim {

// The exact reciprocal of picture_copy's divisor: sample * it == sample / divisor bit for bit
// (a power of two).
VQTWIN_HD inline float sample_scale(int bitdepth) {
  return bitdepth == 10 ? 0.25f : bitdepth == 12 ? 0.0625f : bitdepth == 16 ? 0.00390625f : 1.0f;
}

// p * 2^45 for a float p that is 0 or at least 2^-22 (always an integer then): mantissa and exponent
// taken apart, no rounding anywhere.
VQTWIN_HD inline std::int64_t to_units45(float p) {
  std::uint32_t bits;
#if defined(__CUDA_ARCH__)
  bits = __float_as_uint(p);
#else
  __builtin_memcpy(&bits, &p, sizeof bits);
#endif
  const int exponent = int((bits >> 23) & 0xFF);
  if (exponent == 0) return 0;  // zero (subnormals cannot occur: p >= 2^-22)
  const std::int64_t mantissa = std::int64_t((bits & 0x7FFFFF) | 0x800000);
  // p = mantissa * 2^(exponent - 150); times 2^45: mantissa * 2^(exponent - 105). The lemma keeps the
  // exponent in [105, 141) (2^-22 <= p < 2^14); the clamps only keep the shifts defined for values it
  // rules out.
  const int shift = exponent - 105;
  const std::int64_t magnitude = shift >= 0 ? mantissa << (shift < 36 ? shift : 36)
                                            : (shift > -24 ? mantissa >> -shift : 0);
  return (bits >> 31) ? -magnitude : magnitude;
}

// The integer (units of 2^-45) rounded to float once, round-to-nearest-even, then scaled exactly
// (a power of two; no result is subnormal).
VQTWIN_HD inline float from_units45(std::int64_t units) { return float(units) * 0x1p-45f; }

// The CPU's KBND_SYMMETRIC mirror (math.hpp), as a type so a test build can swap it.
struct SymmetricMirror {
  VQTWIN_HD int operator()(int c, int n) const { return mirror(c, n); }
};

// Output (x, y) of the s x s box decimation (s >= 1) of a raw plane (`stride` in samples): the CPU's
// float product of every tap, taps -s/2 .. s-1-s/2 mirrored at the edges, summed exactly.
template <class T, class Mirror = SymmetricMirror>
VQTWIN_HD inline float decimated_sample(const T* plane, long stride, int w, int h, int x, int y, int s, float recip,
                                        float weight, Mirror mirror_of = {}) {
  const int lo = s / 2;
  std::int64_t units = 0;
  for (int v = 0; v < s; ++v) {
    const T* row = plane + long(mirror_of(y * s - lo + v, h)) * stride;
    for (int u = 0; u < s; ++u) {
      const float sample = float(row[mirror_of(x * s - lo + u, w)]) * recip;
      units += to_units45(sample * weight);
    }
  }
  return from_units45(units);
}

}  // namespace vqtwin::float_ssim
