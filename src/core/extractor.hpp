#pragma once
// The extractor interface the engine sees. A CPU reference and its device twins implement the same
// interface and share one ExtractorInfo::options table, so their schemas are identical by
// construction. The engine never knows which backend produced a value; the receipt says.
#include <memory>
#include <span>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"
#include "core/run_settings.hpp"
#include "vqtwin/backend.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin {

// Where an extractor writes. Thread-safe: several frames may be in flight at once.
class FeatureSink {
 public:
  virtual ~FeatureSink() = default;
  // A per-frame value. `frame` may be earlier than the frame being extracted (temporal features
  // emit a frame's value once its successor is known, or at flush).
  virtual void put(std::string_view name, unsigned frame, double value) = 0;
  // A clip-level value (aggregate_metrics), e.g. psnr's apsnr_y at flush.
  virtual void aggregate(std::string_view name, double value) = 0;
};

class Extractor {
 public:
  virtual ~Extractor() = default;
  // Once, with the format of the first picture pair, before any extract(). Throws vqtwin::Error
  // when this context cannot compute that format (too small, unsupported bit depth, ...).
  virtual void init(const PictureFormat& format) = 0;
  // One frame pair. For non-temporal extractors this is called concurrently for several frames
  // and in any order; for temporal ones, one frame at a time in frame order.
  virtual void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) = 0;
  // After the last frame (index of the last frame extracted is known to the extractor).
  virtual void flush(FeatureSink& out) {}
};

// A twin's first-picture capability check: 0 (serves it), -ENOTSUP (cannot; a model context then
// runs the CPU extractor), or another -errno (an error).
using CheckContext = int (*)(const OptionValues& options, const PictureFormat& format);

// One implementation of a feature: the CPU reference or a device twin. Its identity (names,
// options, outputs, temporal flags) is the spec's; core/implementation.hpp registers one in a line.
struct ExtractorInfo {
  const FeatureSpec* spec = nullptr;
  Backend backend = Backend::kCpu;
  std::string_view name;  // spec->name for the CPU reference, e.g. "psnr_cuda" for a twin
  CheckContext check_context = nullptr;  // twins only
  // Validates option combinations (throws vqtwin::Error) and builds the context.
  std::unique_ptr<Extractor> (*make)(const OptionValues& options, const RunSettings& run) = nullptr;

  // make() with the run's settings (the defaults where a test or a benchmark has no run).
  std::unique_ptr<Extractor> create(const OptionValues& options, const RunSettings& run = {}) const {
    return make(options, run);
  }
};

}  // namespace vqtwin
