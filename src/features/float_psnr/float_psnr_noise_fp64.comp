#version 450
// float_psnr in libvmaf's order (one chunk of pixels per dispatch, each continuing the stored sum), fp64 path (devices with shaderFloat64 and fp64 round-to-nearest-even):
// one invocation walks the luma region in raster order, as the CPU's noise_sequential (libvmaf's
// float_psnr: fp32 difference and square, added into a double). The fp32 square of d = (a - b) / scale
// is formed exactly in integers: e = |a - b| < 2^16, e^2 < 2^32 rounded to 24 significant bits is
// RN_fp32(d * d) * scale^2 (scaling by a power of two commutes with rounding; no value is denormal).
// Its conversion to double and the multiplication by 1 / scale^2 (a power of two) are exact; the one
// inexact step, the double addition, runs on the device's fp64 unit under RoundingModeRTE, precise
// (no contraction). With `after_or`, it runs only when the 10/12-bit OR word shows an out-of-range sample.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "exact_rounding.glsl"

// SPV_KHR_float_controls: RoundingModeRTE (capability 4467, execution mode 4462) for 64-bit floats.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 64);

layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer Ref { uint ref_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Dist { uint dist_words[]; };
layout(std430, set = 0, binding = 2) buffer Results { uint64_t results[]; };
layout(push_constant) uniform Push {
  uint width, height, stride_bytes, ref_base, dist_base;
  uint unit_lo, unit_hi;  // 1 / scale^2 as double bits (set on the host)
  uint after_or, bpc;     // skip unless results[or_at] >> bpc != 0
  uint or_at, noise_at;   // indices into results
  uint first, count;      // this dispatch's pixels, in raster order
  uint planted;           // float_psnr_vulkan_fp64_fp32_sum: the sum kept in fp32
} pc;

void main() {
  if (pc.after_or != 0u && (uint(results[pc.or_at]) >> pc.bpc) == 0u) return;
  const double unit = packDouble2x32(uvec2(pc.unit_lo, pc.unit_hi));
  const uint64_t carried = results[pc.noise_at];  // the sum of the pixels before `first`
  precise double noise = packDouble2x32(uvec2(uint(carried), uint(carried >> 32)));
  precise float planted_sum = float(noise);
  for (uint i = pc.first; i < pc.first + pc.count; ++i) {
      const uint y = i / pc.width, x = i - y * pc.width;
      const uint at = y * pc.stride_bytes + x * 2u;
      const uint ra = pc.ref_base + at, da = pc.dist_base + at;
      const int e = int(sample_at(ref_words[ra >> 2], ra, 2u)) - int(sample_at(dist_words[da >> 2], da, 2u));
      const uint m = uint(abs(e));
      const double square = double(round_sig32(m * m, 24, false)) * unit;  // exact: RN_fp32(d * d)
      noise = noise + square;
      planted_sum = planted_sum + float(square);
    }
  const double value = pc.planted != 0u ? double(planted_sum) : noise;
  const uvec2 bits = unpackDouble2x32(value);
  results[pc.noise_at] = uint64_t(bits.x) | (uint64_t(bits.y) << 32);
}
