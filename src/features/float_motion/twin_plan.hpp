// float_motion's device buffers, declared the same way by every backend's twin: for each plane of
// Front::twin_planes, its ring of blurred frames (and its half-size ring through the backend's own
// declare_half, whose resampler tables differ in layout), then one scratch plane and one row of
// per-row totals sized for the largest plane.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "backends/twin_seam.hpp"
#include "features/float_motion/front.hpp"

namespace vqtwin {
namespace float_motion {

struct TwinScratch {
  seam::Buffer<float> tmp, rows;
};

// `Plane` derives from TwinPlane and holds `blur[kRing]`; `declare_half(plane, plan)` adds its half-size
// buffers with motion_add_scale1; `planted_stride` is the backends' plant that reads a chroma plane at
// its stored stride instead of libvmaf's.
template <class Plane, class DeclareHalf>
TwinScratch declare_twin_planes(const Front& front, const PictureFormat& f, seam::TwinPlan<float>& plan,
                                bool planted_stride, std::vector<Plane>& planes, DeclareHalf&& declare_half) {
  std::size_t largest = 0;
  int tallest = 0;
  for (const TwinPlane& t : front.twin_planes(f)) {
    Plane pl;
    static_cast<TwinPlane&>(pl) = t;
    if (planted_stride) pl.view.read = pl.view.stored;
    const std::size_t n = std::size_t(pl.w) * std::size_t(pl.h);
    largest = std::max(largest, n);
    tallest = std::max(tallest, pl.h);
    for (auto& b : pl.blur) b = plan.template persistent<float>(n);
    if (front.params().add_scale1) declare_half(pl, plan);
    planes.push_back(pl);
  }
  return {plan.template scratch<float>(largest), plan.template scratch<float>(std::size_t(tallest))};
}

}  // namespace float_motion
}  // namespace vqtwin
