#pragma once
// The compute shaders' SPIR-V, compiled from GLSL by glslc at build time and embedded in the library
// (cmake/Vulkan.cmake writes the table): a shader is found by its file name without .comp.
#include <cstdint>
#include <span>
#include <string_view>

namespace vqtwin::vulkan {

// Empty when this build has no shader of that name.
std::span<const std::uint32_t> shader_code(std::string_view name);

}  // namespace vqtwin::vulkan
