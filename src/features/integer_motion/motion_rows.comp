#version 450
// integer motion's horizontal pass and SAD (cells.hpp horizontal_abs_at, row_total): |X| at each
// column of a row of V (5-tap, reflect-101, + 2^15, floor >> 16, int64), the row's exact sum taken
// modulo 2^32 (libvmaf sums a row in uint32), the row totals added in uint64 per workgroup; the host
// adds the workgroups' partials. Integer, exact in any order.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer V { int v[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Partials { uint64_t partials[]; };
layout(push_constant) uniform Push { uint width, height; } pc;

const int kTaps[5] = int[5](3571, 16004, 26386, 16004, 3571);

int reflect101(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

shared uint64_t fold[256];

void main() {
  const uint lane = gl_LocalInvocationID.x;
  const int w = int(pc.width);
  uint64_t total = 0ul;
  for (uint y = gl_WorkGroupID.x; y < pc.height; y += gl_NumWorkGroups.x) {
    const uint row = y * pc.width;
    uint64_t s = 0ul;
    for (int x = int(lane); x < w; x += 256) {
      int64_t acc = 0l;
      for (int k = 0; k < 5; ++k) acc += int64_t(kTaps[k]) * int64_t(v[row + uint(reflect101(x - 2 + k, w))]);
      const int xv = int((acc + 32768l) >> 16);
      s += uint64_t(uint(xv < 0 ? -xv : xv));
    }
    fold[lane] = s;
    barrier();
    for (uint k = 128u; k > 0u; k >>= 1) {
      if (lane < k) fold[lane] += fold[lane + k];
      barrier();
    }
    if (lane == 0u) total += uint64_t(uint(fold[0]));  // the row's sum modulo 2^32
    barrier();
  }
  if (lane == 0u) partials[gl_WorkGroupID.x] = total;
}
