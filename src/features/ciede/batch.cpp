// ciede's math over batches: every element goes through exactly the operations of math.hpp's scalar
// functions, in the same precision and order; only the work of different pixels is interleaved. Stages
// that call the C library run one call per element with nothing chained between elements (so the
// processor overlaps them); the arithmetic stages are plain loops the compiler vectorises, lanes doing the
// scalar IEEE operations (no FMA: -ffp-contract=off; this file is built with -fno-math-errno, which only
// lets sqrt become the vector instruction: results are the same correctly rounded square roots).
// The unit tests compare both functions with the scalar ones.
#include "features/ciede/batch.hpp"

#include <math.h>

#include <cstdlib>
#include <string_view>

#include "common/cpu.hpp"
#include "common/vector.hpp"
#include "features/ciede/approx.hpp"
#include "features/ciede/cells.hpp"

namespace vqtwin::ciede {
namespace {

// The library calls of CIEDE2000 (pow, atan2 x2, sin x2, cos x4, exp; powf stays a call) are replaced by
// approx.hpp's vectorisable approximations wherever the float libvmaf rounds the call's expression to is
// certain from the approximation (approx::rounds_alike); a pixel with any uncertain rounding, or an
// argument the approximations leave to the library (a hue angle on an axis), is computed again by
// math.hpp's scalar ciede2000(). Every float this function stores is therefore math.hpp's. Each stage is a
// cell of cells.hpp (the CUDA twin's too), run over the batch.
// kPlant: the planted bug ciede_cpu_short_sin (approx::sin with a short series; the tests must fail).
template <bool kPlant = false>
VQTWIN_ALWAYS_INLINE void ciede2000_body(const Lab* c1, const Lab* c2, int n, float* out) {
  float l1[kBatch], l2[kBatch], a1[kBatch], a2[kBatch], b1[kBatch], b2[kBatch];
  float ch1[kBatch], ch2[kBatch], c_bar[kBatch], ap1[kBatch], ap2[kBatch], cp1[kBatch], cp2[kBatch];
  float h1[kBatch], h2[kBatch], dh[kBatch], hb[kBatch], delta_h[kBatch], t[kBatch];
  float c7[kBatch], rot_root[kBatch], rot_angle[kBatch], r_t[kBatch];
  int ok[kBatch];  // 1: every rounding of this pixel certain so far
  for (int k = 0; k < n; ++k) {
    l1[k] = c1[k].l, a1[k] = c1[k].a, b1[k] = c1[k].b;
    l2[k] = c2[k].l, a2[k] = c2[k].a, b2[k] = c2[k].b;
  }
  for (int k = 0; k < n; ++k) {
    ch1[k] = cells::chroma(a1[k], b1[k]);
    ch2[k] = cells::chroma(a2[k], b2[k]);
    c_bar[k] = (ch1[k] + ch2[k]) / 2;
  }
  for (int k = 0; k < n; ++k) {
    ok[k] = cells::a_prime(a1[k], a2[k], c_bar[k], ap1[k], ap2[k]);
    cp1[k] = cells::chroma(ap1[k], b1[k]);
    cp2[k] = cells::chroma(ap2[k], b2[k]);
  }
  for (int k = 0; k < n; ++k) {
    int good = ok[k];
    h1[k] = cells::hue_angle(b1[k], ap1[k], good);
    h2[k] = cells::hue_angle(b2[k], ap2[k], good);
    ok[k] = good;
  }
  for (int k = 0; k < n; ++k) {
    dh[k] = cells::delta_hue(ch1[k], ch2[k], h1[k], h2[k]);
    hb[k] = cells::mean_hue(h1[k], h2[k]);
  }
  for (int k = 0; k < n; ++k) delta_h[k] = cells::certain(cells::delta_h<kPlant>(dh[k], cp1[k], cp2[k]), ok[k]);
  for (int k = 0; k < n; ++k) t[k] = cells::certain(cells::hue_weight(hb[k]), ok[k]);
  // rotation(), stage by stage; powf stays the library's.
  for (int k = 0; k < n; ++k) c7[k] = powf((cp1[k] + cp2[k]) / 2, 7);
  for (int k = 0; k < n; ++k) {
    rot_root[k] = cells::rotation_root(c7[k]);
    rot_angle[k] = cells::rotation_angle(hb[k], ok[k]);
  }
  for (int k = 0; k < n; ++k)
    r_t[k] = cells::certain(cells::rotation_term(rot_root[k], approx::sin<kPlant>(double(rot_angle[k]))), ok[k]);
  for (int k = 0; k < n; ++k) out[k] = cells::combine(l1[k], l2[k], cp1[k], cp2[k], delta_h[k], t[k], r_t[k]);
  for (int k = 0; k < n; ++k)
    if (!ok[k]) {
#ifdef CIEDE_COUNT_FALLBACKS
      ++ciede_fallbacks;
#endif
      out[k] = ciede2000(c1[k], c2[k]);
    }
}

// to_lab() with the six pow() calls approximated (cells.hpp: approx::pow; every other operation as math.hpp's)
// and each of the three floats lab_f() returns checked; a colour with an uncertain one is converted again by
// math.hpp's to_lab().
VQTWIN_ALWAYS_INLINE void to_lab_body(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
                                      unsigned bpc, Lab* out) {
  constexpr int kMax = 2 * kBatch;
  double r[kMax], g[kMax], b[kMax];
  float fx[kMax], fy[kMax], fz[kMax];
  int ok[kMax];
  const double scale = double(1 << (bpc - 8));
  for (int k = 0; k < n; ++k) cells::ycc_to_rgb(double(y[k]), double(u[k]), double(v[k]), scale, r[k], g[k], b[k]);
  for (int k = 0; k < n; ++k) r[k] = cells::linear(r[k]);
  for (int k = 0; k < n; ++k) g[k] = cells::linear(g[k]);
  for (int k = 0; k < n; ++k) b[k] = cells::linear(b[k]);
  for (int k = 0; k < n; ++k) {
    int good = 1;
    cells::xyz_f(r[k], g[k], b[k], fx[k], fy[k], fz[k], good);
    ok[k] = good;
  }
  for (int k = 0; k < n; ++k) out[k] = cells::lab_of(fx[k], fy[k], fz[k]);
  for (int k = 0; k < n; ++k)
    if (!ok[k]) out[k] = to_lab(y[k], u[k], v[k], bpc);
}

// The builds (common/isa.hpp).
#if VQTWIN_X86_VARIANTS
VQTWIN_TARGET_V3 void ciede2000_v3(const Lab* c1, const Lab* c2, int n, float* out) { ciede2000_body(c1, c2, n, out); }
VQTWIN_TARGET_V3 void to_lab_v3(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
                                unsigned bpc, Lab* out) {
  to_lab_body(y, u, v, n, bpc, out);
}
VQTWIN_TARGET_V4 void ciede2000_v4(const Lab* c1, const Lab* c2, int n, float* out) { ciede2000_body(c1, c2, n, out); }
VQTWIN_TARGET_V4 void to_lab_v4(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
                                unsigned bpc, Lab* out) {
  to_lab_body(y, u, v, n, bpc, out);
}
#endif

}  // namespace

// Whether $VQTWIN_PLANT names ciede's planted bug (read once).
static bool short_sin_planted() {
  static const bool planted = [] {
    const char* p = std::getenv("VQTWIN_PLANT");
    return p != nullptr && std::string_view(p) == "ciede_cpu_short_sin";
  }();
  return planted;
}

void ciede2000_batch(const Lab* c1, const Lab* c2, int n, float* out) {
  if (short_sin_planted()) return ciede2000_body<true>(c1, c2, n, out);
  ciede2000_body(c1, c2, n, out);
}

void to_lab_batch(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n, unsigned bpc,
                  Lab* out) {
  to_lab_body(y, u, v, n, bpc, out);
}

BatchKernels batch_kernels_for(unsigned cpu_flags) {
  BatchKernels k{"portable", ciede2000_batch, to_lab_batch};
  if (short_sin_planted()) return k;  // the planted bug lives in the portable build
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", ciede2000_v3, to_lab_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", ciede2000_v4, to_lab_v4};
#endif
  return k;
}

}  // namespace vqtwin::ciede
