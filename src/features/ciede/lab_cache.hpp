#pragma once
// A per-thread memo of to_lab(). A frame has far fewer distinct (Y, Cb, Cr) triples than pixels (the
// shared 576x324 pair: about 60 000 for 373 000 conversions, and only 15 000 new ones from one frame to the
// next), and each conversion costs six pow() calls, so remembering them is most of ciede's speed. A
// cached value is the value to_lab() returns for that key, so results do not depend on what is cached.
#include <cstdint>
#include <vector>

#include "features/ciede/batch.hpp"

namespace vqtwin::ciede {

class LabCache {
 public:
  // out[k] = to_lab(y[k], u[k], v[k], bpc) for k < n <= 2 * kBatch, the misses computed by `kernels.to_lab`
  // (every build gives the same values, so a value cached by one build is the others').
  void lookup(const BatchKernels& kernels, const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
              unsigned bpc, Lab* out) {
    if (slots_.empty()) slots_.assign(std::size_t(1) << kBits, Entry{kEmpty, {0, 0, 0}});
    std::uint16_t my[2 * kBatch], mu[2 * kBatch], mv[2 * kBatch];
    int which[2 * kBatch];
    std::size_t slot[2 * kBatch], miss_slot[2 * kBatch];
    std::uint64_t key[2 * kBatch], miss_key[2 * kBatch];
    int misses = 0;
    // Keys and slots first, with a prefetch of each slot: the table is larger than the caches near the core,
    // and issuing all the loads before the first compare overlaps their latencies.
    for (int k = 0; k < n; ++k) {
      // Samples have at most 16 bits; the depth is part of the key (one thread may serve several depths).
      key[k] = (std::uint64_t(bpc) << 48) | (std::uint64_t(y[k]) << 32) | (std::uint64_t(u[k]) << 16) | std::uint64_t(v[k]);
      slot[k] = std::size_t((key[k] * 0x9E3779B97F4A7C15ull) >> (64 - kBits));
      __builtin_prefetch(&slots_[slot[k]]);
    }
    for (int k = 0; k < n; ++k) {
      const std::uint64_t kk = key[k];
      const std::size_t s = slot[k];
      if (slots_[s].key == kk) {
        out[k] = slots_[s].lab;
        continue;
      }
      my[misses] = y[k], mu[misses] = u[k], mv[misses] = v[k];
      which[misses] = k, miss_slot[misses] = s, miss_key[misses] = kk;
      ++misses;
    }
    if (misses == 0) return;
    Lab computed[2 * kBatch];
    kernels.to_lab(my, mu, mv, misses, bpc, computed);
    for (int m = 0; m < misses; ++m) {
      out[which[m]] = computed[m];
      slots_[miss_slot[m]] = {miss_key[m], computed[m]};
    }
  }

 private:
  static constexpr int kBits = 16;  // 65536 entries, 1.5 MiB per thread (larger tables measured no faster)
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);
  struct Entry {
    std::uint64_t key;
    Lab lab;
  };
  std::vector<Entry> slots_;
};

}  // namespace vqtwin::ciede
