// float_vif's Gaussian kernels and kernel-scale check (spec: float_vif.md §3).
#include <cmath>
#include <vector>

#include "features/float_vif/math.hpp"

namespace vqtwin::float_vif {
namespace {

// libvmaf's list, each value computed in float as it is written there.
const float kValidKernelScales[] = {
    1.0f,         1.0f / 2.0f,  3.0f / 2.0f,  2.0f,  2.0f / 3.0f, 24.0f / 10.0f, 360.0f / 97.0f,
    4.0f / 3.0f,  3.5f / 3.0f,  3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f, 3.0f, 1.0f / 2.25f,
    1.4746f,      1.54f,        1.6f,         1.06667f, 0.711111f,  0.740740f,    1.111111f,
};

int odd_ceiling(float f) {
  const int c = int(std::ceil(f));
  return c % 2 == 0 ? c + 1 : c;
}

}  // namespace

bool kernelscale_is_valid(double ks) {
  const float k = float(ks);
  for (float v : kValidKernelScales)
    if (double(std::fabs(k - v)) < 1e-3) return true;
  return false;
}

int kernel_width(int scale, double ks) {
  const int n = (1 << (4 - scale)) + 1;
  const int w = odd_ceiling(float(n) * float(ks));
  return w > 3 ? w : 3;
}

std::vector<float> make_kernel(int scale, double ks) {
  const int width = kernel_width(scale, ks);
  const float sigma = float(width) / 5.0f;
  const int half = (width - 1) / 2;
  std::vector<float> k(std::size_t(width), 0.0f);
  float sum = 0.0f;
  for (int i = 0; i < width; ++i) {
    const float x = float(i - half);
    // Left to right in double: ((((-0.5 * x) / sigma) * x) / sigma).
    const float pdf_num = float(std::exp(-0.5 * double(x) / double(sigma) * double(x) / double(sigma)));
    const float pdf_den = float(1.0 / (double(sigma) * std::sqrt(2.0 * M_PI)));
    k[std::size_t(i)] = pdf_num / pdf_den;
    sum += k[std::size_t(i)];
  }
  for (float& v : k) v /= sum;
  return k;
}

}  // namespace vqtwin::float_vif
