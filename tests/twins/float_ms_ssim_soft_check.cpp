// float_ms_ssim_vulkan's integer soft-float (float_ms_ssim_soft.glsl) on the device against the CPU's IEEE
// arithmetic, bit for bit, on operands the twin's pictures rarely reach: fp32 products that are subnormal or
// underflow to a signed zero, products of subnormals, double sums of both signs with exponents far apart,
// exact and near cancellations, ties, and doubles rounded to subnormal floats. The harness sees these
// functions only through the means they lead to.
//   float_ms_ssim_soft_check
// Exit 0 all identical, 1 a difference, 77 no device (CTest: skipped).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "backends/device.hpp"
#include "features/float_ms_ssim/device_hooks.hpp"

namespace vqtwin {
namespace {

struct Case {
  std::uint32_t f0, f1;
  double d;
};

float random_float(std::mt19937_64& rng, int lo_exp, int hi_exp) {
  const int field = lo_exp + int(rng() % unsigned(hi_exp - lo_exp + 1));  // 0: subnormal
  const std::uint32_t bits = (std::uint32_t(rng() & 1) << 31) | (std::uint32_t(field) << 23) | std::uint32_t(rng() & 0x7FFFFF);
  return std::bit_cast<float>(bits);
}

Case make_case(std::mt19937_64& rng, unsigned k) {
  const float a = random_float(rng, k % 4 == 0 ? 0 : 1, k % 3 == 0 ? 80 : 160);  // tiny ones: subnormal products
  const float b = random_float(rng, 0, 150);
  double d;
  switch (k % 6) {
    case 0: d = -double(a); break;  // exact cancellation: +0
    case 1: d = -double(a) * (1.0 + std::ldexp(double(rng() % 64) - 32.0, -40)); break;  // near cancellation
    case 2: d = std::ldexp(double(rng() >> 11) + 0.0, -52) + 1.0; d = std::ldexp(d, int(rng() % 40) - 20) * ((rng() & 1) ? -1 : 1); break;
    case 3: d = double(a) * std::ldexp(1.0 + std::ldexp(double(rng() >> 11), -53), int(rng() % 130) - 65); break;
    case 4: d = std::ldexp(1.0 + std::ldexp(double(rng() >> 11), -53), int(rng() % 60) - 180); break;  // rounds to a subnormal float
    default: d = std::ldexp(1.0 + std::ldexp(double(rng() >> 11), -53), int(rng() % 120) - 60) * ((rng() & 1) ? -1 : 1);
  }
  if (d == 0.0 || !std::isnormal(d) || std::fabs(d) >= 0x1p60) d = 1.0 + std::ldexp(double(k), -30);
  return {std::bit_cast<std::uint32_t>(a), std::bit_cast<std::uint32_t>(b), d};
}

int check() {
  std::string why;
  if (!vulkan_device_usable(0, &why)) {
    std::printf("float_ms_ssim_soft_check: skipped: no device (%s)\n", why.c_str());
    return 77;
  }
  constexpr unsigned kPerRow = 256, kRows = 256, kCases = kPerRow * kRows;
  Picture p(PictureFormat{int(kPerRow * 8), int(kRows), 16, ChromaFormat::k400});  // four words a case
  std::mt19937_64 rng(20261206);
  std::vector<Case> cases;
  for (unsigned k = 0; k < kCases; ++k) {
    const Case c = make_case(rng, k);
    cases.push_back(c);
    const std::uint64_t dbits = std::bit_cast<std::uint64_t>(c.d);
    const std::uint32_t w[4] = {c.f0, c.f1, std::uint32_t(dbits), std::uint32_t(dbits >> 32)};
    std::uint16_t* row = p.row<std::uint16_t>(0, int(k / kPerRow)) + (k % kPerRow) * 8;
    for (int i = 0; i < 4; ++i) {  // little-endian words of two 16-bit samples
      row[2 * i] = std::uint16_t(w[i]);
      row[2 * i + 1] = std::uint16_t(w[i] >> 16);
    }
  }
  const std::vector<std::uint32_t> dev = float_ms_ssim::vulkan_soft_check(p, kCases, kPerRow);
  if (dev.size() != 4 * std::size_t(kCases)) {
    std::printf("float_ms_ssim_soft_check: %zu result words, expected %u\n", dev.size(), 4 * kCases);
    return 1;
  }
  unsigned long bad[3] = {0, 0, 0}, subnormal = 0, zero_products = 0;
  for (unsigned k = 0; k < kCases; ++k) {
    const Case& c = cases[k];
    const float prod = std::bit_cast<float>(c.f0) * std::bit_cast<float>(c.f1);
    const double sum = c.d + double(std::bit_cast<float>(c.f0));
    const float rounded = float(c.d);
    subnormal += std::fpclassify(prod) == FP_SUBNORMAL || std::fpclassify(rounded) == FP_SUBNORMAL;
    zero_products += prod == 0.0f;
    const std::uint64_t sbits = std::bit_cast<std::uint64_t>(sum);
    const std::uint32_t want[4] = {std::bit_cast<std::uint32_t>(prod), std::uint32_t(sbits), std::uint32_t(sbits >> 32),
                                   std::bit_cast<std::uint32_t>(rounded)};
    const bool diff[3] = {dev[4 * k] != want[0], dev[4 * k + 1] != want[1] || dev[4 * k + 2] != want[2],
                          dev[4 * k + 3] != want[3]};
    for (int i = 0; i < 3; ++i)
      if (diff[i] && bad[i]++ < 3)
        std::printf("  case %u op %d: a %a b %a d %a: device %08x %08x %08x %08x, CPU %08x %08x %08x %08x\n", k, i,
                    double(std::bit_cast<float>(c.f0)), double(std::bit_cast<float>(c.f1)), c.d, dev[4 * k],
                    dev[4 * k + 1], dev[4 * k + 2], dev[4 * k + 3], want[0], want[1], want[2], want[3]);
  }
  const bool ok = bad[0] + bad[1] + bad[2] == 0;
  std::printf("float_ms_ssim_soft_check: %u cases (%lu with a subnormal float, %lu zero products): fp32 products %lu "
              "different, double sums %lu, floats of doubles %lu: %s\n",
              kCases, subnormal, zero_products, bad[0], bad[1], bad[2], ok ? "every result bit-identical" : "DIFFERENCES FOUND");
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace vqtwin

int main() {
  try {
    return vqtwin::check();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "float_ms_ssim_soft_check: error: %s\n", e.what());
    return 1;
  }
}
