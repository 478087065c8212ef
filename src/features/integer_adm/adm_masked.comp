#version 450
// integer ADM's contrast-masked sums of one scale (cells.hpp masked_cell, num_row_total,
// den_row_total): per pool row, the numerator (rst against the masking threshold of q), AIM (q
// against that of rst) and denominator (the ref band) terms of each orientation summed in 64 bits,
// each row's sums rounded by the per-row shift, the rounded rows added per workgroup; the host adds
// the workgroups' partials. Integer sums: exact in any order (rows are rounded before they join).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "adm_cells.glsl"

layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer RefBands { int ref_bands[]; };  // h, v, d planes
layout(std430, set = 0, binding = 1) readonly buffer Rst { int rst[]; };
layout(std430, set = 0, binding = 2) readonly buffer Q { int q[]; };
layout(std430, set = 0, binding = 3) readonly buffer MasksQ { int masks_q[]; };  // mask, centre planes
layout(std430, set = 0, binding = 4) readonly buffer MasksR { int masks_r[]; };
layout(std430, set = 0, binding = 5) writeonly buffer Partials { uint64_t partials[]; };
layout(push_constant) uniform Push {
  uint w, h, left, top, right, bottom;  // the band and its pool rect
  uint scale0, aim;
  uint r0, r1, r2;                       // the scale's CSF factors in fixed point
  uint cube_shift0, cube_shift1, cube_shift2, cube_round0, cube_round1, cube_round2;
  uint row_shift, row_round;
  uint den_sq_shift, den_cube_shift, den_cube_round, den_row_shift, den_row_round;
  uint first;    // this scale's first partial: workgroup g writes 9 at first + 9 g
  uint planted;  // adm_vulkan_mask_start: the window replicates at the start instead of reflecting
} pc;

int div_at(uint m) { return 0; }  // no decouple here

// threshold_at over the mask and centre planes of `masks_r` (aim) or `masks_q`.
int threshold_at(bool aim, int x, int y) {
  const int w = int(pc.w), h = int(pc.h), n = w * h;
  const bool replicate = pc.planted != 0u;
  const int rows[3] = int[3](replicate && y == 0 ? 0 : mask_before(y), y, mask_after(y, h));
  const int cols[3] = int[3](replicate && x == 0 ? 0 : mask_before(x), x, mask_after(x, w));
  uint s = 0u;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) s += uint(aim ? masks_r[rows[a] * w + cols[b]] : masks_q[rows[a] * w + cols[b]]);
  const int i = y * w + x;
  return aim ? int(s - uint(masks_r[i]) + uint(masks_r[n + i])) : int(s - uint(masks_q[i]) + uint(masks_q[n + i]));
}

shared uint64_t fold[9 * 32];

void main() {
  const uint lane = gl_LocalInvocationID.x;
  const uint n = pc.w * pc.h;
  const bool scale0 = pc.scale0 != 0u, aim = pc.aim != 0u;
  const uint r[3] = uint[3](pc.r0, pc.r1, pc.r2);
  const uint cube_shift[3] = uint[3](pc.cube_shift0, pc.cube_shift1, pc.cube_shift2);
  const int64_t cube_round[3] = int64_t[3](int64_t(pc.cube_round0), int64_t(pc.cube_round1), int64_t(pc.cube_round2));
  const uint64_t den_row_round = uint64_t(pc.den_row_round);
  uint64_t total[9] = uint64_t[9](0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL);
  for (uint y = pc.top + gl_WorkGroupID.x; y < pc.bottom; y += gl_NumWorkGroups.x) {
    uint64_t v[9] = uint64_t[9](0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL);
    for (uint x = pc.left + lane; x < pc.right; x += 32u) {
      const uint i = y * pc.w + x;
      const int thr_q = threshold_at(false, int(x), int(y));
      const int thr_r = aim ? threshold_at(true, int(x), int(y)) : 0;
      for (int t = 0; t < 3; ++t) {
        const uint at = uint(t) * n + i;
        const int o = ref_bands[at];
        if (scale0) {
          v[t] += uint64_t(cube_term_scale0(rst[at], r[t], thr_q, t, cube_shift[t], cube_round[t]));
          if (aim) v[3 + t] += uint64_t(cube_term_scale0(q[at], r[t], thr_r, t, cube_shift[t], cube_round[t]));
          v[6 + t] += den_cube_scale0(o);
        } else {
          v[t] += uint64_t(cube_term_scale123(rst[at], r[t], thr_q, cube_shift[0], cube_round[0]));
          if (aim) v[3 + t] += uint64_t(cube_term_scale123(q[at], r[t], thr_r, cube_shift[0], cube_round[0]));
          v[6 + t] += den_cube_scale123(o, pc.den_sq_shift, pc.den_cube_shift, uint64_t(pc.den_cube_round));
        }
      }
    }
    for (int k = 0; k < 9; ++k) fold[k * 32 + int(lane)] = v[k];
    barrier();
    for (uint s = 16u; s > 0u; s >>= 1) {
      if (lane < s)
        for (int k = 0; k < 9; ++k) fold[k * 32 + int(lane)] += fold[k * 32 + int(lane + s)];
      barrier();
    }
    if (lane == 0u)
      for (int t = 0; t < 3; ++t) {
        // num_row_total (int64, arithmetic shift) and den_row_total (uint64)
        total[t] += uint64_t((int64_t(fold[t * 32]) + int64_t(pc.row_round)) >> pc.row_shift);
        if (aim) total[3 + t] += uint64_t((int64_t(fold[(3 + t) * 32]) + int64_t(pc.row_round)) >> pc.row_shift);
        total[6 + t] += (fold[(6 + t) * 32] + den_row_round) >> pc.den_row_shift;
      }
    barrier();
  }
  if (lane == 0u)
    for (int k = 0; k < 9; ++k) partials[pc.first + 9u * gl_WorkGroupID.x + uint(k)] = total[k];
}
