#pragma once
// Luma planes for integer ADM's tests (tests/unit against libvmaf's numbers and a straightforward
// DWT, tests/cpu_check between kernel sets), generated as the libvmaf reference cases were.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "vqtwin/picture.hpp"

namespace vqtwin::integer_adm {

// The sample generator of the libvmaf reference cases (the same LCG produced their inputs).
struct Lcg {
  uint32_t x;
  uint32_t next() {
    x = x * 1103515245u + 12345u;
    return x >> 16;
  }
};

enum class Content { kRandom, kPerturbed, kSmooth };

// ref and dis planes (row-major, w x h) as the reference cases were generated.
inline std::pair<std::vector<uint32_t>, std::vector<uint32_t>> make_planes(int w, int h, int bpc, uint32_t seed,
                                                                    Content kind) {
  Lcg g{seed};
  const uint32_t mask = (1u << bpc) - 1;
  const int sh = bpc - 8;
  std::vector<uint32_t> ref(std::size_t(w) * h), dis(ref.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint32_t& v = ref[std::size_t(y) * w + x];
      if (kind == Content::kSmooth)
        v = ((uint32_t(x * 5 + y * 3) << sh) + (g.next() & ((8u << sh) - 1))) & mask;
      else
        v = g.next() & mask;
    }
  for (std::size_t i = 0; i < ref.size(); ++i) {
    if (kind == Content::kRandom) {
      dis[i] = g.next() & mask;
    } else {
      const int64_t d = int64_t(ref[i]) + (int64_t(g.next() % 5) - 2) * (int64_t(1) << sh);
      dis[i] = uint32_t(std::clamp<int64_t>(d, 0, mask));
    }
  }
  return {ref, dis};
}

inline Picture make_picture(int w, int h, int bpc, const std::vector<uint32_t>& plane) {
  PictureFormat f;
  f.width = w;
  f.height = h;
  f.bitdepth = bpc;
  f.chroma = ChromaFormat::k400;
  Picture p(f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const uint32_t v = plane[std::size_t(y) * w + x];
      if (bpc == 8) p.row<uint8_t>(0, y)[x] = uint8_t(v);
      else p.row<uint16_t>(0, y)[x] = uint16_t(v);
    }
  return p;
}

}  // namespace vqtwin::integer_adm
