#version 450
// float_adm's one-level db2 DWT (dwt.cpp; cells.hpp: dwt_cell_at), one invocation per band cell of one
// picture: the vertical low and high passes of the four source columns the cell reads, then the
// horizontal passes, each 4-tap sum added from 0 in tap order (0 + x as libvmaf writes it). fp32 under
// RoundingModeRTE, every operation `precise` and checked for a subnormal result (float_adm_f32.glsl).
// Output: the a, h, v, d planes (m floats each) of `outv`; only a with `approx_only`.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "float_adm_f32.glsl"

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float outv[]; };
layout(std430, set = 0, binding = 2) buffer Results { uint results[]; };
layout(push_constant) uniform Push {
  uint w, h, bw, bh, src_at, approx_only, flag_at;
  uint lo0, lo1, lo2, lo3, hi0, hi1, hi2, hi3;  // dwt.hpp's taps, float bits
} pc;

// libvmaf's edge index tables (dwt.hpp: source_index).
int source_index(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 1 : q); }

float taps4(vec4 c, float s0, float s1, float s2, float s3) {
  float acc = 0.0;
  acc = f_add(acc, f_mul(c.x, s0));
  acc = f_add(acc, f_mul(c.y, s1));
  acc = f_add(acc, f_mul(c.z, s2));
  acc = f_add(acc, f_mul(c.w, s3));
  return acc;
}

void main() {
  const vec4 lo = uintBitsToFloat(uvec4(pc.lo0, pc.lo1, pc.lo2, pc.lo3));
  const vec4 hi = uintBitsToFloat(uvec4(pc.hi0, pc.hi1, pc.hi2, pc.hi3));
  const uint m = pc.bw * pc.bh;
  const int w = int(pc.w), h = int(pc.h);
  for (uint c = gl_GlobalInvocationID.x; c < m; c += gl_NumWorkGroups.x * 256u) {
    const int k = int(c / pc.bw), mm = int(c % pc.bw);
    uint row[4];
    for (int u = 0; u < 4; ++u) row[u] = pc.src_at + uint(source_index(2 * k - 1 + u, h)) * pc.w;
    float l[4], g[4];
    for (int u = 0; u < 4; ++u) {
      const uint col = uint(source_index(2 * mm - 1 + u, w));
      const float s0 = src[row[0] + col], s1 = src[row[1] + col], s2 = src[row[2] + col], s3 = src[row[3] + col];
      l[u] = taps4(lo, s0, s1, s2, s3);
      if (pc.approx_only == 0u) g[u] = taps4(hi, s0, s1, s2, s3);
    }
    outv[c] = taps4(lo, l[0], l[1], l[2], l[3]);
    if (pc.approx_only == 0u) {
      outv[m + c] = taps4(lo, g[0], g[1], g[2], g[3]);
      outv[2u * m + c] = taps4(hi, l[0], l[1], l[2], l[3]);
      outv[3u * m + c] = taps4(hi, g[0], g[1], g[2], g[3]);
    }
  }
  if (adm_tiny) results[pc.flag_at] = 1u;
}
