// IEEE binary32 multiplication and addition, round-to-nearest-even with gradual underflow, exactly as the
// CPU computes them, on a device that rounds fp32 correctly (RoundingModeRTE) but may flush denormals
// (shaderDenormPreserveFloat32 false on NVIDIA and lavapipe). fmul_e / fadd_e take the device's result
// when neither operand nor the result lies in the denormal range; otherwise (an operand denormal, or a
// result at most 2^-126 in magnitude that is not an exact zero) they redo the operation in integers
// (soft_mul / soft_add), which round the exact value as IEEE does, denormals included. docs/exactness.md
// (float_vif) says why the two agree. Values here are finite (no infinity or NaN reaches these).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// VQTWIN_VULKAN_SOFT_FP32=1 (a test knob): every operation in integers.
bool g_all_soft = false;

int msb64_v(uint64_t v) {
  const uint hi = uint(v >> 32);
  return hi != 0u ? findMSB(hi) + 32 : findMSB(uint(v));
}

// |x|'s significand and the exponent of its last bit: |x| = m * 2^e (m = 0 for a zero).
uint64_t sig_of(uint b) {
  const uint f = (b >> 23) & 0xFFu;
  return uint64_t(f == 0u ? (b & 0x7FFFFFu) : ((b & 0x7FFFFFu) | 0x800000u));
}
int sexp_of(uint b) {
  const int f = int((b >> 23) & 0xFFu);
  return f == 0 ? -149 : f - 150;
}

// The float of sign `s` (0 or 0x80000000) and magnitude m * 2^e (+ a little more when `sticky`: bits
// below m's last one that are not all zero), rounded to nearest even on the binary32 grid: 24
// significant bits, or the unit 2^-149 below 2^-126 (gradual underflow). No overflow occurs here.
uint pack_rn(uint s, uint64_t m, int e, bool sticky) {
  if (m == 0ul) return s;  // only an exact zero has m == 0 (callers keep a non-zero value non-zero)
  const int top = msb64_v(m);
  const int unit = max(e + top - 23, -149);  // exponent of the result's last bit
  const int drop = unit - e;
  uint64_t k;
  if (drop <= 0) {
    k = m << (-drop);
  } else if (drop >= 64) {
    // m < 2^64: at most half a unit, and exactly half only when drop == 64 and m == 2^63.
    const uint64_t mid = uint64_t(1) << 63;
    k = drop == 64 && (m > mid || (m == mid && sticky)) ? 1ul : 0ul;
  } else {
    const uint64_t lo = m & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
    k = m >> drop;
    if (lo > tie || (lo == tie && (sticky || (k & 1ul) != 0ul))) k += 1ul;
  }
  int u = unit;
  if (k == (uint64_t(1) << 24)) {  // a carry out of 24 bits
    k >>= 1;
    u += 1;
  }
  if (k < 0x800000ul) return s | uint(k);  // denormal (u == -149) or zero
  return s | (uint(u + 150) << 23) | (uint(k) & 0x7FFFFFu);
}

uint soft_mul(uint a, uint b) {
  const uint s = (a ^ b) & 0x80000000u;
  return pack_rn(s, sig_of(a) * sig_of(b), sexp_of(a) + sexp_of(b), false);
}

// The exact sum of two finite floats, rounded once: the larger magnitude placed with its top bit at bit
// 62, the smaller shifted to the same unit; bits of the smaller below that unit (only when the exponents
// are more than 38 apart, so the result keeps at least 38 bits above the unit and is rounded to 24) act
// as a sticky bit: subtracted, the kept difference is one unit less and the remainder is sticky.
uint soft_add(uint a, uint b) {
  uint64_t ma = sig_of(a), mb = sig_of(b);
  int ea = sexp_of(a), eb = sexp_of(b);
  if (ma == 0ul && mb == 0ul) return (a & b) & 0x80000000u;  // -0 + -0 = -0, else +0
  if (ma == 0ul) return b;
  if (mb == 0ul) return a;
  uint sa = a & 0x80000000u, sb = b & 0x80000000u;
  const int ta = ea + msb64_v(ma), tb = eb + msb64_v(mb);
  if (tb > ta || (tb == ta && mb > ma)) {  // a: the larger magnitude
    const uint64_t tm = ma; ma = mb; mb = tm;
    const int te = ea; ea = eb; eb = te;
    const uint ts = sa; sa = sb; sb = ts;
  }
  const int at = max(ea + msb64_v(ma), eb + msb64_v(mb)) - 62;
  const uint64_t pa = ma << (ea - at);  // ea >= at: a's top bit lands at 62
  uint64_t pb;
  bool sticky = false;
  const int sh = eb - at;
  if (sh >= 0) {
    pb = mb << sh;
  } else if (-sh >= 64) {
    pb = 0ul;
    sticky = true;
  } else {
    pb = mb >> (-sh);
    sticky = (mb & ((uint64_t(1) << (-sh)) - 1ul)) != 0ul;
  }
  if (sa == sb) return pack_rn(sa, pa + pb, at, sticky);
  uint64_t d = pa - pb;  // > 0: a has the larger magnitude
  if (d == 0ul) return 0u;  // x + (-x) = +0
  if (sticky) d -= 1ul;     // the exact difference lies strictly between d - 1 and d
  return pack_rn(sa, d, at, sticky);
}

// RN(a / b) for a finite a and a normal b: a's significand normalised to 24 bits, shifted up by 39
// (below 2^63) and divided by b's exactly in 64-bit integers: a quotient of 39 or 40 bits, the
// remainder sticky, rounded once (pack_rn).
uint soft_div(uint a, uint b) {
  const uint s = (a ^ b) & 0x80000000u;
  uint64_t ma = sig_of(a);
  if (ma == 0ul) return s;
  int ea = sexp_of(a);
  const int lift = 23 - msb64_v(ma);  // a denormal numerator: normalised first
  ma <<= lift;
  ea -= lift;
  const uint64_t mb = sig_of(b), n = ma << 39;
  return pack_rn(s, n / mb, ea - 39 - sexp_of(b), (n % mb) != 0ul);
}

// True for a denormal (not zero) operand.
bool denormal_bits(uint b) { return (b & 0x7F800000u) == 0u && (b & 0x7FFFFFu) != 0u; }
// True for a result the device may have flushed or rounded against the denormal range: |r| <= 2^-126.
bool tiny_bits(uint r) { return (r & 0x7FFFFFFFu) <= 0x800000u; }

// Plain device operations (`precise`, RTE): used where the caller has shown that no operand or result
// can be in the denormal range (float_vif_filter.comp, float_vif_prescale.comp).
float fmul_n(float a, float b) {
  precise float r = a * b;
  return r;
}
float fadd_n(float a, float b) {
  precise float r = a + b;
  return r;
}

float fmul_e(float a, float b) {
  precise float r = a * b;
  const uint ua = floatBitsToUint(a), ub = floatBitsToUint(b), ur = floatBitsToUint(r);
  const bool zero_operand = (ua & 0x7FFFFFFFu) == 0u || (ub & 0x7FFFFFFFu) == 0u;
  if (g_all_soft || denormal_bits(ua) || denormal_bits(ub) || (tiny_bits(ur) && !zero_operand))
    return uintBitsToFloat(soft_mul(ua, ub));
  return r;
}

float fadd_e(float a, float b) {
  precise float r = a + b;
  const uint ua = floatBitsToUint(a), ub = floatBitsToUint(b), ur = floatBitsToUint(r);
  const bool cancels = (ua ^ ub) == 0x80000000u || ((ua | ub) & 0x7FFFFFFFu) == 0u;  // an exact zero
  if (g_all_soft || denormal_bits(ua) || denormal_bits(ub) || (tiny_bits(ur) && !cancels))
    return uintBitsToFloat(soft_add(ua, ub));
  return r;
}
