// The per-frame VMAF score from feature values: libvmaf's order of operations, step by step
// (spec: vmaf_model.md §2). Every line is one rounding the reference makes; do not fuse or reorder.
#include <cmath>

#include "models/model_file.hpp"

namespace vqtwin::models {
namespace {

// libvmaf's line through two knots, with its special case for a first knot at x = 0 (which
// rounds differently from the general form, so it is kept).
void line_through(std::pair<double, double> p1, std::pair<double, double> p2, double& slope, double& offset) {
  if (p1.first == 0) {
    offset = p1.second;
    slope = (p2.second - offset) / p2.first;
  } else {
    slope = (p2.second - p1.second) / (p2.first - p1.first);
    offset = p1.second - p1.first * slope;
  }
}

// Piecewise-linear map through the knots (validated at load: x increasing, y non-decreasing).
// Every segment is visited in order and a later one overrides an earlier one at a shared knot;
// outside the range the first/last segment is extended.
double map_knots(const std::vector<std::pair<double, double>>& knots, double x) {
  const std::size_t segments = knots.size() - 1;
  double y = 0;
  for (std::size_t i = 0; i < segments; ++i) {
    const auto a = knots[i], b = knots[i + 1];
    const bool inside = a.first <= x && x <= b.first;
    const bool below = i == 0 && x < a.first;
    const bool above = i == segments - 1 && x > b.first;
    if (!(inside || below || above)) continue;
    if (a.second == b.second) {
      y = a.second;
    } else {
      double slope = 0, offset = 0;
      line_through(a, b, slope, offset);
      y = slope * x + offset;
    }
  }
  return y;
}

double transform(const ScoreTransform& t, double y) {
  double out = y;
  if (t.p0 || t.p1 || t.p2) {
    out = 0.;
    if (t.p0) out += *t.p0;
    if (t.p1) out += *t.p1 * y;
    if (t.p2) out += *t.p2 * y * y;
  }
  if (!t.knots.empty()) out = map_knots(t.knots, out);
  if (t.out_lte_in && out > y) out = y;
  if (t.out_gte_in && out < y) out = y;
  return out;
}

// libvmaf's post_process_feature_from_another: the normalised values read back with
// (x - intercept) / slope; when speed_chroma's is exactly 0, param - param * adm3 replaces it
// (normalised again). No linear_rescale: the values are used as they are.
void correct_chroma(const ModelFile& model, std::vector<double>& x) {
  const ChromaCorrection& c = *model.chroma_correction;
  auto read_back = [&](std::size_t k) {
    return model.linear_rescale ? (x[k] - model.intercepts[k]) / model.slopes[k] : x[k];
  };
  if (read_back(c.guided) != 0.0) return;
  const double guiding = read_back(c.guiding);
  const double corrected = (-c.param * guiding) + c.param;
  x[c.guided] = model.linear_rescale ? model.slopes[c.guided] * corrected + model.intercepts[c.guided] : corrected;
}

}  // namespace

double finish_score(const ModelFile& model, double y, ScoreFlags flags) {
  if (flags.raw) return y;
  if (model.transform.present && (model.transform.enabled || flags.enable_transform))
    y = transform(model.transform, y);
  if (model.clip && !flags.disable_clip) {
    if (y < model.clip->first) y = model.clip->first;
    if (y > model.clip->second) y = model.clip->second;
  }
  return y;
}

double predict_score(const ModelFile& model, std::span<const double> raw, ScoreFlags flags,
                     std::vector<double>& scratch) {
  const std::size_t n = model.features.size();
  scratch.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    scratch[k] = model.linear_rescale ? model.slopes[k] * raw[k] + model.intercepts[k] : raw[k];
  if (model.chroma_correction) correct_chroma(model, scratch);
  double y = model.svm.predict(scratch);
  if (model.linear_rescale) y = (y - model.intercept) / model.slope;
  return finish_score(model, y, flags);
}

}  // namespace vqtwin::models
