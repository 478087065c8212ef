#include "features/float_ms_ssim/pyramid.hpp"

#include <cstddef>
#include <cstring>
#include <vector>

#include "features/float_ms_ssim/math.hpp"
#include "features/float_ssim/math.hpp"

namespace vqtwin::float_ms_ssim {
namespace {

// Eight outputs per step; each lane adds its own 81 taps in the reference order.
constexpr int kLanes = 8;
typedef float VecF __attribute__((vector_size(kLanes * sizeof(float))));
typedef double VecD __attribute__((vector_size(kLanes * sizeof(double))));

// Outputs sit on even source columns, so tap dx of output x reads source column 2x + dx. Splitting
// each mirrored, padded source row into its even and odd samples makes those reads contiguous:
// column 2x + dx = padded index 2x + t (t = dx + 4) = even[x + t/2] or odd[x + t/2].
constexpr int kCacheSlots = 16;  // > 9 rows of one window, a power of two for the modulo

struct Scratch {
  int width = 0, height = 0;
  std::size_t span = 0, half_len = 0;
  std::vector<float> rows;  // kCacheSlots x (even, odd)
  int tag[kCacheSlots];
  std::vector<float> out;

  void size_for(int w, int h) {
    width = w;
    height = h;
    const std::size_t ow = std::size_t(half_size(w));
    span = (ow + kLanes - 1) / kLanes * kLanes;
    half_len = span + kLpfRadius + 1;
    rows.assign(std::size_t(kCacheSlots) * 2 * half_len, 0.0f);
    for (int& t : tag) t = -1;
    out.assign(span, 0.0f);
  }

  // Even/odd split of mirrored source row r (r already in range).
  const float* split_row(const float* src, int r) {
    const int slot = r % kCacheSlots;
    float* even = rows.data() + std::size_t(slot) * 2 * half_len;
    if (tag[slot] != r) {
      tag[slot] = r;
      float* odd = even + half_len;
      const float* s = src + std::size_t(r) * width;
      for (std::size_t j = 0; j < half_len; ++j) {
        even[j] = s[float_ssim::mirror(int(2 * j) - kLpfRadius, width)];
        odd[j] = s[float_ssim::mirror(int(2 * j + 1) - kLpfRadius, width)];
      }
    }
    return even;
  }
};

thread_local Scratch t_scratch;

}  // namespace

void lpf_decimate(const float* src, int w, int h, float* dst) {
  Scratch& sc = t_scratch;
  sc.size_for(w, h);
  const int ow = half_size(w), oh = half_size(h);
  const float* even[kLpfTaps];
  for (int y = 0; y < oh; ++y, dst += ow) {
    for (int v = 0; v < kLpfTaps; ++v)
      even[v] = sc.split_row(src, float_ssim::mirror(2 * y + v - kLpfRadius, h));
    for (std::size_t x = 0; x < sc.span; x += kLanes) {
      VecD acc = {};
      for (int v = 0; v < kLpfTaps; ++v) {
        const float* e = even[v] + x;
        const float* o = e + sc.half_len;
        for (int t = 0; t < kLpfTaps; ++t) {
          VecF s;
          std::memcpy(&s, ((t & 1) ? o : e) + t / 2, sizeof s);
          acc += __builtin_convertvector(s * lpf_weight(v - kLpfRadius, t - kLpfRadius), VecD);
        }
      }
      const VecF r = __builtin_convertvector(acc, VecF);
      std::memcpy(sc.out.data() + x, &r, sizeof r);
    }
    std::memcpy(dst, sc.out.data(), sizeof(float) * std::size_t(ow));
  }
}

}  // namespace vqtwin::float_ms_ssim
