#pragma once
// The pieces behind load_models(), exposed for tests: the --model text, the search path, and a
// model built from bytes with an injectable extractor lookup (so the prediction can be tested
// with stand-in option schemas before or without the real extractors).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/extractor.hpp"
#include "models/model.hpp"
#include "models/model_file.hpp"

namespace vqtwin::models {

struct ModelSettings {
  std::string name = "vmaf";  // output name of the score
  ScoreFlags flags;
  // "adm.adm_enhn_gain_limit=1" in a --model text: options for every feature of that extractor,
  // overriding the model's own feature_opts_dicts (libvmaf's feature overload).
  std::vector<std::pair<std::string, OptionPairs>> overloads;
  std::uint32_t rank = 0;  // position among the models: orders their names in the output
};

struct ModelRequest {
  std::string path;     // path=FILE
  std::string version;  // version=NAME, looked up in the search path
  ModelSettings settings;
};

// Parses "version=vmaf_v0.6.1:name=foo:enable_transform" (libvmaf's --model keys: path, version,
// name, enable_transform, disable_clip, EXTRACTOR.OPTION). Throws vqtwin::Error.
ModelRequest parse_model_text(std::string_view text);

// The folders searched for version=NAME, in order: $VQTWIN_MODEL_PATH (colon-separated), then
// $XDG_DATA_HOME/vqtwin/models (or ~/.local/share/vqtwin/models), /usr/local/share/vqtwin/models,
// /usr/share/vqtwin/models. Read from the environment at each call.
std::vector<std::string> model_search_path();

using ExtractorLookup = std::function<const ExtractorInfo*(std::string_view name)>;

// A model from the bytes of its JSON file; `source` names it in messages. Each feature's output
// name is the extractor's (its option schema applied to the model's options, e.g. integer_adm2_egl_1);
// an extractor `lookup` does not know is an error naming it.
std::unique_ptr<Model> make_model(std::string_view bytes, std::string_view source, const ModelSettings& settings,
                                  const ExtractorLookup& lookup);

}  // namespace vqtwin::models
