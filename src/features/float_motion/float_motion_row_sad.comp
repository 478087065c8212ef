#version 450
// float_motion's SAD, first step: one invocation per row sums |a - b| left to right from 0 in fp32
// (RoundingModeRTE, `precise`), the CPU's order (libvmaf's row loop). Two nested loops: lavapipe ends
// any one loop after 65535 iterations, and a row may be 65536 wide.
#extension GL_EXT_spirv_intrinsics : require

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Rows { float rows[]; };
layout(push_constant) uniform Push { uint width, height; } pc;

void main() {
  const uint y = gl_GlobalInvocationID.x;
  if (y >= pc.height) return;
  const uint row = y * pc.width;
  precise float s = 0.0;
  for (uint x0 = 0u; x0 < pc.width; x0 += 256u) {
    const uint end = min(x0 + 256u, pc.width);
    for (uint x = x0; x < end; ++x) {
      precise float d = abs(a[row + x] - b[row + x]);
      s = s + d;
    }
  }
  rows[y] = s;
}
