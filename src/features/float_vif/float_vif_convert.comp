#version 450
// float_vif's samples (common/luma_float.hpp): the raw luma word v -> float(v) * 2^-(bpc-8) - 128, one
// invocation per sample. Exact: v < 2^16, the scaling a power of two, and the difference a multiple of
// 2^-8 below 2^8 in magnitude (no rounding, no denormal; +0 for v = 128 * 2^(bpc-8)).
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { uint words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float outv[]; };
layout(push_constant) uniform Push {
  uint width, height, stride_bytes, base, bytes_per_sample;
  float recip;  // 1, 1/4, 1/16 or 1/256
} pc;

void main() {
  const uint n = pc.width * pc.height;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    const uint y = i / pc.width, x = i - y * pc.width;
    const uint at = pc.base + y * pc.stride_bytes + x * pc.bytes_per_sample;
    precise float s = float(sample_at(words[at >> 2], at, pc.bytes_per_sample)) * pc.recip - 128.0;
    outv[i] = s;
  }
}
