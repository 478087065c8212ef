#include "core/registry.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <vector>

namespace vqtwin {

// Each feature folder defines its CPU ExtractorInfo; this is the one list of them (libvmaf's table).
// Device twins join through their backend's own list (cuda_twins(), vulkan_twins()), with no #if here.
extern const ExtractorInfo kPsnrInfo;
extern const ExtractorInfo kIntegerAdmInfo;
extern const ExtractorInfo kIntegerVifInfo;
extern const ExtractorInfo kFloatSsimInfo;
extern const ExtractorInfo kFloatMsSsimInfo;
extern const ExtractorInfo kIntegerSsimInfo;
extern const ExtractorInfo kFloatVifInfo;
extern const ExtractorInfo kFloatAdmInfo;
extern const ExtractorInfo kFloatPsnrInfo;
extern const ExtractorInfo kFloatMotionInfo;
extern const ExtractorInfo kIntegerMotionInfo;
extern const ExtractorInfo kCambiInfo;
extern const ExtractorInfo kSpeedChromaInfo;
extern const ExtractorInfo kSpeedTemporalInfo;
extern const ExtractorInfo kCiedeInfo;
extern const ExtractorInfo kPsnrHvsInfo;
extern const ExtractorInfo kFloatAnsnrInfo;
extern const ExtractorInfo kFloatMomentInfo;

namespace {
const ExtractorInfo* const kAll[] = {
    &kPsnrInfo,
    &kIntegerAdmInfo,
    &kIntegerVifInfo,
    &kFloatSsimInfo,
    &kFloatMsSsimInfo,
    &kIntegerSsimInfo,
    &kFloatVifInfo,
    &kFloatAdmInfo,
    &kFloatPsnrInfo,
    &kFloatMotionInfo,
    &kIntegerMotionInfo,
    &kCambiInfo,
    &kSpeedChromaInfo,
    &kSpeedTemporalInfo,
    &kCiedeInfo,
    &kPsnrHvsInfo,
    &kFloatAnsnrInfo,
    &kFloatMomentInfo,
};
}  // namespace

const char* to_string(Backend b) {
  switch (b) {
    case Backend::kCpu: return "cpu";
    case Backend::kCuda: return "cuda";
    case Backend::kVulkan: return "vulkan";
    case Backend::kAuto: return "auto";
  }
  return "?";
}

std::optional<Backend> parse_backend(std::string_view text) {
  for (Backend b : {Backend::kCpu, Backend::kCuda, Backend::kVulkan, Backend::kAuto})
    if (text == to_string(b)) return b;
  return std::nullopt;
}

std::span<const ExtractorInfo* const> cpu_extractors() { return kAll; }

std::span<const ExtractorInfo* const> all_extractors() {
  static const std::vector<const ExtractorInfo*> all = [] {
    std::vector<const ExtractorInfo*> v(std::begin(kAll), std::end(kAll));
    for (const ExtractorInfo* twin : cuda_twins()) v.push_back(twin);
    for (const ExtractorInfo* twin : vulkan_twins()) v.push_back(twin);
    return v;
  }();
  return all;
}

const ExtractorInfo* find_extractor(std::string_view name) {
  for (const ExtractorInfo* e : all_extractors()) {
    if (e->name == name) return e;
    if (e->backend == Backend::kCpu &&
        std::find(e->spec->other_names.begin(), e->spec->other_names.end(), name) != e->spec->other_names.end())
      return e;
  }
  return nullptr;
}

const ExtractorInfo* find_provider(std::string_view feature) {
  for (const ExtractorInfo* e : kAll)
    if (std::find(e->spec->provided.begin(), e->spec->provided.end(), feature) != e->spec->provided.end()) return e;
  return nullptr;
}

const ExtractorInfo* find_implementation(const FeatureSpec& spec, Backend backend) {
  for (const ExtractorInfo* e : all_extractors())
    if (e->spec == &spec && e->backend == backend) return e;
  return nullptr;
}

}  // namespace vqtwin
