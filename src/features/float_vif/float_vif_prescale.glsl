// float_vif's vif_prescale (cells.hpp: prescaled_at), one invocation per output sample, from the host's
// axis tables (one per output column and row: `taps` pairs of source index, already mirrored, and
// weight, float bits; the positions, which libvmaf computes in double, and the bicubic and Lanczos
// weights are the CPU's own values). On the device, in the CPU's order: weight = wy * wx (bilinear's
// (1 - dy) * (1 - dx), bicubic's and Lanczos' products), v += sample * weight from 0 (rows outer,
// columns inner), Lanczos' weight sum beside it and v / sum at the end (an exact division in integers).
// fp32 under RoundingModeRTE, `precise`: the device's operations (float_vif_prescale.comp, where the host
// found every weight 0 or at least 2^-25 in magnitude: with samples multiples of 2^-8, every product is 0
// or at least 2^-58 and no value meets the denormal range) or float_vif_fp32.glsl's guarded ones
// (float_vif_prescale_guarded.comp, otherwise). Included by both with MUL and ADD defined.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "float_vif_fp32.glsl"

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(std430, set = 0, binding = 1) readonly buffer Table { uint table[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { float outv[]; };
layout(push_constant) uniform Push {
  uint sw, dw, dh, taps, y_at;  // y_at: where the rows' table starts
  uint divide;                  // Lanczos-4: v / (sum of the weights)
  uint all_soft;
} pc;

void main() {
  g_all_soft = pc.all_soft != 0u;
  const uint n = pc.dw * pc.dh;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    const uint y = i / pc.dw, x = i - y * pc.dw;
    const uint ya = pc.y_at + 2u * pc.taps * y, xa = 2u * pc.taps * x;
    float v = 0.0, sum = 0.0;
    for (uint jy = 0u; jy < pc.taps; ++jy) {
      const uint row = table[ya + 2u * jy] * pc.sw;
      const float wy = uintBitsToFloat(table[ya + 2u * jy + 1u]);
      for (uint jx = 0u; jx < pc.taps; ++jx) {
        const float weight = MUL(uintBitsToFloat(table[xa + 2u * jx + 1u]), wy);
        if (pc.divide != 0u) sum = ADD(sum, weight);
        v = ADD(v, MUL(src[row + table[xa + 2u * jx]], weight));
      }
    }
    outv[i] = pc.divide != 0u ? uintBitsToFloat(soft_div(floatBitsToUint(v), floatBitsToUint(sum))) : v;
  }
}
