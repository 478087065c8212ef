#version 450
// float_psnr at 10/12 bits: the OR of every scored luma sample of both pictures (a sample of 2^bpc or
// more voids the exact-integer argument, front.hpp): each workgroup folds its rows' OR in shared
// memory and ORs it into one 32-bit word of the results. Integer only.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Ref { uint ref_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Dist { uint dist_words[]; };
layout(std430, set = 0, binding = 2) buffer Results { uint result_words[]; };
layout(push_constant) uniform Push {
  uint width, height, stride_bytes, ref_base, dist_base;
  uint or_word;  // the 32-bit word of the results that receives the OR
} pc;

shared uint fold[256];

void main() {
  const uint lane = gl_LocalInvocationID.x;
  uint any = 0u;
  for (uint y = gl_WorkGroupID.x; y < pc.height; y += gl_NumWorkGroups.x)
    for (uint x = lane; x < pc.width; x += 256u) {
      const uint at = y * pc.stride_bytes + x * 2u;
      const uint ra = pc.ref_base + at, da = pc.dist_base + at;
      any |= sample_at(ref_words[ra >> 2], ra, 2u) | sample_at(dist_words[da >> 2], da, 2u);
    }
  fold[lane] = any;
  barrier();
  for (uint k = 128u; k > 0u; k >>= 1) {
    if (lane < k) fold[lane] |= fold[lane + k];
    barrier();
  }
  if (lane == 0u && fold[0] != 0u) atomicOr(result_words[pc.or_word], fold[0]);
}
