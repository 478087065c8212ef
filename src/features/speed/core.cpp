// SpEED's per-plane work (see core.hpp, README.md). Types follow libvmaf: planes, kernels, means,
// covariances, variances, entropies and the score are float; the covariance sums, the logarithms
// and the expressions libvmaf writes with double constants are double.
#include "features/speed/core.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/cpu.hpp"
#include "features/float_vif/math.hpp"
#include "features/speed/linalg.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::speed {
namespace {

constexpr double kEps = 1e-6;

// Reflect-101 once (the kernels are always shorter than the plane).
inline int reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

// log2(2 pi e), the entropy of a unit Gaussian, as libvmaf's compiler folds log2(2 * M_PI * M_E): the
// correctly rounded double (GCC's constant folding; clang does not fold __builtin_log2).
constexpr double log2_2pie() { return 0x1.06073a671183dp+2; }

// libvmaf's separable filter (vertical pass, then horizontal; taps in order, float sums from 0),
// evaluated only at the samples (step*i, step*j); dst is (h / step) x (w / step) with step 1 the
// whole filter. The vertical pass runs over whole rows (the kernel table's vector loop).
void filter_at(const SpeedKernels& k, const FloatPlane& src, const std::vector<float>& f, int step, FloatPlane& dst,
               std::vector<float>& tmp) {
  const int w = src.w, h = src.h, fw = int(f.size()), half = fw / 2;
  const int ow = w / step, oh = h / step;
  dst.resize(ow, oh);
  tmp.resize(std::size_t(w));
  std::vector<const float*> rows(static_cast<std::size_t>(fw));
  for (int i = 0; i < oh; ++i) {
    const int y = i * step;
    for (int t = 0; t < fw; ++t) rows[std::size_t(t)] = src.row(reflect(y - half + t, h));
    k.columns(rows.data(), f.data(), fw, tmp.data(), w);
    float* out = dst.row(i);
    for (int j = 0; j < ow; ++j) {
      const int x = j * step;
      float acc = 0;
      for (int t = 0; t < fw; ++t) acc += f[std::size_t(t)] * tmp[std::size_t(reflect(x - half + t, w))];
      out[j] = acc;
    }
  }
}

}  // namespace

Dimensions make_dimensions(int w, int h, double prescale, std::string_view who) {
  Dimensions d;
  d.w = w;
  d.h = h;
  d.scaled_w = int(double(w) * prescale + 0.5);
  d.scaled_h = int(double(h) * prescale + 0.5);
  d.down_w = d.scaled_w >> kScales;
  d.down_h = d.scaled_h >> kScales;
  d.blocks_x = d.down_w / kBlock;
  d.blocks_y = d.down_h / kBlock;
  d.sub_w = d.blocks_x * kBlock - kBlock + 1;
  d.sub_h = d.blocks_y * kBlock - kBlock + 1;
  d.prescaled = !(std::fabs(prescale - 1.0) < 1e-3);
  const std::string size = std::to_string(w) + "x" + std::to_string(h);
  if (d.blocks_x == 0 || d.blocks_y == 0)
    throw Error(std::string(who) + ": a " + size + " plane is too small (after speed_prescale, at least 80 pixels each way)");
  if (!d.prescaled && (d.scaled_w != w || d.scaled_h != h))
    throw Error(std::string(who) + ": speed_prescale within 0.001 of 1 must leave the " + size +
                " plane's size unchanged (libvmaf skips the resize but not the new size)");
  return d;
}

std::vector<float> gaussian(int width, float sigma) {
  std::vector<float> k(static_cast<std::size_t>(width));
  const int half = (width - 1) / 2;
  float sum = 0;
  for (int i = 0; i < width; ++i) {
    const float x = float(i - half);
    // ((-0.5 * x) / sigma * x) / sigma in double, exp in double, rounded to float; the density's
    // normaliser 1 / (sigma sqrt(2 pi)) rounded to float; their float quotient.
    const float num = float(std::exp(-0.5 * double(x) / double(sigma) * double(x) / double(sigma)));
    const float den = float(1 / (double(sigma) * std::sqrt(2 * M_PI)));
    k[std::size_t(i)] = num / den;
    sum += k[std::size_t(i)];
  }
  for (float& v : k) v /= sum;
  return k;
}

Speed::Speed(const Options& o, const Dimensions& d) : o_(o), d_(d), k_(speed_kernels_for(cpu::flags())) {
  // The anti-alias filter has the size of VIF's scale-1 filter and twice its sigma (sqrt(4)).
  const int aa = float_vif::kernel_width(1, o.kernelscale);
  antialias_ = gaussian(aa, float(std::sqrt(4.0) * aa / 5.0f));
  const int lm = float_vif::kernel_width(kScales, o.kernelscale);
  local_mean_ = gaussian(lm, float(lm) / 5.0f);
}

void Speed::prepare(const FloatPlane& plane, FloatPlane& out, FloatPlane& scratch) const {
  decimate(plane, out, scratch);
  remove_local_mean(out);
}

void Speed::decimate(const FloatPlane& plane, FloatPlane& out, FloatPlane& scratch) const {
  const FloatPlane* src = &plane;
  if (d_.prescaled) {
    float_vif::prescale(plane, o_.prescale_method, d_.scaled_w, d_.scaled_h, scratch);
    src = &scratch;
  }
  // Blur, then keep every 16th sample: only the kept samples are computed.
  std::vector<float> tmp;
  filter_at(k_, *src, antialias_, 1 << kScales, out, tmp);
}

void Speed::remove_local_mean(FloatPlane& out) const {
  std::vector<float> tmp;
  FloatPlane mean;
  filter_at(k_, out, local_mean_, 1, mean, tmp);
  for (int i = 0; i < out.h; ++i) {
    float* o = out.row(i);
    const float* m = mean.row(i);
    for (int j = 0; j < out.w; ++j) o[j] -= m[j];
  }
}

BlockStats Speed::analyse(const FloatPlane& p) const {
  const int sw = d_.sub_w, sh = d_.sub_h, nb = d_.blocks();
  const float count_f = float(std::size_t(sw) * std::size_t(sh));
  const double count_d = double(std::size_t(sw) * std::size_t(sh));

  // Means of the 25 shifted windows (float sums in raster order). The five column shifts of one row
  // shift are summed side by side: five independent chains, each in its own raster order.
  float means[kElements];
  for (int r = 0; r < kBlock; ++r) {
    float sum[kBlock] = {};
    for (int i = 0; i < sh; ++i) {
      const float* row = p.row(r + i);
      for (int j = 0; j < sw; ++j)
        for (int c = 0; c < kBlock; ++c) sum[c] += row[c + j];
    }
    for (int c = 0; c < kBlock; ++c) means[r * kBlock + c] = sum[c] / count_f;
  }
  // Their covariances (double sums in raster order), symmetric. Up to four pairs (x, y..y+3) are
  // summed side by side: independent chains, each with the operations and order of its own sum.
  std::vector<float> cov(kElements * kElements);
  constexpr int kChains = 4;
  for (int x = 0; x < kElements; ++x)
    for (int y0 = 0; y0 <= x; y0 += kChains) {
      const int n = std::min(kChains, x + 1 - y0);
      const int rx = x / kBlock, cx = x % kBlock;
      const double mx = means[x];
      double my[kChains], sum[kChains] = {};
      int ry[kChains], cy[kChains];
      for (int k = 0; k < kChains; ++k) {
        const int y = y0 + std::min(k, n - 1);  // lanes past n repeat the last pair (not stored)
        ry[k] = y / kBlock, cy[k] = y % kBlock, my[k] = means[y];
      }
      for (int i = 0; i < sh; ++i) {
        const float* a = p.row(rx + i) + cx;
        const float* b0 = p.row(ry[0] + i) + cy[0];
        const float* b1 = p.row(ry[1] + i) + cy[1];
        const float* b2 = p.row(ry[2] + i) + cy[2];
        const float* b3 = p.row(ry[3] + i) + cy[3];
        for (int j = 0; j < sw; ++j) {
          const double da = double(a[j]) - mx;
          sum[0] += da * (double(b0[j]) - my[0]);
          sum[1] += da * (double(b1[j]) - my[1]);
          sum[2] += da * (double(b2[j]) - my[2]);
          sum[3] += da * (double(b3[j]) - my[3]);
        }
      }
      for (int k = 0; k < n; ++k) {
        const int y = y0 + k;
        const float c = float(sum[k] / count_d);
        cov[std::size_t(x * kElements + y)] = c;
        cov[std::size_t(y * kElements + x)] = c;
      }
    }
  const std::vector<float> eig = eigenvalues(cov, kElements);

  // Y: row e = shift (e / 5, e % 5), column = block (raster order).
  std::vector<float> y(std::size_t(kElements) * nb), x(std::size_t(kElements) * nb, 0.0f);
  for (int e = 0; e < kElements; ++e)
    for (int bi = 0; bi < d_.blocks_y; ++bi)
      for (int bj = 0; bj < d_.blocks_x; ++bj)
        y[std::size_t(e) * nb + bi * d_.blocks_x + bj] = p.row(bi * kBlock + e / kBlock)[bj * kBlock + e % kBlock];

  BlockStats out;
  bool regular = true;
  for (float v : eig) regular = regular && !(double(v) < kEps);
  out.singular = !regular || !solve(cov, kElements, y, nb, x);
  if (out.singular) std::fill(x.begin(), x.end(), 0.0f);  // libvmaf logs "covariance matrix is singular"

  // S = column sums of (X .* Y) / 25, rows added in order.
  const float denominator = float(kElements);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = (x[i] * y[i]) / denominator;
  out.variance.assign(x.begin(), x.begin() + nb);
  for (int e = 1; e < kElements; ++e)
    for (int b = 0; b < nb; ++b) out.variance[std::size_t(b)] += x[std::size_t(e) * nb + b];

  // Entropy per block: the sum over the eigenvalues L of log2(L S + sigma_nn) + log2(2 pi e).
  const float snn = float(o_.sigma_nn);
  out.entropy.assign(std::size_t(nb), 0.0f);
  for (float l : eig) {
    const float L = l < 0 ? 0 : l;
    for (int b = 0; b < nb; ++b) {
      const double term = std::log2(double(L * out.variance[std::size_t(b)] + snn)) + log2_2pie();
      out.entropy[std::size_t(b)] = float(double(out.entropy[std::size_t(b)]) + term);
    }
  }
  return out;
}

float Speed::combine(const BlockStats& r, const BlockStats& d) const {
  const float snn = float(o_.sigma_nn), floor = float(o_.nn_floor);
  const float base = float(double(kElements) * (std::log2(double((1 + floor) * snn)) + log2_2pie()));
  float score = 0;
  for (std::size_t i = 0; i < r.entropy.size(); ++i) {
    const float er = r.entropy[i], ed = d.entropy[i], vr = r.variance[i], vd = d.variance[i];
    if (er < base && ed < base) continue;  // no visible difference
    auto lg = [](double v) { return std::log2(v); };
    float sr = 0, sd = 0;
    switch (o_.weight_var_mode) {
      case 0: sr = float(er * lg(1 + vr)); sd = float(ed * lg(1 + vd)); break;
      case 1: sr = float(er * lg(1 + vr)); sd = float(ed * lg(1 + vr)); break;
      case 2: sr = float(er * lg(1 + vd)); sd = float(ed * lg(1 + vd)); break;
      case 3: {
        const double m = 1 + (vr + vd) / 2.0;
        sr = float(er * lg(m));
        sd = float(ed * lg(m));
        break;
      }
      case 4: sr = float(er * lg(1 + vr)); sd = float(ed * lg(1 + (vr + vd) / 2.0)); break;
      case 5: sr = float(er * lg(1 + vr)); sd = float(ed * lg(1 + (0.75 * vr + 0.25 * vd))); break;
      default: sr = float(er * lg(1 + vr)); sd = float(ed * lg(1 + (0.25 * vr + 0.75 * vd))); break;
    }
    score += std::fabs(sr - sd);
  }
  return score / float(std::size_t(d_.blocks()));
}

float Speed::score(const FloatPlane& ref, const FloatPlane& dis, FloatPlane& a, FloatPlane& b, FloatPlane& scratch,
                   bool* ref_singular, bool* dis_singular) const {
  decimate(ref, a, scratch);
  decimate(dis, b, scratch);
  return score_decimated(a, b, ref_singular, dis_singular);
}

float Speed::score_decimated(FloatPlane& a, FloatPlane& b, bool* ref_singular, bool* dis_singular) const {
  remove_local_mean(a);
  const BlockStats rs = analyse(a);
  remove_local_mean(b);
  const BlockStats ds = analyse(b);
  if (ref_singular) *ref_singular = rs.singular;
  if (dis_singular) *dis_singular = ds.singular;
  // Exactly one singular plane: 0 rather than an inflated score.
  if (rs.singular != ds.singular) return 0.0f;
  return combine(rs, ds);
}

}  // namespace vqtwin::speed
