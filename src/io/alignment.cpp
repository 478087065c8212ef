#include "io/alignment.hpp"

#include "io/convert.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace vqtwin {
namespace {

template <class T>
Thumbnail thumbnail_of(const Picture& pic) {
  const PictureFormat& f = pic.format();
  const int block = std::max(1, int(std::lround(std::min(f.width, f.height) / 144.0)));
  Thumbnail t;
  t.width = std::max(1, f.width / block);
  t.height = std::max(1, f.height / block);
  t.values.assign(std::size_t(t.width) * std::size_t(t.height), 0.f);
  const double scale = 1.0 / (double(1 << (f.bitdepth - 8)) * block * block);
  std::vector<double> sums(std::size_t(t.width));
  for (int ty = 0; ty < t.height; ++ty) {
    std::fill(sums.begin(), sums.end(), 0.0);
    for (int y = ty * block; y < std::min(f.height, (ty + 1) * block); ++y) {
      const T* row = pic.row<T>(0, y);
      for (int tx = 0; tx < t.width; ++tx) {
        const T* p = row + tx * block;
        std::uint32_t s = 0;
        for (int x = 0; x < block && tx * block + x < f.width; ++x) s += p[x];
        sums[std::size_t(tx)] += s;
      }
    }
    for (int tx = 0; tx < t.width; ++tx)
      t.values[std::size_t(ty) * std::size_t(t.width) + std::size_t(tx)] = float(sums[std::size_t(tx)] * scale);
  }
  return t;
}

double mse(const Thumbnail& a, const Thumbnail& b) {
  if (a.values.size() != b.values.size() || a.values.empty()) return std::numeric_limits<double>::infinity();
  double s = 0;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const double d = double(a.values[i]) - double(b.values[i]);
    s += d * d;
  }
  return s / double(a.values.size());
}

double psnr_of(double m) { return m <= 0 ? std::numeric_limits<double>::infinity() : 10 * std::log10(255.0 * 255.0 / m); }

}  // namespace

Thumbnail make_thumbnail(const Picture& pic) {
  return pic.format().bitdepth > 8 ? thumbnail_of<std::uint16_t>(pic) : thumbnail_of<std::uint8_t>(pic);
}

ShiftEstimate estimate_shift(const std::vector<Thumbnail>& ref, const std::vector<Thumbnail>& dist) {
  constexpr int kMinPairs = 3;
  double mse_at[2 * kMaxSyncOffset + 1];
  for (int o = -kMaxSyncOffset; o <= kMaxSyncOffset; ++o) {
    double sum = 0;
    int pairs = 0;
    for (int i = 0; i < int(ref.size()); ++i)
      if (i + o >= 0 && i + o < int(dist.size())) {
        sum += mse(ref[std::size_t(i)], dist[std::size_t(i + o)]);
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
