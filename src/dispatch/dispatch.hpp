#pragma once
// Backend selection: which extractor (CPU reference or device twin) serves each requested context,
// decided on the first picture through the twin's capability check (spec/dispatch.md).
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/extractor.hpp"

namespace vqtwin {

enum class BackendChoice { kCpu, kCuda, kAuto };
BackendChoice parse_backend(const std::string& text);  // throws on an unknown name

// One context as requested, before the first picture.
struct ContextRequest {
  const ExtractorInfo* info = nullptr;  // as named: a CPU extractor or a twin
  OptionValues options;
  bool from_model = false;  // registered by a model's feature list (eligible for fallback)
};

// The extractor that serves a request, once the first picture's format is known.
struct ResolvedContext {
  const ExtractorInfo* info = nullptr;
  OptionValues options;
};

// `registry` is the extractor table (the real one, or a test's). Rules (DECISIONS.md §5):
// - a twin named explicitly runs as the twin, and an unsupported picture is an error;
// - under a device backend a CPU name (from a model or --feature) runs on its twin when the twin's
//   check returns 0, on the CPU with one warning line when it returns -ENOTSUP; any other answer
//   is an error. `auto` without a usable device is the CPU, silently.
// `device_available` says whether the backend's device can be used at all.
ResolvedContext resolve_context(const ContextRequest& request, BackendChoice backend,
                                const PictureFormat& format, std::span<const ExtractorInfo* const> registry,
                                bool device_available, const std::function<void(const std::string&)>& warn);

}  // namespace vqtwin
