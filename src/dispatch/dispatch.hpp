#pragma once
// Backend selection: which implementation (CPU reference or device twin) serves each requested
// context, decided on the first picture through the twin's capability check (spec: dispatch.md §3;
// spec: DECISIONS.md §5).
#include <functional>
#include <span>
#include <string>

#include "core/extractor.hpp"

namespace vqtwin {

// The backend of a run from its text ("cpu", "cuda", "vulkan", "auto"); throws vqtwin::Error otherwise.
Backend backend_from_text(const std::string& text);

// One context as requested, before the first picture.
struct ContextRequest {
  const ExtractorInfo* info = nullptr;  // as named: a CPU extractor or a twin
  OptionValues options;
  bool from_model = false;  // registered by a model's feature list (else by --feature)
};

// The implementation that serves a request, once the first picture's format is known.
struct ResolvedContext {
  const ExtractorInfo* info = nullptr;
  OptionValues options;
  bool fell_back = false;  // a twin was wanted and the CPU computes it (the receipt says so)
};

// `registry` is the implementation table (the real one, or a test's). Rules:
// - a twin named explicitly runs as the twin; no device or an unsupported picture is an error;
// - under a device backend a CPU name (from a model or --feature) runs on its twin when the twin's
//   check returns 0, on the CPU with one warning line when it returns -ENOTSUP or there is no twin;
//   any other answer is an error. `auto` without a usable device is the CPU, silently.
// `device_available` says whether the backend's device can be used at all; `device` is the device
// backend whose twins serve CPU names (kCuda or kVulkan: the one --backend names, or the one auto
// found usable).
ResolvedContext resolve_context(const ContextRequest& request, Backend backend, const PictureFormat& format,
                                std::span<const ExtractorInfo* const> registry, bool device_available,
                                const std::function<void(const std::string&)>& warn, Backend device = Backend::kCuda);

}  // namespace vqtwin
