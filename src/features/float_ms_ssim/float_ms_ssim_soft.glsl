// float_ms_ssim's fp32 and fp64 steps in integer arithmetic, for finite values of either sign, fp32
// subnormals included (IEEE gradual underflow): no device float unit, rounding mode or denormal mode is
// involved. A value is a float's bits, or a Num: (-1)^neg * m * 2^e. Every rounding is
// round-to-nearest-even on significant bits. docs/exactness.md (float_ms_ssim) proves each step exact.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

struct Num {
  bool neg;
  uint64_t m;
  int e;
};

int ms_msb64(uint64_t v) {
  const uint hi = uint(v >> 32);
  return hi != 0u ? findMSB(hi) + 32 : findMSB(uint(v));
}

// A float's value: a subnormal (exponent field 0) has no hidden bit and the smallest normal's exponent.
Num ms_unpack32(uint bits) {
  const uint field = (bits >> 23) & 0xFFu, frac = bits & 0x7FFFFFu;
  return Num((bits >> 31) != 0u, uint64_t(field == 0u ? frac : (frac | 0x800000u)),
             field == 0u ? -149 : int(field) - 150);
}

// RN_fp32 of an exact value with m < 2^60 (no overflow: every value here is below 2^30): 24 significant
// bits, the last place never below 2^-149 (so a tiny value rounds to a subnormal or to a signed zero).
uint ms_round32(Num v) {
  const uint sign = v.neg ? 0x80000000u : 0u;
  if (v.m == 0ul) return sign;
  uint64_t m = v.m;
  int e = v.e;
  const int top = ms_msb64(m);
  const int drop = max(top + 1 - 24, -149 - e);
  if (drop > 0) {
    if (drop > top + 1) return sign;  // below half the smallest subnormal
    const uint64_t lo = m & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
    m >>= drop;
    e += drop;
    if (lo > tie || (lo == tie && (m & 1ul) != 0ul)) m += 1ul;
    if (m == (uint64_t(1) << 24)) {
      m >>= 1;
      e += 1;
    }
  } else {
    const int sh = min(23 - top, e + 149);  // exact: the top bit to bit 23 where the range allows
    m <<= sh;
    e -= sh;
  }
  if (m < 0x800000ul) return sign | uint(m);  // subnormal (e == -149)
  return sign | (uint(e + 150) << 23) | (uint(m) & 0x7FFFFFu);
}

// RN_fp32(a * b): the exact 48-bit product of the mantissas rounded once (sign: exclusive or).
uint ms_fmul(uint a, uint b) {
  const Num x = ms_unpack32(a), y = ms_unpack32(b);
  return ms_round32(Num(x.neg != y.neg, x.m * y.m, x.e + y.e));
}

// m * 2^(e - at), truncated to an integer; `lost`: non-zero bits were cut off.
uint64_t ms_place(uint64_t m, int e, int at, out bool lost) {
  const int sh = e - at;
  lost = false;
  if (sh >= 0) return m << sh;
  if (-sh >= 64) {
    lost = m != 0ul;
    return 0ul;
  }
  lost = (m & ((uint64_t(1) << (-sh)) - 1ul)) != 0ul;
  return m >> (-sh);
}

// RN_fp64(a + b) for a, b with m < 2^54: both placed in units of 2^at with the larger top bit at bit 62
// (the sum of two fits 64 bits); only the smaller can lose bits, and then its last kept bit is set
// (a sticky bit: every value strictly between two even integers rounds alike, the rounding position
// lying at least 9 bits up: docs/exactness.md). The exact result, rounded to 53 significant bits; an
// exact cancellation gives +0, as IEEE addition under round-to-nearest. Planted bugs: `to24` (rounded
// to 24 bits, an fp32 sum), `past_bound` (the larger top bit at 63: a sum of two overflows 64 bits).
Num ms_add64(Num a, Num b, bool to24, bool past_bound) {
  if (b.m == 0ul) return a;  // x + (+-0) = x; the sums start at +0 and never become -0
  if (a.m == 0ul) return b;
  const int at = max(a.e + ms_msb64(a.m), b.e + ms_msb64(b.m)) - (past_bound ? 63 : 62);
  bool la, lb;
  const uint64_t pa = ms_place(a.m, a.e, at, la) | (la ? 1ul : 0ul);
  const uint64_t pb = ms_place(b.m, b.e, at, lb) | (lb ? 1ul : 0ul);
  uint64_t s;
  bool neg;
  if (a.neg == b.neg) {
    s = pa + pb;
    neg = a.neg;
  } else if (pa >= pb) {
    s = pa - pb;
    neg = a.neg;
  } else {
    s = pb - pa;
    neg = b.neg;
  }
  if (s == 0ul) return Num(false, 0ul, 0);
  const int drop = ms_msb64(s) + 1 - (to24 ? 24 : 53);
  if (drop <= 0) return Num(neg, s, at);
  const uint64_t lo = s & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
  uint64_t kept = s >> drop;
  if (lo > tie || (lo == tie && (kept & 1ul) != 0ul)) kept += 1ul;
  return Num(neg, kept, at + drop);
}
