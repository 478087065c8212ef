#pragma once
// Registering an implementation of a feature takes one line: which spec, which backend, (for twins)
// the capability check, and the class. Names, other names and options come from the spec.
#include <memory>
#include <type_traits>

#include "core/extractor.hpp"
#include "core/feature_spec.hpp"

namespace vqtwin {

// An implementation takes what it needs: its options and the run's settings, its options, or nothing.
template <class Impl>
std::unique_ptr<Extractor> create_extractor(const OptionValues& options, const RunSettings& run) {
  if constexpr (std::is_constructible_v<Impl, const OptionValues&, const RunSettings&>)
    return std::make_unique<Impl>(options, run);
  else if constexpr (std::is_constructible_v<Impl, const OptionValues&>)
    return std::make_unique<Impl>(options);
  else
    return std::make_unique<Impl>();
}

// The CPU reference of `spec`: it answers to the feature's own name.
template <class Impl>
constexpr ExtractorInfo cpu_extractor(const FeatureSpec& spec) {
  return ExtractorInfo{&spec, Backend::kCpu, spec.name, nullptr, &create_extractor<Impl>};
}

// A device twin of `spec`, named `name` (the feature's name + "_" + the backend, e.g. "psnr_cuda";
// a unit test checks the form). `check` is the first-picture capability check.
template <class Impl>
constexpr ExtractorInfo twin_extractor(const FeatureSpec& spec, Backend backend, std::string_view name,
                                       CheckContext check) {
  return ExtractorInfo{&spec, backend, name, check, &create_extractor<Impl>};
}

}  // namespace vqtwin
