#version 450
// float_vif's vif_prescale with the device's fp32 operations (float_vif_prescale.glsl).
#extension GL_GOOGLE_include_directive : require
#define MUL fmul_n
#define ADD fadd_n
#include "float_vif_prescale.glsl"
