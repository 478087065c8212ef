#pragma once
// integer ADM on one frame pair: the four scales, streamed one band row at a time, and the
// combination of the per-scale numerators and denominators into the outputs.
#include <memory>

#include "features/integer_adm/rows.hpp"
#include "features/integer_adm/setup.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::integer_adm {

// Per-scale float results, as libvmaf keeps them (num, den; aim uses the DLM denominator).
struct ScaleScores {
  float num = 0, den = 0, aim = 0;
};
struct FrameScores {
  ScaleScores scale[4];
};

// The exact integer totals of one scale, per orientation (h, v, d), before the float tails: the
// contrast-masked numerator (DLM) and AIM terms and the denominator, each row's sum rounded by the
// per-row shift before it is added. What a compute backend provides; the front does the rest.
struct ScaleSums {
  int64_t num[3] = {0, 0, 0};
  int64_t aim[3] = {0, 0, 0};
  uint64_t den[3] = {0, 0, 0};
  bool operator==(const ScaleSums&) const = default;
};
struct FrameSums {
  ScaleSums scale[4];
  bool operator==(const FrameSums&) const = default;
};

struct Outputs {
  double adm2 = 0, aim = 0, adm3 = 0;
  double scale[4] = {0, 0, 0, 0};
  double num = 0, den = 0;  // after the small-value limit (debug outputs)
};
Outputs combine(const FrameScores& f, const Settings& s, int width, int height);

// Buffers of one frame computation; one per concurrent caller.
struct Workspace;

class Computer {
 public:
  // Throws vqtwin::Error for frames integer ADM refuses (smaller than 33 px either way).
  Computer(const Settings& settings, const CsfFactors& factors, int width, int height, int bitdepth);
  ~Computer();

  std::unique_ptr<Workspace, void (*)(Workspace*)> make_workspace() const;
  // The luma planes of ref and dis (bit depth as constructed). Thread-safe: const, state in `ws`.
  FrameSums compute_sums(const Picture& ref, const Picture& dis, Workspace& ws, const RowKernels& k) const;
  // The float tails of every scale (libvmaf's types and order), from the exact sums.
  FrameScores scores_of(const FrameSums& sums) const;
  FrameScores compute(const Picture& ref, const Picture& dis, Workspace& ws, const RowKernels& k) const {
    return scores_of(compute_sums(ref, dis, ws, k));
  }
  const ScaleGeometry& geometry(int scale) const { return geometry_[scale]; }
  // Scale s reads an input_width(s) x input_height(s) plane: the luma, then the previous a band.
  int input_width(int scale) const { return in_w_[scale]; }
  int input_height(int scale) const { return in_h_[scale]; }
  int bitdepth() const { return bitdepth_; }
  const Settings& settings() const { return settings_; }
  const CsfFactors& factors() const { return factors_; }

 private:
  ScaleScores scale_scores(int scale, const ScaleSums& sums) const;

  Settings settings_;
  CsfFactors factors_;
  int width_, height_, bitdepth_;
  int in_w_[4], in_h_[4];  // each scale's input size (the luma plane, then the previous a band)
  ScaleGeometry geometry_[4];
};

}  // namespace vqtwin::integer_adm
