#version 450
// float_vif's filter passes with the device's own fp32 operations (float_vif_filter.glsl), one invocation
// per output. An output whose inputs are not all 0 or at least 2^-44 (mode 0) or 2^-90 (modes 1-3) in
// magnitude could meet the denormal range, which the device may flush: it is appended to the list and
// computed by float_vif_filter_guarded.comp instead (a separate pipeline: lavapipe runs both sides of a
// branch, so the integer fallback stays out of this shader). docs/exactness.md (float_vif) has the bound.
#extension GL_GOOGLE_include_directive : require
#include "float_vif_filter.glsl"

// Mode 0 squares its inputs (x*x >= 2^-88, weighted >= 2^-98); modes 1-3 only weight them (>= 2^-100
// with taps >= 2^-10). Every product is then 0 or at least 2^-100, so every sum is a multiple of 2^-123.
bool plain_input(float x) {
  const uint b = floatBitsToUint(x) & 0x7FFFFFFFu;
  return b == 0u || b >= (pc.mode == 0u ? (127u - 44u) << 23 : (127u - 90u) << 23);
}

#define MUL fmul_n
#define ADD fadd_n
#define FN(name) name##_plain
#define CHECK(x) ok = ok && plain_input(x)
#include "float_vif_passes.glsl"

void main() {
  const uint ow = out_width(), n = ow * out_height();
  for (uint idx = gl_GlobalInvocationID.x; idx < n; idx += gl_NumWorkGroups.x * 256u) {
    const uint i = idx / ow, j = idx - i * ow;
    bool ok = pc.all_soft == 0u;
    float v[5];
    output_plain(i, j, ok, v);
    if (ok) store(idx, i, j, v);
    else list[32u + atomicAdd(list[pc.counter], 1u)] = idx;
  }
}
