#pragma once
// Where extractors run. One type for the CLI, RunConfig, dispatch and the engine.
#include <optional>
#include <string_view>

#include "vqtwin/export.hpp"

namespace vqtwin {

// kCpu: the reference. kCuda: the CUDA twins (the CPU for features without a twin, or pictures a
// twin cannot serve, with one warning line). kVulkan: the Vulkan twins, the same way. kAuto: CUDA
// when a CUDA device can be used, else Vulkan when a Vulkan device can, else the CPU, silently. An
// implementation's own backend is kCpu, kCuda or kVulkan, never kAuto.
enum class Backend { kCpu, kCuda, kAuto, kVulkan };

VQTWIN_API const char* to_string(Backend b);              // "cpu", "cuda", "vulkan", "auto"
VQTWIN_API std::optional<Backend> parse_backend(std::string_view text);

}  // namespace vqtwin
