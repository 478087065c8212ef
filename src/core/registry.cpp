#include "core/registry.hpp"

#include <algorithm>

namespace vqtwin {

// Each feature folder defines its ExtractorInfo; this is the one list of them (libvmaf's table).
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
    &kCiedeInfo,
    &kPsnrHvsInfo,
    &kFloatAnsnrInfo,
    &kFloatMomentInfo,
};
}  // namespace

const char* to_string(Backend b) { return b == Backend::kCuda ? "cuda" : "cpu"; }

std::span<const ExtractorInfo* const> all_extractors() { return kAll; }

const ExtractorInfo* find_extractor(std::string_view name) {
  for (const ExtractorInfo* e : kAll) {
    if (e->name == name) return e;
    if (std::find(e->other_names.begin(), e->other_names.end(), name) != e->other_names.end()) return e;
  }
  return nullptr;
}

const ExtractorInfo* find_provider(std::string_view feature) {
  for (const ExtractorInfo* e : kAll)
    if (e->backend == Backend::kCpu &&
        std::find(e->provided.begin(), e->provided.end(), feature) != e->provided.end())
      return e;
  return nullptr;
}

const ExtractorInfo* find_twin(const ExtractorInfo& cpu, Backend backend) {
  for (const ExtractorInfo* e : kAll)
    if (e->backend == backend && e->cpu_twin_of == cpu.name) return e;
  return nullptr;
}

}  // namespace vqtwin
