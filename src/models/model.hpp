#pragma once
// VMAF models as the engine sees them: the feature contexts a model needs, and its per-frame
// prediction once those features are in the results.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.hpp"
#include "vqtwin/results.hpp"

namespace vqtwin::models {

// One context a model needs: a CPU extractor name and its options (a model's feature_opts_dicts).
struct FeatureUse {
  std::string extractor;
  OptionPairs options;
};

class Model {
 public:
  virtual ~Model() = default;
  // The output name of the score ("vmaf" unless the model text says name=...).
  virtual const std::string& name() const = 0;
  virtual std::vector<FeatureUse> features() const = 0;
  // Writes name() for every frame 0..frames-1 taken by `subsample` (libvmaf: after the last
  // frame, in frame order). Throws vqtwin::Error if a needed feature value is missing.
  virtual void predict(Results& results, unsigned frames, unsigned subsample) const = 0;
};

// From the --model texts ("version=vmaf_v0.6.1", "path=FILE:name=x:enable_transform=true").
// Throws vqtwin::Error naming the file and what is wrong.
std::vector<std::unique_ptr<Model>> load_models(const std::vector<std::string>& texts);

// The model search path: $VQTWIN_MODEL_PATH (colon-separated), then the per-user and system data
// folders. The file of `version` (version + ".json"), or nullopt.
std::optional<std::string> find_model_file(std::string_view version);

}  // namespace vqtwin::models
