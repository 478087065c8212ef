#version 450
// Clears float_vif's 32 list counters at the start of a frame (float_vif_filter.comp).
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) writeonly buffer List { uint list[]; };
void main() { list[gl_LocalInvocationID.x] = 0u; }
