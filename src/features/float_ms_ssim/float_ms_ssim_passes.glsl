// float_ms_ssim's device passes (the CPU's loops one output per invocation: pyramid.cpp, float_ssim's
// ssim_core.cpp), shared by the two float paths: MS_FP64 1 adds the CPU's doubles on the fp64 unit
// (float_ms_ssim_fp64.comp), 0 as exact integer sums rounded to 53 bits (float_ms_ssim_int.comp). Every
// fp32 product and every rounding to float is done in integers on both paths (float_ms_ssim_soft.glsl),
// so fp32 subnormals come out as the CPU's. `pass`:
//   0 convert: raw luma (binding 0, bytes from in_off) -> the level-0 plane (sample * 2^-sample_shift);
//   1 decimate: level plane at in_off (in_w x in_h) -> the next level at out_off (out_w x out_h, binding 2
//     the same buffer as binding 0): rows dy = -4..4 outer, columns dx = -4..4 inner, f32(sample * weight)
//     added to a double from 0, edges mirrored (-1 -> 0, n -> n - 1), rounded to float once;
//   2 horizontal: ref and dist planes at in_off (bindings 0, 1) -> five rows (r, d, r*r, d*d, r*d
//     filtered) per source row, map_w = out_w wide, out_plane floats apart;
//   3 vertical: those rows (binding 0) -> the five moments of each map pixel, at out_off.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "float_ms_ssim_soft.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { uint outv[]; };
layout(push_constant) uniform Push {
  uint pass, in_w, in_h, out_w, out_h;
  uint in_off, out_off;      // floats (pass 0: in_off is the raw plane's first byte)
  uint in_plane, out_plane;  // floats from one moment to the next
  uint stride_bytes, bytes_per_sample;
  int sample_shift;  // sample = v * 2^-sample_shift (the exact reciprocal of libvmaf's divisor)
  uint planted;      // 1: the double sums kept in fp32 (both paths); 2: add64's 64-bit bound broken
  uint g[11];        // the Gaussian taps, float bits
} pc;

// The 9/7 low-pass table (math.hpp: kLpfQuarter[|dy|][|dx|]) as float bits.
const uint kLpf[5][5] = uint[5][5](
    uint[5](0x3EBA1D54u, 0x3E24BF0Au, 0xBD411F4Fu, 0xBC263B69u, 0x3C840182u),
    uint[5](0x3E24BF0Au, 0x3D91D4FAu, 0xBCAAF145u, 0xBB9320DAu, 0x3BE9B38Du),
    uint[5](0xBD411F4Fu, 0xBCAAF145u, 0x3BC86057u, 0x3AAC7DA2u, 0xBB08F862u),
    uint[5](0xBC263B69u, 0xBB9320DAu, 0x3AAC7DA2u, 0x39945F9Eu, 0xB9EBEDFAu),
    uint[5](0x3C840182u, 0x3BE9B38Du, 0xBB08F862u, 0xB9EBEDFAu, 0x3A3B2BBBu));

#if MS_FP64
// A double accumulator: each fp32 addend widened in integers (exact; doubles here are 0 or normal),
// added on the fp64 unit `precise` under RoundingModeRTE, read back in integers.
#define Acc double
double ms_to_double(Num v) {
  if (v.m == 0ul) return 0.0;
  const int sh = 52 - ms_msb64(v.m);  // m < 2^24: the top bit to bit 52
  const uint64_t m = v.m << sh;
  const uint hi = (v.neg ? 0x80000000u : 0u) | (uint(v.e - sh + 1075) << 20) | (uint(m >> 32) & 0xFFFFFu);
  return packDouble2x32(uvec2(uint(m), hi));
}
Acc acc_zero() { return 0.0; }
Acc acc_add(Acc acc, uint t) {
  precise double r = acc + ms_to_double(ms_unpack32(t));
  if (pc.planted == 1u) r = double(float(r));
  return r;
}
uint acc_float(Acc acc) {
  const uvec2 w = unpackDouble2x32(acc);
  if ((w.y & 0x7FF00000u) == 0u) return 0u;  // +0 (no double is subnormal, none is -0)
  const uint64_t m = (uint64_t(w.y & 0xFFFFFu) << 32) | uint64_t(w.x) | (uint64_t(1) << 52);
  return ms_round32(Num((w.y >> 31) != 0u, m, int((w.y >> 20) & 0x7FFu) - 1075));
}
#else
#define Acc Num
Acc acc_zero() { return Num(false, 0ul, 0); }
Acc acc_add(Acc acc, uint t) { return ms_add64(acc, ms_unpack32(t), pc.planted == 1u, pc.planted == 2u); }
uint acc_float(Acc acc) { return ms_round32(acc); }
#endif

// Edge-duplicating mirror for -n <= c < 2n (the taps reach 4 past a plane of at least 11).
uint mirror_of(int c, int n) { return uint(c < 0 ? -1 - c : (c >= n ? 2 * n - 1 - c : c)); }

uint decimate_at(uint x, uint y) {
  Acc acc = acc_zero();
  for (int dy = -4; dy <= 4; ++dy) {
    const uint row = pc.in_off + mirror_of(2 * int(y) + dy, int(pc.in_h)) * pc.in_w;
    for (int dx = -4; dx <= 4; ++dx)
      acc = acc_add(acc, ms_fmul(a[row + mirror_of(2 * int(x) + dx, int(pc.in_w))], kLpf[abs(dy)][abs(dx)]));
  }
  return acc_float(acc);
}

// f32(sum_u f64(f32(x_u * g_u))) from a double 0, u ascending; x_u moment m of tap u.
uint filtered(uint m, uint at, uint step) {
  Acc acc = acc_zero();
  for (uint u = 0u; u < 11u; ++u) {
    const uint k = at + u * step;
    uint x;
    if (pc.pass == 3u) x = a[m * pc.in_plane + k];
    else if (m == 0u) x = a[k];
    else if (m == 1u) x = b[k];
    else if (m == 2u) x = ms_fmul(a[k], a[k]);
    else if (m == 3u) x = ms_fmul(b[k], b[k]);
    else x = ms_fmul(a[k], b[k]);
    acc = acc_add(acc, ms_fmul(x, pc.g[u]));
  }
  return acc_float(acc);
}

void main() {
  const uint n = pc.out_w * pc.out_h;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    const uint y = i / pc.out_w, x = i - y * pc.out_w;
    if (pc.pass == 0u) {
      const uint at = pc.in_off + y * pc.stride_bytes + x * pc.bytes_per_sample;
      const uint v = sample_at(a[at >> 2], at, pc.bytes_per_sample);
      outv[pc.out_off + i] = ms_round32(Num(false, uint64_t(v), -pc.sample_shift));  // exact: v < 2^16
    } else if (pc.pass == 1u) {
      outv[pc.out_off + i] = decimate_at(x, y);
    } else {
      const uint at = pc.pass == 2u ? pc.in_off + y * pc.in_w + x : y * pc.out_w + x;
      const uint step = pc.pass == 2u ? 1u : pc.out_w;
      for (uint m = 0u; m < 5u; ++m) outv[pc.out_off + m * pc.out_plane + i] = filtered(m, at, step);
    }
  }
}
