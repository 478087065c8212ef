#pragma once
// float_adm's CPU computation of one frame's per-scale values, for the CPU reference (cpu.cpp) and for
// a twin that hands a frame back to the CPU (vulkan.cpp: a frame whose fp32 values would go subnormal).
#include <vector>

#include "features/float_adm/dwt.hpp"
#include "features/float_adm/front.hpp"
#include "features/float_adm/scale.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::float_adm {

// The memory of one frame in flight, reused from frame to frame.
struct CpuWorkspace {
  std::vector<float> ref_in, dis_in;  // samples - 128, packed w x h
  Subbands ref[2], dis[2];            // this scale's bands and the previous scale's (its a band is the input)
  ScaleWork scale;
  std::vector<float> scratch;
};

// The four scales' num / den / aim of the pair (the front's options and format), as the CPU computes them.
FrameScores cpu_frame_scores(const Front& front, const Picture& ref, const Picture& dist, CpuWorkspace& ws);

}  // namespace vqtwin::float_adm
