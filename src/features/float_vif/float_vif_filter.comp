#version 450
// float_vif's filters (cells.hpp: vertical_moments_at, horizontal_at, vertical_plain_at; scale.cpp's
// order), one invocation per output, on both float paths (no double on the device). Every product and
// sum is one fp32 operation in the CPU's order (accumulators from 0, taps ascending, products rounded
// before the add, reflect-101 edges applied once), under RoundingModeRTE, `precise`, through
// float_vif_fp32.glsl (denormal operands and results redone in integers). `mode`:
//   0 vertical moments: planes a (ref), b (dis), w x h -> five planes x, y, x*x, y*y, x*y (stride out_plane);
//   1 horizontal moments: five planes of a (stride in_plane) -> five planes at out_at (stride out_plane);
//   2 the decimation's vertical pass at the even rows: a (w x h) -> w x h/2;
//   3 the decimation's horizontal pass at the even columns: a (w x h/2) -> w/2 x h/2.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "float_vif_fp32.glsl"

// SPV_KHR_float_controls: RoundingModeRTE (capability 4467, execution mode 4462) for 32-bit floats.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) readonly buffer Taps { float taps[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Out { float outv[]; };
layout(push_constant) uniform Push {
  uint mode, width, height;  // the input plane's size
  uint taps_at, ntaps;       // the kernel: taps[taps_at .. taps_at + ntaps)
  uint in_plane, out_at, out_plane;
  uint planted;  // 1: float_vif_vulkan_fp64_tap_order (mode 1: taps descending);
                 // 2: float_vif_vulkan_nofp64_product_order (mode 0: x*y weighted as (k*x)*y)
  uint all_soft;
} pc;

int reflect101(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 2 : q); }

void vertical_moments(uint i, uint j) {
  const int w = int(pc.width), h = int(pc.height), r = int(pc.ntaps / 2u);
  float s1 = 0.0, s2 = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0;
  for (int t = 0; t < int(pc.ntaps); ++t) {
    const uint q = uint(reflect101(int(i) - r + t, h)) * uint(w) + j;
    const float kt = taps[pc.taps_at + uint(t)];
    const float x = a[q], y = b[q];
    s1 = fadd_e(s1, fmul_e(kt, x));
    s2 = fadd_e(s2, fmul_e(kt, y));
    sxx = fadd_e(sxx, fmul_e(kt, fmul_e(x, x)));
    syy = fadd_e(syy, fmul_e(kt, fmul_e(y, y)));
    sxy = fadd_e(sxy, pc.planted == 2u ? fmul_e(fmul_e(kt, x), y) : fmul_e(kt, fmul_e(x, y)));
  }
  const uint o = pc.out_at + i * uint(w) + j;
  outv[o] = s1;
  outv[o + pc.out_plane] = s2;
  outv[o + 2u * pc.out_plane] = sxx;
  outv[o + 3u * pc.out_plane] = syy;
  outv[o + 4u * pc.out_plane] = sxy;
}

// acc = 0, acc += k[t] * row[reflect(step * j - r + t)], t ascending (descending when planted).
float horizontal(uint row_at, uint j, uint step, bool backwards) {
  const int w = int(pc.width), r = int(pc.ntaps / 2u), n = int(pc.ntaps);
  float acc = 0.0;
  for (int u = 0; u < n; ++u) {
    const int t = backwards ? n - 1 - u : u;
    acc = fadd_e(acc, fmul_e(taps[pc.taps_at + uint(t)], a[row_at + uint(reflect101(int(step * j) - r + t, w))]));
  }
  return acc;
}

void main() {
  g_all_soft = pc.all_soft != 0u;
  const uint w = pc.width, h = pc.height;
  const uint ow = pc.mode == 3u ? w / 2u : w;
  const uint oh = pc.mode == 2u ? h / 2u : h;
  const uint n = ow * oh;
  for (uint idx = gl_GlobalInvocationID.x; idx < n; idx += gl_NumWorkGroups.x * 256u) {
    const uint i = idx / ow, j = idx - i * ow;
    if (pc.mode == 0u) {
      vertical_moments(i, j);
    } else if (pc.mode == 1u) {
      for (uint m = 0u; m < 5u; ++m)
        outv[pc.out_at + m * pc.out_plane + idx] = horizontal(m * pc.in_plane + i * w, j, 1u, pc.planted == 1u);
    } else if (pc.mode == 2u) {
      const int r = int(pc.ntaps / 2u);
      float acc = 0.0;
      for (int t = 0; t < int(pc.ntaps); ++t)
        acc = fadd_e(acc, fmul_e(taps[pc.taps_at + uint(t)], a[uint(reflect101(int(2u * i) - r + t, int(h))) * w + j]));
      outv[idx] = acc;
    } else {
      outv[idx] = horizontal(i * w, j, 2u, false);
    }
  }
}
