// float_vif's prescale (spec: float_vif.md §8): every method's sample is cells.hpp's prescaled_at,
// the one implementation the CUDA twin runs per output too. Types as libvmaf: sample positions are
// double expressions rounded to float, weights and sums float, the edge mirror works on floats.
#include "features/float_vif/prescale.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "features/float_vif/cells.hpp"

namespace vqtwin::float_vif {

float lanczos4_weight(float x) {
  const float a = 4.0f;
  if (x == 0.0f) return 1.0f;
  if (x > -a && x < a)
    return float(double(a) * std::sin(M_PI * double(x)) * std::sin(M_PI * double(x) / double(a)) /
                 (M_PI * M_PI * double(x) * double(x)));
  return 0.0f;
}

bool parse_prescale_method(std::string_view name, PrescaleMethod& out) {
  if (name == "nearest") out = PrescaleMethod::kNearest;
  else if (name == "bilinear") out = PrescaleMethod::kBilinear;
  else if (name == "bicubic") out = PrescaleMethod::kBicubic;
  else if (name == "lanczos4") out = PrescaleMethod::kLanczos4;
  else return false;
  return true;
}

void prescale(const FloatPlane& src, PrescaleMethod method, int dst_w, int dst_h, FloatPlane& dst) {
  dst.resize(dst_w, dst_h);
  if (dst_w == src.w && dst_h == src.h) {
    std::copy(src.px.begin(), src.px.begin() + std::ptrdiff_t(src.w) * src.h, dst.px.begin());
    return;
  }
  const float rx = float(src.w) / float(dst_w);
  const float ry = float(src.h) / float(dst_h);
  // Lanczos-4 weights depend on the output column (row) alone: once per column and row, as the twin.
  std::vector<LanczosAxis> ax, ay;
  if (method == PrescaleMethod::kLanczos4) {
    ax = lanczos_axes(dst_w, rx);
    ay = lanczos_axes(dst_h, ry);
  }
  for (int y = 0; y < dst_h; ++y) {
    float* d = dst.row(y);
    for (int x = 0; x < dst_w; ++x)
      d[x] = prescaled_at(method, src.px.data(), src.w, src.h, rx, ry, ax.data(), ay.data(), x, y);
  }
}

}  // namespace vqtwin::float_vif
