#version 450
// float_ssim's plane alone (float_ssim_box.glsl), one output per invocation: the decimation check's
// kernel (device_hooks.hpp: vulkan_luma_plane). The twin forms the same values with the same function
// inside its first Gaussian pass (float_ssim_gauss_body.glsl).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { uint words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint outv[]; };
layout(push_constant) uniform Push {
  uint width, height, stride_bytes, base_r, base_d, bytes_per_sample, scale, weight;  // Box
  int sample_shift;
  uint plant_mirror;
  uint out_w, out_h;
} pc;

#include "float_ssim_box.glsl"

uint sample_r(uint a) { return sample_at(words[a >> 2], a, pc.bytes_per_sample); }
uint sample_d(uint a) { return 0u; }

void main() {
  const Box b = Box(pc.width, pc.height, pc.stride_bytes, pc.base_r, pc.base_d, pc.bytes_per_sample, pc.scale,
                    pc.weight, pc.sample_shift, pc.plant_mirror != 0u);
  const uint n = pc.out_w * pc.out_h;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    const uint y = i / pc.out_w;
    outv[i] = box_pair(b, i - y * pc.out_w, y, false).x;
  }
}
