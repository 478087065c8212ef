#pragma once
// A VMAF JSON model (libvmaf's format) as data, and the per-frame score it defines
// (behaviour: ../shared/spec/vmaf_model.md). Parsing takes bytes, never a path, so that it can be
// fed anything (fuzz tests); every defect is a vqtwin::Error naming the source and the problem.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/options.hpp"
#include "models/svm.hpp"

namespace vqtwin::models {

struct ModelFeature {
  std::string name;     // as in feature_names, e.g. "VMAF_integer_feature_adm2_score"
  OptionPairs options;  // its feature_opts_dicts entry, values normalised as libvmaf does
};

struct ScoreTransform {
  bool present = false;  // the model has a score_transform object (enable_transform needs one)
  bool enabled = false;  // its "enabled": true
  std::optional<double> p0, p1, p2;
  std::vector<std::pair<double, double>> knots;  // piecewise-linear map; empty = none
  bool out_lte_in = false;
  bool out_gte_in = false;
};

struct ModelFile {
  std::vector<ModelFeature> features;  // SVM index i+1 <-> features[i]
  bool linear_rescale = false;         // norm_type: linear_rescale, else none
  double slope = 1, intercept = 0;     // element 0 of slopes/intercepts: the output's
  std::vector<double> slopes, intercepts;  // elements 1..n: the features', in order
  ScoreTransform transform;
  std::optional<std::pair<double, double>> clip;  // score_clip [min, max]
  SvmModel svm;
};

// What a model may hold: models are about 20 KB with up to a dozen features and a few hundred
// support vectors; these bounds are far above that, and keep a hostile file from costing more
// than a few tens of megabytes or a fraction of a second.
inline constexpr std::size_t kMaxModelBytes = std::size_t(16) << 20;
inline constexpr std::size_t kMaxModelFeatures = 256;
inline constexpr std::size_t kMaxSvmEntries = std::size_t(1) << 22;  // support vectors x features
inline constexpr int kMaxJsonDepth = 32;

// Called with each feature name (and its index) before anything is built from the names: throws
// vqtwin::Error for a name no extractor provides.
using FeatureNameCheck = std::function<void(std::size_t index, const std::string& name)>;

// `source` names the bytes in messages (a file path, "version=...", or a test label).
ModelFile parse_model_file(std::string_view bytes, std::string_view source, const FeatureNameCheck& check = {});

struct ScoreFlags {
  bool enable_transform = false;  // apply score_transform even without "enabled": true
  bool disable_clip = false;      // skip score_clip
};

// The model's score from the raw feature values (one per feature, in order), in libvmaf's exact
// order: normalise each (slope·x + intercept), SVM, denormalise ((f − intercept)/slope), transform
// (if enabled), clip. `scratch` is reused between calls to avoid allocating per frame.
double predict_score(const ModelFile& model, std::span<const double> raw, ScoreFlags flags,
                     std::vector<double>& scratch);

}  // namespace vqtwin::models
