#version 450
// float_adm's input: raw luma -> float, v / 2^shift - 128 as libvmaf's picture_copy (common/luma_float.hpp),
// one invocation per sample. Computed as float(v - 128 * 2^shift) * 2^-shift: the integer is below 2^24
// (converted exactly) and the power of two scales it exactly (no rounding, no subnormal: every non-zero
// value is at least 2^-8).
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { uint words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float outv[]; };
layout(push_constant) uniform Push {
  uint width, height, stride_bytes, base, bytes_per_sample, shift;
  float recip;  // 2^-shift
} pc;

void main() {
  const uint n = pc.width * pc.height;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    const uint y = i / pc.width, x = i - y * pc.width;
    const uint a = pc.base + y * pc.stride_bytes + x * pc.bytes_per_sample;
    const int v = int(sample_at(words[a >> 2], a, pc.bytes_per_sample)) - (128 << pc.shift);
    precise float s = float(v) * pc.recip;
    outv[i] = s;
  }
}
