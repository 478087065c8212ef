#version 450
// integer VIF's downsampling, vertical pass (cells.hpp downsample_vertical_at): output row r is the
// next scale's taps down the column around source row 2r (reflect-101), uint64, the rounding shift
// of downsample_shift(), kept in 16 bits (libvmaf's width). Integer: exact.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Taps { uint taps[]; };
layout(std430, set = 0, binding = 2) writeonly buffer V { uint v[]; };
layout(push_constant) uniform Push {
  uint width, height, base, stride, bytes_per_sample;
  uint tap_first, tap_count, tap_half;
  uint shift, round_add;
} pc;

int mirror(int c, int n) { return c < 0 ? -c : (c >= n ? 2 * (n - 1) - c : c); }

uint load(uint word, uint a) { return pc.bytes_per_sample == 4u ? word : sample_at(word, a, pc.bytes_per_sample); }

void main() {
  const int h = int(pc.height);
  const uint out_h = pc.height / 2u;
  for (uint y = gl_WorkGroupID.y; y < out_h; y += gl_NumWorkGroups.y)
    for (uint x = gl_GlobalInvocationID.x; x < pc.width; x += gl_NumWorkGroups.x * 64u) {
      uint64_t sum = 0ul;
      for (uint t = 0u; t < pc.tap_count; ++t) {
        const uint r = uint(mirror(2 * int(y) - int(pc.tap_half) + int(t), h));
        const uint a = pc.base + r * pc.stride + x * pc.bytes_per_sample;
        sum += uint64_t(taps[pc.tap_first + t]) * uint64_t(load(x_words[a >> 2], a));
      }
      v[y * pc.width + x] = uint((sum + pc.round_add) >> pc.shift) & 0xffffu;
    }
}
