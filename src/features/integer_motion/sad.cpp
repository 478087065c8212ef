#include "features/integer_motion/sad.hpp"

#include "features/integer_motion/math.hpp"

namespace vqtwin::integer_motion {
namespace {

inline int reflect101(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

// Vertical pass on the difference prev - cur of five rows, rounded and floor-shifted by `shift`
// (>> on a negative value is an arithmetic shift: C++20 defines it as floor division).
// Acc is int32 where the sum fits (|sum| <= 65536 * (2^bpc - 1) < 2^31 up to 12 bits), else int64.
// Returns the OR of the row, zero when the whole row is zero.
template <class T, class Acc>
std::int32_t vertical(const T* const* p, const T* const* c, int shift, std::int32_t* __restrict out, int w) {
  const Acc round = Acc(1) << (shift - 1);
  std::int32_t any = 0;
  for (int x = 0; x < w; ++x) {
    Acc acc = 0;
    for (int k = 0; k < 5; ++k) acc += Acc(kTaps[k]) * Acc(std::int32_t(p[k][x]) - std::int32_t(c[k][x]));
    const std::int32_t v = std::int32_t((acc + round) >> shift);
    out[x] = v;
    any |= v;
  }
  return any;
}

// Horizontal pass on a row padded by two mirrored samples each side, +2^15 and floor >> 16, |.|
// summed in 32 bits as libvmaf does (it would wrap only for rows wider than 65537 samples).
// The taps are symmetric: pairs of equal taps share one multiply (exact integer arithmetic).
std::uint32_t horizontal_abs_sum(const std::int32_t* v, int w) {
  std::uint32_t sum = 0;
  for (int x = 0; x < w; ++x) {
    const std::int64_t s = std::int64_t(kTaps[0]) * (std::int64_t(v[x]) + v[x + 4]) +
                           std::int64_t(kTaps[1]) * (std::int64_t(v[x + 1]) + v[x + 3]) +
                           std::int64_t(kTaps[2]) * v[x + 2];
    const std::int32_t xv = std::int32_t((s + 32768) >> 16);
    sum += std::uint32_t(xv < 0 ? -xv : xv);
  }
  return sum;
}

template <class T>
std::uint64_t sad_planes(const T* prev, std::ptrdiff_t ps, const T* cur, std::ptrdiff_t cs, int w, int h, int bpc,
                         std::int32_t* row) {
  std::int32_t* mid = row + 2;
  std::uint64_t sad = 0;
  for (int y = 0; y < h; ++y) {
    const T* p[5];
    const T* c[5];
    for (int k = 0; k < 5; ++k) {
      const int r = reflect101(y - 2 + k, h);
      p[k] = prev + r * ps;
      c[k] = cur + r * cs;
    }
    const std::int32_t any = bpc <= 12 ? vertical<T, std::int32_t>(p, c, bpc, mid, w)
                                       : vertical<T, std::int64_t>(p, c, bpc, mid, w);
    if (!any) continue;  // an all-zero row adds zero
    mid[-1] = mid[1];
    mid[-2] = mid[2];
    mid[w] = mid[w - 2];
    mid[w + 1] = mid[w - 3];
    sad += horizontal_abs_sum(row, w);
  }
  return sad;
}

}  // namespace

DiffBlurSad::DiffBlurSad(int w, int h, int bpc) : w_(w), h_(h), bpc_(bpc), row_(std::size_t(w) + 4) {}

std::uint64_t DiffBlurSad::operator()(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                                      std::ptrdiff_t cur_stride) {
  return sad_planes(prev, prev_stride, cur, cur_stride, w_, h_, 8, row_.data());
}

std::uint64_t DiffBlurSad::operator()(const std::uint16_t* prev, std::ptrdiff_t prev_stride,
                                      const std::uint16_t* cur, std::ptrdiff_t cur_stride) {
  return sad_planes(prev, prev_stride, cur, cur_stride, w_, h_, bpc_, row_.data());
}

}  // namespace vqtwin::integer_motion
