#version 450
// integer VIF's vertical pass at one scale (cells.hpp vertical_moments_at): the five moments of
// every sample, the scale's taps down the column (reflect-101), uint64 sums, the rounding shifts of
// moment_shifts(), the means kept in 16 bits and the squares in 32 (libvmaf's widths). Sources are
// the pictures' luma (1 or 2 bytes a sample) or a scale's plane (a uint32 word a sample). Integer: exact.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Y { uint y_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer Taps { uint taps[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Mx { uint mx[]; };
layout(std430, set = 0, binding = 4) writeonly buffer My { uint my[]; };
layout(std430, set = 0, binding = 5) writeonly buffer Mxx { uint mxx[]; };
layout(std430, set = 0, binding = 6) writeonly buffer Myy { uint myy[]; };
layout(std430, set = 0, binding = 7) writeonly buffer Mxy { uint mxy[]; };
layout(push_constant) uniform Push {
  uint width, height, x_base, y_base, x_stride, y_stride, bytes_per_sample;
  uint tap_first, tap_count, tap_half;
  uint mean_shift, mean_round, square_shift, square_round;
} pc;

int mirror(int c, int n) { return c < 0 ? -c : (c >= n ? 2 * (n - 1) - c : c); }

uint load(uint word, uint a) { return pc.bytes_per_sample == 4u ? word : sample_at(word, a, pc.bytes_per_sample); }

void main() {
  const int h = int(pc.height);
  for (uint y = gl_WorkGroupID.y; y < pc.height; y += gl_NumWorkGroups.y)
    for (uint x = gl_GlobalInvocationID.x; x < pc.width; x += gl_NumWorkGroups.x * 64u) {
      uint64_t sx = 0ul, sy = 0ul, sxx = 0ul, syy = 0ul, sxy = 0ul;
      for (uint t = 0u; t < pc.tap_count; ++t) {
        const uint r = uint(mirror(int(y) - int(pc.tap_half) + int(t), h));
        const uint ax = pc.x_base + r * pc.x_stride + x * pc.bytes_per_sample;
        const uint ay = pc.y_base + r * pc.y_stride + x * pc.bytes_per_sample;
        const uint64_t f = uint64_t(taps[pc.tap_first + t]);
        const uint64_t a = uint64_t(load(x_words[ax >> 2], ax)), b = uint64_t(load(y_words[ay >> 2], ay));
        sx += f * a;
        sy += f * b;
        sxx += f * (a * a);
        syy += f * (b * b);
        sxy += f * (a * b);
      }
      const uint i = y * pc.width + x;
      mx[i] = uint((sx + pc.mean_round) >> pc.mean_shift) & 0xffffu;
      my[i] = uint((sy + pc.mean_round) >> pc.mean_shift) & 0xffffu;
      mxx[i] = uint((sxx + pc.square_round) >> pc.square_shift);
      myy[i] = uint((syy + pc.square_round) >> pc.square_shift);
      mxy[i] = uint((sxy + pc.square_round) >> pc.square_shift);
    }
}
