#version 450
// integer_ssim's first pass (math.hpp row_sums): at every pixel the 9-tap sums along its row of the
// reference and distorted samples and of their products, taps outside the picture dropped (samples read
// as 0). uint64: exact in any order (256 * 65535^2 < 2^40).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Ref { uint ref_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Dist { uint dist_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer Taps { uint taps[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Rx { uint64_t rx[]; };
layout(std430, set = 0, binding = 4) writeonly buffer Ry { uint64_t ry[]; };
layout(std430, set = 0, binding = 5) writeonly buffer Rxx { uint64_t rxx[]; };
layout(std430, set = 0, binding = 6) writeonly buffer Rxy { uint64_t rxy[]; };
layout(std430, set = 0, binding = 7) writeonly buffer Ryy { uint64_t ryy[]; };
layout(push_constant) uniform Push { uint width, height, stride_bytes, bytes_per_sample, ref_base, dist_base; } pc;

void main() {
  const int w = int(pc.width);
  for (uint y = gl_WorkGroupID.y; y < pc.height; y += gl_NumWorkGroups.y)
    for (uint x = gl_GlobalInvocationID.x; x < pc.width; x += gl_NumWorkGroups.x * 64u) {
      uint64_t sx = 0ul, sy = 0ul, sxx = 0ul, sxy = 0ul, syy = 0ul;
      for (int i = 0; i < 9; ++i) {
        const int c = int(x) - 4 + i;
        if (c < 0 || c >= w) continue;
        const uint at = y * pc.stride_bytes + uint(c) * pc.bytes_per_sample;
        const uint ra = pc.ref_base + at, da = pc.dist_base + at;
        const uint s = sample_at(ref_words[ra >> 2], ra, pc.bytes_per_sample);
        const uint d = sample_at(dist_words[da >> 2], da, pc.bytes_per_sample);
        const uint64_t k = uint64_t(taps[i]);
        sx += k * uint64_t(s);
        sy += k * uint64_t(d);
        sxx += k * uint64_t(s * s);  // < 2^32: 65535^2 fits
        sxy += k * uint64_t(s * d);
        syy += k * uint64_t(d * d);
      }
      const uint i = y * pc.width + x;
      rx[i] = sx;
      ry[i] = sy;
      rxx[i] = sxx;
      rxy[i] = sxy;
      ryy[i] = syy;
    }
}
