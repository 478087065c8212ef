// integer ADM's per-cell rules for the Vulkan twin: math.hpp and cells.hpp in GLSL, rule for rule,
// with the CPU's widths and wraps (int16 stores as 16-bit sign extension, int32 stores as the low
// 32 bits of an int64, uint32 sums where libvmaf's int32 sums wrap). Band values of every scale are
// kept in 32-bit words (scale 0's are int16 values), so no 16-bit storage feature is needed.
// Integer only: the two double steps of the decouple (the 1-degree angle test and the gain limit)
// are formed exactly in integers with integer round-to-nearest-even on significant bits
// (docs/exactness.md, "integer ADM"), so no float unit, rounding mode or fp64 is involved.
// A shader including this defines `int div_at(uint m)` (the reciprocal table) when it decouples.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

const int kLo[4] = int[4](15826, 27411, 7345, -4240);
const int kHi[4] = int[4](-4240, -7345, 27411, -15826);
const uint kLoSum = 46342u;

// int16_t(v): the low 16 bits, sign-extended.
int wrap16(int v) { return bitfieldExtract(v, 0, 16); }

int dwt_source(int p, int n) { return p < 0 ? -p : (p >= n ? 2 * n - 1 - p : p); }
int mask_before(int i) { return i == 0 ? 1 : i - 1; }
int mask_after(int i, int n) { return i == n - 1 ? n - 1 : i + 1; }

// ---- exact rounding helpers (64- and 128-bit unsigned) ----

int msb64(uint64_t v) {
  const uint hi = uint(v >> 32);
  return hi != 0u ? findMSB(hi) + 32 : findMSB(uint(v));
}

// x * y as the 128-bit (hi, lo), for any x < 2^64 and y < 2^32.
void mul_wide(uint64_t x, uint y, out uint64_t hi, out uint64_t lo) {
  const uint64_t a = (x & 0xffffffffUL) * uint64_t(y), b = (x >> 32) * uint64_t(y);
  lo = a + (b << 32);
  hi = (b >> 32) + (lo < a ? 1UL : 0UL);
}

// (hi, lo) > 0 rounded to `bits` significant bits, ties to even (one IEEE rounding of an exact
// integer): kept * 2^drop, kept <= 2^bits. Needs hi < 2^(bits - 1) (drop < 64), true of every caller.
void round_sig(uint64_t hi, uint64_t lo, int bits, out uint64_t kept, out int drop) {
  const int msb = hi != 0UL ? 64 + msb64(hi) : msb64(lo);
  drop = msb + 1 - bits;
  if (drop <= 0) {
    kept = lo;
    drop = 0;
    return;
  }
  kept = (lo >> drop) | (hi << (64 - drop));  // 1 <= drop < 64
  const uint64_t rest = lo & ((1UL << drop) - 1UL), tie = 1UL << (drop - 1);
  // No 64-bit comparison inside && / || (see angle_within_1deg).
  bool up = rest > tie;
  if (rest == tie) up = (kept & 1UL) != 0UL;
  if (up) kept += 1UL;
}

// a * 2^ea >= b * 2^eb, for a, b > 0.
bool ge_scaled(uint64_t a, int ea, uint64_t b, int eb) {
  const int la = msb64(a) + ea, lb = msb64(b) + eb;
  if (la != lb) return la > lb;
  // Same top bit: the shifted one stays below 2^64.
  return ea >= eb ? (a << (ea - eb)) >= b : a >= (b << (eb - ea));
}

// ---- decouple (math.hpp) ----

// angle_within_1deg: is x * x >= double(cos^2 1deg) * (F(o_mag) / 4096) * (F(t_mag) / 4096), with
// x = F(dot) / 4096 >= 0 and F the int64 -> float conversion? In integers: F(v) = RN24(|v|) with its
// sign; x * x = F(dot)^2 / 2^24 is exact (48 bits); cos^2 1deg = 0xFFEC0A * 2^-24 (kCos1DegSq's bits),
// so the first product, 0xFFEC0A * F(o) * 2^-36, is exact (48 bits) and the second rounds
// 0xFFEC0A * F(o) * F(t) (at most 73 bits) once to 53 bits. No value is near a denormal or overflow
// (every non-zero term is at least 2^-37), so the power-of-two units commute with the roundings.
// The moments wrap modulo 2^64 as the CPU's uint64 sums (int64 multiplications wrap).
const uint kCos1DegSqMantissa = 0xFFEC0Au;

bool angle_within_1deg(int64_t oh, int64_t ov, int64_t th, int64_t tv) {
  const int64_t dot = oh * th + ov * tv;
  const int64_t o_mag = oh * oh + ov * ov;
  const int64_t t_mag = th * th + tv * tv;
  // Each 64-bit comparison stands alone: lavapipe (Mesa 22.3, LLVM 15) was seen to evaluate an
  // int64 comparison joined by && wrongly (decouple_scale123 below keeps its gain in 32 bits).
  if (dot < 0L) return false;  // x < 0
  // The right side is -0, 0 or negative: x * x >= it.
  if (o_mag == 0L) return true;
  if (t_mag == 0L) return true;
  const bool o_neg = o_mag < 0L, t_neg = t_mag < 0L;
  if (o_neg != t_neg) return true;
  if (dot == 0L) return false;  // 0 against a positive product
  uint64_t md, mo, mt;
  int ed, eo, et;
  round_sig(0UL, uint64_t(dot), 24, md, ed);
  round_sig(0UL, o_mag < 0L ? 0UL - uint64_t(o_mag) : uint64_t(o_mag), 24, mo, eo);
  round_sig(0UL, t_mag < 0L ? 0UL - uint64_t(t_mag) : uint64_t(t_mag), 24, mt, et);
  uint64_t hi, lo, k;
  int ek;
  mul_wide(uint64_t(kCos1DegSqMantissa) * mo, uint(mt), hi, lo);  // mt <= 2^24
  round_sig(hi, lo, 53, k, ek);
  // md^2 * 2^(2 ed - 24) >= k * 2^(ek + eo + et - 48)
  return ge_scaled(md * md, 2 * ed + 24, k, ek + eo + et);
}

int div_at(uint m);

int clamp_gain(int64_t k) { return int(k < 0L ? 0L : (k > 32768L ? 32768L : k)); }

int gain_scale0(int o, int t) {
  if (o == 0) return 32768;
  const int64_t recip = o > 0 ? int64_t(div_at(uint(o))) : -int64_t(div_at(uint(-o)));
  const int k = int((recip * int64_t(t) + 16384L) >> 15);
  return k < 0 ? 0 : (k > 32768 ? 32768 : k);
}

int gain_scale123(int o, int t) {
  if (o == 0) return 32768;
  uint m = o < 0 ? 0u - uint(o) : uint(o);
  int e = 0;
  if (m >= 32768u) {
    e = findMSB(m) - 14;  // 17 - countl_zero(m)
    m = (m + (1u << (e - 1))) >> e;
  }
  const int64_t sign = o < 0 ? -1L : 1L;
  return clamp_gain(((int64_t(div_at(m)) * int64_t(t)) * sign + (int64_t(1) << (14 + e))) >> (15 + e));
}

// The gain limit (limit_gain, then the conversion to an integer type): trunc(min(rst * egl, t)) for
// o > 0, trunc(max(rst * egl, t)) for o < 0, with rst * egl one double product. trunc is monotone
// and t an integer, so this is min/max(trunc(RN53(rst * egl)), t); RN53 and trunc are symmetric in
// the sign. egl = egl_m * 2^egl_e (egl_m the 53-bit mantissa, egl_e <= -46 since 1 <= egl <= 100),
// |rst| <= 2^31: the product has at most 84 bits and its value is below 2^38.
int64_t limited(int rst, int o, int t, uint64_t egl_m, int egl_e) {
  const uint a = rst < 0 ? 0u - uint(rst) : uint(rst);
  int64_t v = 0L;
  if (a != 0u) {
    uint64_t hi, lo, k;
    int drop;
    mul_wide(egl_m, a, hi, lo);
    round_sig(hi, lo, 53, k, drop);
    const int s = drop + egl_e;  // < 0: the value is below 2^38 with 53 significant bits
    v = int64_t(s >= 0 ? k << s : k >> (-s));
    if (rst < 0) v = -v;
  }
  const int64_t td = int64_t(t);
  return o > 0 ? min(v, td) : max(v, td);
}

// decouple_scale0 / decouple_scale123: (rst, q).
ivec2 decouple_scale0(int o, int t, bool angle, uint64_t egl_m, int egl_e) {
  const int k = gain_scale0(o, t);
  int rst = wrap16((k * o + 16384) >> 15);
  if (angle && k > 0 && o != 0) rst = wrap16(int(limited(rst, o, t, egl_m, egl_e)));
  return ivec2(rst, wrap16(t - rst));
}
ivec2 decouple_scale123(int o, int t, bool angle, uint64_t egl_m, int egl_e) {
  const int k = gain_scale123(o, t);
  int rst = int((int64_t(k) * int64_t(o) + 16384L) >> 15);
  if (angle && k > 0 && o != 0) rst = int(limited(rst, o, t, egl_m, egl_e));
  return ivec2(rst, int(uint(t) - uint(rst)));
}

// ---- CSF and masking (theta 0 = h, 1 = v, 2 = d) ----

int csf_scale0(int p, uint r0, int theta) {
  const int prod = int(r0) * p;
  return theta == 2 ? wrap16((prod + 65535) >> 17) : wrap16((prod + 16384) >> 15);
}
int mask_scale0(int c) { return wrap16((4369 * abs(c) + 2048) >> 12); }
int centre_scale0(int c) { return wrap16((8738 * abs(c) + 2048) >> 12); }

int csf_scale123(int p, uint r) { return int((int64_t(r) * int64_t(p) + (int64_t(1) << 27)) >> 28); }
int64_t abs64(int c) { return c < 0 ? -int64_t(c) : int64_t(c); }
int mask_scale123(int c) { return int((143165577L * abs64(c) - (int64_t(1) << 31)) >> 32); }
int centre_scale123(int c) { return int((286331153L * abs64(c) - (int64_t(1) << 31)) >> 32); }

// Sums over the orientations of the mask and centre terms of p (csf_at): (mask, centre).
ivec2 csf_at(const int p[3], const uint r[3], bool scale0) {
  uint m = 0u, c = 0u;  // int32 sums that wrap like libvmaf's (scale 0's never do)
  for (int t = 0; t < 3; ++t) {
    if (scale0) {
      const int v = csf_scale0(p[t], r[t], t);
      m += uint(mask_scale0(v));
      c += uint(centre_scale0(v));
    } else {
      const int v = csf_scale123(p[t], r[t]);
      m += uint(mask_scale123(v));
      c += uint(centre_scale123(v));
    }
  }
  return ivec2(int(m), int(c));
}

// ---- contrast masking and denominator terms ----

int64_t cube_term_scale0(int src, uint r0, int thr, int theta, uint cube_shift, int64_t cube_round) {
  int x = int(r0) * src;
  x = x < 0 ? -x : x;  // |R0 * src| < 2^31
  const int sub_shift = theta == 2 ? 12 : 10;
  x = int(uint(x) - (uint(thr) << sub_shift));
  if (x < 0) x = 0;
  const int x_sq = theta == 2 ? int((int64_t(x) * int64_t(x) + (int64_t(1) << 29)) >> 30)
                              : int((int64_t(x) * int64_t(x) + (int64_t(1) << 28)) >> 29);
  return (int64_t(x_sq) * int64_t(x) + cube_round) >> cube_shift;
}

int64_t cube_term_scale123(int src, uint r, int thr, uint cube_shift, int64_t cube_round) {
  int x = csf_scale123(src, r);
  x = int((x < 0 ? 0u - uint(x) : uint(x)) - uint(thr));
  if (x < 0) x = 0;
  const int x_sq = int((int64_t(x) * int64_t(x) + (int64_t(1) << 29)) >> 30);
  return (int64_t(x_sq) * int64_t(x) + cube_round) >> cube_shift;
}

uint64_t den_cube_scale0(int o) {
  const uint64_t a = uint64_t(abs(o));
  return a * a * a;
}
uint64_t den_cube_scale123(int o, uint sq_shift, uint cube_shift, uint64_t cube_round) {
  const uint64_t a = o < 0 ? uint64_t(0u - uint(o)) : uint64_t(uint(o));
  return ((((a * a) + (1UL << sq_shift)) >> sq_shift) * a + cube_round) >> cube_shift;
}
