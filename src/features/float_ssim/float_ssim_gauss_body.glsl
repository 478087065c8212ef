// float_ssim's two Gaussian passes (math.hpp: gauss_pass, gauss_pass_products; ssim_core.cpp's order),
// shared by both float paths: the including shader defines Acc (a double, or its integer form), acc_add
// (acc + f64(t), rounded as the CPU's double addition) and acc_float (the double rounded to float).
// Every fp32 product is rounded in integers (fmul32). All values are +0 or positive normal numbers
// (docs/exactness.md, float_ssim). Every loop over the moments is unrolled (no array indexed at run
// time, so the accumulators stay in registers). Each output is f32(sum_u f64(f32(x_u * g_u))) from a double 0, u
// ascending, its five moments summed side by side (five independent chains). `pass`:
//   0 the planes and the horizontal pass in one: a workgroup takes one plane row and 256 plane columns
//     from x0 = 246 * gl_WorkGroupID.x; each invocation forms one column's r and d (float_ssim_box.glsl,
//     from the raw luma) and the products r*r, d*d, r*d once, in shared memory; the first 246 then
//     write five rows of H (r, d, r*r, d*d, r*d; map_w wide, five planes one after the other);
//   1 vertical: H -> the five moments of each map pixel.
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };  // pass 0: raw reference luma; 1: H
layout(std430, set = 0, binding = 1) readonly buffer B { uint b[]; };  // pass 0: raw distorted luma
layout(std430, set = 0, binding = 2) writeonly buffer Out { uint outv[]; };
layout(push_constant) uniform Push {
  uint pass, plane_w, rows, map_w, in_plane, out_plane;  // in_plane, out_plane: floats between moments
  uint planted;  // the path's planted sum bug (see acc_add)
  uint width, height, stride_bytes, base_r, base_d, bytes_per_sample, scale, weight;  // Box
  int sample_shift;
  uint plant_mirror;
  uint g[11];  // the Gaussian taps, float bits
} pc;

#include "float_ssim_box.glsl"

uint sample_r(uint at) { return sample_at(a[at >> 2], at, pc.bytes_per_sample); }
uint sample_d(uint at) { return sample_at(b[at >> 2], at, pc.bytes_per_sample); }

const uint kSpan = 246u;  // map columns per workgroup: 256 plane columns less the window's 10
shared uint plane[5][256];

void horizontal() {
  const Box box = Box(pc.width, pc.height, pc.stride_bytes, pc.base_r, pc.base_d, pc.bytes_per_sample, pc.scale,
                      pc.weight, pc.sample_shift, pc.plant_mirror != 0u);
  const uint l = gl_LocalInvocationID.x, x0 = gl_WorkGroupID.x * kSpan;
  for (uint y = gl_WorkGroupID.y; y < pc.rows; y += gl_NumWorkGroups.y) {
    if (x0 + l < pc.plane_w) {
      const uvec2 rd = box_pair(box, x0 + l, y, true);
      plane[0][l] = rd.x;
      plane[1][l] = rd.y;
      plane[2][l] = fmul32(rd.x, rd.x);
      plane[3][l] = fmul32(rd.y, rd.y);
      plane[4][l] = fmul32(rd.x, rd.y);
    }
    barrier();
    if (l < kSpan && x0 + l < pc.map_w) {
      Acc acc[5];
      [[unroll]] for (uint m = 0u; m < 5u; ++m) acc[m] = acc_zero();
      for (uint u = 0u; u < 11u; ++u)
        [[unroll]] for (uint m = 0u; m < 5u; ++m) acc[m] = acc_add(acc[m], fmul32(plane[m][l + u], pc.g[u]));
      const uint i = y * pc.map_w + x0 + l;
      [[unroll]] for (uint m = 0u; m < 5u; ++m) outv[m * pc.out_plane + i] = acc_float(acc[m]);
    }
    barrier();  // the next row's plane values overwrite these
  }
}

void vertical() {
  const uint n = pc.rows * pc.map_w;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    Acc acc[5];
    [[unroll]] for (uint m = 0u; m < 5u; ++m) acc[m] = acc_zero();
    for (uint u = 0u; u < 11u; ++u) {
      const uint k = i + u * pc.map_w;  // row y + u of H, the output's column
      [[unroll]] for (uint m = 0u; m < 5u; ++m) acc[m] = acc_add(acc[m], fmul32(a[m * pc.in_plane + k], pc.g[u]));
    }
    [[unroll]] for (uint m = 0u; m < 5u; ++m) outv[m * pc.out_plane + i] = acc_float(acc[m]);
  }
}

void main() {
  if (pc.pass == 0u) horizontal();
  else vertical();
}
