#include "dispatch/dispatch.hpp"

#include <cerrno>
#include <cstring>

#include "vqtwin/error.hpp"

namespace vqtwin {

BackendChoice parse_backend(const std::string& text) {
  if (text == "cpu") return BackendChoice::kCpu;
  if (text == "cuda") return BackendChoice::kCuda;
  if (text == "auto") return BackendChoice::kAuto;
  throw Error("--backend must be cpu, cuda or auto, not '" + text + "'");
}

namespace {

const ExtractorInfo* twin_in(std::span<const ExtractorInfo* const> registry, const ExtractorInfo& cpu,
                             Backend backend) {
  for (const ExtractorInfo* e : registry)
    if (e->backend == backend && e->cpu_twin_of == cpu.name) return e;
  return nullptr;
}

const ExtractorInfo* cpu_in(std::span<const ExtractorInfo* const> registry, std::string_view name) {
  for (const ExtractorInfo* e : registry)
    if (e->backend == Backend::kCpu && e->name == name) return e;
  return nullptr;
}

std::string check_failure(const ExtractorInfo& twin, int status) {
  return twin.name.data() + std::string(": device check failed (") + std::strerror(-status) + ")";
}

}  // namespace

ResolvedContext resolve_context(const ContextRequest& req, BackendChoice backend, const PictureFormat& format,
                                std::span<const ExtractorInfo* const> registry, bool device_available,
                                const std::function<void(const std::string&)>& warn) {
  const ExtractorInfo& named = *req.info;
  if (named.backend != Backend::kCpu) {
    // An explicitly named twin never falls back.
    if (!device_available)
      throw Error(std::string(named.name) + ": no CUDA device is available");
    const int status = named.check_context ? named.check_context(req.options, format) : 0;
    if (status == -ENOTSUP)
      throw Error(std::string(named.name) + " cannot run " + format.describe() + " pictures with these options");
    if (status != 0) throw Error(check_failure(named, status));
    return {&named, req.options};
  }
  if (backend == BackendChoice::kCpu) return {&named, req.options};
  const ExtractorInfo* twin = twin_in(registry, named, Backend::kCuda);
  if (!twin || !device_available) {
    if (backend == BackendChoice::kCuda && !device_available)
      throw Error("--backend cuda: no CUDA device is available");
    return {&named, req.options};  // no twin for this feature: the CPU computes it
  }
  const int status = twin->check_context ? twin->check_context(req.options, format) : 0;
  if (status == 0) return {twin, req.options};
  if (status == -ENOTSUP) {
    const ExtractorInfo* cpu = cpu_in(registry, twin->cpu_twin_of);
    if (!cpu) throw Error(std::string(twin->name) + ": no CPU extractor to fall back to");
    if (warn)
      warn(std::string(twin->name) + " cannot run " + format.describe() +
           " pictures with these options; computing " + std::string(cpu->name) + " on the CPU");
    return {cpu, req.options};
  }
  throw Error(check_failure(*twin, status));
}

}  // namespace vqtwin
