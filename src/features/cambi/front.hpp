#pragma once
// cambi's host side, shared by the CPU reference and the CUDA twin: the options (with libvmaf's
// precedence and refusals), the setup fixed at init (encode and source targets, windows, visibility
// thresholds, the histogram band), the per-scale sizes, the pooling of a picture's per-pixel values
// into its score (host code on both: libvmaf's selection order and double sum), and the outputs.
#include <memory>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/options.hpp"
#include "features/cambi/math.hpp"
#include "features/cambi/pipeline.hpp"
#include "features/cambi/schema.hpp"

namespace vqtwin::cambi {

class Front {
 public:
  explicit Front(const OptionValues& o);
  // The setup for pictures of format f (throws vqtwin::Error with libvmaf's refusals).
  void init(const PictureFormat& f);

  const Setup& setup() const { return s_; }
  const Target& encode() const { return enc_; }  // the distorted picture's
  const Target& source() const { return src_; }  // the reference's (full_ref)
  bool full_ref() const { return full_ref_; }
  const std::string& heatmaps_path() const { return heatmaps_path_; }

  // Scale k's size of target t (scale 0 is halved with the high-resolution speed-up).
  void scale_size(const Target& t, int scale, int& w, int& h) const;
  // Samples of all five scales of t together.
  std::size_t values_count(const Target& t) const;
  // The score (before the clip) from the five scales' per-pixel values, packed one scale after the
  // other (each w x h of scale_size); `scratch` is reordered by the selection.
  double score(const Target& t, const float* values, std::vector<float>& scratch) const;
  // The same score from each scale's TopkSummary, where it provably equals score()'s
  // (pool_topk_from_summary); false otherwise.
  bool score_from_summaries(const Target& t, const TopkSummary (&scales)[kNumScales], double& out) const;

  // The frame's outputs: the distorted picture's score, and with full_ref the reference's.
  void emit(double dist_score, double src_score, unsigned index, FeatureSink& out) const;

 private:
  Target make_target(int w, int h, int window, const char* what, bool used) const;
  double clip(double v) const { return v < max_val_ ? v : max_val_; }

  OptionValues o_;
  std::string name_;
  Eotf eotf_ = Eotf::kBt1886;
  std::string heatmaps_path_;
  bool full_ref_ = false;
  double max_val_ = 1000;
  Setup s_;
  Target enc_, src_;
};

}  // namespace vqtwin::cambi
