// speed_chroma and speed_temporal, CPU references (behaviour: README.md in this folder; libvmaf 3.2's
// speed.c). speed_chroma scores the U and V planes of each frame pair (frames run concurrently);
// speed_temporal scores the frame differences of the luma plane (frames in order).
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "core/implementation.hpp"
#include "features/float_vif/math.hpp"
#include "features/speed/core.hpp"
#include "features/speed/front.hpp"
#include "features/speed/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace speed {
namespace {

// libvmaf's picture_copy with offset -128: v - 128 (8-bit), v / 2^(bpc-8) - 128 otherwise, over the
// top-left w x h samples of plane p (the kernel table's vector loops).
void to_float(const SpeedKernels& k, const Picture& pic, int p, int w, int h, FloatPlane& out) {
  out.resize(w, h);
  const int bpc = pic.format().bitdepth;
  if (bpc == 8) {
    for (int y = 0; y < h; ++y) k.to_float8(pic.row<std::uint8_t>(p, y), out.row(y), w);
    return;
  }
  const float scaler = sample_scaler(bpc);
  for (int y = 0; y < h; ++y) k.to_float16(pic.row<std::uint16_t>(p, y), scaler, out.row(y), w);
}

struct Workspace {
  FloatPlane ref, dis, a, b, scratch;
};

class SpeedChromaCpu final : public Extractor {
 public:
  explicit SpeedChromaCpu(const OptionValues& o)
      : options_(read_options(o, "speed_chroma", true)),
        outputs_(o) {}

  void init(const PictureFormat& f) override {
    speed_.emplace(options_, chroma_dimensions(f, options_.prescale));
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    std::unique_ptr<Workspace> ws = take();
    float score[2];
    bool singular[2];
    for (int c = 0; c < 2; ++c) {
      const Dimensions& d = speed_->dims();
      to_float(speed_->kernels(), ref, 1 + c, d.w, d.h, ws->ref);
      to_float(speed_->kernels(), dist, 1 + c, d.w, d.h, ws->dis);
      bool rs = false, ds = false;
      score[c] = speed_->score(ws->ref, ws->dis, ws->a, ws->b, ws->scratch, &rs, &ds);
      singular[c] = rs || ds;
    }
    give_back(std::move(ws));
    outputs_.emit(score, singular, index, out);
  }

 private:
  std::unique_ptr<Workspace> take() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return std::make_unique<Workspace>();
    auto ws = std::move(free_.back());
    free_.pop_back();
    return ws;
  }
  void give_back(std::unique_ptr<Workspace> ws) {
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(ws));
  }

  Options options_;
  ChromaOutputs outputs_;
  std::optional<Speed> speed_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Workspace>> free_;
};

class SpeedTemporalCpu final : public Extractor {
 public:
  explicit SpeedTemporalCpu(const OptionValues& o)
      : options_(read_options(o, "speed_temporal", false)),
        use_ref_diff_(o.get_bool("speed_use_ref_diff")),
        name_(o.output_name(kTemporal)) {}

  void init(const PictureFormat& f) override {
    speed_.emplace(options_, temporal_dimensions(f, options_.prescale));
  }

  // Frames in order: the score of frame i compares the differences (i-1) - i of both pictures.
  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const Dimensions& d = speed_->dims();
    const SpeedKernels& k = speed_->kernels();
    to_float(k, ref, 0, d.w, d.h, cur_ref_);
    to_float(k, dist, 0, d.w, d.h, cur_dis_);
    if (index > 0) {
      // prev - current, in place in the previous planes (libvmaf's subtract_image).
      const FloatPlane& dis_base = use_ref_diff_ ? cur_ref_ : cur_dis_;
      for (int y = 0; y < d.h; ++y) {
        k.subtract(prev_ref_.row(y), cur_ref_.row(y), d.w);
        k.subtract(prev_dis_.row(y), dis_base.row(y), d.w);
      }
      out.put(name_, index, speed_->score(prev_ref_, prev_dis_, ws_.a, ws_.b, ws_.scratch));
    } else {
      out.put(name_, index, 0.0);
    }
    std::swap(prev_ref_, cur_ref_);
    std::swap(prev_dis_, cur_dis_);
  }

 private:
  Options options_;
  bool use_ref_diff_;
  std::string name_;
  std::optional<Speed> speed_;
  FloatPlane prev_ref_, prev_dis_, cur_ref_, cur_dis_;
  Workspace ws_;
};

}  // namespace
}  // namespace speed

extern const ExtractorInfo kSpeedChromaInfo;
const ExtractorInfo kSpeedChromaInfo = cpu_extractor<speed::SpeedChromaCpu>(speed::kChromaSpec);
extern const ExtractorInfo kSpeedTemporalInfo;
const ExtractorInfo kSpeedTemporalInfo = cpu_extractor<speed::SpeedTemporalCpu>(speed::kTemporalSpec);

}  // namespace vqtwin
