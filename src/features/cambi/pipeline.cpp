// cambi's per-picture pipeline (see pipeline.hpp and README.md). Integer work everywhere but the
// per-pixel value (a float product) and the pooling (a double sum in libvmaf's selection order).
#include "features/cambi/pipeline.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "vqtwin/error.hpp"

namespace vqtwin::cambi {
namespace {

// libvmaf refuses pictures holding values above their bit depth (8 and 16 bits cannot).
template <class T>
void check_range(const Picture& pic, int bitdepth) {
  const unsigned max = (1u << bitdepth) - 1;
  for (int y = 0; y < pic.height(0); ++y) {
    const T* row = pic.row<T>(0, y);
    unsigned m = 0;
    for (int x = 0; x < pic.width(0); ++x) m = std::max<unsigned>(m, row[x]);
    if (m > max)
      throw Error("cambi: the picture holds the value " + std::to_string(m) + ", above the " + std::to_string(bitdepth) +
                  "-bit maximum " + std::to_string(max));
  }
}

template <class T, class Convert>
void resample(const Target& t, const Picture& pic, std::uint16_t* out, Convert convert) {
  for (int i = 0; i < t.h; ++i) {
    const T* src = pic.row<T>(0, t.ys[std::size_t(i)]);
    std::uint16_t* dst = out + std::ptrdiff_t(i) * t.w;
    if (t.w == pic.width(0)) {
      for (int j = 0; j < t.w; ++j) dst[j] = convert(src[j]);
    } else {
      for (int j = 0; j < t.w; ++j) dst[j] = convert(src[t.xs[std::size_t(j)]]);
    }
  }
}

// Adds `delta` to hist[row][from..to).
inline void add_range(std::uint16_t* row, int from, int to, std::uint16_t delta) {
  for (int c = from; c < to; ++c) row[c] = std::uint16_t(row[c] + delta);
}

}  // namespace

std::vector<int> sample_positions(int in, int out) {
  std::vector<int> pos(static_cast<std::size_t>(out));
  if (in == out) {
    for (int i = 0; i < out; ++i) pos[std::size_t(i)] = i;
    return pos;
  }
  const float ratio = float(in) / float(out);
  const float start = float(double(ratio / 2) - 0.5);
  float x = start;
  for (int i = 0; i < out; ++i) {
    pos[std::size_t(i)] = int(double(x) + 0.5);
    x += ratio;
  }
  return pos;
}

void check_window_fits(const Target& t, bool high_res_speedup, const char* what) {
  int w = t.w, h = t.h;
  for (int s = high_res_speedup ? 0 : 1; s < kNumScales; ++s) {
    w = (w + 1) >> 1;
    h = (h + 1) >> 1;
  }
  const int pad = t.window >> 1;
  if (pad > w || pad > h)
    throw Error(std::string("cambi: the ") + what + " size " + std::to_string(t.w) + "x" + std::to_string(t.h) +
                " is too small for its " + std::to_string(t.window) + "-pixel window: the smallest scale (" +
                std::to_string(w) + "x" + std::to_string(h) + ") must be at least " + std::to_string(pad) +
                " pixels each way (libvmaf reads outside the picture there)");
}

void to_10bit(const Setup& s, const Target& t, const Picture& pic, std::uint16_t* out) {
  if (s.bitdepth == 8) {
    resample<std::uint8_t>(t, pic, out, [](std::uint8_t v) { return std::uint16_t(v << 2); });
    return;
  }
  const int shift = s.bitdepth - 10;
  const unsigned round = shift == 0 ? 0u : 1u << (shift - 1);
  resample<std::uint16_t>(t, pic, out, [=](std::uint16_t v) { return std::uint16_t((v + round) >> shift); });
}

void anti_dither(std::uint16_t* img, int w, int h) {
  // Each sample becomes the mean of its 2x2 square (of its pair on the last row / column), all from
  // the original values: row i only reads rows i and i+1, which are still untouched.
  for (int i = 0; i + 1 < h; ++i) {
    std::uint16_t* a = img + std::ptrdiff_t(i) * w;
    const std::uint16_t* b = a + w;
    for (int j = 0; j + 1 < w; ++j) a[j] = std::uint16_t((a[j] + a[j + 1] + b[j] + b[j + 1]) >> 2);
    a[w - 1] = std::uint16_t((a[w - 1] + b[w - 1]) >> 1);
  }
  std::uint16_t* last = img + std::ptrdiff_t(h - 1) * w;
  for (int j = 0; j + 1 < w; ++j) last[j] = std::uint16_t((last[j] + last[j + 1]) >> 1);
}

void spatial_mask(const std::uint16_t* img, int w, int h, int threshold, std::uint8_t* mask,
                  std::vector<std::uint8_t>& flat) {
  // flat(r, c): equal to its right and lower neighbours (a missing neighbour counts as equal).
  // mask(r, c): more than `threshold` flat pixels in the 7x7 square around it (outside = not flat).
  // Rows of flags are kept in a ring of 7; column sums over the square's rows slide down, a row sum
  // over the square's columns slides right.
  constexpr int kSide = kMaskFilterSize, kPad = kMaskFilterSize / 2;
  flat.resize(std::size_t(w) * kSide);
  std::vector<int> colsum(std::size_t(w), 0);
  auto ring_row = [&](int r) { return flat.data() + std::size_t(r % kSide) * w; };
  auto add_flags = [&](int r) {
    std::uint8_t* f = ring_row(r);
    const std::uint16_t* p = img + std::ptrdiff_t(r) * w;
    const std::uint16_t* below = r + 1 < h ? p + w : p;
    for (int c = 0; c < w; ++c) {
      const bool right = c == w - 1 || p[c] == p[c + 1];
      const bool down = r == h - 1 || p[c] == below[c];
      f[c] = std::uint8_t(right && down);
      colsum[std::size_t(c)] += f[c];
    }
  };
  for (int r = 0; r < std::min(kPad, h); ++r) add_flags(r);
  for (int r = 0; r < h; ++r) {
    if (r - kPad - 1 >= 0) {  // before the add: the ring slot is shared with row r + kPad
      const std::uint8_t* f = ring_row(r - kPad - 1);
      for (int c = 0; c < w; ++c) colsum[std::size_t(c)] -= f[c];
    }
    if (r + kPad < h) add_flags(r + kPad);
    std::uint8_t* m = mask + std::ptrdiff_t(r) * w;
    int sum = 0;
    for (int c = 0; c < std::min(kPad, w); ++c) sum += colsum[std::size_t(c)];
    for (int c = 0; c < w; ++c) {
      if (c + kPad < w) sum += colsum[std::size_t(c + kPad)];
      if (c - kPad - 1 >= 0) sum -= colsum[std::size_t(c - kPad - 1)];
      m[c] = std::uint8_t(sum > threshold);
    }
  }
}

void mode_filter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::vector<std::uint16_t>& rows) {
  // Horizontal mode of each row (end samples kept), then the vertical mode of three such rows
  // replaces the interior rows; the first and last rows keep their original samples.
  if (h < 3) return;
  rows.resize(std::size_t(w) * 3);
  auto horizontal = [&](int r) {
    const std::uint16_t* p = img + r * stride;
    std::uint16_t* o = rows.data() + std::size_t(r % 3) * w;
    o[0] = p[0];
    for (int j = 1; j + 1 < w; ++j) o[j] = mode3(p[j - 1], p[j], p[j + 1]);
    o[w - 1] = p[w - 1];
  };
  horizontal(0);
  horizontal(1);
  for (int i = 2; i < h; ++i) {
    horizontal(i);
    std::uint16_t* out = img + (i - 1) * stride;
    const std::uint16_t* a = rows.data();
    const std::uint16_t* b = a + w;
    const std::uint16_t* c = b + w;
    for (int j = 0; j < w; ++j) out[j] = mode3(a[j], b[j], c[j]);  // mode3 is symmetric
  }
}

template <class T>
static void decimate_plane(T* img, std::ptrdiff_t stride, int w, int h) {
  for (int i = 0; i < h; ++i) {
    T* dst = img + i * stride;
    const T* src = img + 2 * i * stride;
    for (int j = 0; j < w; ++j) dst[j] = src[2 * j];
  }
}
void decimate(std::uint16_t* img, std::ptrdiff_t stride, int w, int h) { decimate_plane(img, stride, w, h); }
void decimate(std::uint8_t* img, std::ptrdiff_t stride, int w, int h) { decimate_plane(img, stride, w, h); }

void banding_values(const Setup& s, const std::uint16_t* img, const std::uint8_t* mask, std::ptrdiff_t stride, int w,
                    int h, int window, std::vector<std::uint16_t>& hist, float* out) {
  std::fill(out, out + std::ptrdiff_t(w) * h, 0.0f);
  if (s.band_size <= 0) return;
  const int pad = window >> 1;
  const int base = s.band_base, size = s.band_size, nd = s.num_diffs;
  hist.assign(std::size_t(size) * w, 0);
  const float* reciprocal = reciprocal_table().data();

  // hist[v - base][c]: pixels of value v in the mask within the window around column c of the
  // current row's window rows.
  auto update_row = [&](int r, std::uint16_t delta) {
    const std::uint16_t* p = img + r * stride;
    const std::uint8_t* m = mask + r * stride;
    for (int j = 0; j < w; ++j) {
      if (!m[j]) continue;
      const int v = p[j] - base;
      if (v < 0 || v >= size) continue;
      add_range(hist.data() + std::size_t(v) * w, std::max(j - pad, 0), std::min(j + pad + 1, w), delta);
    }
  };
  for (int r = 0; r <= std::min(pad, h - 1); ++r) update_row(r, 1);
  for (int i = 0; i < h; ++i) {
    if (i > 0) {
      if (i + pad < h) update_row(i + pad, 1);
      if (i - pad - 1 >= 0) update_row(i - pad - 1, std::uint16_t(0xFFFF));
    }
    const std::uint16_t* p = img + i * stride;
    const std::uint8_t* m = mask + i * stride;
    float* o = out + std::ptrdiff_t(i) * w;
    for (int j = 0; j < w; ++j) {
      if (!m[j]) continue;
      const int value = p[j];
      const int cv = value - base;
      if (cv < 0 || cv >= size) continue;
      const std::uint16_t* col = hist.data() + j;
      const int p0 = col[std::size_t(cv) * w];
      float best = 0.0f;
      for (int d = 0; d < nd; ++d) {
        if (value + nd > s.tvi[std::size_t(d)] || value + nd + d + 1 <= s.vlt) continue;
        const int p1 = col[std::size_t(cv + d + 1) * w];
        const int p2 = cv - d - 1 >= 0 ? col[std::size_t(cv - d - 1) * w] : 0;
        const float v = p1 > p2 ? step_response(kContrastWeights[d], p0, p1, reciprocal)
                                : step_response(kContrastWeights[d], p0, p2, reciprocal);
        if (v > best) best = v;
      }
      o[j] = best;
    }
  }
}

double score_picture(const Setup& s, const Target& t, const Picture& pic, Workspace& ws, const ScaleSink* sink) {
  if (s.bitdepth == 10 || s.bitdepth == 12) check_range<std::uint16_t>(pic, s.bitdepth);
  const std::size_t n = std::size_t(t.w) * t.h;
  ws.img.resize(n);
  ws.mask.resize(n);
  ws.cvalues.resize(n);
  to_10bit(s, t, pic, ws.img.data());
  if (s.enc_bitdepth < 10) anti_dither(ws.img.data(), t.w, t.h);
  spatial_mask(ws.img.data(), t.w, t.h, mask_threshold(t.w, t.h), ws.mask.data(), ws.flat);

  double scores[kNumScales];
  int w = t.w, h = t.h;
  for (int scale = 0; scale < kNumScales; ++scale) {
    if (scale > 0 || s.high_res_speedup) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
      decimate(ws.img.data(), t.w, w, h);
      decimate(ws.mask.data(), t.w, w, h);
    }
    mode_filter(ws.img.data(), t.w, w, h, ws.rows);
    banding_values(s, ws.img.data(), ws.mask.data(), t.w, w, h, t.window, ws.hist, ws.cvalues.data());
    if (sink) (*sink)(scale, ws.cvalues.data(), w, h);
    scores[scale] = pool_topk(ws.cvalues.data(), w * h, s.topk);
  }
  return weight_scales(scores, t.window);
}

}  // namespace vqtwin::cambi
