#include "features/integer_vif/log_table.hpp"

#include <array>
#include <cmath>

#include "features/integer_vif/math.hpp"

namespace vqtwin::integer_vif {
namespace {

// binary32 log2 of an integer in [32767, 65535], correctly rounded: the binary64 log2 is within an
// ulp of the real value, far closer than any binary32 rounding boundary for these arguments (the
// unit test checks every entry against an independent high-precision generation).
float log2_f32(unsigned m) { return static_cast<float>(std::log2(static_cast<double>(m))); }

// A few zero entries past the end let a SIMD gather read 32 bits at the last index.
using Table = std::array<std::uint16_t, kLogTableSize + 16>;

Table build() {
  Table t{};
  for (unsigned m = 32767; m < unsigned(kLogTableSize); ++m) {
    // The product by 2048 is exact in binary32; std::round rounds half away from zero.
    const float scaled = log2_f32(m) * 2048.0f;
    t[m] = static_cast<std::uint16_t>(std::round(static_cast<double>(scaled)));
  }
  return t;
}

}  // namespace

const std::uint16_t* log2_table() {
  static const Table table = build();
  return table.data();
}

}  // namespace vqtwin::integer_vif
