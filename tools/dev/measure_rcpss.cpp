// Measures this CPU's x86 `rcpss` table in the layout of the spec's float_adm_rcpss_table.txt (what
// gen_rcpss_table.py reads), and checks on stderr that the table rule of float ADM (math.hpp:
// rcpss_from_table) gives the instruction's result for every mantissa at a spread of exponents.
// Stand-alone on purpose (no vqtwin code): it is the independent measurement behind
// src/features/float_adm/rcpss_table_*.inc.
//   build/tools/dev/measure_rcpss > table.txt   (exit 1 when the rule does not hold)
#include <xmmintrin.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float rcpss(float x) { return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))); }

}  // namespace

int main() {
  std::uint32_t table[4096];
  for (int i = 0; i < 4096; ++i) table[i] = bits_of(rcpss(1.0f + float(i) / 4096.0f));

  // x = 2^e * (1 + f): rcpss(x) = 2^-e * table[top 12 bits of f], for every normal result.
  long checked = 0, wrong = 0;
  for (int e = -125; e <= 125; e += 5)
    for (std::uint32_t m = 0; m < (1u << 23); ++m) {
      const std::uint32_t x_bits = std::uint32_t(e + 127) << 23 | m;
      float x;
      std::memcpy(&x, &x_bits, sizeof x);
      const std::uint32_t t = table[m >> 11];
      const std::uint32_t want = (((t >> 23) - std::uint32_t(e)) << 23) | (t & 0x7FFFFFu);
      ++checked;
      if (bits_of(rcpss(x)) != want && wrong++ < 5)
        std::fprintf(stderr, "rcpss(%08x) = %08x, the table rule says %08x\n", x_bits, bits_of(rcpss(x)), want);
    }
  std::fprintf(stderr, "%ld inputs checked against the table rule, %ld differ\n", checked, wrong);

  std::printf("# raw _mm_rcp_ss(x) for x = 1 + i/4096 (i = 0..4095), as binary32 hex, 8 per line, i ascending.\n");
  for (int i = 0; i < 4096; ++i) std::printf("%08x%c", table[i], i % 8 == 7 ? '\n' : ' ');
  return wrong ? 1 : 0;
}
