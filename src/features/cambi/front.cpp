// cambi's host side (see front.hpp): libvmaf 3.2's option rules, sizes and refusals.
#include "features/cambi/front.hpp"

#include <algorithm>

#include "common/cpu.hpp"
#include "core/format_checks.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::cambi {
namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

Front::Front(const OptionValues& o) : o_(o), name_(o.output_name(kCambi)) {
  // cambi_eotf wins when it is not at its default.
  const std::string& eotf_name = o.is_default("cambi_eotf") ? o.get_string("eotf") : o.get_string("cambi_eotf");
  if (!parse_eotf(eotf_name, eotf_)) throw Error("cambi: unknown EOTF '" + eotf_name + "' (known: bt1886, pq)");
  for (const auto& [key, value] : o.given())
    if (key == "heatmaps_path") {
      if (value.empty()) throw Error("cambi: heatmaps_path is empty");
      heatmaps_path_ = value;
    }
  full_ref_ = o.get_bool("full_ref");
  max_val_ = o.get_double("cambi_max_val");
}

void Front::init(const PictureFormat& f) {
  require_standard_bitdepth("cambi", f.bitdepth);
  s_ = Setup{};
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
}

Target Front::make_target(int w, int h, int window, const char* what, bool used) const {
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

void Front::scale_size(const Target& t, int scale, int& w, int& h) const {
  w = t.w;
  h = t.h;
  for (int s = 0; s <= scale; ++s)
    if (s > 0 || s_.high_res_speedup) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
    }
}

std::size_t Front::values_count(const Target& t) const {
  std::size_t n = 0;
  for (int s = 0; s < kNumScales; ++s) {
    int w = 0, h = 0;
    scale_size(t, s, w, h);
    n += std::size_t(w) * std::size_t(h);
  }
  return n;
}

double Front::score(const Target& t, const float* values, std::vector<float>& scratch) const {
  double scores[kNumScales];
  for (int s = 0; s < kNumScales; ++s) {
    int w = 0, h = 0;
    scale_size(t, s, w, h);
    const std::size_t n = std::size_t(w) * std::size_t(h);
    scratch.assign(values, values + n);
    scores[s] = pool_topk(scratch.data(), int(n), s_.topk);
    values += n;
  }
  return weight_scales(scores, t.window);
}

bool Front::score_from_summaries(const Target& t, const TopkSummary (&scales)[kNumScales], double& out) const {
  double scores[kNumScales];
  for (int s = 0; s < kNumScales; ++s) {
    int w = 0, h = 0;
    scale_size(t, s, w, h);
    if (!pool_topk_from_summary(scales[s], w * h, s_.topk, scores[s])) return false;
  }
  out = weight_scales(scores, t.window);
  return true;
}

void Front::emit(double dist_score, double src_score, unsigned index, FeatureSink& out) const {
  out.put(name_, index, clip(dist_score));
  if (full_ref_) {
    out.put(kSource, index, clip(src_score));
    const double diff = dist_score - src_score;
    out.put(kFullReference, index, clip(0 > diff ? 0.0 : diff));
  }
}

}  // namespace vqtwin::cambi
