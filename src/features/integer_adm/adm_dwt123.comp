#version 450
// integer ADM's DWT of scales 1-3 (cells.hpp dwt123_at) from the previous a bands of ref and dis:
// one invocation per band cell (x, y), for both. int64 sums, the vertical values stored as int32
// (the low 32 bits), as the CPU. Integer, exact.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "adm_cells.glsl"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer InRef { int in_ref[]; };
layout(std430, set = 0, binding = 1) readonly buffer InDis { int in_dis[]; };
layout(std430, set = 0, binding = 2) writeonly buffer RefBands { int ref_bands[]; };  // h, v, d planes
layout(std430, set = 0, binding = 3) writeonly buffer DisBands { int dis_bands[]; };
layout(std430, set = 0, binding = 4) writeonly buffer RefA { int ref_a[]; };
layout(std430, set = 0, binding = 5) writeonly buffer DisA { int dis_a[]; };
layout(push_constant) uniform Push {
  uint in_w, in_h, w, h;
  uint v_shift, v_round, h_shift, h_round;  // dwt.hpp's per-scale rounding
} pc;

int div_at(uint m) { return 0; }  // no decouple here

int in_at(bool dis, int row, int col) {
  const uint i = uint(row) * pc.in_w + uint(col);
  return dis ? in_dis[i] : in_ref[i];
}

// (a, h, v, d) of cell (x, y).
ivec4 dwt123_cell(bool dis, int x, int y) {
  const int in_w = int(pc.in_w), in_h = int(pc.in_h);
  const int64_t v_round = int64_t(pc.v_round), h_round = int64_t(pc.h_round);
  int64_t sa = 0L, sv = 0L, sh = 0L, sd = 0L;
  for (int u = 0; u < 4; ++u) {
    const int col = dwt_source(2 * x - 1 + u, in_w);
    int64_t l = 0L, g = 0L;
    for (int t = 0; t < 4; ++t) {
      const int64_t p = int64_t(in_at(dis, dwt_source(2 * y - 1 + t, in_h), col));
      l += int64_t(kLo[t]) * p;
      g += int64_t(kHi[t]) * p;
    }
    const int64_t lo = int64_t(int((l + v_round) >> pc.v_shift));
    const int64_t hi = int64_t(int((g + v_round) >> pc.v_shift));
    sa += int64_t(kLo[u]) * lo;
    sv += int64_t(kHi[u]) * lo;
    sh += int64_t(kLo[u]) * hi;
    sd += int64_t(kHi[u]) * hi;
  }
  return ivec4(int((sa + h_round) >> pc.h_shift), int((sh + h_round) >> pc.h_shift),
               int((sv + h_round) >> pc.h_shift), int((sd + h_round) >> pc.h_shift));
}

void main() {
  const uint n = pc.w * pc.h;
  for (uint y = gl_WorkGroupID.y; y < pc.h; y += gl_NumWorkGroups.y)
    for (uint x = gl_GlobalInvocationID.x; x < pc.w; x += gl_NumWorkGroups.x * 64u) {
      const uint i = y * pc.w + x;
      const ivec4 r = dwt123_cell(false, int(x), int(y));
      ref_a[i] = r.x;
      ref_bands[i] = r.y;
      ref_bands[n + i] = r.z;
      ref_bands[2u * n + i] = r.w;
      const ivec4 d = dwt123_cell(true, int(x), int(y));
      dis_a[i] = d.x;
      dis_bands[i] = d.y;
      dis_bands[n + i] = d.z;
      dis_bands[2u * n + i] = d.w;
    }
}
