#version 450
// float_motion's SAD, second step: one invocation adds the row sums in row order from 0 in fp32
// (RoundingModeRTE, `precise`), the CPU's order, into results[at]. Nested loops: lavapipe's
// 65535-iteration guard. `planted` (float_motion_vulkan_row_pairs): the rows added in pairs first.
#extension GL_EXT_spirv_intrinsics : require

spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer Rows { float rows[]; };
layout(std430, set = 0, binding = 1) buffer Results { float results[]; };
layout(push_constant) uniform Push { uint height, at, planted; } pc;

void main() {
  precise float s = 0.0;
  for (uint y0 = 0u; y0 < pc.height; y0 += 256u) {
    const uint end = min(y0 + 256u, pc.height);
    for (uint y = y0; y < end; ++y) {
      if (pc.planted != 0u && y + 1u < end && (y & 1u) == 0u) {
        precise float pair = rows[y] + rows[y + 1u];
        s = s + pair;
        ++y;
        continue;
      }
      s = s + rows[y];
    }
  }
  results[pc.at] = s;
}
