// float_adm's fp32 steps on the device, on both float paths: each operation `precise` (no contraction)
// under RoundingModeRTE (fp64 path: see ADM_FP64 below), so an IEEE binary32 result whenever no operand
// or result is subnormal. Vulkan
// does not promise subnormal fp32 results (NVIDIA and lavapipe may flush them), so each operation also
// notes a result that would be subnormal (an exactly non-zero result below 2^-126): `adm_tiny`. A shader
// stores the note in the frame's flag word, and the host then computes that frame with the CPU's code
// (vulkan.cpp). By induction every operand of an unflagged frame is zero or normal, and so is every
// result: the device's values are the CPU's. Integer helpers round a value m * 2^e to binary32 exactly.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

bool adm_tiny = false;
const float kAdmMinNormal = 1.17549435082228751e-38;  // 2^-126

int adm_msb64(uint64_t v) {
  const uint hi = uint(v >> 32);
  return hi != 0u ? findMSB(hi) + 32 : findMSB(uint(v));
}

// The binary32 nearest (ties to even) to sign * m * 2^e, for m < 2^64; +-0 for m == 0. A result below
// 2^-126 is noted (adm_tiny) and given as zero: the host computes that frame. No result reaches 2^128
// (float_adm's values stay far below).
float adm_f32_of(uint sign, uint64_t m, int e) {
  if (m == 0ul) return uintBitsToFloat(sign);
  int top = adm_msb64(m);
  if (top >= 24) {
    const int drop = top + 1 - 24;
    const uint64_t lo = m & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
    uint64_t kept = m >> drop;
    if (lo > tie || (lo == tie && (kept & 1ul) != 0ul)) kept += 1ul;
    m = kept;
    e += drop;
    top = adm_msb64(m);  // 23, or 24 after a carry
  }
  const int field = e + top + 127;
  if (field <= 0) {
    adm_tiny = true;
    return uintBitsToFloat(sign);
  }
  const uint mant = uint(top <= 23 ? (m << (23 - top)) : (m >> (top - 23))) & 0x7FFFFFu;
  return uintBitsToFloat(sign | (uint(field) << 23) | mant);
}

#ifdef ADM_FP64
// The fp64 path's shaders declare RoundingModeRTE for 64-bit floats, and glslang keeps one such mode per
// entry point: their fp32 operations are therefore formed without the fp32 unit, as the double operation
// (`precise`, RoundingModeRTE 64) rounded to float in integers (adm_f32_of). The double product of two
// floats is exact (48 bits), and a double sum rounded again to float is the float sum: 53 >= 2 * 24 + 2
// makes the double rounding innocuous for + (Figueroa). No double here is subnormal.
float adm_f32_of_double(double x) {
  const uvec2 b = unpackDouble2x32(x);
  const uint sign = b.y & 0x80000000u;
  const int field = int((b.y >> 20) & 0x7FFu);
  if (field == 0) return uintBitsToFloat(sign);
  const uint64_t m = (uint64_t((b.y & 0xFFFFFu) | 0x100000u) << 32) | uint64_t(b.x);
  return adm_f32_of(sign, m, field - 1075);
}
float f_mul(float a, float b) {
  precise double r = double(a) * double(b);
  return adm_f32_of_double(r);
}
float f_add(float a, float b) {
  precise double r = double(a) + double(b);
  return adm_f32_of_double(r);
}
#else
float f_mul(float a, float b) {
  precise float r = a * b;
  if (abs(r) < kAdmMinNormal && a != 0.0 && b != 0.0) adm_tiny = true;
  return r;
}
float f_add(float a, float b) {
  precise float r = a + b;
  if (abs(r) < kAdmMinNormal && a != -b) adm_tiny = true;
  return r;
}
#endif
float f_sub(float a, float b) { return f_add(a, -b); }

// A normal or zero float's significand (24 bits with the hidden one) and exponent: |x| = m * 2^e.
uint adm_mant(float x) {
  const uint b = floatBitsToUint(x);
  return (b & 0x7F800000u) == 0u ? 0u : ((b & 0x7FFFFFu) | 0x800000u);
}
int adm_exp(float x) { return int((floatBitsToUint(x) >> 23) & 0xFFu) - 150; }

// math.hpp's rcpss_from_table: the x86 rcpss of the run's table (top 12 mantissa bits pick the entry,
// the exponent scales it, the sign carries over), integer only. Zero/subnormal input: a signed
// infinity, noted (the host computes the frame); |x| >= 2^126: a signed zero, as the instruction.
float adm_rcpss(float x, uint entry_bits) {
  const uint bits = floatBitsToUint(x);
  const uint sign = bits & 0x80000000u, exponent = (bits >> 23) & 0xFFu;
  if (exponent == 0u) {
    adm_tiny = true;
    return uintBitsToFloat(sign | 0x7F800000u);
  }
  if (exponent >= 253u) return uintBitsToFloat(sign);
  const uint t_exponent = (entry_bits >> 23) & 0xFFu;
  return uintBitsToFloat(sign | ((t_exponent + 127u - exponent) << 23) | (entry_bits & 0x7FFFFFu));
}
