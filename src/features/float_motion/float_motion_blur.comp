#version 450
// float_motion's blur (math.hpp: motion_sample, reflect101, blur_dot), one invocation per output, on
// both float paths (no double on the device: docs/exactness.md, float_motion). `pass`:
//   0 vertical: raw samples of one plane -> fp32 (v * recip - 128, then the taps down the column);
//   1 horizontal: the vertical pass -> the blurred plane (taps along the row);
//   2 pass-through (motion_filter_size 1): the converted samples themselves.
// fp32 under RoundingModeRTE (the check requires shaderRoundingModeRTEFloat32), every result `precise`
// (no contraction): products added left to right from the first, as the CPU's kernels.inc. No value
// is denormal (all are multiples of 2^-64: docs/exactness.md), no division, no transcendental.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

// SPV_KHR_float_controls: RoundingModeRTE (capability 4467, execution mode 4462) for 32-bit floats.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { uint words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Tmp { float tmp[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { float outv[]; };
layout(push_constant) uniform Push {
  uint width, height, stride_bytes, base, bytes_per_sample;
  uint pass, taps;  // taps: 3 or 5
  uint planted;     // float_motion_vulkan_blur_order: the 5-tap products added right to left
  float recip;      // 1, 1/4, 1/16 or 1/256: exact, v * recip == v / divisor
  float f0, f1, f2, f3, f4;
} pc;

int reflect101(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

float sample_f(uint x, uint y) {
  const uint a = pc.base + y * pc.stride_bytes + x * pc.bytes_per_sample;
  precise float s = float(sample_at(words[a >> 2], a, pc.bytes_per_sample)) * pc.recip - 128.0;
  return s;
}

float blur_dot(float x0, float x1, float x2, float x3, float x4) {
  if (pc.taps == 3u) {
    precise float r3 = (pc.f0 * x0 + pc.f1 * x1) + pc.f2 * x2;
    return r3;
  }
  if (pc.planted != 0u) {
    precise float backwards = (((pc.f4 * x4 + pc.f3 * x3) + pc.f2 * x2) + pc.f1 * x1) + pc.f0 * x0;
    return backwards;
  }
  precise float r5 = (((pc.f0 * x0 + pc.f1 * x1) + pc.f2 * x2) + pc.f3 * x3) + pc.f4 * x4;
  return r5;
}

void main() {
  const uint n = pc.width * pc.height;
  const int w = int(pc.width), h = int(pc.height), r = int(pc.taps / 2u);
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    const uint y = i / pc.width, x = i - y * pc.width;
    float v[5] = float[5](0.0, 0.0, 0.0, 0.0, 0.0);
    if (pc.pass == 2u) {
      outv[i] = sample_f(x, y);
      continue;
    }
    for (int k = 0; k < int(pc.taps); ++k) {
      if (pc.pass == 0u) v[k] = sample_f(x, uint(reflect101(int(y) - r + k, h)));
      else v[k] = tmp[y * pc.width + uint(reflect101(int(x) - r + k, w))];
    }
    outv[i] = blur_dot(v[0], v[1], v[2], v[3], v[4]);
  }
}
