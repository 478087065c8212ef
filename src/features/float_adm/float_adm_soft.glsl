// float_adm's double steps without fp64 (the fp64-free path), in 64-bit integers: a double is a pair
// (M, E), value M * 2^E with M < 2^53, never negative here. Each function returns the IEEE binary64
// result, correctly rounded (to nearest, ties to even), of one double operation the CPU performs on
// these operands: the product of a float and a double constant, and the sum of two doubles >= 0
// (docs/exactness.md, float_adm). Included after float_adm_f32.glsl (64-bit integers, adm_msb64).

struct AdmD {
  uint64_t m;
  int e;
};

// RN64(a * K) for a float a = m * 2^e (m < 2^24) and a double K = M * 2^E (2^52 <= M < 2^53). The exact
// product P = M * m < 2^77 is held as hi * 2^32 + lo (hi = (M >> 32) * m < 2^45, lo = (M mod 2^32) * m
// < 2^56); its top 53 bits are kept and rounded on the bits below. `low_left_out`: a planted bug (the
// low partial product left out of the sum).
AdmD adm_mul(uint m, int e, uint64_t big_m, int big_e, bool low_left_out) {
  if (m == 0u) return AdmD(0ul, 0);
  const uint64_t hi = (big_m >> 32) * uint64_t(m), lo = low_left_out ? 0ul : (big_m & 0xFFFFFFFFul) * uint64_t(m);
  // floor(P / 2^24) < 2^53 + 2^32: its top bit is P's top bit minus 24.
  const uint64_t upper = (hi << 8) + (lo >> 24);
  const int top = adm_msb64(upper) + 24;
  const int drop = top + 1 - 53;  // 23 or 24 (P >= 2^75): hi * 2^32 >> drop = hi << (32 - drop)
  uint64_t kept = (hi << (32 - drop)) + (lo >> drop);
  const uint64_t rest = lo & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
  if (rest > tie || (rest == tie && (kept & 1ul) != 0ul)) kept += 1ul;
  int at = e + big_e + drop;
  if (kept == (uint64_t(1) << 53)) {
    kept >>= 1;
    at += 1;
  }
  return AdmD(kept, at);
}

// v * 2^(e - at) truncated to an integer, noting cut-off non-zero bits in `sticky`.
uint64_t adm_place(uint64_t m, int e, int at, inout bool sticky) {
  const int sh = e - at;
  if (sh >= 0) return m << sh;
  if (-sh >= 64) {
    sticky = sticky || m != 0ul;
    return 0ul;
  }
  sticky = sticky || (m & ((uint64_t(1) << (-sh)) - 1ul)) != 0ul;
  return m >> (-sh);
}

// RN64(a + b) for a, b >= 0 (M < 2^53 each): both placed with the larger's top bit at bit 62 (the sum
// stays below 2^64); bits cut off the smaller lie below the rounding position (at least 9 bits down),
// so they count only as sticky.
AdmD adm_add(AdmD a, AdmD b) {
  if (b.m == 0ul) return a;
  if (a.m == 0ul) return b;
  const int top = max(a.e + adm_msb64(a.m), b.e + adm_msb64(b.m));
  const int at = top - 62;
  bool sticky = false;
  const uint64_t s = adm_place(a.m, a.e, at, sticky) + adm_place(b.m, b.e, at, sticky);
  const int drop = adm_msb64(s) + 1 - 53;
  const uint64_t lo = s & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
  uint64_t kept = s >> drop;
  if (lo > tie || (lo == tie && (sticky || (kept & 1ul) != 0ul))) kept += 1ul;
  return AdmD(kept, at + drop);
}

// |x| of a float as a double (exact).
AdmD adm_widen(float x) { return AdmD(uint64_t(adm_mant(x)), adm_exp(x)); }

// a < b for a double a >= 0 (M normalised: 2^52 <= M < 2^53, or 0) and a float b >= 0.
bool adm_less(AdmD a, float b) {
  const uint mb = adm_mant(b);
  if (mb == 0u) return false;
  if (a.m == 0ul) return true;
  const uint64_t bm = uint64_t(mb) << 29;  // top bit at 52 as a's
  const int be = adm_exp(b) - 29;
  return a.e != be ? a.e < be : a.m < bm;
}
