// float_vif_filter.glsl's passes, included twice: with MUL/ADD the plain device operations (fmul_n,
// fadd_n) and CHECK(x) noting in `ok` whether input x keeps the pass out of the denormal range, and with
// the guarded ones (fmul_e, fadd_e) and no check; FN(name) names each version. The CPU's order
// (cells.hpp): accumulators from 0, taps ascending, products rounded before the add, reflect-101 once.

// mode 0: the five vertical moments at (i, j) of planes a (ref) and b (dis).
void FN(vertical_moments)(uint i, uint j, inout bool ok, out float v[5]) {
  const int w = int(pc.width), h = int(pc.height), r = int(pc.ntaps / 2u);
  float s1 = 0.0, s2 = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0;
  for (int t = 0; t < int(pc.ntaps); ++t) {
    const uint q = uint(reflect101(int(i) - r + t, h)) * uint(w) + j;
    const float kt = taps[pc.taps_at + uint(t)];
    const float x = a[q], y = b[q];
    CHECK(x);
    CHECK(y);
    s1 = ADD(s1, MUL(kt, x));
    s2 = ADD(s2, MUL(kt, y));
    sxx = ADD(sxx, MUL(kt, MUL(x, x)));
    syy = ADD(syy, MUL(kt, MUL(y, y)));
    sxy = ADD(sxy, pc.planted == 2u ? MUL(MUL(kt, x), y) : MUL(kt, MUL(x, y)));
  }
  v = float[5](s1, s2, sxx, syy, sxy);
}

// modes 1 and 3: acc = 0, acc += k[t] * a[row_at + reflect(step * j - r + t)], t ascending
// (descending when `backwards`: the planted bug float_vif_vulkan_fp64_tap_order).
float FN(horizontal)(uint row_at, uint j, uint step, bool backwards, inout bool ok) {
  const int w = int(pc.width), r = int(pc.ntaps / 2u), n = int(pc.ntaps);
  float acc = 0.0;
  for (int u = 0; u < n; ++u) {
    const int t = backwards ? n - 1 - u : u;
    const float x = a[row_at + uint(reflect101(int(step * j) - r + t, w))];
    CHECK(x);
    acc = ADD(acc, MUL(taps[pc.taps_at + uint(t)], x));
  }
  return acc;
}

// mode 2: acc = 0, acc += k[t] * a[reflect(2i - r + t)][j], t ascending.
float FN(vertical_plain)(uint i, uint j, inout bool ok) {
  const int r = int(pc.ntaps / 2u);
  float acc = 0.0;
  for (int t = 0; t < int(pc.ntaps); ++t) {
    const float x = a[uint(reflect101(int(2u * i) - r + t, int(pc.height))) * pc.width + j];
    CHECK(x);
    acc = ADD(acc, MUL(taps[pc.taps_at + uint(t)], x));
  }
  return acc;
}

// One output of the dispatch's mode (five values for modes 0 and 1, else one in v[0]); `ok` false when
// an input failed CHECK (the values are then not written).
void FN(output)(uint i, uint j, inout bool ok, out float v[5]) {
  v = float[5](0.0, 0.0, 0.0, 0.0, 0.0);
  if (pc.mode == 0u) {
    FN(vertical_moments)(i, j, ok, v);
  } else if (pc.mode == 1u) {
    for (uint m = 0u; m < 5u; ++m)
      v[m] = FN(horizontal)(m * pc.in_plane + i * pc.width, j, 1u, pc.planted == 1u, ok);
  } else if (pc.mode == 2u) {
    v[0] = FN(vertical_plain)(i, j, ok);
  } else {
    v[0] = FN(horizontal)(i * pc.width, j, 2u, false, ok);
  }
}
