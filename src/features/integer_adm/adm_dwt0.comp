#version 450
// integer ADM's scale-0 DWT (cells.hpp dwt0_at) of both luma planes: one invocation per band cell
// (x, y) computes it for ref and dis. The vertical sums are taken modulo 2^32 (uint), as the CPU's
// dwt0_vertical (libvmaf's int32 sums wrap on out-of-range 10/12-bit samples); the stores are int16
// values (wrap16) in 32-bit words. Integer, exact.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "adm_cells.glsl"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Ref { uint ref_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Dis { uint dis_words[]; };
layout(std430, set = 0, binding = 2) writeonly buffer RefBands { int ref_bands[]; };  // h, v, d planes
layout(std430, set = 0, binding = 3) writeonly buffer DisBands { int dis_bands[]; };
layout(std430, set = 0, binding = 4) writeonly buffer RefA { int ref_a[]; };
layout(std430, set = 0, binding = 5) writeonly buffer DisA { int dis_a[]; };
layout(push_constant) uniform Push {
  uint in_w, in_h, bpc, bytes_per_sample, stride_bytes, ref_base, dis_base, w, h;
} pc;

int div_at(uint m) { return 0; }  // no decouple here

uint sample_of(bool dis, int row, int col) {
  const uint at = (dis ? pc.dis_base : pc.ref_base) + uint(row) * pc.stride_bytes + uint(col) * pc.bytes_per_sample;
  return sample_at(dis ? dis_words[at >> 2] : ref_words[at >> 2], at, pc.bytes_per_sample);
}

// (a, h, v, d) of cell (x, y).
ivec4 dwt0_cell(bool dis, int x, int y) {
  const uint offset = kLoSum << (pc.bpc - 1u), round_add = 1u << (pc.bpc - 1u);
  const int in_w = int(pc.in_w), in_h = int(pc.in_h), bpc = int(pc.bpc);
  int sa = 0, sv = 0, sh = 0, sd = 0;
  for (int u = 0; u < 4; ++u) {
    const int col = dwt_source(2 * x - 1 + u, in_w);
    uint l = 0u - offset, g = 0u;
    for (int t = 0; t < 4; ++t) {
      const uint p = sample_of(dis, dwt_source(2 * y - 1 + t, in_h), col);
      l += uint(kLo[t]) * p;
      g += uint(kHi[t]) * p;
    }
    const int lo = wrap16(int(l + round_add) >> bpc);
    const int hi = wrap16(int(g + round_add) >> bpc);
    sa += kLo[u] * lo;
    sv += kHi[u] * lo;
    sh += kLo[u] * hi;
    sd += kHi[u] * hi;
  }
  return ivec4(wrap16((sa + 32768) >> 16), wrap16((sh + 32768) >> 16), wrap16((sv + 32768) >> 16),
               wrap16((sd + 32768) >> 16));
}

void main() {
  const uint n = pc.w * pc.h;
  for (uint y = gl_WorkGroupID.y; y < pc.h; y += gl_NumWorkGroups.y)
    for (uint x = gl_GlobalInvocationID.x; x < pc.w; x += gl_NumWorkGroups.x * 64u) {
      const uint i = y * pc.w + x;
      const ivec4 r = dwt0_cell(false, int(x), int(y));
      ref_a[i] = r.x;
      ref_bands[i] = r.y;
      ref_bands[n + i] = r.z;
      ref_bands[2u * n + i] = r.w;
      const ivec4 d = dwt0_cell(true, int(x), int(y));
      dis_a[i] = d.x;
      dis_bands[i] = d.y;
      dis_bands[n + i] = d.z;
      dis_bands[2u * n + i] = d.w;
    }
}
