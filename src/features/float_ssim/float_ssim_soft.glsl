// float_ssim's fp32 and fp64 steps in integer arithmetic, for values that are +0 or positive normal
// numbers (docs/exactness.md, float_ssim: every value the twin forms is 0 or at least 2^-64, and below
// 2^30). A value is a float's bits, or a pair (mantissa, exponent): m * 2^e. Rounding is
// round-to-nearest-even on significant bits, as IEEE's, so no device float unit, rounding mode or
// denormal mode is involved.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

int msb64(uint64_t v) {
  const uint hi = uint(v >> 32);
  return hi != 0u ? findMSB(hi) + 32 : findMSB(uint(v));
}

// The float m * 2^e (m > 0) rounded to 24 significant bits, as bits; 0 for m == 0. `sticky`: bits below
// m's last one that are not zero (the exact value is a little more than m * 2^e).
uint float_of(uint64_t m, int e, bool sticky) {
  if (m == 0ul) return 0u;
  int top = msb64(m);
  if (top >= 24) {
    const int drop = top + 1 - 24;
    const uint64_t lo = m & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
    uint64_t kept = m >> drop;
    if (lo > tie || (lo == tie && (sticky || (kept & 1ul) != 0ul))) kept += 1ul;
    m = kept;
    e += drop;
    top = msb64(m);  // 23, or 24 after a carry
  }
  // m * 2^e with m's top bit at `top`: exponent field e + top + 127, the bits below the top one.
  const uint field = uint(e + top + 127);
  const uint mant = uint(top <= 23 ? (m << (23 - top)) : (m >> (top - 23))) & 0x7FFFFFu;
  return (field << 23) | mant;
}

// The integer p rounded to `bits` significant bits (ties to even), as an integer.
uint64_t rn_int(uint64_t p, int bits) {
  const int top = msb64(p);
  if (top < bits) return p;
  const int drop = top + 1 - bits;
  const uint64_t lo = p & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
  uint64_t kept = p >> drop;
  if (lo > tie || (lo == tie && (kept & 1ul) != 0ul)) kept += 1ul;
  return kept << drop;
}

// A float's mantissa and exponent (0 for +0; denormals cannot occur).
uint64_t mant_of(uint bits) { return (bits & 0x7F800000u) == 0u ? 0ul : uint64_t((bits & 0x7FFFFFu) | 0x800000u); }
int exp_of(uint bits) { return int((bits >> 23) & 0xFFu) - 150; }

// RN_fp32(a * b) of two floats >= 0: the 48-bit product of the mantissas rounded once.
uint fmul(uint a, uint b) {
  const uint64_t ma = mant_of(a), mb = mant_of(b);
  return float_of(ma * mb, exp_of(a) + exp_of(b), false);
}

// A double >= 0 as M * 2^E (M < 2^53).
struct Soft64 {
  uint64_t m;
  int e;
};

// v * 2^(e - at), truncated to an integer, and whether anything non-zero was cut off.
uint64_t place(uint64_t m, int e, int at, inout bool sticky) {
  const int sh = e - at;
  if (sh >= 0) return m << sh;
  if (-sh >= 64) {
    sticky = sticky || m != 0ul;
    return 0ul;
  }
  sticky = sticky || (m & ((uint64_t(1) << (-sh)) - 1ul)) != 0ul;
  return m >> (-sh);
}

// RN_fp64(acc + t) for acc, t >= 0: the exact sum, placed with its top bit at bit 62 or 63 of a
// uint64 (each addend's cut-off bits lie below the rounding position, so they act only as sticky),
// rounded to 53 significant bits. Planted bugs: `to24` (rounded to 24 bits, an fp32 sum); `past_bound`
// (the larger addend placed at bit 63: the sum of two such overflows 64 bits).
Soft64 add64(Soft64 acc, uint64_t m, int e, bool to24, bool past_bound) {
  if (m == 0ul) return acc;
  if (acc.m == 0ul) return Soft64(m, e);
  const int top = max(acc.e + msb64(acc.m), e + msb64(m));
  const int at = top - (past_bound ? 63 : 62);  // the unit of bit 0
  bool sticky = false;
  const uint64_t s = place(acc.m, acc.e, at, sticky) + place(m, e, at, sticky);
  const int bits = to24 ? 24 : 53;
  const int drop = msb64(s) + 1 - bits;
  const uint64_t lo = s & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
  uint64_t kept = s >> drop;
  if (lo > tie || (lo == tie && (sticky || (kept & 1ul) != 0ul))) kept += 1ul;
  return Soft64(kept, at + drop);
}
