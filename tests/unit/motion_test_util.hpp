#pragma once
// Drives one extractor the way the engine does (init on the first picture, extract in frame order,
// flush) and records what it writes, for the motion and float_psnr unit tests.
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/extractor.hpp"
#include "core/registry.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::test {

struct Put {
  std::string name;
  unsigned frame;
  double value;
  bool at_flush;
};

class RecordingSink final : public FeatureSink {
 public:
  void put(std::string_view name, unsigned frame, double value) override {
    puts.push_back({std::string(name), frame, value, flushing});
  }
  void aggregate(std::string_view, double) override {}
  // name -> per-frame values (NaN where missing).
  std::vector<double> series(const std::string& name) const {
    std::vector<double> out;
    for (const Put& p : puts)
      if (p.name == name) {
        if (out.size() <= p.frame) out.resize(p.frame + 1, std::numeric_limits<double>::quiet_NaN());
        out[p.frame] = p.value;
      }
    return out;
  }
  // Names in order of first appearance.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Put& p : puts)
      if (std::find(out.begin(), out.end(), p.name) == out.end()) out.push_back(p.name);
    return out;
  }
  std::vector<Put> puts;
  bool flushing = false;
};

inline std::unique_ptr<Extractor> make_extractor(const std::string& name, const OptionPairs& options = {}) {
  const ExtractorInfo* info = find_extractor(name);
  if (!info) throw std::logic_error("no extractor " + name);
  return info->create(OptionValues(info->spec->options, options, info->name));
}

// Runs the extractor over `frames` (reference and distorted pictures alike unless `dist` is given).
inline RecordingSink run_frames(const std::string& name, const OptionPairs& options, const std::vector<Picture>& frames,
                                const std::vector<Picture>* dist = nullptr) {
  auto e = make_extractor(name, options);
  RecordingSink sink;
  e->init(frames.at(0).format());
  for (unsigned i = 0; i < frames.size(); ++i) e->extract(frames[i], dist ? (*dist)[i] : frames[i], i, sink);
  sink.flushing = true;
  e->flush(sink);
  return sink;
}

// A picture whose every sample of every plane is `value(plane, x, y)`.
inline Picture make_picture(const PictureFormat& f, const std::function<unsigned(int, int, int)>& value) {
  Picture pic(f);
  for (int p = 0; p < f.num_planes(); ++p)
    for (int y = 0; y < f.plane_height(p); ++y)
      for (int x = 0; x < f.plane_width(p); ++x) {
        if (f.bitdepth > 8) pic.row<std::uint16_t>(p, y)[x] = std::uint16_t(value(p, x, y));
        else pic.row<std::uint8_t>(p, y)[x] = std::uint8_t(value(p, x, y));
      }
  return pic;
}

inline Picture random_picture(const PictureFormat& f, std::mt19937& rng) {
  const unsigned mask = (1u << f.bitdepth) - 1;
  return make_picture(f, [&](int, int, int) { return unsigned(rng()) & mask; });
}

// Samples of one plane as unsigned values (any depth).
inline unsigned sample(const Picture& pic, int p, int x, int y) {
  return pic.format().bitdepth > 8 ? pic.row<std::uint16_t>(p, y)[x] : pic.row<std::uint8_t>(p, y)[x];
}

inline PictureFormat format(int w, int h, int bitdepth = 8, ChromaFormat c = ChromaFormat::k420) {
  return PictureFormat{w, h, bitdepth, c};
}

}  // namespace vqtwin::test
