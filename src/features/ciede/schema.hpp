#pragma once
// ciede: options and outputs, declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/options.hpp"

namespace vqtwin::ciede {

// libvmaf's ciede has no options.
inline constexpr std::span<const OptionSpec> kOptions{};

inline constexpr std::array<std::string_view, 1> kOutputs = {"ciede2000"};

}  // namespace vqtwin::ciede
