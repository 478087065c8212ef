#pragma once
// The extractor interface the engine sees. A CPU reference and its device twins implement the same
// interface and share one ExtractorInfo::options table, so their schemas are identical by
// construction. The engine never knows which backend produced a value; the receipt says.
#include <memory>
#include <span>
#include <string_view>

#include "core/options.hpp"
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

enum class Backend { kCpu, kCuda };
const char* to_string(Backend b);

struct ExtractorInfo {
  std::string_view name;
  std::span<const std::string_view> other_names;  // also accepted on the command line ("ssim")
  Backend backend = Backend::kCpu;
  OptionSchema options;
  // Output base names a model may request (libvmaf's provided_features, in our short form).
  std::span<const std::string_view> provided;
  // The names it writes, for --list, where they differ from `provided` (float_moment provides
  // "float_moment" and writes float_moment_ref1st, ...); empty = `provided`.
  std::span<const std::string_view> outputs;
  // extract() needs frames one at a time, in order (state carried from frame to frame).
  bool temporal = false;
  // libvmaf flags it VMAF_FEATURE_EXTRACTOR_TEMPORAL (float_motion; not integer motion, which is
  // PREV_REF): libvmaf runs it on its reading thread ahead of its thread pool, which puts its names
  // first in the output order (engine.cpp, step_of). Values are unaffected.
  bool libvmaf_temporal = false;
  // Twins only: the CPU extractor that computes the same features with the same options.
  std::string_view cpu_twin_of;
  // Twins only: can this context serve pictures of `format`? 0, -ENOTSUP, or another -errno.
  int (*check_context)(const OptionValues& options, const PictureFormat& format) = nullptr;
  // Validates option combinations (throws vqtwin::Error) and builds the context.
  std::unique_ptr<Extractor> (*create)(const OptionValues& options) = nullptr;
};

}  // namespace vqtwin
