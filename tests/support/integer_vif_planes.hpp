#pragma once
// Luma plane pairs for integer VIF's tests (tests/unit against the naive reference, tests/cpu_check
// between kernel sets): patterns that reach both branches of the statistic, both signs of sigma12,
// the sample extremes; stored as the extractor sees them, with a stride wider than the row.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "features/integer_vif/pipeline.hpp"

namespace vqtwin::integer_vif {

// Samples as plain integers, row-major.
struct Plane {
  int w = 0, h = 0;
  std::vector<std::uint32_t> v;
  std::uint32_t at(int i, int j) const { return v[std::size_t(i) * w + j]; }
};

// A pair of luma planes stored as the extractor sees them (uint8 for 8 bit, uint16 otherwise),
// with a stride wider than the row.
struct Pair {
  int w, h, bpc;
  Plane x, y;
  std::vector<std::uint8_t> x8, y8;
  std::vector<std::uint16_t> x16, y16;
  std::ptrdiff_t stride;

  LumaPlane ref() const { return bpc == 8 ? LumaPlane{x8.data(), stride} : LumaPlane{x16.data(), stride}; }
  LumaPlane dist() const { return bpc == 8 ? LumaPlane{y8.data(), stride} : LumaPlane{y16.data(), stride}; }
};

enum class Pattern { kRandom, kNoisyCopy, kCheckerMax, kGradient, kFlatPlusOne, kMaxVsZero };

inline Pair make_pair(int w, int h, int bpc, Pattern p, unsigned seed) {
  Pair r{w, h, bpc, {w, h, {}}, {w, h, {}}, {}, {}, {}, {}, w + 7};
  std::mt19937 rng(seed);
  const std::uint32_t maxv = (1u << bpc) - 1;
  std::uniform_int_distribution<std::uint32_t> any(0, maxv);
  std::normal_distribution<double> noise(0, double(maxv) / 20);
  r.x.v.resize(std::size_t(w) * h);
  r.y.v.resize(std::size_t(w) * h);
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      std::uint32_t a = 0, b = 0;
      switch (p) {
        case Pattern::kRandom: a = any(rng), b = any(rng); break;
        case Pattern::kNoisyCopy: {
          // Smooth content plus noise: exercises both branches and both signs of sigma12.
          const double base = maxv * (0.5 + 0.4 * std::sin(i * 0.3) * std::cos(j * 0.21));
          a = std::uint32_t(std::clamp(base + noise(rng), 0.0, double(maxv)));
          b = std::uint32_t(std::clamp(base + 2 * noise(rng), 0.0, double(maxv)));
          if ((i / 7 + j / 5) % 5 == 0) b = maxv - a;  // patches of negative correlation
          break;
        }
        case Pattern::kCheckerMax: a = ((i + j) & 1) ? maxv : 0, b = ((i / 2 + j) & 1) ? maxv : 0; break;
        case Pattern::kGradient: a = std::uint32_t(std::uint64_t(maxv) * (i + j) / (w + h)), b = maxv - a; break;
        case Pattern::kFlatPlusOne: a = maxv / 2, b = maxv / 2 + ((i * 3 + j) % 2); break;
        case Pattern::kMaxVsZero: a = ((i * 7 + j * 3) % 4 == 0) ? maxv : 0, b = any(rng) & 1 ? maxv : 0; break;
      }
      r.x.v[std::size_t(i) * w + j] = a;
      r.y.v[std::size_t(i) * w + j] = b;
    }
  const std::size_t n = std::size_t(r.stride) * h;
  if (bpc == 8) {
    r.x8.assign(n, 0xAB);
    r.y8.assign(n, 0xCD);
  } else {
    r.x16.assign(n, 0xABCD);
    r.y16.assign(n, 0x1234);
  }
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      const std::size_t d = std::size_t(i) * r.stride + j;
      if (bpc == 8) {
        r.x8[d] = std::uint8_t(r.x.at(i, j));
        r.y8[d] = std::uint8_t(r.y.at(i, j));
      } else {
        r.x16[d] = std::uint16_t(r.x.at(i, j));
        r.y16[d] = std::uint16_t(r.y.at(i, j));
      }
    }
  return r;
}

}  // namespace vqtwin::integer_vif
