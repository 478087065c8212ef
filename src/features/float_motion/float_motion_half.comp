#version 450
// float_motion's motion_add_scale1: one output of the half-size bilinear plane (math.hpp: bilinear_at)
// per invocation, from the CPU's resampler tables (computed on the host in double, as the CPU does:
// math.hpp bilinear_tap) and the blurred plane as libvmaf's resampler reads it (math.hpp:
// resample_input_at: rows written at `stored` floats, read at `read`). fp32 under RoundingModeRTE,
// `precise`: the weight products, times the samples, added left to right. No denormal arises (all
// values are multiples of 2^-114: docs/exactness.md, float_motion).
#extension GL_EXT_spirv_intrinsics : require

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Blur { float blur[]; };
// x0[dw], x1[dw], fx[dw] (float bits), y0[dh], y1[dh], fy[dh] (float bits)
layout(std430, set = 0, binding = 1) readonly buffer Table { uint table[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Half { float half_plane[]; };
layout(push_constant) uniform Push { uint width, dw, dh, stored, read; } pc;

float input_at(uint r, uint c) {
  const uint k = r * pc.read + c;
  const uint row = k / pc.stored, col = k - row * pc.stored;
  return col < pc.width ? blur[row * pc.width + col] : 0.0;
}

void main() {
  const uint n = pc.dw * pc.dh;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 256u) {
    const uint y = i / pc.dw, x = i - y * pc.dw;
    const uint a = table[x], b = table[pc.dw + x];
    const float dx = uintBitsToFloat(table[2u * pc.dw + x]);
    const uint yt = 3u * pc.dw;
    const uint r0 = table[yt + y], r1 = table[yt + pc.dh + y];
    const float dy = uintBitsToFloat(table[yt + 2u * pc.dh + y]);
    precise float v = (1.0 - dy) * (1.0 - dx) * input_at(r0, a) + (1.0 - dy) * dx * input_at(r0, b) +
                      dy * (1.0 - dx) * input_at(r1, a) + dy * dx * input_at(r1, b);
    half_plane[i] = v;
  }
}
