// float_ssim's fp32 and fp64 steps in integer arithmetic, for values that are +0 or positive normal
// numbers (docs/exactness.md, float_ssim: every value the twin forms is 0 or at least 2^-64, and below
// 2^30). A value is a float's bits, or a pair (mantissa, exponent): m * 2^e. Rounding is
// round-to-nearest-even on significant bits, as IEEE's, so no device float unit, rounding mode or
// denormal mode is involved.
#ifndef FLOAT_SSIM_SOFT_GLSL
#define FLOAT_SSIM_SOFT_GLSL
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

// ---- The Gaussian passes' steps: operands known normalised (+0 or positive normal, docs/exactness.md),
// so no bit search (msb64) and no 64-bit multiply is needed. ----

// RN_fp32(a * b) of two floats that are +0 or positive normal, with a normal product (float bits). The
// 24-bit mantissas' product P (umulExtended: hi:lo) has its top bit at 47 or 46; the 24 bits from the
// top are kept, the rest decide the rounding (half to even). Adding the round-up to the float's bits
// carries a full mantissa into the exponent, as IEEE's rounding does.
uint fmul32(uint a, uint b) {
  if ((a & 0x7F800000u) == 0u || (b & 0x7F800000u) == 0u) return 0u;
  uint hi, lo;
  umulExtended((a & 0x7FFFFFu) | 0x800000u, (b & 0x7FFFFFu) | 0x800000u, hi, lo);
  const bool top47 = hi >= 0x8000u;
  const uint kept = top47 ? (hi << 8) | (lo >> 24) : (hi << 9) | (lo >> 23);  // 24 bits, top one set
  const uint rest = top47 ? lo & 0xFFFFFFu : lo & 0x7FFFFFu;
  const uint halfway = top47 ? 0x800000u : 0x400000u;
  const uint up = (rest > halfway || (rest == halfway && (kept & 1u) != 0u)) ? 1u : 0u;
  // exponent field: (ea - 127) + (eb - 127) + (47 or 46) - 46 + 127
  const uint field = ((a >> 23) & 0xFFu) + ((b >> 23) & 0xFFu) - 127u + (top47 ? 1u : 0u);
  return (field << 23) + (kept & 0x7FFFFFu) + up;
}

// A double's bits (lo, hi: unpackDouble2x32), +0 or a positive normal number, rounded to float: the
// 23 fraction bits kept are hi's 20 and lo's top 3, lo's other 29 decide (half to even).
uint float_of_double_bits(uvec2 w) {
  if ((w.y & 0x7FF00000u) == 0u) return 0u;
  const uint field = ((w.y >> 20) & 0x7FFu) - 1023u + 127u;
  const uint bits = (field << 23) | ((w.y & 0xFFFFFu) << 3) | (w.x >> 29);
  const uint rest = w.x & 0x1FFFFFFFu;
  return bits + ((rest > 0x10000000u || (rest == 0x10000000u && (bits & 1u) != 0u)) ? 1u : 0u);
}

// A double >= 0 kept normalised: M in [2^52, 2^53) (or 0), value M * 2^E.
// RN_fp64(acc + t) for a float t that is +0 or positive normal:
// the larger addend's top bit goes to bit 62 (bit 63 under the planted `past_bound`), the sum's top is
// at bit 62 or 63, and 10 or 11 bits are dropped, so the smaller addend's cut-off bits (kept as
// sticky) decide only ties. `to24`: the planted fp32 sum (rounded to 24 bits, then renormalised).
Soft64 add53(Soft64 acc, uint t, bool to24, bool past_bound) {
  if ((t & 0x7F800000u) == 0u) return acc;
  const uint64_t m = uint64_t((t & 0x7FFFFFu) | 0x800000u);
  const int e = int((t >> 23) & 0xFFu) - 150;
  if (acc.m == 0ul) return Soft64(m << 29, e - 29);  // exact: 24 significant bits
  const int top = max(acc.e + 52, e + 23);
  const int at = top - (past_bound ? 63 : 62);
  bool sticky = false;
  const uint64_t s = place(acc.m, acc.e, at, sticky) + place(m, e, at, sticky);
  const int bits = to24 ? 24 : 53;
  const int drop = ((s >> 63) != 0ul ? 64 : 63) - bits;
  const uint64_t lo = s & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
  uint64_t kept = s >> drop;
  if (lo > tie || (lo == tie && (sticky || (kept & 1ul) != 0ul))) kept += 1ul;
  int ke = at + drop;
  if ((kept >> bits) != 0ul) {  // rounded up to 2^bits: exact when halved
    kept >>= 1;
    ke += 1;
  }
  return Soft64(kept << (53 - bits), ke - (53 - bits));
}

// A normalised Soft64 (or 0) rounded to float: M's top 24 bits kept, its low 29 decide.
uint float_of53(Soft64 a) {
  if (a.m == 0ul) return 0u;
  const uint kept = uint(a.m >> 29);  // in [2^23, 2^24)
  const uint rest = uint(a.m) & 0x1FFFFFFFu;
  const uint bits = (uint(a.e + 52 + 127) << 23) + (kept - 0x800000u);
  return bits + ((rest > 0x10000000u || (rest == 0x10000000u && (kept & 1u) != 0u)) ? 1u : 0u);
}
#endif
