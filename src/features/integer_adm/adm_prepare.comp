#version 450
// integer ADM's decouple and CSF (cells.hpp prepare_cell) of one scale's needed cells: the angle
// test, rst and q of each orientation, and the mask / centre sums of q (and of rst for AIM).
// Integer, exact (adm_cells.glsl: the angle test and the gain limit in integer rounding).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "adm_cells.glsl"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer RefBands { int ref_bands[]; };  // h, v, d planes
layout(std430, set = 0, binding = 1) readonly buffer DisBands { int dis_bands[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Rst { int rst[]; };  // h, v, d planes
layout(std430, set = 0, binding = 3) writeonly buffer Q { int q[]; };
layout(std430, set = 0, binding = 4) writeonly buffer MasksQ { int masks_q[]; };  // mask, centre planes
layout(std430, set = 0, binding = 5) writeonly buffer MasksR { int masks_r[]; };
layout(std430, set = 0, binding = 6) readonly buffer Div { int div[]; };  // 2^30 / m, m = 0..32768
layout(push_constant) uniform Push {
  uint w, h, left, top, right, bottom;  // the band and its needed rect
  uint scale0, aim;
  uint r0, r1, r2;  // the scale's CSF factors in fixed point
  uint egl_lo, egl_hi;  // the gain limit's 53-bit mantissa
  int egl_exp;          // and its exponent
  uint planted;         // adm_vulkan_angle_never: the 1-degree angle test never passes
} pc;

int div_at(uint m) { return div[m]; }

void main() {
  const uint n = pc.w * pc.h;
  const bool scale0 = pc.scale0 != 0u;
  const uint r[3] = uint[3](pc.r0, pc.r1, pc.r2);
  const uint64_t egl_m = (uint64_t(pc.egl_hi) << 32) | uint64_t(pc.egl_lo);
  for (uint y = pc.top + gl_WorkGroupID.y; y < pc.bottom; y += gl_NumWorkGroups.y)
    for (uint x = pc.left + gl_GlobalInvocationID.x; x < pc.right; x += gl_NumWorkGroups.x * 64u) {
      const uint i = y * pc.w + x;
      const bool angle = pc.planted == 0u && angle_within_1deg(int64_t(ref_bands[i]), int64_t(ref_bands[n + i]),
                                           int64_t(dis_bands[i]), int64_t(dis_bands[n + i]));
      int rs[3], qs[3];
      for (int t = 0; t < 3; ++t) {
        const uint at = uint(t) * n + i;
        const ivec2 v = scale0 ? decouple_scale0(ref_bands[at], dis_bands[at], angle, egl_m, pc.egl_exp)
                               : decouple_scale123(ref_bands[at], dis_bands[at], angle, egl_m, pc.egl_exp);
        rs[t] = rst[at] = v.x;
        qs[t] = q[at] = v.y;
      }
      const ivec2 mq = csf_at(qs, r, scale0);
      masks_q[i] = mq.x;
      masks_q[n + i] = mq.y;
      if (pc.aim != 0u) {
        const ivec2 mr = csf_at(rs, r, scale0);
        masks_r[i] = mr.x;
        masks_r[n + i] = mr.y;
      }
    }
}
