#version 450
// integer VIF's downsampling, horizontal pass (cells.hpp downsample_horizontal_at): output column c
// is the taps along the vertically filtered row around column 2c (reflect-101), uint64, rounded
// >> 16, kept in 16 bits. Integer: exact.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer V { uint v[]; };
layout(std430, set = 0, binding = 1) readonly buffer Taps { uint taps[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { uint scaled[]; };
layout(push_constant) uniform Push { uint width, out_width, out_height, tap_first, tap_count, tap_half; } pc;

int mirror(int c, int n) { return c < 0 ? -c : (c >= n ? 2 * (n - 1) - c : c); }

void main() {
  const int w = int(pc.width);
  for (uint y = gl_WorkGroupID.y; y < pc.out_height; y += gl_NumWorkGroups.y)
    for (uint x = gl_GlobalInvocationID.x; x < pc.out_width; x += gl_NumWorkGroups.x * 64u) {
      uint64_t sum = 0ul;
      for (uint t = 0u; t < pc.tap_count; ++t) {
        const uint c = uint(mirror(2 * int(x) - int(pc.tap_half) + int(t), w));
        sum += uint64_t(taps[pc.tap_first + t]) * uint64_t(v[y * pc.width + c]);
      }
      scaled[y * pc.out_width + x] = uint((sum + 32768ul) >> 16) & 0xffffu;
    }
}
