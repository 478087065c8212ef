#pragma once
// Exact integer sum of squared differences of one plane (order-independent).
#include <cstdint>

#include "vqtwin/picture.hpp"

namespace vqtwin::psnr {

std::uint64_t plane_sse(const Picture& ref, const Picture& dist, int plane);

}  // namespace vqtwin::psnr
