#version 450
// float_ssim's Gaussian passes (math.hpp: gauss_pass, gauss_pass_products; ssim_core.cpp's order),
// fp64-free path: every fp32 product rounded in integers (fmul), every double addition an exact sum
// rounded to 53 significant bits (add64), the result rounded to float once (float_of). All values are
// +0 or positive normal numbers (docs/exactness.md, float_ssim). `pass`:
//   0 horizontal: planes r, d (plane_w wide) -> five rows of H (r, d, r*r, d*d, r*d) per source row;
//   1 vertical: H (map_w wide, five planes one after the other) -> the five moments of each map pixel.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "float_ssim_soft.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };   // pass 0: r; pass 1: H
layout(std430, set = 0, binding = 1) readonly buffer B { uint b[]; };   // pass 0: d
layout(std430, set = 0, binding = 2) writeonly buffer Out { uint outv[]; };
layout(push_constant) uniform Push {
  uint pass, plane_w, rows, map_w, in_plane, out_plane;  // in_plane, out_plane: floats between moments
  uint planted;  // 1: float_ssim_vulkan_nofp64_float_sum (the sum rounded to 24 bits, an fp32 sum);
                 // 2: float_ssim_vulkan_nofp64_sum_past_bound (add64's 64-bit bound broken)
  uint g[11];    // the Gaussian taps, float bits
} pc;

// f32(sum_u f64(f32(x_u * g_u))) from a double 0, u ascending.
uint pass_of(uint m, uint at, uint step) {
  Soft64 acc = Soft64(0ul, 0);
  for (uint u = 0u; u < 11u; ++u) {
    const uint k = at + u * step;
    uint x;
    if (pc.pass == 1u) x = a[m * pc.in_plane + k];
    else if (m == 0u) x = a[k];
    else if (m == 1u) x = b[k];
    else if (m == 2u) x = fmul(a[k], a[k]);
    else if (m == 3u) x = fmul(b[k], b[k]);
    else x = fmul(a[k], b[k]);
    const uint t = fmul(x, pc.g[u]);
    acc = add64(acc, mant_of(t), exp_of(t), pc.planted == 1u, pc.planted == 2u);
  }
  return float_of(acc.m, acc.e, false);
}

void main() {
  const uint n = pc.rows * pc.map_w;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    const uint y = i / pc.map_w, x = i - y * pc.map_w;
    const uint at = pc.pass == 0u ? y * pc.plane_w + x : y * pc.map_w + x;
    const uint step = pc.pass == 0u ? 1u : pc.map_w;
    for (uint m = 0u; m < 5u; ++m) outv[m * pc.out_plane + i] = pass_of(m, at, step);
  }
}
