// libFuzzer target: a --model text (first line) and a VMAF model file (the rest): parsing, binding
// to the real extractors' option schemas, and the score of a frame from feature values taken from
// the input.
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "core/registry.hpp"
#include "fuzz_support.hpp"
#include "models/model_file.hpp"
#include "models/vmaf_model.hpp"
#include "vqtwin/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace vqtwin;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t nl = all.find('\n');
  const std::string_view text = nl == std::string_view::npos ? std::string_view{} : all.substr(0, nl);
  const std::string_view bytes = nl == std::string_view::npos ? all : all.substr(nl + 1);
  models::ModelSettings settings;
  try {
    if (!text.empty()) settings = models::parse_model_text(text).settings;
  } catch (const Error&) {
  }
  // The plain parse first: make_model parses the same bytes again with a feature-name check that can
  // only refuse more, so it is run only when that parse succeeded or the bytes may be a model
  // collection (which the plain parse refuses). Invalid JSON, most inputs, is then parsed twice
  // rather than three times, and every path is reached as before.
  std::optional<models::ModelFile> file;
  try {
    file = models::parse_model_file(bytes, "fuzz");
  } catch (const Error&) {
  }
  if (file || models::is_model_collection(bytes)) {
    try {
      auto model = models::make_model(bytes, "fuzz", settings, [](std::string_view n) { return find_extractor(n); });
      (void)model->features();
    } catch (const Error&) {
    }
  }
  if (!file) return 0;
  try {
    // Feature values from the input's last bytes, so the score is exercised on varied values.
    std::vector<double> raw(file->features.size()), scratch;
    for (std::size_t k = 0; k < raw.size(); ++k) {
      std::uint64_t bits = 0;
      const std::size_t at = (k * 8) % (size > 8 ? size - 8 : 1);
      if (size >= 8) std::memcpy(&bits, data + at, 8);
      double v;
      std::memcpy(&v, &bits, 8);
      raw[k] = std::isfinite(v) ? v : double(k);
    }
    (void)models::predict_score(*file, raw, settings.flags, scratch);
  } catch (const Error&) {
  }
  return 0;
}
