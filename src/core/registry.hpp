#pragma once
// The table of every implementation vqtwin has: the CPU references (one list, registry.cpp) and
// each built-in device backend's twins (that backend's own list, backends/<name>/).
#include <span>
#include <string_view>

#include "core/extractor.hpp"

namespace vqtwin {

// Every implementation: the CPU references first, in libvmaf's table order, then the twins.
std::span<const ExtractorInfo* const> all_extractors();
// The CPU references only (what --list, the benchmark and the model feature table iterate).
std::span<const ExtractorInfo* const> cpu_extractors();
// The CUDA twins built into this library (empty without CUDA): backends/cuda/twins.cpp or
// backends/none.cpp.
std::span<const ExtractorInfo* const> cuda_twins();
// The Vulkan twins (empty without Vulkan): backends/vulkan/twins.cpp or backends/vulkan_none.cpp.
std::span<const ExtractorInfo* const> vulkan_twins();
// By implementation name or a feature's other name; nullptr when unknown.
const ExtractorInfo* find_extractor(std::string_view name);
// The CPU extractor that provides `feature` (a short output base name such as "integer_adm2").
const ExtractorInfo* find_provider(std::string_view feature);
// The implementation of `spec` on `backend`, or nullptr.
const ExtractorInfo* find_implementation(const FeatureSpec& spec, Backend backend);

}  // namespace vqtwin
