#pragma once
// float_vif's optional resize of the luma plane before VIF (options vif_prescale and
// vif_prescale_method; spec: float_vif.md §8). Not used by the VMAF models.
#include <string_view>

#include "features/float_vif/scale.hpp"

namespace vqtwin::float_vif {

enum class PrescaleMethod { kNearest, kBilinear, kBicubic, kLanczos4 };

// False for a name libvmaf does not know.
bool parse_prescale_method(std::string_view name, PrescaleMethod& out);

// libvmaf's (int)(n * ps + 0.5).
inline int prescaled_size(int n, double ps) { return int(double(n) * ps + 0.5); }

// The Lanczos-4 weight of offset x (libvmaf's double sin, rounded to float); 0 outside (-4, 4).
float lanczos4_weight(float x);

// dst = src resampled to dst_w x dst_h; a plain copy when the size does not change (any method).
void prescale(const FloatPlane& src, PrescaleMethod method, int dst_w, int dst_h, FloatPlane& dst);

}  // namespace vqtwin::float_vif
