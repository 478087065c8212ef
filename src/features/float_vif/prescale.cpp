// float_vif's prescale resamplers (spec: float_vif.md §8). Types as libvmaf: sample positions are
// double expressions rounded to float, weights and sums float, the edge mirror works on floats.
#include "features/float_vif/prescale.hpp"

#include <algorithm>
#include <cmath>

namespace vqtwin::float_vif {
namespace {

// Reflect-101 on float positions, applied once: -v below 0, 2(n-1) - v above n-1.
inline float mirror_f(float v, int n) {
  const float right = float(n - 1);
  return v < 0.0f ? -v : (v > right ? 2.0f * right - v : v);
}
inline int mirror_i(int v, int n) { return int(mirror_f(float(v), n)); }

void nearest(const FloatPlane& src, FloatPlane& dst) {
  const float rx = float(src.w) / float(dst.w);
  const float ry = float(src.h) / float(dst.h);
  for (int y = 0; y < dst.h; ++y) {
    const float* s = src.row(int(float(y) * ry));
    float* d = dst.row(y);
    for (int x = 0; x < dst.w; ++x) d[x] = s[int(float(x) * rx)];
  }
}

// Centre-aligned source coordinate: ((x + 0.5) * ratio - 0.5) in double, rounded to float.
inline float centre(int x, float ratio) { return float((double(x) + 0.5) * double(ratio) - 0.5); }

void bilinear(const FloatPlane& src, FloatPlane& dst) {
  const float rx = float(src.w) / float(dst.w);
  const float ry = float(src.h) / float(dst.h);
  std::vector<int> x1(std::size_t(dst.w)), x2(std::size_t(dst.w));
  std::vector<float> dxs(std::size_t(dst.w));
  for (int x = 0; x < dst.w; ++x) {
    const float xx = centre(x, rx);
    x1[std::size_t(x)] = int(mirror_f(std::floor(xx), src.w));
    x2[std::size_t(x)] = int(mirror_f(std::ceil(xx), src.w));
    dxs[std::size_t(x)] = xx - float(x1[std::size_t(x)]);  // from the mirrored index, as libvmaf
  }
  for (int y = 0; y < dst.h; ++y) {
    const float yy = centre(y, ry);
    const int y1 = int(mirror_f(std::floor(yy), src.h));
    const int y2 = int(mirror_f(std::ceil(yy), src.h));
    const float dy = yy - float(y1);
    const float* r1 = src.row(y1);
    const float* r2 = src.row(y2);
    float* d = dst.row(y);
    for (int x = 0; x < dst.w; ++x) {
      const int a = x1[std::size_t(x)], b = x2[std::size_t(x)];
      const float dx = dxs[std::size_t(x)];
      d[x] = (1.0f - dy) * (1.0f - dx) * r1[a] + (1.0f - dy) * dx * r1[b] + dy * (1.0f - dx) * r2[a] +
             dy * dx * r2[b];
    }
  }
}

float bicubic_weight(float t) {
  const float a = -0.75f;
  if (t < 0.0f) t = -t;
  if (t < 1.0f) return ((a + 2.0f) * t - (a + 3.0f)) * t * t + 1.0f;
  if (t < 2.0f) return (((t - 5.0f) * t + 8.0f) * t - 4.0f) * a;
  return 0.0f;
}

float bicubic_at(const FloatPlane& src, float x, float y) {
  const int x0 = int(std::floor(x));
  const int y0 = int(std::floor(y));
  const float dx = x - float(x0);
  const float dy = y - float(y0);
  float wx[4], wy[4];
  for (int i = -1; i <= 2; ++i) {
    wx[i + 1] = bicubic_weight(float(i) - dx);
    wy[i + 1] = bicubic_weight(float(i) - dy);
  }
  float v = 0.0f;
  for (int j = -1; j <= 2; ++j)
    for (int i = -1; i <= 2; ++i) {
      const float weight = wx[i + 1] * wy[j + 1];
      v += src.row(mirror_i(y0 + j, src.h))[mirror_i(x0 + i, src.w)] * weight;
    }
  return v;
}

}  // namespace

float lanczos4_weight(float x) {
  const float a = 4.0f;
  if (x == 0.0f) return 1.0f;
  if (x > -a && x < a)
    return float(double(a) * std::sin(M_PI * double(x)) * std::sin(M_PI * double(x) / double(a)) /
                 (M_PI * M_PI * double(x) * double(x)));
  return 0.0f;
}

namespace {

float lanczos4_at(const FloatPlane& src, float x, float y) {
  constexpr int a = 4;
  const int x0 = int(std::floor(x));
  const int y0 = int(std::floor(y));
  const float dx = x - float(x0);
  const float dy = y - float(y0);
  float wx[2 * a + 1], wy[2 * a + 1];
  for (int i = -a; i <= a; ++i) {
    wx[i + a] = lanczos4_weight(float(i) - dx);
    wy[i + a] = lanczos4_weight(float(i) - dy);
  }
  float v = 0.0f;
  float weight_sum = 0.0f;
  for (int iy = -a; iy <= a; ++iy)
    for (int ix = -a; ix <= a; ++ix) {
      const float weight = wx[ix + a] * wy[iy + a];
      weight_sum += weight;
      v += src.row(mirror_i(y0 + iy, src.h))[mirror_i(x0 + ix, src.w)] * weight;
    }
  return v / weight_sum;
}

template <float (*Sample)(const FloatPlane&, float, float)>
void centred(const FloatPlane& src, FloatPlane& dst) {
  const float rx = float(src.w) / float(dst.w);
  const float ry = float(src.h) / float(dst.h);
  for (int y = 0; y < dst.h; ++y) {
    const float yy = centre(y, ry);
    float* d = dst.row(y);
    for (int x = 0; x < dst.w; ++x) d[x] = Sample(src, centre(x, rx), yy);
  }
}

}  // namespace

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
  switch (method) {
    case PrescaleMethod::kNearest: nearest(src, dst); break;
    case PrescaleMethod::kBilinear: bilinear(src, dst); break;
    case PrescaleMethod::kBicubic: centred<bicubic_at>(src, dst); break;
    case PrescaleMethod::kLanczos4: centred<lanczos4_at>(src, dst); break;
  }
}

}  // namespace vqtwin::float_vif
