#include "io/alignment.hpp"

#include "common/cpu.hpp"
#include "common/isa.hpp"
#include "io/convert.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <type_traits>

namespace vqtwin {
namespace {

// out[tx] = the sum of columns tx*B .. tx*B + B - 1, times scale.
template <int B, class Column>
void block_row(const Column* columns, int n, double scale, float* out) {
  for (int tx = 0; tx < n; ++tx) {
    std::uint32_t s = 0;
    for (int k = 0; k < B; ++k) s += columns[tx * B + k];
    out[tx] = float(double(s) * scale);
  }
}

// columns[x] += row[x]: integer sums, the same in any lane order (the AVX2 variant only runs more lanes).
template <class T, class Column>
VQTWIN_ALWAYS_INLINE void add_row_body(Column* __restrict c, const T* __restrict row, int n) {
  for (int x = 0; x < n; ++x) c[x] = Column(c[x] + row[x]);
}
template <class T, class Column>
void add_row(Column* c, const T* row, int n) { add_row_body(c, row, n); }
#if VQTWIN_X86_VARIANTS
template <class T, class Column>
VQTWIN_TARGET_V3 void add_row_v3(Column* c, const T* row, int n) { add_row_body(c, row, n); }
#endif

template <class T, class Column>
using AddRow = void (*)(Column*, const T*, int);
template <class T, class Column>
AddRow<T, Column> add_row_for(unsigned flags) {
#if VQTWIN_X86_VARIANTS
  if (cpu::allows(flags, cpu::kAvx2)) return &add_row_v3<T, Column>;
#endif
  (void)flags;
  return &add_row<T, Column>;
}

template <class T>
Thumbnail thumbnail_of(const Picture& pic) {
  const PictureFormat& f = pic.format();
  const int block = std::max(1, int(std::lround(std::min(f.width, f.height) / 144.0)));
  Thumbnail t;
  t.width = std::max(1, f.width / block);
  t.height = std::max(1, f.height / block);
  t.values.assign(std::size_t(t.width) * std::size_t(t.height), 0.f);
  const double scale = 1.0 / (double(1 << (f.bitdepth - 8)) * block * block);
  // Column sums over the block's rows (a plain loop the compiler vectorises), then each block adds its
  // columns: the same integer sums as block by block (a block is at most 114 x 114 samples, since the
  // shorter side is at most 16384: 8-bit columns stay below 2^16, blocks of 16-bit samples below 2^32).
  using Column = std::conditional_t<sizeof(T) == 1, std::uint16_t, std::uint32_t>;
  std::vector<Column> columns(std::size_t(f.width));
  const AddRow<T, Column> add = add_row_for<T, Column>(cpu::flags());
  for (int ty = 0; ty < t.height; ++ty) {
    std::fill(columns.begin(), columns.end(), Column(0));
    for (int y = ty * block; y < std::min(f.height, (ty + 1) * block); ++y) add(columns.data(), pic.row<T>(0, y), f.width);
    float* out = t.values.data() + std::size_t(ty) * std::size_t(t.width);
    // Small blocks (576x324 and the like have 2 or 3 samples a side) with the block size known to
    // the compiler; t.width * block <= width, so every block is whole.
    switch (block) {
      case 1: block_row<1>(columns.data(), t.width, scale, out); break;
      case 2: block_row<2>(columns.data(), t.width, scale, out); break;
      case 3: block_row<3>(columns.data(), t.width, scale, out); break;
      case 4: block_row<4>(columns.data(), t.width, scale, out); break;
      default:
        for (int tx = 0; tx < t.width; ++tx) {
          std::uint32_t s = 0;
          for (int x = tx * block; x < std::min(f.width, (tx + 1) * block); ++x) s += columns[std::size_t(x)];
          out[tx] = float(double(s) * scale);
        }
    }
  }
  return t;
}

// Sixteen partial sums (independent chains: the adds are latency-bound, so 16 run about four times as
// fast as 4): a deterministic value for a heuristic, not a score. The chains are the lanes of four
// 4-double vectors in the AVX2 variant, which therefore adds exactly what the baseline adds (no
// contraction: the library is built without it).
VQTWIN_ALWAYS_INLINE double mse_body(const float* __restrict a, const float* __restrict b, std::size_t n) {
  constexpr std::size_t kChains = 16;
  double s[kChains] = {};
  std::size_t i = 0;
  for (; i + kChains <= n; i += kChains)
    for (std::size_t k = 0; k < kChains; ++k) {
      const double d = double(a[i + k]) - double(b[i + k]);
      s[k] += d * d;
    }
  for (; i < n; ++i) {
    const double d = double(a[i]) - double(b[i]);
    s[0] += d * d;
  }
  for (std::size_t w = kChains / 2; w > 0; w /= 2)
    for (std::size_t k = 0; k < w; ++k) s[k] += s[k + w];
  return s[0] / double(n);
}
double mse_base(const float* a, const float* b, std::size_t n) { return mse_body(a, b, n); }
#if VQTWIN_X86_VARIANTS
VQTWIN_TARGET_V3 double mse_v3(const float* a, const float* b, std::size_t n) { return mse_body(a, b, n); }
#endif

double mse(const Thumbnail& a, const Thumbnail& b, unsigned flags) {
  if (a.values.size() != b.values.size() || a.values.empty()) return std::numeric_limits<double>::infinity();
#if VQTWIN_X86_VARIANTS
  if (cpu::allows(flags, cpu::kAvx2)) return mse_v3(a.values.data(), b.values.data(), a.values.size());
#endif
  (void)flags;
  return mse_base(a.values.data(), b.values.data(), a.values.size());
}

double psnr_of(double m) { return m <= 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(255.0 * 255.0 / m); }

}  // namespace

Thumbnail make_thumbnail(const Picture& pic) {
  return pic.format().bitdepth > 8 ? thumbnail_of<std::uint16_t>(pic) : thumbnail_of<std::uint8_t>(pic);
}

ShiftEstimate estimate_shift(const std::vector<Thumbnail>& ref, const std::vector<Thumbnail>& dist) {
  constexpr int kMinPairs = 3;
  const unsigned flags = cpu::flags();
  double mse_at[2 * kMaxSyncOffset + 1];
  for (int o = -kMaxSyncOffset; o <= kMaxSyncOffset; ++o) {
    double sum = 0;
    int pairs = 0;
    for (int i = 0; i < int(ref.size()); ++i)
      if (i + o >= 0 && i + o < int(dist.size())) {
        sum += mse(ref[std::size_t(i)], dist[std::size_t(i + o)], flags);
        ++pairs;
      }
    mse_at[o + kMaxSyncOffset] = pairs >= kMinPairs ? sum / pairs : std::numeric_limits<double>::infinity();
  }
  ShiftEstimate e;
  const double aligned = mse_at[kMaxSyncOffset];
  e.psnr_aligned = e.psnr_offset = psnr_of(aligned);
  if (!std::isfinite(aligned)) return e;
  // The best offset, the smallest shift first among equals.
  int best = 0;
  for (int k = 1; k <= kMaxSyncOffset; ++k)
    for (int o : {-k, k})
      if (mse_at[o + kMaxSyncOffset] < mse_at[best + kMaxSyncOffset]) best = o;
  constexpr double kClearlyBetter = 1.2589254117941673;  // 1 dB
  if (best != 0 && mse_at[best + kMaxSyncOffset] * kClearlyBetter < aligned) {
    e.offset = best;
    e.psnr_offset = psnr_of(mse_at[best + kMaxSyncOffset]);
  }
  return e;
}

std::string skip_option(int offset) {
  return offset > 0 ? "--frame_skip_dist " + std::to_string(offset) : "--frame_skip_ref " + std::to_string(-offset);
}

std::string frames_text(int n) { return std::to_string(n) + (n == 1 ? " frame" : " frames"); }

std::string describe_shift(const ShiftEstimate& e, const std::string& ref_path, const std::string& dist_path,
                           unsigned skip_ref, unsigned skip_dist) {
  const int n = std::abs(e.offset);
  char psnr[96];
  std::snprintf(psnr, sizeof psnr, "luma PSNR %.1f dB shifted, %.1f dB as given", e.psnr_offset, e.psnr_aligned);
  const std::string what = e.offset > 0 ? dist_path + " has " + frames_text(n) + " more at its start than " + ref_path
                                        : dist_path + " lacks the first " + frames_text(n) + " of " + ref_path;
  // The skips that align them, counted from the start of the files.
  const long long net = (long long)skip_dist - (long long)skip_ref + e.offset;
  const std::string fix = net == 0 ? "no --frame_skip_ref/--frame_skip_dist" : skip_option(int(net));
  return what + " (its first frames match at a shift of " + std::to_string(n) + ": " + psnr + "); " + fix +
         " aligns them, --sync auto applies it";
}

const std::deque<Picture>& ReplaySource::read_ahead(int n) {
  while (int(buffered_.size()) < n) {
    Picture pic(inner_->format());
    if (!inner_->read(pic)) break;
    buffered_.push_back(std::move(pic));
  }
  return buffered_;
}

bool ReplaySource::skip() {
  if (buffered_.empty()) return inner_->skip();
  buffered_.pop_front();
  return true;
}

bool ReplaySource::read(Picture& pic) {
  if (buffered_.empty()) return inner_->read(pic);
  copy_planes(PlaneView::of(buffered_.front()), pic.format(), pic);
  buffered_.pop_front();
  return true;
}

}  // namespace vqtwin
