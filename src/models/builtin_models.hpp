#pragma once
// libvmaf's VMAF models compiled into the library (models/*.json, unmodified bytes), so that
// `version=NAME` works from a copied executable with no file beside it, as libvmaf's built-ins do.
#include <optional>
#include <span>
#include <string_view>

namespace vqtwin::models {

struct BuiltinModel {
  std::string_view version;  // the file name without .json, e.g. "vmaf_v0.6.1"
  std::string_view json;     // the file's bytes
};

// Sorted by version.
std::span<const BuiltinModel> builtin_models();

inline std::optional<std::string_view> find_builtin_model(std::string_view version) {
  for (const BuiltinModel& m : builtin_models())
    if (m.version == version) return m.json;
  return std::nullopt;
}

}  // namespace vqtwin::models
