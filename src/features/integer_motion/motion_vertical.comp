#version 450
// integer motion's vertical pass (cells.hpp vertical_at): V(x, y) = the 5-tap filter of prev - cur
// down the column, reflect-101 at the edges, + 2^(bpc-1), floor >> bpc. int64 accumulation (taps <
// 2^15, |d| < 2^16), arithmetic (floor) shifts: integer, exact.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Prev { uint prev_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Cur { uint cur_words[]; };
layout(std430, set = 0, binding = 2) writeonly buffer V { int v[]; };
layout(push_constant) uniform Push {
  uint width, height, bpc, bytes_per_sample, stride_bytes;
  uint prev_base, cur_base;
  uint planted;  // motion_vulkan_rounding: the +2^(bpc-1) left out
} pc;

const int kTaps[5] = int[5](3571, 16004, 26386, 16004, 3571);

int reflect101(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

uint prev_at(uint byte_offset) {
  const uint a = pc.prev_base + byte_offset;
  return sample_at(prev_words[a >> 2], a, pc.bytes_per_sample);
}
uint cur_at(uint byte_offset) {
  const uint a = pc.cur_base + byte_offset;
  return sample_at(cur_words[a >> 2], a, pc.bytes_per_sample);
}

void main() {
  const int h = int(pc.height);
  const int64_t round_add = pc.planted != 0u ? 0l : (int64_t(1) << (pc.bpc - 1u));
  for (uint y = gl_WorkGroupID.y; y < pc.height; y += gl_NumWorkGroups.y)
    for (uint x = gl_GlobalInvocationID.x; x < pc.width; x += gl_NumWorkGroups.x * 64u) {
      int64_t acc = 0l;
      for (int k = 0; k < 5; ++k) {
        const uint r = uint(reflect101(int(y) - 2 + k, h));
        const uint at = r * pc.stride_bytes + x * pc.bytes_per_sample;
        const int d = int(prev_at(at)) - int(cur_at(at));
        acc += int64_t(kTaps[k]) * int64_t(d);
      }
      v[y * pc.width + x] = int((acc + round_add) >> int64_t(pc.bpc));
    }
}
