#pragma once
// A per-thread memo of to_lab(). A frame has far fewer distinct (Y, Cb, Cr) triples than pixels (a 1080p
// frame of grainy video: about 340 000 distinct colours among 4.1 million looked up, 140 000 of them new
// from one frame to the next), and each conversion costs six pow() calls, so remembering them is most of
// the conversion's speed. A cached value is the value to_lab() returns for that key, so results do not
// depend on what is cached.
//
// The table is direct-mapped, 2^18 entries of 16 bytes (4 MiB a thread; see table_bits()): an entry holds the
// L*a*b* floats and a 30-bit tag. The key (the three samples in 16 bits each, 48 bits) is mixed by a multiplication by
// an odd constant modulo 2^48, a bijection; the slot is the mix's top 18 bits and the tag its low 30 bits, so slot
// and tag together name exactly one key (no two colours can share an entry's identity). The depth is not in
// the key: the table is cleared when the depth changes (one thread may serve several depths).
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "features/ciede/batch.hpp"

namespace vqtwin::ciede {

class LabCache {
 public:
  // Where the colours of a batch live in the table (prepare()'s result, lookup()'s input).
  struct Slots {
    std::uint32_t slot[2 * kBatch], tag[2 * kBatch];
  };

  // The slots and tags of y[k], u[k], v[k] for k < n <= 2 * kBatch, and a prefetch of each slot: the table is
  // larger than the caches near the core, and the frame loop prepares a batch while the one before it is
  // computed, so the loads have arrived when lookup() reads them.
  void prepare(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n, unsigned bpc, Slots& s) {
    if (!slots_ || bpc != bpc_) clear(bpc);
    const std::uint64_t v_bits = planted_key_bug() ? ~std::uint64_t(1) : ~std::uint64_t(0);  // of v in the key
    // Each sample gets a whole 16-bit field, whatever the depth: 10- and 12-bit pictures may hold any 16-bit
    // word (libvmaf accepts them, core/sample_range.hpp), so fields of bpc bits would let two colours share a
    // key. (VQTWIN_PLANT=ciede_cpu_memo_narrow_key packs them in bpc bits: the frame check must fail.)
    const unsigned field = planted_narrow_key() ? bpc : 16u;
    for (int k = 0; k < n; ++k) {
      const std::uint64_t key =
          (std::uint64_t(y[k]) << (2 * field)) | (std::uint64_t(u[k]) << field) | (std::uint64_t(v[k]) & v_bits);
      const std::uint64_t mix = (key * kMix) & kMask48;
      s.slot[k] = std::uint32_t(mix >> (48 - bits_));
      s.tag[k] = std::uint32_t(mix) & tag_mask_;
      __builtin_prefetch(&slots_[s.slot[k]]);
    }
  }

  // out[k] = to_lab(y[k], u[k], v[k], bpc) for k < n <= 2 * kBatch, given prepare()'s slots of the same colours
  // (with no other depth prepared in between), the misses computed by `kernels.to_lab` (every build gives the
  // same values, so a value cached by one build is the others').
  void lookup(const BatchKernels& kernels, const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
              unsigned bpc, const Slots& s, Lab* out) {
    std::uint16_t my[2 * kBatch], mu[2 * kBatch], mv[2 * kBatch];
    int which[2 * kBatch];
    int misses = 0;
    for (int k = 0; k < n; ++k) {
      const Entry& e = slots_[s.slot[k]];
      if (e.tag == s.tag[k]) {
        out[k] = {e.l, e.a, e.b};
        continue;
      }
      my[misses] = y[k], mu[misses] = u[k], mv[misses] = v[k];
      which[misses] = k;
      ++misses;
    }
    if (misses == 0) return;
    // The conversion's loops run 8 colours a vector; a count that is not a multiple of 8 leaves a remainder
    // to scalar code (a third of the conversion's time at about 19 misses a call). Repeating the last colour
    // up to a multiple of 8 (2 * kBatch is one) keeps every colour in vector lanes; the copies are not used.
    static_assert((2 * kBatch) % 8 == 0, "the padding stays within the arrays");
    int padded = misses;
    for (; padded % 8 != 0; ++padded) my[padded] = my[misses - 1], mu[padded] = mu[misses - 1], mv[padded] = mv[misses - 1];
    Lab computed[2 * kBatch];
    kernels.to_lab(my, mu, mv, padded, bpc, computed);
    for (int m = 0; m < misses; ++m) {
      const Lab& c = computed[m];
      const int k = which[m];
      out[k] = c;
      slots_[s.slot[k]] = {s.tag[k], c.l, c.a, c.b};
    }
  }

  // Both at once.
  void lookup(const BatchKernels& kernels, const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
              unsigned bpc, Lab* out) {
    Slots s;
    prepare(y, u, v, n, bpc, s);
    lookup(kernels, y, u, v, n, bpc, s, out);
  }

 private:
  // 2^18 entries (4 MiB) by default: on a 1080p grain pair (one core) 2^16 entries convert 27 % of the
  // look-ups again, 2^18 15 %, 2^20 9 %; with the conversion as cheap as it now is, 2^20 ran 4 % faster than
  // 2^18 on one core, and 2^18 keeps 16 workers' tables at 64 MiB. $VQTWIN_CIEDE_MEMO_BITS (17 to 24) sets
  // it, to measure many cores sharing the memory (every worker thread has its own table).
  static int table_bits() {
    static const int bits = [] {
      const char* e = std::getenv("VQTWIN_CIEDE_MEMO_BITS");
      const int b = e != nullptr ? std::atoi(e) : 18;
      return b >= 17 && b <= 24 ? b : 18;
    }();
    return bits;
  }
  static constexpr std::uint32_t kEmpty = ~0u;  // no tag (tags have at most 31 bits)
  static constexpr std::uint64_t kMask48 = (std::uint64_t(1) << 48) - 1u;
  static constexpr std::uint64_t kMix = 0x9E3779B97F4Bull;  // odd: multiplying by it modulo 2^48 is a bijection
  struct Entry {
    std::uint32_t tag;
    float l, a, b;
  };
  static_assert(sizeof(Entry) == 16);

  // VQTWIN_PLANT=ciede_cpu_memo_key: the key leaves out Cr's lowest bit, so two colours share an entry (the
  // planted bug of the frame check, tests/cpu_check/ciede_frames.cpp; it must fail).
  static bool planted_key_bug() {
    static const bool planted = [] {
      const char* p = std::getenv("VQTWIN_PLANT");
      return p != nullptr && std::string_view(p) == "ciede_cpu_memo_key";
    }();
    return planted;
  }
  // VQTWIN_PLANT=ciede_cpu_memo_narrow_key: fields of bpc bits (wrong for samples of 2^bpc or more).
  static bool planted_narrow_key() {
    static const bool planted = [] {
      const char* p = std::getenv("VQTWIN_PLANT");
      return p != nullptr && std::string_view(p) == "ciede_cpu_memo_narrow_key";
    }();
    return planted;
  }

  // The table in 2 MiB pages where the system gives them (transparent huge pages on request), so that its
  // look-ups stay within the reach of the address translation caches (4 KiB pages: 1024 of them for 4 MiB).
  // On the 2-core VM where it was measured this changed nothing measurable; it costs nothing either.
  void clear(unsigned bpc) {
    constexpr std::size_t kHuge = std::size_t(1) << 21;
    const std::size_t bytes = sizeof(Entry) << bits_;
    if (!slots_) {
      void* p = std::aligned_alloc(kHuge, bytes);
      if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__)
      madvise(p, bytes, MADV_HUGEPAGE);  // advice only: 4 KiB pages where refused
#endif
      slots_.reset(static_cast<Entry*>(p));
    }
    for (std::size_t i = 0; i < (std::size_t(1) << bits_); ++i) slots_[i] = Entry{kEmpty, 0.0f, 0.0f, 0.0f};
    bpc_ = bpc;
  }
  struct Free {
    void operator()(Entry* p) const { std::free(p); }
  };
  std::unique_ptr<Entry[], Free> slots_;
  unsigned bpc_ = 0;
  int bits_ = table_bits();
  std::uint32_t tag_mask_ = (1u << (48 - bits_)) - 1u;  // tags of 24 to 31 bits: never the empty marker
};

}  // namespace vqtwin::ciede
