// psnr's SSE table (features/psnr/sse.hpp) against its portable build: 8-bit rows shorter and longer
// than the 32768-sample int32 runs, 16-bit containers with differences up to 65535, strides wider
// than the rows, random and extreme content.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "features/psnr/sse.hpp"
#include "variants.hpp"

namespace vqtwin {
namespace {

using cpu_check::for_each_variant;
using cpu_check::seed;

// Rows of `w` samples `stride` apart; kind 0 random, 1 only 0 and the maximum (the largest squares),
// 2 near-equal (small differences beside the other plane's copy).
template <class T>
std::vector<T> plane(int w, int h, std::ptrdiff_t stride, unsigned top, int kind, std::mt19937& rng) {
  std::vector<T> p(std::size_t(stride) * std::size_t(h) + 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const unsigned r = unsigned(rng());
      p[std::size_t(y * stride + x)] = T(kind == 1 ? ((r & 1) ? top : 0u) : kind == 2 ? (x * 7 + y) % 17 + (r & 3) : r & top);
    }
  return p;
}

struct Size {
  int w, h;
  std::ptrdiff_t stride;
};
const Size kSizes[] = {{1, 1, 1}, {3, 5, 64}, {31, 7, 33}, {64, 3, 64}, {97, 13, 128}, {1920, 2, 1984}, {32768, 1, 32768},
                       {32769, 2, 32832}, {70001, 2, 70016}};

TEST(Psnr, Sse8EqualsThePortableBuild) {
  using psnr::SseKernels;
  for_each_variant(&psnr::sse_kernels_for, &SseKernels::sse8, "psnr", "sse8",
                   [](const SseKernels& ref, const SseKernels& var, const std::string&) {
                     std::mt19937 rng(seed());
                     for (const Size& s : kSizes)
                       for (int kind = 0; kind < 3; ++kind) {
                         const auto a = plane<std::uint8_t>(s.w, s.h, s.stride, 255, kind, rng);
                         const auto b = plane<std::uint8_t>(s.w, s.h, s.stride, 255, kind == 2 ? 0 : kind, rng);
                         // kind 1 against its complement: every difference is 255 or 0.
                         auto c = a;
                         if (kind == 1)
                           for (auto& v : c) v = std::uint8_t(255 - v);
                         const auto& d = kind == 1 ? c : b;
                         EXPECT_EQ(var.sse8(a.data(), s.stride, d.data(), s.stride, s.w, s.h),
                                   ref.sse8(a.data(), s.stride, d.data(), s.stride, s.w, s.h))
                             << s.w << "x" << s.h << " kind " << kind;
                       }
                   });
}

TEST(Psnr, Sse16EqualsThePortableBuild) {
  using psnr::SseKernels;
  for_each_variant(&psnr::sse_kernels_for, &SseKernels::sse16, "psnr", "sse16",
                   [](const SseKernels& ref, const SseKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 1);
                     for (unsigned top : {1023u, 4095u, 65535u})
                       for (const Size& s : kSizes)
                         for (int kind = 0; kind < 3; ++kind) {
                           const auto a = plane<std::uint16_t>(s.w, s.h, s.stride, top, kind, rng);
                           auto b = plane<std::uint16_t>(s.w, s.h, s.stride, top, kind == 2 ? 0 : kind, rng);
                           if (kind == 1)
                             for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::uint16_t(top - a[i]);
                           EXPECT_EQ(var.sse16(a.data(), s.stride, b.data(), s.stride, s.w, s.h),
                                     ref.sse16(a.data(), s.stride, b.data(), s.stride, s.w, s.h))
                               << s.w << "x" << s.h << " top " << top << " kind " << kind;
                         }
                   });
}

}  // namespace
}  // namespace vqtwin
