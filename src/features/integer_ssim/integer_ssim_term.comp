#version 450
// integer_ssim's window term at every pixel (math.hpp): the exact integer moments of the 9 x 9
// window from 9 rows of integer_ssim_rows.comp's sums down the column (math.hpp column_moments; rows
// outside the picture dropped; uint64, exact in any order: 65536 * 65535^2 < 2^48), the window's
// weight, then math.hpp's window_term in the fork's order of
// double operations, one rounded operation per statement, `precise` (no contraction) under
// RoundingModeRTE, its division done exactly in integers (exact_division.glsl), never by the driver.
// The host adds the terms in raster order (the CPU's double sum). No value is denormal: every moment
// is an integer, the window weight is at least 68^2 and c1, c2 are at least 65025e-4 * 68^4.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_spirv_intrinsics : require
#extension GL_GOOGLE_include_directive : require
#include "exact_division.glsl"

// SPV_KHR_float_controls: RoundingModeRTE (capability 4467, execution mode 4462) for 64-bit floats.
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 64);

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Rx { uint64_t rx[]; };
layout(std430, set = 0, binding = 1) readonly buffer Ry { uint64_t ry[]; };
layout(std430, set = 0, binding = 2) readonly buffer Rxx { uint64_t rxx[]; };
layout(std430, set = 0, binding = 3) readonly buffer Rxy { uint64_t rxy[]; };
layout(std430, set = 0, binding = 4) readonly buffer Ryy { uint64_t ryy[]; };
layout(std430, set = 0, binding = 5) readonly buffer Taps { uint taps[]; };
layout(std430, set = 0, binding = 6) writeonly buffer Terms { double terms[]; };
layout(push_constant) uniform Push {
  uint width, height;
  uint peak_sq_lo, peak_sq_hi, k1sq_lo, k1sq_hi, k2sq_lo, k2sq_hi;  // double bits, set on the host
  uint planted;  // integer_ssim_vulkan_div_truncate: the division rounded toward zero
} pc;

// math.hpp weight_used: the weights of the taps of position i inside [0, n).
uint weight_used(int i, int n) {
  uint sum = 0u;
  for (int j = 0; j < 9; ++j) {
    const int c = i - 4 + j;
    if (c >= 0 && c < n) sum += taps[j];
  }
  return sum;
}

void main() {
  const int w = int(pc.width), h = int(pc.height);
  const double peak_sq = packDouble2x32(uvec2(pc.peak_sq_lo, pc.peak_sq_hi));
  const double k1sq = packDouble2x32(uvec2(pc.k1sq_lo, pc.k1sq_hi));
  const double k2sq = packDouble2x32(uvec2(pc.k2sq_lo, pc.k2sq_hi));
  for (uint y = gl_WorkGroupID.y; y < pc.height; y += gl_NumWorkGroups.y)
    for (uint x = gl_GlobalInvocationID.x; x < pc.width; x += gl_NumWorkGroups.x * 64u) {
      uint64_t mux = 0ul, muy = 0ul, x2 = 0ul, xy = 0ul, y2 = 0ul;
      for (int j = 0; j < 9; ++j) {
        const int r = int(y) - 4 + j;
        if (r < 0 || r >= h) continue;
        const uint i = uint(r) * pc.width + x;
        const uint64_t k = uint64_t(taps[j]);
        mux += k * rx[i];
        muy += k * ry[i];
        x2 += k * rxx[i];
        xy += k * rxy[i];
        y2 += k * ryy[i];
      }
      // math.hpp window_term, statement for statement (every integer here is below 2^53: exact).
      precise const double wt = double(weight_used(int(x), w) * weight_used(int(y), h));
      precise const double c1 = peak_sq * k1sq * wt * wt;
      precise const double c2 = peak_sq * k2sq * wt * wt;
      precise const double mx2 = double(mux) * double(mux);
      precise const double mxy = double(mux) * double(muy);
      precise const double my2 = double(muy) * double(muy);
      precise const double num = wt * (2.0 * mxy + c1) * (c2 + 2.0 * (double(xy) * wt - mxy));
      precise const double den = (mx2 + my2 + c1) * (double(x2) * wt - mx2 + double(y2) * wt - my2 + c2);
      terms[y * pc.width + x] = exact_div(num, den, pc.planted != 0u);
    }
}
