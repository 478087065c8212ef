// cambi's per-picture pipeline (see pipeline.hpp and README.md). Integer work everywhere but the
// per-pixel value (a float product) and the pooling (a double sum in libvmaf's selection order).
#include "features/cambi/pipeline.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "common/cpu.hpp"
#include "common/vector.hpp"
#include "features/cambi/cells.hpp"
#include "vqtwin/error.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
  const int bpc = s.bitdepth;
  if (bpc == 8) resample<std::uint8_t>(t, pic, out, [](std::uint8_t v) { return cells::to_10bit(v, 8); });
  else resample<std::uint16_t>(t, pic, out, [bpc](std::uint16_t v) { return cells::to_10bit(v, bpc); });
}

void anti_dither(std::uint16_t* img, int w, int h) {
  // In place, in raster order: each output (cells::anti_dither_at) reads its own sample and ones to its
  // right and below, none of them written yet.
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) img[std::ptrdiff_t(i) * w + j] = cells::anti_dither_at(img, w, h, i, j);
}

namespace {

VQTWIN_ALWAYS_INLINE void spatial_mask_body(const std::uint16_t* img, int w, int h, int threshold, std::uint8_t* mask,
                                            std::vector<std::uint8_t>& flat) {
  // flat(r, c): equal to its right and lower neighbours (a missing neighbour counts as equal).
  // mask(r, c): more than `threshold` flat pixels in the 7x7 square around it (outside = not flat).
  // Rows of flags are kept in a ring of 7; the column sums over the square's rows slide down; the
  // row sum over the square's columns adds seven shifted column sums (zeros beyond the edges).
  constexpr int kSide = kMaskFilterSize, kPad = kMaskFilterSize / 2;
  const std::size_t padded = std::size_t(w) + 2 * kPad;
  flat.assign(std::size_t(w) * kSide + padded, 0);
  std::uint8_t* const colsum = flat.data() + std::size_t(w) * kSide + kPad;  // at most 7
  auto ring_row = [&](int r) { return flat.data() + std::size_t(r % kSide) * w; };
  auto add_flags = [&](int r) {
    std::uint8_t* f = ring_row(r);
    const std::uint16_t* p = img + std::ptrdiff_t(r) * w;
    const std::uint16_t* below = r + 1 < h ? p + w : p;  // the last row: every pixel equals "below"
    for (int c = 0; c + 1 < w; ++c) f[c] = std::uint8_t((p[c] == p[c + 1]) & (p[c] == below[c]));
    f[w - 1] = std::uint8_t(p[w - 1] == below[w - 1]);
    for (int c = 0; c < w; ++c) colsum[c] = std::uint8_t(colsum[c] + f[c]);
  };
  for (int r = 0; r < std::min(kPad, h); ++r) add_flags(r);
  for (int r = 0; r < h; ++r) {
    if (r - kPad - 1 >= 0) {  // before the add: the ring slot is shared with row r + kPad
      const std::uint8_t* f = ring_row(r - kPad - 1);
      for (int c = 0; c < w; ++c) colsum[c] = std::uint8_t(colsum[c] - f[c]);
    }
    if (r + kPad < h) add_flags(r + kPad);
    std::uint8_t* m = mask + std::ptrdiff_t(r) * w;
    const std::uint8_t t = std::uint8_t(threshold);
    for (int c = 0; c < w; ++c) {
      const int sum = colsum[c - 3] + colsum[c - 2] + colsum[c - 1] + colsum[c] + colsum[c + 1] + colsum[c + 2] +
                      colsum[c + 3];
      m[c] = std::uint8_t(sum > t);
    }
  }
}

VQTWIN_ALWAYS_INLINE void mode_filter_body(std::uint16_t* img, std::ptrdiff_t stride, int w, int h,
                                           std::vector<std::uint16_t>& rows) {
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

}  // namespace

// In place, in raster order: output (i, j) reads (2i, 2j), at or after it, not yet written.
template <class T>
static void decimate_plane(T* img, std::ptrdiff_t stride, int w, int h) {
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) img[i * stride + j] = cells::decimate_at(img, stride, i, j);
}
void decimate(std::uint16_t* img, std::ptrdiff_t stride, int w, int h) { decimate_plane(img, stride, w, h); }
void decimate(std::uint8_t* img, std::ptrdiff_t stride, int w, int h) { decimate_plane(img, stride, w, h); }

namespace {

// Row `r`'s histogram rows: v - base for a pixel counted in the histograms (in the mask and the
// band), -1 otherwise.
VQTWIN_ALWAYS_INLINE void band_rows(const std::uint16_t* img, const std::uint8_t* mask, int w, int base, int size,
                                    std::int16_t* out) {
  for (int j = 0; j < w; ++j) {
    const int v = img[j] - base;
    const bool counted = (mask[j] != 0) & (unsigned(v) < unsigned(size));
    out[j] = std::int16_t(counted ? v : -1);
  }
}

// The end of the run of value row[j] that starts at j (the first index >= j holding another value,
// or w); row holds at least w rounded up to 16 entries.
VQTWIN_ALWAYS_INLINE int run_end(const std::int16_t* row, int j, int w) {
  const std::int16_t v = row[j];
  int e = j + 1;
#if defined(__SSE2__)
  const __m128i vv = _mm_set1_epi16(v);
  while (e + 8 <= w) {
    const unsigned eq = unsigned(_mm_movemask_epi8(
        _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + e)), vv)));
    if (eq != 0xFFFFu) return e + __builtin_ctz(~eq & 0xFFFFu) / 2;
    e += 8;
  }
#endif
  while (e < w && row[e] == v) ++e;
  return e;
}

// Whether 16 entries from `a` all equal those from `b` (a quick skip over unchanged columns).
VQTWIN_ALWAYS_INLINE bool same16(const std::int16_t* a, const std::int16_t* b) {
  return std::memcmp(a, b, 16 * sizeof(std::int16_t)) == 0;
}

VQTWIN_ALWAYS_INLINE void banding_values_body(const Setup& s, const std::uint16_t* img, const std::uint8_t* mask,
                                              std::ptrdiff_t stride, int w, int h, int window,
                                              std::vector<std::uint16_t>& hist, float* out) {
  std::fill(out, out + std::ptrdiff_t(w) * h, 0.0f);
  if (s.band_size <= 0) return;
  const int pad = window >> 1;
  const int base = s.band_base, size = s.band_size, nd = s.num_diffs;
  // hist[v - base][pad + c]: pixels of value v in the mask within the window around (current row,
  // column c). Each row has `pad` spare columns on both sides, so that a pixel's column range is
  // never clipped (counts outside [0, w) are never read).
  // num_diffs rows of zeros below the band stand for the values below it (never counted).
  const std::ptrdiff_t hw = std::ptrdiff_t(w) + 2 * pad;
  hist.assign(std::size_t(size + nd) * std::size_t(hw), 0);
  std::uint16_t* const h0 = hist.data() + nd * hw;
  // The first contrast step d that counts at each histogram row (nd: none): a step is considered
  // where the value is at most its visibility threshold (which grows with d) and the value plus
  // the step is above the visibility-luminance code value.
  std::vector<int> first_step(std::size_t(size), nd);
  for (int cv = 0; cv < size; ++cv) first_step[std::size_t(cv)] = cells::first_step(cv, base, nd, s.tvi.data(), s.vlt);
  const float* reciprocal = reciprocal_table().data();
  const int span = 2 * pad + 1;
  // Three rows of band_rows() results, padded to whole groups of 16 with "not counted".
  const int wp = (w + 15) / 16 * 16;
  std::vector<std::int16_t> rows(std::size_t(wp) * 3, -1);
  std::int16_t* const out_row = rows.data();
  std::int16_t* const in_row = out_row + wp;
  std::int16_t* const cur_row = in_row + wp;
  auto fill = [&](int r, std::int16_t* dst) { band_rows(img + r * stride, mask + r * stride, w, base, size, dst); };

  std::vector<std::int16_t> none(std::size_t(wp), -1);
  // Adds `delta` times the window coverage of a run of `len` pixels of histogram row v starting at
  // column j: column j - pad + k is covered by min(k + 1, n - k, len, span) of them (n = len + 2 pad).
  // One pass per run instead of one per pixel (flat areas make long runs).
  auto add_run = [&](int v, int j, int len, std::uint16_t delta) {
    std::uint16_t* p = h0 + v * hw + j;  // hist column of image column j - pad
    const int n = len + 2 * pad;
    const int cap = std::min(len, span);
    for (int k = 0; k < n; ++k) {
      const int cover = std::min(std::min(k + 1, n - k), cap);
      p[k] = std::uint16_t(p[k] + std::uint16_t(delta * cover));
    }
  };
  // Applies every pixel of `row` (histogram rows, -1 = none), run by run.
  auto apply = [&](const std::int16_t* row, std::uint16_t delta) {
    for (int j = 0; j < w;) {
      if ((j & 15) == 0 && same16(row + j, none.data() + j)) {
        j += 16;
        continue;
      }
      const int v = row[j];
      const int e = run_end(row, j, w);
      if (v >= 0) add_run(v, j, e - j, delta);
      j = e;
    }
  };
  for (int r = 0; r <= std::min(pad, h - 1); ++r) {
    fill(r, in_row);
    apply(in_row, 1);
  }

  for (int i = 0; i < h; ++i) {
    if (i > 0) {
      const int leaving = i - pad - 1, entering = i + pad;
      if (leaving >= 0) fill(leaving, out_row);
      else std::fill(out_row, out_row + w, std::int16_t(-1));
      if (entering < h) fill(entering, in_row);
      else std::fill(in_row, in_row + w, std::int16_t(-1));
      // Where the same value leaves and enters a column's window, nothing changes.
      for (int j = 0; j < w; ++j) {
        const bool same = out_row[j] == in_row[j];
        out_row[j] = same ? std::int16_t(-1) : out_row[j];
        in_row[j] = same ? std::int16_t(-1) : in_row[j];
      }
      apply(out_row, std::uint16_t(0xFFFF));
      apply(in_row, 1);
    }
    // Per pixel: the largest response over the contrast steps, each step taking the larger of
    // the counts d+1 code values above and below. Runs of one value share their rows.
    fill(i, cur_row);
    float* o = out + std::ptrdiff_t(i) * w;
    for (int j = 0; j < w;) {
      if ((j & 15) == 0 && same16(cur_row + j, none.data() + j)) {
        j += 16;
        continue;
      }
      const int cv = cur_row[j];
      const int e = run_end(cur_row, j, w);
      if (cv < 0) {
        j = e;
        continue;
      }
      const std::uint16_t* r0 = h0 + cv * hw + pad;
      for (int d = first_step[std::size_t(cv)]; d < nd; ++d) {
        const std::uint16_t* above = r0 + (d + 1) * hw;
        const std::uint16_t* below = r0 - (d + 1) * hw;
        const int weight = kContrastWeights[d];
        for (int k = j; k < e; ++k) {
          const int p0 = r0[k];
          const int q = above[k] > below[k] ? above[k] : below[k];
          const float v = step_response(weight, p0, q, reciprocal);
          o[k] = v > o[k] ? v : o[k];
        }
      }
      j = e;
    }
  }
}

// The builds (common/isa.hpp).
#define VQTWIN_CAMBI_BUILD(SUFFIX, ATTR)                                                                       \
  ATTR void spatial_mask_##SUFFIX(const std::uint16_t* img, int w, int h, int threshold, std::uint8_t* mask,  \
                                  std::vector<std::uint8_t>& flat) {                                          \
    spatial_mask_body(img, w, h, threshold, mask, flat);                                                      \
  }                                                                                                           \
  ATTR void mode_filter_##SUFFIX(std::uint16_t* img, std::ptrdiff_t stride, int w, int h,                     \
                                 std::vector<std::uint16_t>& rows) {                                          \
    mode_filter_body(img, stride, w, h, rows);                                                                \
  }                                                                                                           \
  ATTR void banding_values_##SUFFIX(const Setup& s, const std::uint16_t* img, const std::uint8_t* mask,       \
                                    std::ptrdiff_t stride, int w, int h, int window,                          \
                                    std::vector<std::uint16_t>& hist, float* out) {                           \
    banding_values_body(s, img, mask, stride, w, h, window, hist, out);                                       \
  }
#if VQTWIN_X86_VARIANTS
VQTWIN_CAMBI_BUILD(v3, VQTWIN_TARGET_V3)
VQTWIN_CAMBI_BUILD(v4, VQTWIN_TARGET_V4)
#endif
#undef VQTWIN_CAMBI_BUILD

}  // namespace

void spatial_mask(const std::uint16_t* img, int w, int h, int threshold, std::uint8_t* mask,
                  std::vector<std::uint8_t>& flat) {
  spatial_mask_body(img, w, h, threshold, mask, flat);
}

void mode_filter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::vector<std::uint16_t>& rows) {
  mode_filter_body(img, stride, w, h, rows);
}

void banding_values(const Setup& s, const std::uint16_t* img, const std::uint8_t* mask, std::ptrdiff_t stride, int w,
                    int h, int window, std::vector<std::uint16_t>& hist, float* out) {
  banding_values_body(s, img, mask, stride, w, h, window, hist, out);
}

CambiKernels cambi_kernels_for(unsigned cpu_flags) {
  CambiKernels k{"portable", spatial_mask, mode_filter, banding_values};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", spatial_mask_v3, mode_filter_v3, banding_values_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", spatial_mask_v4, mode_filter_v4, banding_values_v4};
#endif
  return k;
}

double score_picture(const Setup& s, const Target& t, const Picture& pic, Workspace& ws, const ScaleSink* sink) {
  if (s.bitdepth == 10 || s.bitdepth == 12) check_range<std::uint16_t>(pic, s.bitdepth);
  const std::size_t n = std::size_t(t.w) * t.h;
  ws.img.resize(n);
  ws.mask.resize(n);
  ws.cvalues.resize(n);
  to_10bit(s, t, pic, ws.img.data());
  if (s.enc_bitdepth < 10) anti_dither(ws.img.data(), t.w, t.h);
  s.kernels.spatial_mask(ws.img.data(), t.w, t.h, mask_threshold(t.w, t.h), ws.mask.data(), ws.flat);

  double scores[kNumScales];
  int w = t.w, h = t.h;
  for (int scale = 0; scale < kNumScales; ++scale) {
    if (scale > 0 || s.high_res_speedup) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
      decimate(ws.img.data(), t.w, w, h);
      decimate(ws.mask.data(), t.w, w, h);
    }
    s.kernels.mode_filter(ws.img.data(), t.w, w, h, ws.rows);
    s.kernels.banding_values(s, ws.img.data(), ws.mask.data(), t.w, w, h, t.window, ws.hist, ws.cvalues.data());
    if (sink) (*sink)(scale, ws.cvalues.data(), w, h);
    scores[scale] = pool_topk(ws.cvalues.data(), w * h, s.topk);
  }
  return weight_scales(scores, t.window);
}

}  // namespace vqtwin::cambi
