#pragma once
// Runs one CPU extractor on pictures made in memory, for the feature unit tests.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/registry.hpp"

namespace vqtwin::test {

class MapSink final : public FeatureSink {
 public:
  void put(std::string_view name, unsigned frame, double value) override {
    std::lock_guard lock(mutex_);
    values[std::string(name)][frame] = value;
  }
  void aggregate(std::string_view name, double value) override {
    std::lock_guard lock(mutex_);
    aggregates[std::string(name)] = value;
  }
  std::map<std::string, std::map<unsigned, double>> values;
  std::map<std::string, double> aggregates;

 private:
  std::mutex mutex_;
};

// A picture whose luma sample (x, y) is f(x, y); chroma mid-grey.
inline Picture make_picture(const PictureFormat& fmt, const std::function<unsigned(int, int)>& f) {
  Picture pic(fmt);
  const unsigned mid = 1u << (fmt.bitdepth - 1);
  for (int p = 0; p < fmt.num_planes(); ++p)
    for (int y = 0; y < pic.height(p); ++y)
      for (int x = 0; x < pic.width(p); ++x) {
        const unsigned v = p == 0 ? f(x, y) : mid;
        if (fmt.bitdepth > 8)
          pic.row<std::uint16_t>(p, y)[x] = std::uint16_t(v);
        else
          pic.row<std::uint8_t>(p, y)[x] = std::uint8_t(v);
      }
  return pic;
}

// create + init; throws what they throw.
inline std::unique_ptr<Extractor> make_extractor(const std::string& name, const OptionPairs& options,
                                                 const PictureFormat& fmt) {
  const ExtractorInfo* info = find_extractor(name);
  if (!info) throw std::runtime_error("no extractor " + name);
  auto ex = info->create(OptionValues(info->spec->options, options, info->name));
  ex->init(fmt);
  return ex;
}

// The per-frame values of one frame pair.
inline std::map<std::string, double> run_one(const std::string& name, const OptionPairs& options,
                                             const Picture& ref, const Picture& dist) {
  auto ex = make_extractor(name, options, ref.format());
  MapSink sink;
  ex->extract(ref, dist, 0, sink);
  ex->flush(sink);
  std::map<std::string, double> out;
  for (const auto& [n, frames] : sink.values) out[n] = frames.at(0);
  return out;
}

}  // namespace vqtwin::test
