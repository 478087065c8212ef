// cambi, CPU reference (behaviour: README.md in this folder; libvmaf 3.2's cambi.c).
//
// Not temporal: frames run concurrently, each borrowing a workspace. The setup (encode and source
// sizes, windows, visibility thresholds) is fixed at init from the options and the first picture,
// with libvmaf's rules and refusals.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "core/implementation.hpp"
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
  explicit CambiCpu(const OptionValues& o) : o_(o), name_(o.output_name(kCambi)) {
    // cambi_eotf wins when it is not at its default.
    const std::string& eotf_name = o.is_default("cambi_eotf") ? o.get_string("eotf") : o.get_string("cambi_eotf");
    if (!parse_eotf(eotf_name, eotf_))
      throw Error("cambi: unknown EOTF '" + eotf_name + "' (known: bt1886, pq)");
    for (const auto& [key, value] : o.given())
      if (key == "heatmaps_path") {
        if (value.empty()) throw Error("cambi: heatmaps_path is empty");
        heatmaps_path_ = value;
      }
    full_ref_ = o.get_bool("full_ref");
    max_val_ = o.get_double("cambi_max_val");
  }

  void init(const PictureFormat& f) override {
    require_standard_bitdepth("cambi", f.bitdepth);
    s_.kernels = cambi_kernels_for(cpu::flags());  // --cpumask applies
    s_.in_w = f.width;
    s_.in_h = f.height;
    s_.bitdepth = f.bitdepth;
    s_.enc_bitdepth = o_.get_int("enc_bitdepth") ? o_.get_int("enc_bitdepth") : f.bitdepth;

    // Sizes, with libvmaf's defaults and rules: an encode larger than the input is the input.
    int enc_w = o_.get_int("enc_width"), enc_h = o_.get_int("enc_height");
    int src_w = o_.get_int("src_width"), src_h = o_.get_int("src_height");
    if (enc_w == 0 || enc_h == 0) enc_w = f.width, enc_h = f.height;
    if (src_w == 0 || src_h == 0) src_w = f.width, src_h = f.height;
    if (enc_h > f.height || enc_w > f.width) enc_w = f.width, enc_h = f.height;
    if (enc_w < kMinEncodeSide && enc_h < kMinEncodeSide)
      throw Error("cambi: the encode size " + size_text(enc_w, enc_h) + " is too small (one side must be at least " +
                  std::to_string(kMinEncodeSide) + " pixels)");
    if (src_w < kMinEncodeSide && src_h < kMinEncodeSide)
      throw Error("cambi: the source size " + size_text(src_w, src_h) + " is too small (one side must be at least " +
                  std::to_string(kMinEncodeSide) + " pixels)");
    if ((src_w > enc_w && src_h < enc_h) || (src_w < enc_w && src_h > enc_h))
      throw Error("cambi: the source size " + size_text(src_w, src_h) + " and the encode size " +
                  size_text(enc_w, enc_h) + " must be larger or smaller together");

    const int hrs = o_.get_int("cambi_high_res_speedup");
    const long enc_pixels = long(enc_w) * enc_h;
    s_.high_res_speedup = (hrs == 1080 && enc_pixels >= 1920L * 1080) || (hrs == 1440 && enc_pixels >= 2560L * 1440) ||
                          (hrs == 2160 && enc_pixels >= 3840L * 2160);

    // Visibility thresholds, in code values (num_diffs added, as libvmaf stores them).
    s_.num_diffs = 1 << o_.get_int("max_log_contrast");
    s_.tvi.resize(std::size_t(s_.num_diffs));
    for (int d = 0; d < s_.num_diffs; ++d) {
      s_.tvi[std::size_t(d)] = tvi_for_diff(d + 1, o_.get_double("tvi_threshold"), eotf_) + s_.num_diffs;
      // libvmaf reads its histograms outside their rows unless larger steps stay visible higher up.
      if (d > 0 && s_.tvi[std::size_t(d)] < s_.tvi[std::size_t(d - 1)])
        throw Error("cambi: the visibility thresholds of this tvi_threshold and EOTF are not monotonic");
    }
    s_.vlt = vis_lum_code(o_.get_double("cambi_vis_lum_threshold"), eotf_);
    s_.band_base = std::max(0, s_.vlt - 3 * s_.num_diffs + 1);
    s_.band_size = s_.tvi.back() + 1 - s_.band_base;
    const double topk = o_.get_double("topk");
    s_.topk = topk != kDefaultTopk ? topk : o_.get_double("cambi_topk");

    const int window = o_.get_int("window_size");
    // The source window counts even without full_ref (libvmaf checks both against its table).
    enc_ = make_target(enc_w, enc_h, scaled_window(window, enc_w, enc_h, s_.high_res_speedup), "encode", true);
    src_ = make_target(src_w, src_h, scaled_window(window, src_w, src_h, s_.high_res_speedup), "source", full_ref_);
    const int largest = std::max(enc_.window, src_.window);
    if (largest * largest >= kReciprocalTableSize)
      throw Error("cambi: window_size " + std::to_string(largest) + " too large for reciprocal LUT (window_size " +
                  std::to_string(window) + " scaled to " + size_text(std::max(enc_w, src_w), std::max(enc_h, src_h)) +
                  "; at most 65 at 3840x2160)");
    check_window_fits(enc_, s_.high_res_speedup, "encode");
    if (full_ref_) check_window_fits(src_, s_.high_res_speedup, "source");
    (void)reciprocal_table();  // built once, before frames run concurrently

    if (!heatmaps_path_.empty())
      heatmaps_ = std::make_unique<Heatmaps>(heatmaps_path_, enc_w, enc_h, enc_.window, s_.num_diffs);
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    std::unique_ptr<Workspace> ws = take_workspace();
    ScaleSink sink;
    if (heatmaps_)
      sink = [&](int scale, const float* v, int w, int h) { heatmaps_->write(scale, v, w, h, index); };
    const double dist_score = score_picture(s_, enc_, dist, *ws, heatmaps_ ? &sink : nullptr);
    out.put(name_, index, clip(dist_score));
    if (full_ref_) {
      const double src_score = score_picture(s_, src_, ref, *ws, nullptr);
      out.put(kSource, index, clip(src_score));
      const double diff = dist_score - src_score;
      out.put(kFullReference, index, clip(0 > diff ? 0.0 : diff));
    }
    give_back(std::move(ws));
  }

 private:
  double clip(double v) const { return v < max_val_ ? v : max_val_; }

  Target make_target(int w, int h, int window, const char* what, bool used) const {
    Target t;
    t.w = w;
    t.h = h;
    t.window = window;
    t.xs = sample_positions(s_.in_w, w);
    t.ys = sample_positions(s_.in_h, h);
    // Upscaling by a large factor can step a float position past the last sample.
    if (used && (t.xs.back() >= s_.in_w || t.ys.back() >= s_.in_h))
      throw Error(std::string("cambi: cannot resample the ") + size_text(s_.in_w, s_.in_h) + " input to the " + what +
                  " size " + size_text(w, h) + " (libvmaf reads outside the picture)");
    return t;
  }

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

  OptionValues o_;
  std::string name_;
  Eotf eotf_ = Eotf::kBt1886;
  std::string heatmaps_path_;
  bool full_ref_ = false;
  double max_val_ = 1000;
  Setup s_;
  Target enc_, src_;
  std::unique_ptr<Heatmaps> heatmaps_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Workspace>> free_;
};

}  // namespace
}  // namespace cambi

extern const ExtractorInfo kCambiInfo;
const ExtractorInfo kCambiInfo = cpu_extractor<cambi::CambiCpu>(cambi::kSpec);

}  // namespace vqtwin
