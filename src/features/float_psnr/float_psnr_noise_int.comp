#version 450
// float_psnr in libvmaf's order (one chunk of pixels per dispatch, each continuing the stored sum), fp64-free path (any device with shaderInt64): the same raster walk as
// float_psnr_noise_fp64.comp with every value an integer in units of 1 / scale^2. The fp32 square is
// e^2 rounded to 24 significant bits; each double addition is the exact integer sum rounded to 53
// significant bits (ties to even), which is the double result because both addends and every
// partial sum are integers in that unit below 2^63 (docs/exactness.md, float_psnr: at most 2^30
// pixels, each square below 2^32). No float instruction at all: no rounding mode, denormal or fp64
// feature is involved. The host turns the integer into the double (exact: it has at most 53
// significant bits) and scales it by 1 / scale^2.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "exact_rounding.glsl"

layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer Ref { uint ref_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Dist { uint dist_words[]; };
layout(std430, set = 0, binding = 2) buffer Results { uint64_t results[]; };
layout(push_constant) uniform Push {
  uint width, height, stride_bytes, ref_base, dist_base;
  uint after_or, bpc;    // skip unless results[or_at] >> bpc != 0
  uint or_at, noise_at;  // indices into results
  uint first, count;     // this dispatch's pixels, in raster order
  uint planted;          // 1: float_psnr_vulkan_nofp64_square_rtz (the square truncated, not rounded);
                         // 2: float_psnr_vulkan_nofp64_acc32 (the sum kept in 32 bits: past its bound);
                         // 3: float_psnr_vulkan_nofp64_sum_ties_away (the 53-bit rounding's ties away from zero)
} pc;

void main() {
  if (pc.after_or != 0u && (uint(results[pc.or_at]) >> pc.bpc) == 0u) return;
  uint64_t noise = results[pc.noise_at];  // the sum of the pixels before `first`
  for (uint i = pc.first; i < pc.first + pc.count; ++i) {
      const uint y = i / pc.width, x = i - y * pc.width;
      const uint at = y * pc.stride_bytes + x * 2u;
      const uint ra = pc.ref_base + at, da = pc.dist_base + at;
      const int e = int(sample_at(ref_words[ra >> 2], ra, 2u)) - int(sample_at(dist_words[da >> 2], da, 2u));
      const uint m = uint(abs(e));
      const uint64_t square = round_sig32(m * m, 24, pc.planted == 1u);
      noise = round_sig53(noise + square, pc.planted == 3u);
      if (pc.planted == 2u) noise = uint64_t(uint(noise));
    }
  results[pc.noise_at] = noise;
}
