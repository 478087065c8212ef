// float ADM on one scale (spec float_adm.md §5-§8).
#include "features/float_adm/scale.hpp"

#include <cmath>

#include "features/float_adm/math.hpp"

namespace vqtwin::float_adm {
namespace {

// Orientation order everywhere: h, v, d.
const Band& oriented(const Subbands& s, int theta) { return theta == 0 ? s.h : theta == 1 ? s.v : s.d; }

void decouple(const Subbands& ref, const Subbands& dis, const Rect& wr, const ScaleSettings& s, ScaleWork& work) {
  const int w = ref.h.w, h = ref.h.h;
  for (int k = 0; k < 3; ++k) {
    work.restored[k].resize(w, h);
    work.additive[k].resize(w, h);
  }
  const float cos_sq = kCosOneDegreeSq;
  for (int i = wr.top; i < wr.bottom; ++i) {
    const float* oh = ref.h.row(i);
    const float* ov = ref.v.row(i);
    const float* od = ref.d.row(i);
    const float* th = dis.h.row(i);
    const float* tv = dis.v.row(i);
    const float* td = dis.d.row(i);
    float* r[3] = {work.restored[0].row(i), work.restored[1].row(i), work.restored[2].row(i)};
    float* a[3] = {work.additive[0].row(i), work.additive[1].row(i), work.additive[2].row(i)};
    for (int j = wr.left; j < wr.right; ++j) {
      const float o[3] = {oh[j], ov[j], od[j]};
      const float t[3] = {th[j], tv[j], td[j]};
      float rr[3], aa[3];
      decouple_cell(o, t, s.gain_limit, cos_sq, s.rcp_table, rr, aa);
      for (int k = 0; k < 3; ++k) {
        r[k][j] = rr[k];
        a[k][j] = aa[k];
      }
    }
  }
}

// csf = rf * P and mask = f32(1/30 (double) * |csf|) on the work rect (spec §6).
void csf_planes(const Band src[3], const float rf[3], const Rect& wr, ScaleWork& work) {
  for (int k = 0; k < 3; ++k) {
    work.csf[k].resize(src[k].w, src[k].h);
    work.mask[k].resize(src[k].w, src[k].h);
    for (int i = wr.top; i < wr.bottom; ++i) {
      const float* p = src[k].row(i);
      float* c = work.csf[k].row(i);
      float* m = work.mask[k].row(i);
      for (int j = wr.left; j < wr.right; ++j) {
        const float v = rf[k] * p[j];
        c[j] = v;
        m[j] = float(kOneBy30 * double(std::fabs(v)));
      }
    }
  }
}

// p-norm pooling of one orientation's sum plus the noise floor: powf(acc, 1/p) + powf(W*H*nw, 1/p).
float pooled(float acc, float exponent, float noise) { return std::pow(acc, exponent) + noise; }

float noise_floor(const Rect& pr, double noise_weight, float exponent) {
  const int area = (pr.right - pr.left) * (pr.bottom - pr.top);
  return std::pow(float(area * noise_weight), exponent);
}

// Contrast-masked sum of `src` (spec §7) against the csf/mask planes in `work`.
float masked_sum(const Band src[3], const float rf[3], const Rect& pr, double noise_weight, const ScaleSettings& s,
                 const ScaleWork& work) {
  const int w = src[0].w, h = src[0].h;
  const bool cube = s.p_norm == 3.0;
  const float p = float(s.p_norm);
  float acc[3] = {0.0f, 0.0f, 0.0f};
  for (int i = pr.top; i < pr.bottom; ++i) {
    // Neighbour rows/columns mirror as libvmaf's edge cases: -1 -> 1, n -> n-1.
    const int up = i == 0 ? 1 : i - 1;
    const int down = i + 1 == h ? h - 1 : i + 1;
    float inner[3] = {0.0f, 0.0f, 0.0f};
    for (int j = pr.left; j < pr.right; ++j) {
      const int left = j == 0 ? 1 : j - 1;
      const int right = j + 1 == w ? w - 1 : j + 1;
      float thr = 0.0f;
      if (!s.bypass_cm) {
        for (int k = 0; k < 3; ++k) {
          const float* mu = work.mask[k].row(up);
          const float* mc = work.mask[k].row(i);
          const float* md = work.mask[k].row(down);
          float sum = 0.0f;
          sum += mu[left];
          sum += mu[j];
          sum += mu[right];
          sum += mc[left];
          sum = float(double(sum) + kOneBy15 * double(std::fabs(work.csf[k].row(i)[j])));
          sum += mc[right];
          sum += md[left];
          sum += md[j];
          sum += md[right];
          thr += sum;
        }
      }
      for (int k = 0; k < 3; ++k) {
        float x = src[k].row(i)[j] * rf[k];
        x = std::fabs(x) - thr;
        x = x < 0.0f ? 0.0f : x;
        inner[k] += cube ? x * x * x : std::pow(x, p);
      }
    }
    for (int k = 0; k < 3; ++k) acc[k] += inner[k];
  }
  const float exponent = float(1.0 / s.p_norm);
  const float noise = noise_floor(pr, noise_weight, exponent);
  return (pooled(acc[0], exponent, noise) + pooled(acc[1], exponent, noise)) + pooled(acc[2], exponent, noise);
}

// Denominator (spec §8) from the reference's h, v, d bands.
float denominator(const Subbands& ref, const float rf[3], const Rect& pr, const ScaleSettings& s) {
  const bool cube = s.p_norm == 3.0;
  const float p = float(s.p_norm);
  float acc[3] = {0.0f, 0.0f, 0.0f};
  for (int i = pr.top; i < pr.bottom; ++i) {
    float inner[3] = {0.0f, 0.0f, 0.0f};
    for (int k = 0; k < 3; ++k) {
      const float* o = oriented(ref, k).row(i);
      for (int j = pr.left; j < pr.right; ++j) {
        const float y = std::fabs(rf[k] * o[j]);
        inner[k] += cube ? y * y * y : std::pow(y, p);
      }
    }
    for (int k = 0; k < 3; ++k) acc[k] += inner[k];
  }
  const float exponent = float(1.0 / s.p_norm);
  const float noise = noise_floor(pr, s.noise_weight, exponent);
  return (pooled(acc[0], exponent, noise) + pooled(acc[1], exponent, noise)) + pooled(acc[2], exponent, noise);
}

}  // namespace

ScaleValues scale_values(const Subbands& ref, const Subbands& dis, CsfFactors factors, const ScaleSettings& s,
                         ScaleWork& work) {
  const int w = ref.h.w, h = ref.h.h;
  const Rect wr = work_rect(w, h);
  const Rect pr = pool_rect(w, h);
  const float rf[3] = {factors.hv, factors.hv, factors.d};

  decouple(ref, dis, wr, s, work);
  ScaleValues v;
  v.den = denominator(ref, rf, pr, s);
  // DLM: the restored detail, masked by the additive impairment.
  csf_planes(work.additive, rf, wr, work);
  v.num = masked_sum(work.restored, rf, pr, s.noise_weight, s, work);
  // AIM: the additive impairment, masked by the restored detail, without noise floor.
  csf_planes(work.restored, rf, wr, work);
  v.aim = masked_sum(work.additive, rf, pr, 0.0, s, work);
  return v;
}

}  // namespace vqtwin::float_adm
