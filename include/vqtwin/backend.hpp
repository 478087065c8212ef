#pragma once
// Where extractors run. One type for the CLI, RunConfig, dispatch and the engine.
#include <optional>
#include <string_view>

#include "vqtwin/export.hpp"

namespace vqtwin {

// kCpu: the reference. kCuda: the CUDA twins (the CPU for features without a twin, or pictures a
// twin cannot serve, with one warning line). kAuto: CUDA when a device can be used, else the CPU,
// silently. An implementation's own backend is kCpu or kCuda, never kAuto.
enum class Backend { kCpu, kCuda, kAuto };

VQTWIN_API const char* to_string(Backend b);              // "cpu", "cuda", "auto"
VQTWIN_API std::optional<Backend> parse_backend(std::string_view text);

}  // namespace vqtwin
