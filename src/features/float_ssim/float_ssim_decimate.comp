#version 450
// float_ssim's plane (decimate_exact.hpp, the CUDA twin's): one output per invocation, the CPU's fp32
// product f32(sample * weight) of every tap of the s x s box (KBND_SYMMETRIC mirror), summed exactly
// as an int64 in units of 2^-45 and rounded to float once. Integer arithmetic only (the product is the
// 40-bit integer v * weight mantissa rounded to 24 bits), so the same shader serves both float paths.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "float_ssim_soft.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { uint words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint outv[]; };
layout(push_constant) uniform Push {
  uint width, height, stride_bytes, base, bytes_per_sample;
  uint out_w, out_h, scale;
  uint weight;       // f32(1 / s^2), bits
  int sample_shift;  // sample = v * 2^-sample_shift (the exact reciprocal of libvmaf's divisor)
  uint planted;      // float_ssim_vulkan_mirror: libvmaf's other edge rule (-1 -> 1)
} pc;

int mirror_of(int c, int n) {
  if (pc.planted != 0u) {
    const int r = c < 0 ? -c : (c >= n ? 2 * n - 2 - c : c);
    return clamp(r, 0, n - 1);
  }
  // Only non-negative operands reach %: GLSL leaves a negative one undefined, and NVIDIA's driver gave
  // other planes than lavapipe at every scale >= 2 (the box's left and top taps start at -s/2).
  const int period = 2 * n;
  const int r = c >= 0 ? c % period : period - 1 - (-1 - c) % period;
  return r < n ? r : period - 1 - r;
}

void main() {
  const uint n = pc.out_w * pc.out_h;
  const int s = int(pc.scale), lo = s / 2;
  const uint64_t wm = mant_of(pc.weight);
  const int we = exp_of(pc.weight) - pc.sample_shift + 45;  // >= 0: weight >= 2^-14, shift <= 8
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    const uint y = i / pc.out_w, x = i - y * pc.out_w;
    int64_t units = 0l;
    for (int v = 0; v < s; ++v) {
      const uint row = uint(mirror_of(int(y) * s - lo + v, int(pc.height))) * pc.stride_bytes + pc.base;
      for (int u = 0; u < s; ++u) {
        const uint a = row + uint(mirror_of(int(x) * s - lo + u, int(pc.width))) * pc.bytes_per_sample;
        const uint64_t p = wm * uint64_t(sample_at(words[a >> 2], a, pc.bytes_per_sample));
        // RN_24(v * wm) * 2^(we): the fp32 product in units of 2^-45 (an integer: docs/exactness.md)
        units += int64_t(rn_int(p, 24) << uint(we));
      }
    }
    outv[i] = float_of(uint64_t(units), -45, false);
  }
}
