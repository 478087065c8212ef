#include "features/integer_adm/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "features/integer_adm/dwt.hpp"
#include "features/integer_adm/math.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::integer_adm {

// Everything one frame computation writes. Band rows are streamed: only the a bands (the next
// scale's input) are whole planes; the detail bands live one row at a time, and the decouple /
// CSF rows in a ring of three (the masking window's rows).
struct Workspace {
  struct Slot {
    std::vector<int16_t> rst16[3], q16[3];
    std::vector<int32_t> rst32[3], q32[3];
    // Padded by one cell on each side (index -1 and w hold the mirrored neighbours).
    std::vector<int32_t> mask_q, centre_q, box_q, mask_r, centre_r, box_r;
  };
  std::vector<int16_t> a0[2];    // scale 0's a band (scale 1's input) [ref, dis]
  std::vector<int32_t> a[2][2];  // scales 1-3's, [ping-pong buffer][ref, dis]
  std::vector<int16_t> lo16, hi16;
  std::vector<int32_t> lo32, hi32;  // padded by 1 before and 2 after
  std::vector<int16_t> band16[2][3];
  std::vector<int32_t> band32[2][3];
  Slot slot[2][3];  // the rings of scale 0 and of scales 1-3 (scales 0 and 1 run interleaved)
};

namespace {

template <class T>
struct Buffers;
template <>
struct Buffers<int16_t> {
  static std::vector<int16_t>& band(Workspace& ws, int img, int t) { return ws.band16[img][t]; }
  static std::vector<int16_t>& rst(Workspace::Slot& s, int t) { return s.rst16[t]; }
  static std::vector<int16_t>& q(Workspace::Slot& s, int t) { return s.q16[t]; }
};
template <>
struct Buffers<int32_t> {
  static std::vector<int32_t>& band(Workspace& ws, int img, int t) { return ws.band32[img][t]; }
  static std::vector<int32_t>& rst(Workspace::Slot& s, int t) { return s.rst32[t]; }
  static std::vector<int32_t>& q(Workspace::Slot& s, int t) { return s.q32[t]; }
};

// box[j] = mask[j-1] + mask[j] + mask[j+1] over pool columns, with the masking window's mirror.
void box_sums(int32_t* mask, int32_t* box, const Rect& pool, int w, const RowKernels& k) {
  if (pool.left == 0) mask[-1] = mask[1];
  if (pool.right == w) mask[w] = mask[w - 1];
  k.box3(mask, box, pool.left, pool.right);
}

constexpr float kThird = 1.0f / 3.0f;

}  // namespace

Computer::Computer(const Settings& settings, const CsfFactors& factors, int width, int height, int bitdepth)
    : settings_(settings), factors_(factors), width_(width), height_(height), bitdepth_(bitdepth) {
  if (width < 33 || height < 33)
    throw Error("adm: frames must be at least 33x33 pixels (got " + std::to_string(width) + "x" +
                std::to_string(height) + "); libvmaf's integer ADM reads out of bounds below that");
  if (bitdepth != 8 && bitdepth != 10 && bitdepth != 12 && bitdepth != 16)
    throw Error("adm: bit depth " + std::to_string(bitdepth) + " is not supported (8, 10, 12, 16)");
  int w = width, h = height;
  for (int s = 0; s < 4; ++s) {
    in_w_[s] = w;
    in_h_[s] = h;
    w = (w + 1) / 2;
    h = (h + 1) / 2;
    geometry_[s] = make_geometry(s, w, h);
  }
}

Computer::~Computer() = default;

std::unique_ptr<Workspace, void (*)(Workspace*)> Computer::make_workspace() const {
  std::unique_ptr<Workspace, void (*)(Workspace*)> ws(new Workspace, [](Workspace* p) { delete p; });
  const std::size_t w0 = std::size_t(geometry_[0].w), h0 = std::size_t(geometry_[0].h);
  const std::size_t w1 = std::size_t(geometry_[1].w), h1 = std::size_t(geometry_[1].h);
  for (int img = 0; img < 2; ++img) {
    ws->a0[img].resize(w0 * h0);
    ws->a[0][img].resize(w1 * h1);
    ws->a[1][img].resize(w1 * h1);
    for (int t = 0; t < 3; ++t) {
      ws->band16[img][t].resize(w0);
      ws->band32[img][t].resize(w1);
    }
  }
  const std::size_t line = std::size_t(width_) + 3;
  ws->lo16.resize(line);
  ws->hi16.resize(line);
  ws->lo32.resize(line);
  ws->hi32.resize(line);
  for (auto& ring : ws->slot)
  for (auto& s : ring) {
    for (int t = 0; t < 3; ++t) {
      s.rst16[t].resize(w0);
      s.q16[t].resize(w0);
      s.rst32[t].resize(w1);
      s.q32[t].resize(w1);
    }
    for (auto* v : {&s.mask_q, &s.centre_q, &s.box_q, &s.mask_r, &s.centre_r, &s.box_r}) v->resize(w0 + 2);
  }
  return ws;
}

namespace {

// One scale's pass, streamed: row(y) computes DWT row y and every sum it completes (its denominator
// row, its decouple / CSF row, the masked row before it), so a caller can interleave two scales
// (scale 1 reads scale 0's a rows while they are in cache); finish() gives the sums. `slots` is the
// scale's ring of three decouple / CSF rows.
template <class T, class A, class DwtRow>
class ScaleRun {
 public:
  ScaleRun(const Computer& c, int scale, DwtRow dwt_row, A* const a_out[2], Workspace& ws, Workspace::Slot* slots,
           const RowKernels& k)
      : g_(c.geometry(scale)),
        dwt_row_(dwt_row),
        slots_(slots),
        k_(k),
        lowpass_only_(scale == 0 && c.settings().skip_scale0),
        aim_(!c.settings().skip_aim),
        egl_(c.settings().enhn_gain_limit),
        r0_(c.factors().r0),
        rs_(c.factors().rs[scale]) {
    for (int img = 0; img < 2; ++img) {
      a_out_[img] = a_out[img];
      for (int t = 0; t < 3; ++t) band_[img][t] = B::band(ws, img, t).data();
    }
  }

  void row(int y) {
    const Rect& pool = g_.pool;
    const Rect& need = g_.needed;
    for (int img = 0; img < 2; ++img) dwt_row_(img, y, a_out_[img] + std::size_t(y) * std::size_t(g_.w), band_[img]);
    if (lowpass_only_) return;
    if (y >= pool.top && y < pool.bottom) {
      uint64_t sums[3] = {0, 0, 0};
      if constexpr (kScale0) k_.den0(band_[0], pool.left, pool.right, sums);
      else k_.den123(band_[0], pool.left, pool.right, g_.den_sq_shift, g_.den_cube_shift, g_.den_cube_round, sums);
      for (int t = 0; t < 3; ++t) out_.den[t] += (sums[t] + g_.den_row_round) >> g_.den_row_shift;
    }
    if (y >= need.top && y < need.bottom) prepare(y);
    if (y - 1 >= pool.top && y - 1 < pool.bottom) process(y - 1);
  }

  ScaleSums finish() {
    if (!lowpass_only_ && g_.pool.bottom == g_.h) process(g_.h - 1);
    return out_;
  }

 private:
  using B = Buffers<T>;
  static constexpr bool kScale0 = sizeof(T) == 2;

  void slot_rows(Workspace::Slot& s, T* rst[3], T* q[3]) const {
    for (int t = 0; t < 3; ++t) {
      rst[t] = B::rst(s, t).data();
      q[t] = B::q(s, t).data();
    }
  }
  void csf(T* const p[3], int32_t* mask, int32_t* centre) const {
    if constexpr (kScale0) k_.csf0(p, g_.needed.left, g_.needed.right, r0_, mask, centre);
    else k_.csf123(p, g_.needed.left, g_.needed.right, rs_, mask, centre);
  }
  // Decouple and CSF of band row y into its ring slot.
  void prepare(int y) {
    Workspace::Slot& s = slots_[y % 3];
    T *rst[3], *q[3];
    slot_rows(s, rst, q);
    if constexpr (kScale0) k_.decouple0(band_[0], band_[1], g_.needed.left, g_.needed.right, egl_, rst, q);
    else k_.decouple123(band_[0], band_[1], g_.needed.left, g_.needed.right, egl_, rst, q);
    csf(q, s.mask_q.data() + 1, s.centre_q.data() + 1);
    box_sums(s.mask_q.data() + 1, s.box_q.data() + 1, g_.pool, g_.w, k_);
    if (aim_) {
      csf(rst, s.mask_r.data() + 1, s.centre_r.data() + 1);
      box_sums(s.mask_r.data() + 1, s.box_r.data() + 1, g_.pool, g_.w, k_);
    }
  }
  void masked_row(T* const src[3], const int32_t* up, const int32_t* mid, const int32_t* down, const int32_t* mask,
                  const int32_t* centre, int64_t acc[3]) const {
    int64_t sums[3] = {0, 0, 0};
    if constexpr (kScale0)
      k_.cm0(src, up + 1, mid + 1, down + 1, mask + 1, centre + 1, g_.pool.left, g_.pool.right, r0_, g_.cube_shift,
             g_.cube_round, sums);
    else
      k_.cm123(src, up + 1, mid + 1, down + 1, mask + 1, centre + 1, g_.pool.left, g_.pool.right, rs_,
               g_.cube_shift[0], g_.cube_round[0], sums);
    for (int t = 0; t < 3; ++t) acc[t] += (sums[t] + g_.row_round) >> g_.row_shift;  // per-row rounding
  }
  // The contrast-masked sums of pool row i (its neighbour rows are prepared).
  void process(int i) {
    Workspace::Slot& up = slots_[mask_before(i) % 3];
    Workspace::Slot& mid = slots_[i % 3];
    Workspace::Slot& down = slots_[mask_after(i, g_.h) % 3];
    T *rst[3], *q[3];
    slot_rows(mid, rst, q);
    masked_row(rst, up.box_q.data(), mid.box_q.data(), down.box_q.data(), mid.mask_q.data(), mid.centre_q.data(),
               out_.num);
    if (aim_)
      masked_row(q, up.box_r.data(), mid.box_r.data(), down.box_r.data(), mid.mask_r.data(), mid.centre_r.data(),
                 out_.aim);
  }

  const ScaleGeometry& g_;
  DwtRow dwt_row_;
  Workspace::Slot* slots_;
  const RowKernels& k_;
  const bool lowpass_only_, aim_;
  const double egl_;
  const uint16_t* r0_;
  const uint32_t* rs_;
  A* a_out_[2];
  T* band_[2][3];
  ScaleSums out_;
};

template <class T, class A, class DwtRow>
ScaleRun<T, A, DwtRow> scale_run(const Computer& c, int scale, DwtRow dwt_row, A* const a_out[2], Workspace& ws,
                                 Workspace::Slot* slots, const RowKernels& k) {
  return ScaleRun<T, A, DwtRow>(c, scale, dwt_row, a_out, ws, slots, k);
}

}  // namespace

ScaleScores Computer::scale_scores(int scale, const ScaleSums& sums) const {
  // With adm_skip_scale0, scale 0 is only the low-pass band for scale 1.
  if (scale == 0 && settings_.skip_scale0) return {0.0f, float(1e-10), 0.0f};
  const ScaleGeometry& g = geometry_[scale];
  const bool aim = !settings_.skip_aim;
  const int64_t* num_acc = sums.num;
  const int64_t* aim_acc = sums.aim;
  const uint64_t* den_acc = sums.den;

  // Float tails, in libvmaf's types and order.
  const int area = g.pool.width() * g.pool.height();
  const float noise = ::powf(float(area * settings_.noise_weight), kThird);
  const float no_noise = ::powf(float(area * 0.0), kThird);
  auto to_float = [&](int64_t acc, int t) -> float {
    if (scale == 0) return float(double(acc) / std::pow(2.0, double(g.num_exp[t])));
    return float(acc) / float(std::pow(2.0, double(g.num_exp[t])));
  };
  auto masked_score = [&](const int64_t acc[3], float add) {
    float n[3];
    for (int t = 0; t < 3; ++t) n[t] = ::powf(to_float(acc[t], t), kThird) + add;
    return n[0] + n[1] + n[2];
  };
  ScaleScores out;
  out.num = masked_score(num_acc, noise);
  out.aim = aim ? masked_score(aim_acc, no_noise) : 0.0f;
  float d[3];
  for (int t = 0; t < 3; ++t) {
    const double f = double(factors_.f[scale][t == 2 ? 1 : 0]);
    const double csf_sum = double(den_acc[t]) / std::pow(2.0, double(g.den_exp)) * std::pow(f, 3.0);
    d[t] = ::powf(float(csf_sum), kThird) + noise;
  }
  out.den = d[0] + d[1] + d[2];
  return out;
}

FrameScores Computer::scores_of(const FrameSums& sums) const {
  FrameScores f;
  for (int s = 0; s < 4; ++s) f.scale[s] = scale_scores(s, sums.scale[s]);
  return f;
}

FrameSums Computer::compute_sums(const Picture& ref, const Picture& dis, Workspace& ws, const RowKernels& k) const {
  FrameSums f;
  const Picture* pics[2] = {&ref, &dis};
  int16_t* const a0[2] = {ws.a0[0].data(), ws.a0[1].data()};
  int32_t* const a1[2] = {ws.a[0][0].data(), ws.a[0][1].data()};
  int32_t* const a2[2] = {ws.a[1][0].data(), ws.a[1][1].data()};
  int16_t* lo16 = ws.lo16.data();
  int16_t* hi16 = ws.hi16.data();
  // Scales 2 and 3 read the previous int32 a band (ping-pong).
  auto dwt123 = [&](int s, int32_t* const* in) {
    return [&, s, in](int img, int y, int32_t* a, int32_t* const band[3]) {
      dwt123_row(s, in[img], in_w_[s], in_h_[s], y, ws.lo32.data(), ws.hi32.data(), a, band, k);
    };
  };
  // Scale 1 reads scale 0's int16 a band, row by row as scale 0 writes it (so its rows are still in
  // cache): its row y1 needs a rows up to 2 y1 + 2 (mirrored at the end).
  auto scale1 = scale_run<int32_t>(
      *this, 1,
      [&](int img, int y, int32_t* a, int32_t* const band[3]) {
        dwt123_row(1, a0[img], in_w_[1], in_h_[1], y, ws.lo32.data(), ws.hi32.data(), a, band, k);
      },
      a1, ws, ws.slot[1], k);
  int y1 = 0;
  auto scale0_then_1 = [&](auto dwt0) {
    auto scale0 = scale_run<int16_t>(*this, 0, dwt0, a0, ws, ws.slot[0], k);
    for (int y = 0; y < in_h_[1]; ++y) {
      scale0.row(y);
      while (y1 < geometry_[1].h && std::min(2 * y1 + 2, in_h_[1] - 1) <= y) scale1.row(y1++);
    }
    f.scale[0] = scale0.finish();
  };
  if (bitdepth_ == 8) {
    scale0_then_1([&](int img, int y, int16_t* a, int16_t* const band[3]) {
      dwt0_row(pics[img]->row<uint8_t>(0, 0), pics[img]->stride(0), width_, height_, 8, y, lo16, hi16, a, band, k);
    });
  } else {
    scale0_then_1([&](int img, int y, int16_t* a, int16_t* const band[3]) {
      dwt0_row(pics[img]->row<uint16_t>(0, 0), pics[img]->stride(0), width_, height_, bitdepth_, y, lo16, hi16, a,
               band, k);
    });
  }
  f.scale[1] = scale1.finish();
  for (int s = 2; s < 4; ++s) {
    auto run = scale_run<int32_t>(*this, s, dwt123(s, s == 2 ? a1 : a2), s == 2 ? a2 : a1, ws, ws.slot[1], k);
    for (int y = 0; y < geometry_[s].h; ++y) run.row(y);
    f.scale[s] = run.finish();
  }
  return f;
}

Outputs combine(const FrameScores& f, const Settings& s, int width, int height) {
  double num = 0, den = 0, aim = 0;
  for (int i = 0; i < 4; ++i) {
    num += double(f.scale[i].num);
    den += double(f.scale[i].den);
    aim += double(f.scale[i].aim);
  }
  const double limit = 1e-10 * (width * height) / (1920.0 * 1080.0);
  num = num < limit ? 0 : num;
  den = den < limit ? 0 : den;
  Outputs o;
  if (den == 0.0) {
    // libvmaf leaves aim uninitialised here (needs noise weight 0 and a flat ref): 0 (spec: DECISIONS.md §10).
    o.adm2 = 1.0;
    o.aim = 0.0;
  } else {
    o.adm2 = num / den;
    o.aim = aim / den;  // AIM is normalised by the DLM denominator
  }
  const double adm3 = o.adm2 * s.dlm_weight + (1 - o.aim) * (1 - s.dlm_weight);
  o.adm3 = adm3 > s.min_val ? adm3 : s.min_val;
  for (int i = 0; i < 4; ++i) o.scale[i] = double(f.scale[i].num) / double(f.scale[i].den);
  o.num = num;
  o.den = den;
  return o;
}

}  // namespace vqtwin::integer_adm
