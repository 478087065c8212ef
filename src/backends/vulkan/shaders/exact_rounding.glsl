// Round-to-nearest-even of integers to a number of significant bits, in integer arithmetic: how a
// shader reproduces an IEEE binary32 or binary64 result exactly without the float unit (no device
// rounding mode, denormal or fp64 feature involved). Inputs are integers in a unit the caller chose
// (a power of two), so the value v * unit rounds as v does (no overflow or underflow in between:
// the callers prove their ranges, docs/exactness.md).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// v rounded to `bits` significant bits (ties to even), for v < 2^32. `truncate`: a planted bug
// (rounding toward zero instead).
uint64_t round_sig32(uint v, int bits, bool truncate) {
  const int msb = findMSB(v);
  if (msb < bits) return uint64_t(v);  // fits: exact
  const int drop = msb + 1 - bits;
  const uint lo = v & ((1u << drop) - 1u), tie = 1u << (drop - 1);
  uint kept = v >> drop;
  if (!truncate && (lo > tie || (lo == tie && (kept & 1u) != 0u))) kept += 1u;
  return uint64_t(kept) << drop;  // a carry to 2^bits is still the right value, 64 bits hold it
}

// The same for v < 2^63, 53 bits: one IEEE double addition's rounding, when both addends are
// integers in the unit and their exact sum is v. `ties_away`: a planted bug (ties rounded up, away
// from zero, instead of to even).
uint64_t round_sig53(uint64_t v, bool ties_away) {
  const uint hi = uint(v >> 32);
  const int msb = hi != 0u ? findMSB(hi) + 32 : findMSB(uint(v));
  if (msb < 53) return v;
  const int drop = msb + 1 - 53;
  const uint64_t lo = v & ((uint64_t(1) << drop) - 1ul), tie = uint64_t(1) << (drop - 1);
  uint64_t kept = v >> drop;
  if (lo > tie || (lo == tie && ((kept & 1ul) != 0ul || ties_away))) kept += 1ul;
  return kept << drop;
}
