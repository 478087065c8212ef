#pragma once
// What the device benchmarks share: comma lists, a sink that only keeps values alive, and the
// textured test frames (a moving pattern, so motion and SSIM see real work; the distorted picture is
// the reference quantised).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/extractor.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::bench_support {

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

// A benchmark's main(): its exit code, or one "NAME: error: ..." line and 1 when it throws.
template <class Bench>
int main_of(const char* name, Bench&& bench) {
  try {
    return bench();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", name, e.what());
    return 1;
  }
}

class NullSink final : public FeatureSink {
 public:
  void put(std::string_view, unsigned, double v) override { sum += v; }
  void aggregate(std::string_view, double) override {}
  double sum = 0;
};

inline void paint(Picture& p, unsigned frame, bool distorted) {
  const PictureFormat& f = p.format();
  const unsigned max = (1u << f.bitdepth) - 1, q = 8u << (f.bitdepth - 8);
  for (int pl = 0; pl < f.num_planes(); ++pl)
    for (int y = 0; y < p.height(pl); ++y)
      for (int x = 0; x < p.width(pl); ++x) {
        double v = (0.5 + 0.3 * std::sin(0.05 * (x + 2.0 * frame) + 0.03 * y + pl) + 0.1 * std::sin(0.7 * x * y)) * max;
        if (distorted) v = std::round(v / q) * q;
        const unsigned s = unsigned(std::clamp(v, 0.0, double(max)));
        if (f.bitdepth > 8) p.row<std::uint16_t>(pl, y)[x] = std::uint16_t(s);
        else p.row<std::uint8_t>(pl, y)[x] = std::uint8_t(s);
      }
}

}  // namespace vqtwin::bench_support
