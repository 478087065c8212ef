// The IEEE binary64 quotient n / d, correctly rounded (to nearest, ties to even), in integer
// arithmetic: Vulkan lets a driver's division be off by ulps, so no twin uses it. The significands
// N, D (53 bits each) are divided exactly with 64-bit integer division, 10 quotient bits a step, to
// 60 or 61 significant bits plus the remainder (sticky), then rounded to 53 bits; the exponent and
// sign are set from the operands' bits. Callers prove their ranges: n is zero or normal, d normal,
// and the quotient normal (no denormal, infinity or NaN in or out).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// `truncate`: a planted bug (rounding toward zero instead).
double exact_div(double n, double d, bool truncate) {
  const uvec2 nb = unpackDouble2x32(n), db = unpackDouble2x32(d);
  const uint sign = (nb.y ^ db.y) & 0x80000000u;
  const int en = int((nb.y >> 20) & 0x7ffu), ed = int((db.y >> 20) & 0x7ffu);
  if (en == 0) return packDouble2x32(uvec2(0u, sign));  // a zero numerator: zero of the quotient's sign
  const uint64_t big_n = (uint64_t((nb.y & 0xfffffu) | 0x100000u) << 32) | uint64_t(nb.x);
  const uint64_t big_d = (uint64_t((db.y & 0xfffffu) | 0x100000u) << 32) | uint64_t(db.x);
  // N / D lies in (1/2, 2): q = floor(N * 2^60 / D) in [2^59, 2^61), r < D < 2^53 (r << 10 fits).
  uint64_t q = big_n / big_d, r = big_n % big_d;
  for (int i = 0; i < 6; ++i) {
    r <<= 10;
    q = (q << 10) | (r / big_d);
    r %= big_d;
  }
  const int drop = q >= (uint64_t(1) << 60) ? 8 : 7;  // down to 53 significant bits
  uint64_t kept = q >> drop;
  const uint64_t lo = q & ((uint64_t(1) << drop) - 1ul), mid = uint64_t(1) << (drop - 1);
  if (!truncate && (lo > mid || (lo == mid && (r != 0ul || (kept & 1ul) != 0ul)))) kept += 1ul;
  int e = drop - 60 + en - ed;  // n / d = kept * 2^e
  if (kept == (uint64_t(1) << 53)) {
    kept >>= 1;
    e += 1;
  }
  const uint biased = uint(e + 52 + 1023);
  return packDouble2x32(uvec2(uint(kept), sign | (biased << 20) | (uint(kept >> 32) & 0xfffffu)));
}
