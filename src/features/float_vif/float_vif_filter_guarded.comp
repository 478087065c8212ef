#version 450
// float_vif's filter passes for the outputs float_vif_filter.comp listed (inputs that could meet the
// denormal range): every operation through float_vif_fp32.glsl's guarded fmul_e / fadd_e (the device's
// result where no operand or result is in the denormal range, else the exact integer one). A few
// workgroups stride over the list (usually empty).
#extension GL_GOOGLE_include_directive : require
#include "float_vif_filter.glsl"

#define MUL fmul_e
#define ADD fadd_e
#define FN(name) name##_guarded
#define CHECK(x)
#include "float_vif_passes.glsl"

void main() {
  g_all_soft = pc.all_soft != 0u;
  const uint ow = out_width(), count = list[pc.counter];
  for (uint k = gl_GlobalInvocationID.x; k < count; k += gl_NumWorkGroups.x * 256u) {
    const uint idx = list[32u + k];
    const uint i = idx / ow, j = idx - i * ow;
    bool ok = true;
    float v[5];
    output_guarded(i, j, ok, v);
    store(idx, i, j, v);
  }
}
