// float ADM on one scale (spec: float_adm.md §5-§8).
//
// The loops run row by row over plain arrays so that the compiler can put neighbouring columns in
// SIMD lanes: every lane performs exactly the per-cell operations of the spec, in its order (no
// reassociation: the build forbids it). Only the sums depend on an order; they are done serially,
// per row over ascending columns, then rows in order, as libvmaf does.
#include "features/float_adm/scale.hpp"

// Let GCC evaluate both sides of a float select (if-conversion) in the lane loops: FP exception
// flags are never read here, and this flag changes no value (unlike -ffast-math's other parts).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include <cmath>

#include "features/float_adm/math.hpp"

namespace vqtwin::float_adm {
namespace {

// Orientation order everywhere: h, v, d.
const Band& oriented(const Subbands& s, int theta) { return theta == 0 ? s.h : theta == 1 ? s.v : s.d; }

// p-norm pooling of one orientation's sum plus the noise floor: powf(acc, 1/p) + powf(W*H*nw, 1/p).
float pooled(float acc, float exponent, float noise) { return std::pow(acc, exponent) + noise; }

float noise_floor(const Rect& pr, double noise_weight, float exponent) {
  const int area = (pr.right - pr.left) * (pr.bottom - pr.top);
  return std::pow(float(area * noise_weight), exponent);
}


inline float gain_limited(float rst, float t, double gain_limit, bool same_angle) {
  const double boosted = double(rst) * gain_limit;
  const double td = double(t);
  const float lower = float(boosted < td ? boosted : td);
  const float upper = float(boosted > td ? boosted : td);
  const float limited = rst > 0.0f ? lower : (rst < 0.0f ? upper : rst);
  return same_angle ? limited : rst;
}

// One row of the decouple (spec §5) given the refined reciprocals of o + 1e-30.
void decouple_row(const float* __restrict oh, const float* __restrict ov, const float* __restrict od,
                  const float* __restrict th, const float* __restrict tv, const float* __restrict td,
                  const float* __restrict rcp_h, const float* __restrict rcp_v, const float* __restrict rcp_d,
                  double gain_limit, float cos_sq, float* __restrict rh, float* __restrict rv, float* __restrict rd,
                  float* __restrict ah, float* __restrict av, float* __restrict ad, int n) {
  for (int j = 0; j < n; ++j) {
    float kh = th[j] * rcp_h[j];
    float kv = tv[j] * rcp_v[j];
    float kd = td[j] * rcp_d[j];
    kh = kh < 0.0f ? 0.0f : (kh > 1.0f ? 1.0f : kh);
    kv = kv < 0.0f ? 0.0f : (kv > 1.0f ? 1.0f : kv);
    kd = kd < 0.0f ? 0.0f : (kd > 1.0f ? 1.0f : kd);
    float sh = kh * oh[j];
    float sv = kv * ov[j];
    float sd = kd * od[j];
    const float dot = oh[j] * th[j] + ov[j] * tv[j];
    const float o_mag_sq = oh[j] * oh[j] + ov[j] * ov[j];
    const float t_mag_sq = th[j] * th[j] + tv[j] * tv[j];
    const bool same_angle = (dot >= 0.0f) & (dot * dot >= cos_sq * o_mag_sq * t_mag_sq);
    // Gain limit (same angle only): min(rst * egl, t) for rst > 0, max(rst * egl, t) for rst < 0,
    // in double and stored as float. Both candidates are computed and selected, without branches.
    sh = gain_limited(sh, th[j], gain_limit, same_angle);
    sv = gain_limited(sv, tv[j], gain_limit, same_angle);
    sd = gain_limited(sd, td[j], gain_limit, same_angle);
    rh[j] = sh;
    rv[j] = sv;
    rd[j] = sd;
    ah[j] = th[j] - sh;
    av[j] = tv[j] - sv;
    ad[j] = td[j] - sd;
  }
}

}  // namespace

float pooled_sum(const float acc[3], const Rect& pr, double noise_weight, double p_norm) {
  const float exponent = float(1.0 / p_norm);
  const float noise = noise_floor(pr, noise_weight, exponent);
  return (pooled(acc[0], exponent, noise) + pooled(acc[1], exponent, noise)) + pooled(acc[2], exponent, noise);
}

void decouple_planes(const Subbands& ref, const Subbands& dis, const ScaleSettings& s, ScaleWork& work) {
  const int w = ref.h.w, h = ref.h.h;
  const Rect wr = work_rect(w, h);
  for (int k = 0; k < 3; ++k) {
    work.restored[k].resize(w, h);
    work.additive[k].resize(w, h);
  }
  const int n = wr.right - wr.left;
  work.rows.resize(3 * std::size_t(w));
  float* rcp[3] = {work.rows.data(), work.rows.data() + w, work.rows.data() + 2 * w};
  for (int i = wr.top; i < wr.bottom; ++i) {
    const float* o[3];
    const float* t[3];
    float* r[3];
    float* a[3];
    for (int k = 0; k < 3; ++k) {
      o[k] = oriented(ref, k).row(i) + wr.left;
      t[k] = oriented(dis, k).row(i) + wr.left;
      r[k] = work.restored[k].row(i) + wr.left;
      a[k] = work.additive[k].row(i) + wr.left;
      // The table lookup is a gather: done here, scalar; the rest of the cell runs in lanes.
      for (int j = 0; j < n; ++j) rcp[k][j] = refined_reciprocal(o[k][j] + 1e-30f, s.rcp_table);
    }
    decouple_row(o[0], o[1], o[2], t[0], t[1], t[2], rcp[0], rcp[1], rcp[2], s.gain_limit, kCosOneDegreeSq, r[0],
                 r[1], r[2], a[0], a[1], a[2], n);
  }
}

void csf_planes(const Band src[3], const float rf[3], ScaleWork& work) {
  const Rect wr = work_rect(src[0].w, src[0].h);
  for (int k = 0; k < 3; ++k) {
    work.csf[k].resize(src[k].w, src[k].h);
    work.mask[k].resize(src[k].w, src[k].h);
    const float f = rf[k];
    for (int i = wr.top; i < wr.bottom; ++i) {
      const float* __restrict p = src[k].row(i);
      float* __restrict c = work.csf[k].row(i);
      float* __restrict m = work.mask[k].row(i);
      for (int j = wr.left; j < wr.right; ++j) {
        const float v = f * p[j];
        c[j] = v;
        m[j] = float(kOneBy30 * double(std::fabs(v)));
      }
    }
  }
}

namespace {

// Threshold of one orientation over the 3x3 neighbourhood of columns [j0, j1) of row i, added to
// thr[j]: sum from 0 in row-major order, the centre replaced by 1/15 (double) * |csf|.
// `left`/`right` give each column's neighbours (mirrored at the band edges).
void add_threshold(const float* __restrict mu, const float* __restrict mc, const float* __restrict md,
                   const float* __restrict c, float* __restrict thr, int j0, int j1) {
  for (int j = j0; j < j1; ++j) {
    float sum = 0.0f;
    sum += mu[j - 1];
    sum += mu[j];
    sum += mu[j + 1];
    sum += mc[j - 1];
    sum = float(double(sum) + kOneBy15 * double(std::fabs(c[j])));
    sum += mc[j + 1];
    sum += md[j - 1];
    sum += md[j];
    sum += md[j + 1];
    thr[j] += sum;
  }
}

// The same for one edge column j whose neighbours are jl, jr (mirror: -1 -> 1, w -> w-1).
float edge_threshold(const float* mu, const float* mc, const float* md, const float* c, int j, int jl, int jr) {
  float sum = 0.0f;
  sum += mu[jl];
  sum += mu[j];
  sum += mu[jr];
  sum += mc[jl];
  sum = float(double(sum) + kOneBy15 * double(std::fabs(c[j])));
  sum += mc[jr];
  sum += md[jl];
  sum += md[j];
  sum += md[jr];
  return sum;
}

}  // namespace

float masked_sum(const Band src[3], const float rf[3], double noise_weight, const ScaleSettings& s,
                 ScaleWork& work) {
  const int w = src[0].w, h = src[0].h;
  const Rect pr = pool_rect(w, h);
  const bool cube = s.p_norm == 3.0;
  const float p = float(s.p_norm);
  // Interior columns (both neighbours inside the band) run in lanes; edge columns separately.
  const int j0 = pr.left > 1 ? pr.left : 1;
  const int j1 = pr.right < w - 1 ? pr.right : w - 1;
  work.rows.resize(4 * std::size_t(w));
  float* thr = work.rows.data();
  float* contrib[3] = {thr + w, thr + 2 * w, thr + 3 * w};

  float acc[3] = {0.0f, 0.0f, 0.0f};
  for (int i = pr.top; i < pr.bottom; ++i) {
    const int up = i == 0 ? 1 : i - 1;
    const int down = i + 1 == h ? h - 1 : i + 1;
    for (int j = pr.left; j < pr.right; ++j) thr[j] = 0.0f;
    if (!s.bypass_cm) {
      for (int k = 0; k < 3; ++k) {
        const float* mu = work.mask[k].row(up);
        const float* mc = work.mask[k].row(i);
        const float* md = work.mask[k].row(down);
        const float* c = work.csf[k].row(i);
        add_threshold(mu, mc, md, c, thr, j0, j1);
        if (pr.left == 0) thr[0] += edge_threshold(mu, mc, md, c, 0, 1, 1);
        if (pr.right == w) thr[w - 1] += edge_threshold(mu, mc, md, c, w - 1, w - 2, w - 1);
      }
    }
    for (int k = 0; k < 3; ++k) {
      const float* __restrict pk = src[k].row(i);
      float* __restrict out = contrib[k];
      const float f = rf[k];
      for (int j = pr.left; j < pr.right; ++j) {
        float x = pk[j] * f;
        x = std::fabs(x) - thr[j];
        x = x < 0.0f ? 0.0f : x;
        out[j] = cube ? x * x * x : std::pow(x, p);
      }
    }
    // The order-dependent part: per row, columns ascending; then rows in order.
    float inner[3] = {0.0f, 0.0f, 0.0f};
    for (int j = pr.left; j < pr.right; ++j) {
      inner[0] += contrib[0][j];
      inner[1] += contrib[1][j];
      inner[2] += contrib[2][j];
    }
    for (int k = 0; k < 3; ++k) acc[k] += inner[k];
  }
  return pooled_sum(acc, pr, noise_weight, s.p_norm);
}

namespace {

// Denominator (spec §8) from the reference's h, v, d bands.
float denominator(const Subbands& ref, const float rf[3], const ScaleSettings& s, ScaleWork& work) {
  const int w = ref.h.w, h = ref.h.h;
  const Rect pr = pool_rect(w, h);
  const bool cube = s.p_norm == 3.0;
  const float p = float(s.p_norm);
  work.rows.resize(3 * std::size_t(w));
  float* contrib[3] = {work.rows.data(), work.rows.data() + w, work.rows.data() + 2 * w};
  float acc[3] = {0.0f, 0.0f, 0.0f};
  for (int i = pr.top; i < pr.bottom; ++i) {
    for (int k = 0; k < 3; ++k) {
      const float* __restrict o = oriented(ref, k).row(i);
      float* __restrict out = contrib[k];
      const float f = rf[k];
      for (int j = pr.left; j < pr.right; ++j) {
        const float y = std::fabs(f * o[j]);
        out[j] = cube ? y * y * y : std::pow(y, p);
      }
    }
    float inner[3] = {0.0f, 0.0f, 0.0f};
    for (int j = pr.left; j < pr.right; ++j) {
      inner[0] += contrib[0][j];
      inner[1] += contrib[1][j];
      inner[2] += contrib[2][j];
    }
    for (int k = 0; k < 3; ++k) acc[k] += inner[k];
  }
  return pooled_sum(acc, pr, s.noise_weight, s.p_norm);
}

}  // namespace

ScaleValues scale_values(const Subbands& ref, const Subbands& dis, CsfFactors factors, const ScaleSettings& s,
                         ScaleWork& work) {
  const float rf[3] = {factors.hv, factors.hv, factors.d};
  decouple_planes(ref, dis, s, work);
  ScaleValues v;
  v.den = denominator(ref, rf, s, work);
  // DLM: the restored detail, masked by the additive impairment.
  csf_planes(work.additive, rf, work);
  v.num = masked_sum(work.restored, rf, s.noise_weight, s, work);
  // AIM: the additive impairment, masked by the restored detail, without noise floor.
  csf_planes(work.restored, rf, work);
  v.aim = masked_sum(work.additive, rf, 0.0, s, work);
  return v;
}

}  // namespace vqtwin::float_adm
