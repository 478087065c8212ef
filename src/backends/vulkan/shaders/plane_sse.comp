#version 450
// The exact sum of squared differences of one plane's region: each invocation sums integer squares
// (|d| < 2^16, so d*d < 2^32) in 64 bits over its columns of the workgroup's rows, the workgroup
// folds its sums in shared memory, and writes one 64-bit partial; the host adds the partials.
// Integer sums: any order gives the CPU's total.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Ref { uint ref_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Dist { uint dist_words[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Partials { uint64_t partials[]; };
layout(push_constant) uniform Push {
  uint width, height, stride_bytes, bytes_per_sample;
  uint ref_base, dist_base;  // the plane's first byte in its binding
  uint first_partial;        // where this plane's partials start
} pc;

shared uint64_t fold[256];

void main() {
  const uint lane = gl_LocalInvocationID.x;
  uint64_t sum = 0ul;
  for (uint y = gl_WorkGroupID.x; y < pc.height; y += gl_NumWorkGroups.x) {
    const uint row = y * pc.stride_bytes;
    for (uint x = lane; x < pc.width; x += 256u) {
      const uint at = row + x * pc.bytes_per_sample;
      const uint ra = pc.ref_base + at, da = pc.dist_base + at;
      const int a = int(sample_at(ref_words[ra >> 2], ra, pc.bytes_per_sample));
      const int b = int(sample_at(dist_words[da >> 2], da, pc.bytes_per_sample));
      const uint m = uint(abs(a - b));
      sum += uint64_t(m * m);
    }
  }
  fold[lane] = sum;
  barrier();
  for (uint k = 128u; k > 0u; k >>= 1) {
    if (lane < k) fold[lane] += fold[lane + k];
    barrier();
  }
  if (lane == 0u) partials[pc.first_partial + gl_WorkGroupID.x] = fold[0];
}
