#pragma once
// integer motion's 8-bit SAD with AVX-512 (F, BW): explicit 16-bit multiply-adds in place of the
// compiler-vectorised loops of sad_kernels.inc. Internal to sad.cpp.
#include <cstddef>
#include <cstdint>

namespace vqtwin::integer_motion::x86 {

// SadKernels::sad8 (bpc 8): the same sum as the portable build.
std::uint64_t sad8_avx512(const std::uint8_t* prev, std::ptrdiff_t ps, const std::uint8_t* cur, std::ptrdiff_t cs,
                          int w, int h, int bpc, std::int32_t* row, float* hl);

}  // namespace vqtwin::integer_motion::x86
