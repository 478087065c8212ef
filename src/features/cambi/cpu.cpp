// cambi, CPU reference (behaviour: README.md in this folder; libvmaf 3.2's cambi.c).
//
// Not temporal: frames run concurrently, each borrowing a workspace. The setup (encode and source
// sizes, windows, visibility thresholds) is the front's (front.hpp), fixed at init from the options
// and the first picture, with libvmaf's rules and refusals.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/cambi/front.hpp"
#include "features/cambi/math.hpp"
#include "features/cambi/pipeline.hpp"
#include "features/cambi/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace cambi {
namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

// The per-scale heatmap files of the distorted picture (libvmaf's layout: one raw 16-bit native-endian
// gray file per scale, frame after frame, each value 65535 * c / (largest contrast weight * window^2 / 4)).
class Heatmaps {
 public:
  Heatmaps(const std::string& folder, int enc_w, int enc_h, int window, int num_diffs) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) throw Error("cambi: cannot create heatmaps_path '" + folder + "': " + ec.message());
    int w = enc_w, h = enc_h;
    for (int s = 0; s < kNumScales; ++s) {
      // Named after the encode size halved per scale, as libvmaf names them (with
      // cambi_high_res_speedup the data of scale s is half that size).
      const std::string path = folder + "/cambi_heatmap_scale_" + std::to_string(s) + "_" + size_text(w, h) + "_16b.gray";
      const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (fd < 0) throw Error("cambi: could not open heatmaps_path: " + path + " (" + std::strerror(errno) + ")");
      fds_[s] = fd;
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
    }
    int max_weight = kContrastWeights[0];
    for (int d = 0; d < num_diffs; ++d) max_weight = std::max(max_weight, kContrastWeights[d]);
    scaling_ = 65535.0 / (max_weight * window * window / 4);
  }
  ~Heatmaps() {
    for (int fd : fds_)
      if (fd >= 0) ::close(fd);
  }
  Heatmaps(const Heatmaps&) = delete;
  Heatmaps& operator=(const Heatmaps&) = delete;

  // Frame `frame`'s values of one scale, at their place in the file (frames may come in any order).
  void write(int scale, const float* values, int w, int h, unsigned frame) const {
    std::vector<std::uint16_t> row(static_cast<std::size_t>(w));
    for (int i = 0; i < h; ++i) {
      for (int j = 0; j < w; ++j) row[std::size_t(j)] = std::uint16_t(scaling_ * values[std::ptrdiff_t(i) * w + j]);
      const off_t offset = off_t((std::uint64_t(frame) * std::uint64_t(h) + std::uint64_t(i)) * std::uint64_t(w) * 2);
      const std::size_t bytes = row.size() * 2;
      if (::pwrite(fds_[scale], row.data(), bytes, offset) != ssize_t(bytes))
        throw Error(std::string("cambi: could not write a heatmap (") + std::strerror(errno) + ")");
    }
  }

 private:
  int fds_[kNumScales] = {-1, -1, -1, -1, -1};
  double scaling_ = 0;
};

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
