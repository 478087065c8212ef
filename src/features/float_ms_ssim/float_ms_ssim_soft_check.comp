#version 450
// float_ms_ssim_soft.glsl's functions on given operands, for tests/twins/float_ms_ssim_soft_check.cpp (which
// compares them with the CPU's IEEE arithmetic, subnormals included). Each case is four 32-bit words of a
// row of a 16-bit picture: w0, w1 floats, (w3:w2) a double. Results, four words a case: RN_fp32(w0 * w1);
// RN_fp64(double + float(w0)) as two words (low, high); RN_fp32(double).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "float_ms_ssim_soft.glsl"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { uint words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint outv[]; };
layout(push_constant) uniform Push {
  uint cases, per_row, stride_words, base_words;
} pc;

// A normal double's value (no subnormal or zero double is given).
Num of_double(uint lo, uint hi) {
  return Num((hi >> 31) != 0u, (uint64_t(hi & 0xFFFFFu) << 32) | uint64_t(lo) | (uint64_t(1) << 52),
             int((hi >> 20) & 0x7FFu) - 1075);
}

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < pc.cases; i += gl_NumWorkGroups.x * 64u) {
    const uint at = pc.base_words + (i / pc.per_row) * pc.stride_words + (i % pc.per_row) * 4u;
    const uint w0 = words[at], w1 = words[at + 1u];
    const Num d = of_double(words[at + 2u], words[at + 3u]);
    outv[4u * i] = ms_fmul(w0, w1);
    Num s = ms_add64(d, ms_unpack32(w0), false, false);
    if (s.m == 0ul) {
      outv[4u * i + 1u] = 0u;
      outv[4u * i + 2u] = s.neg ? 0x80000000u : 0u;
    } else {  // normalised to 53 bits, as a double's fields
      const int sh = 52 - ms_msb64(s.m);  // -1 for a sum rounded up to 2^53 (exact: its low bit is 0)
      const uint64_t m = sh >= 0 ? s.m << sh : s.m >> 1;
      outv[4u * i + 1u] = uint(m);
      outv[4u * i + 2u] = (s.neg ? 0x80000000u : 0u) | (uint(s.e - sh + 1075) << 20) | (uint(m >> 32) & 0xFFFFFu);
    }
    outv[4u * i + 3u] = ms_round32(d);
  }
}
