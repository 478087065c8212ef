#version 450
// float_vif's vif_prescale with the guarded fp32 operations (float_vif_prescale.glsl): a weight below
// 2^-25 in magnitude (bicubic's near its ends) could bring a product near the denormal range.
#extension GL_GOOGLE_include_directive : require
#define MUL fmul_e
#define ADD fadd_e
#include "float_vif_prescale.glsl"
