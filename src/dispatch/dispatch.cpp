#include "dispatch/dispatch.hpp"

#include <cerrno>
#include <cstring>

#include "core/quote.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {

Backend backend_from_text(const std::string& text) {
  if (auto b = parse_backend(text)) return *b;
  throw Error("--backend must be cpu, cuda, vulkan or auto, not " + quote(text));
}

namespace {

// The implementation of `spec` on `backend` in `registry` (the CPU reference for kCpu).
const ExtractorInfo* implementation_of(std::span<const ExtractorInfo* const> registry, const FeatureSpec* spec,
                                       Backend backend) {
  for (const ExtractorInfo* e : registry)
    if (e->spec == spec && e->backend == backend) return e;
  return nullptr;
}

std::string check_failure(const ExtractorInfo& twin, int status) {
  return std::string(twin.name) + ": device check failed (" + std::strerror(-status) + ")";
}

// The first words of a fallback warning: what was asked for (spec: dispatch.md §4).
std::string asked_for(const ContextRequest& req) {
  return req.from_model ? "model feature " + std::string(req.info->name) : "--feature " + std::string(req.info->name);
}

}  // namespace

ResolvedContext resolve_context(const ContextRequest& req, Backend backend, const PictureFormat& format,
                                std::span<const ExtractorInfo* const> registry, bool device_available,
                                const std::function<void(const std::string&)>& warn, Backend device) {
  const ExtractorInfo& named = *req.info;
  if (named.backend != Backend::kCpu) {
    // An explicitly named twin never falls back.
    if (!device_available)
      throw Error(std::string(named.name) + ": no " + to_string(named.backend) + " device is available");
    const int status = named.check_context ? named.check_context(req.options, format) : 0;
    if (status == -ENOTSUP)
      throw Error(std::string(named.name) + " cannot run " + format.describe() + " pictures with these options");
    if (status != 0) throw Error(check_failure(named, status));
    return {&named, req.options, false};
  }
  if (backend == Backend::kCpu) return {&named, req.options, false};
  if (backend != Backend::kAuto) device = backend;  // kCuda or kVulkan: the one asked for
  if (!device_available) {
    if (backend == Backend::kAuto) return {&named, req.options, false};
    throw Error(std::string("--backend ") + to_string(backend) + ": no " + to_string(device) +
                " device is available");
  }
  const ExtractorInfo* twin = implementation_of(registry, named.spec, device);
  if (!twin) {
    if (warn)
      warn(asked_for(req) + ": the " + to_string(device) +
           " backend has no twin of this extractor; computing it on the CPU");
    return {&named, req.options, true};
  }
  const int status = twin->check_context ? twin->check_context(req.options, format) : 0;
  if (status == 0) return {twin, req.options, false};
  if (status == -ENOTSUP) {
    if (warn)
      warn(asked_for(req) + ": " + std::string(twin->name) + " cannot run " + format.describe() +
           " pictures with these options; computing it on the CPU");
    return {&named, req.options, true};
  }
  throw Error(check_failure(*twin, status));
}

}  // namespace vqtwin
