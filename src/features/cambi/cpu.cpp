// cambi, CPU reference (behaviour: README.md in this folder; libvmaf 3.2's cambi.c).
//
// Not temporal: frames run concurrently, each borrowing a workspace. The setup (encode and source
// sizes, windows, visibility thresholds) is the front's (front.hpp), fixed at init from the options
// and the first picture, with libvmaf's rules and refusals.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/cambi/front.hpp"
#include "features/cambi/heatmaps.hpp"
#include "features/cambi/math.hpp"
#include "features/cambi/pipeline.hpp"
#include "features/cambi/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace cambi {
namespace {

class CambiCpu final : public Extractor {
 public:
  explicit CambiCpu(const OptionValues& o) : front_(o) {}

  void init(const PictureFormat& f) override {
    front_.init(f);
    heatmaps_.reset();
    if (!front_.heatmaps_path().empty())
      heatmaps_ = std::make_unique<Heatmaps>(front_.heatmaps_path(), front_.encode().w, front_.encode().h,
                                             front_.encode().window, front_.setup().num_diffs);
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    std::unique_ptr<Workspace> ws = take_workspace();
    ScaleSink sink;
    if (heatmaps_)
      sink = [&](int scale, const float* v, int w, int h) { heatmaps_->write(scale, v, w, h, index); };
    const double dist_score = score_picture(front_.setup(), front_.encode(), dist, *ws, heatmaps_ ? &sink : nullptr);
    const double src_score = front_.full_ref() ? score_picture(front_.setup(), front_.source(), ref, *ws, nullptr) : 0;
    front_.emit(dist_score, src_score, index, out);
    give_back(std::move(ws));
  }

 private:
  std::unique_ptr<Workspace> take_workspace() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return std::make_unique<Workspace>();
    std::unique_ptr<Workspace> ws = std::move(free_.back());
    free_.pop_back();
    return ws;
  }
  void give_back(std::unique_ptr<Workspace> ws) {
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(ws));
  }

  Front front_;
  std::unique_ptr<Heatmaps> heatmaps_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Workspace>> free_;
};

}  // namespace
}  // namespace cambi

extern const ExtractorInfo kCambiInfo;
const ExtractorInfo kCambiInfo = cpu_extractor<cambi::CambiCpu>(cambi::kSpec);

}  // namespace vqtwin
