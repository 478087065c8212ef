#pragma once
// A VMAF JSON model (libvmaf's format) as data, and the per-frame score it defines
// (spec: vmaf_model.md). Parsing takes bytes, never a path, so that it can be
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

// libvmaf's model types: a plain nu-SVR, and the two bootstrap types of model collections (predicted
// alike; the type only has to agree within a collection).
enum class ModelType { kSvm, kBootstrap, kResidueBootstrap };

// chroma_correction_parameter (the v1.0.16 models): when the speed_chroma feature's value, read back
// from its normalised form, is exactly 0, it is replaced by param - param * adm3 (adm3 read back the
// same way) before the SVM.
struct ChromaCorrection {
  double param = 0;
  std::size_t guiding = 0;  // the one feature whose name contains "adm3"
  std::size_t guided = 0;   // the one feature whose name contains "speed_chroma"
};

struct ModelFile {
  ModelType type = ModelType::kSvm;
  std::vector<ModelFeature> features;  // SVM index i+1 <-> features[i]
  bool linear_rescale = false;         // norm_type: linear_rescale, else none
  double slope = 1, intercept = 0;     // element 0 of slopes/intercepts: the output's
  std::vector<double> slopes, intercepts;  // elements 1..n: the features', in order
  ScoreTransform transform;
  std::optional<std::pair<double, double>> clip;  // score_clip [min, max]
  std::optional<ChromaCorrection> chroma_correction;
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

// A model collection (libvmaf's bootstrap models: an object of models under the keys "0", "1", ...
// in that order). Element 0 is the collection's main model; the others (at least one, of one
// bootstrap type) give the bootstrap statistics.
std::vector<ModelFile> parse_model_collection(std::string_view bytes, std::string_view source);

// Whether the bytes hold a model collection rather than a single model (a JSON object with no
// model_dict and a key "0"); false for anything else, including invalid JSON.
bool is_model_collection(std::string_view bytes);

struct ScoreFlags {
  bool enable_transform = false;  // apply score_transform even without "enabled": true
  bool disable_clip = false;      // skip score_clip
  bool raw = false;               // neither transform nor clip (the bootstrap statistics' input)
};

// The model's score from the raw feature values (one per feature, in order), in libvmaf's exact
// order: normalise each (slope·x + intercept), SVM, denormalise ((f − intercept)/slope), transform
// (if enabled), clip. `scratch` is reused between calls to avoid allocating per frame.
double predict_score(const ModelFile& model, std::span<const double> raw, ScoreFlags flags,
                     std::vector<double>& scratch);

// The last two steps alone: transform (if enabled) and clip (unless disabled) of a score.
double finish_score(const ModelFile& model, double y, ScoreFlags flags);

}  // namespace vqtwin::models
