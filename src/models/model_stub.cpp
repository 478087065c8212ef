// Placeholder until the model loader lands: models are refused with a clear error.
#include "models/model.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::models {

std::vector<std::unique_ptr<Model>> load_models(const std::vector<std::string>& texts) {
  if (!texts.empty()) throw Error("--model: VMAF models are not supported by this build yet");
  return {};
}

std::optional<std::string> find_model_file(std::string_view) { return std::nullopt; }

}  // namespace vqtwin::models
