// float_vif's filter passes, shared by float_vif_filter.comp (plain device operations, for outputs whose
// inputs keep every value out of the denormal range) and float_vif_filter_guarded.comp (the outputs the
// first left over, through float_vif_fp32.glsl's guarded operations). Every product and sum is one fp32
// operation in the CPU's order (cells.hpp: vertical_moments_at, horizontal_at, vertical_plain_at;
// accumulators from 0, taps ascending, products rounded before the add, reflect-101 edges applied once),
// under RoundingModeRTE, `precise`. `mode`:
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
// [0, 32): one counter per dispatch of the frame (cleared by float_vif_clear); then the list of outputs
// left to float_vif_filter_guarded.comp.
layout(std430, set = 0, binding = 4) buffer List { uint list[]; };
layout(push_constant) uniform Push {
  uint mode, width, height;  // the input plane's size
  uint taps_at, ntaps;       // the kernel: taps[taps_at .. taps_at + ntaps)
  uint in_plane, out_at, out_plane;
  uint planted;  // 1: float_vif_vulkan_fp64_tap_order (mode 1: taps descending);
                 // 2: float_vif_vulkan_nofp64_product_order (mode 0: x*y weighted as (k*x)*y)
  uint all_soft;  // VQTWIN_VULKAN_SOFT_FP32: every output to the guarded pass, every operation in integers
  uint counter;   // this dispatch's counter in `list`
} pc;

int reflect101(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 2 : q); }


// The outputs of the dispatch: ow x oh.
uint out_width() { return pc.mode == 3u ? pc.width / 2u : pc.width; }
uint out_height() { return pc.mode == 2u ? pc.height / 2u : pc.height; }

// Writes output idx (row i) of the dispatch's mode: five planes for modes 0 and 1, else one.
void store(uint idx, uint i, uint j, float v[5]) {
  if (pc.mode == 0u) {
    const uint o = pc.out_at + i * pc.width + j;
    for (uint m = 0u; m < 5u; ++m) outv[o + m * pc.out_plane] = v[m];
  } else if (pc.mode == 1u) {
    for (uint m = 0u; m < 5u; ++m) outv[pc.out_at + m * pc.out_plane + idx] = v[m];
  } else {
    outv[idx] = v[0];
  }
}
