#pragma once
// What float_ms_ssim_vulkan exposes to its device test (tests/twins/float_ms_ssim_soft_check.cpp).
#include <cstdint>
#include <vector>

#include "vqtwin/picture.hpp"

namespace vqtwin::float_ms_ssim {

// float_ms_ssim_soft.glsl on `cases` operand quadruples stored as the 16-bit words of `pic`'s luma, four
// 32-bit words a case, `per_row` cases a row (float_ms_ssim_soft_check.comp): four result words a case.
std::vector<std::uint32_t> vulkan_soft_check(const Picture& pic, unsigned cases, unsigned per_row);

}  // namespace vqtwin::float_ms_ssim
