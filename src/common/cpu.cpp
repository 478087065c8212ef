#include "common/cpu.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>

#include "vqtwin/error.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define VQTWIN_CPU_X86 1
#endif

namespace vqtwin::cpu {
namespace {

#if VQTWIN_CPU_X86
// Every bit of `mask` set in `reg`.
constexpr bool all(unsigned reg, unsigned mask) { return (reg & mask) == mask; }

unsigned long long xcr0() {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}

// The cpuid bits are those of the Intel SDM, vol. 2A, CPUID; the same tests as libvmaf's x86/cpu.c,
// plus the x86-64-v3 extras (FMA, F16C, LZCNT, MOVBE) that its AVX2 level leaves implicit: vqtwin's
// AVX2 variants are built for x86-64-v3.
unsigned probe() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
  const unsigned max_leaf = a;
  if (max_leaf < 1) return 0;
  __get_cpuid(1, &a, &b, &c, &d);
  const unsigned ecx1 = c, edx1 = d;
  unsigned f = 0;
  if (all(edx1, 0x06008000)) {  // CMOV, SSE, SSE2
    f |= kSse2;
    if (all(ecx1, 0x00000201)) {  // SSE3, SSSE3
      f |= kSsse3;
      if (all(ecx1, 0x00080000)) f |= kSse41;
    }
  }
  if (!all(ecx1, 0x18000000) || max_leaf < 7) return f;  // OSXSAVE, AVX
  const unsigned long long xcr = xcr0();
  if (!all(unsigned(xcr), 0x6)) return f;  // the OS saves XMM and YMM
  __get_cpuid_count(7, 0, &a, &b, &c, &d);
  const unsigned ebx7 = b, ecx7 = c;
  unsigned ext_ecx = 0;
  if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000001) {
    __get_cpuid(0x80000001, &a, &b, &c, &d);
    ext_ecx = c;
  }
  const bool v3_extras = all(ecx1, (1u << 12) | (1u << 22) | (1u << 29)) && all(ext_ecx, 1u << 5);
  if (!all(ebx7, 0x00000128) || !v3_extras) return f;  // BMI1, AVX2, BMI2; FMA, MOVBE, F16C; LZCNT
  f |= kAvx2;
  if (!all(unsigned(xcr), 0xe0)) return f;  // the OS saves the opmask and ZMM registers
  if (all(ebx7, 0xd0030000)) {              // AVX-512 F, DQ, CD, BW, VL
    f |= kAvx512;
    if (all(ecx7, 1u << 11)) f |= kAvx512Vnni;
    if (all(ebx7, 0xd0230000) && all(ecx7, 0x00005f42)) f |= kAvx512Icl;
  }
  return f;
}
#else
unsigned probe() { return 0; }
#endif

unsigned env_mask() {
  const char* text = std::getenv("VQTWIN_CPU_MASK");
  return text && *text ? parse_mask(text, "VQTWIN_CPU_MASK") : 0u;
}

// How many live RunMasks clear each bit.
constexpr int kBits = 7;
std::atomic<unsigned> g_run_masks[kBits];

unsigned run_mask() {
  unsigned m = 0;
  for (int i = 0; i < kBits; ++i)
    if (g_run_masks[i].load(std::memory_order_relaxed)) m |= 1u << i;
  return m;
}

}  // namespace

unsigned detected() {
  static const unsigned f = probe();
  return f;
}

unsigned flags() {
  // A bad value throws here each time (a static whose initialiser throws is retried), so every run
  // reports it.
  static const unsigned env = env_mask();
  return detected() & ~env & ~run_mask();
}

std::string names(unsigned f) {
  static constexpr const char* kNames[kBits] = {"sse2", "ssse3", "sse4.1", "avx2", "avx512", "avx512icl", "avx512vnni"};
  std::string s;
  for (int i = 0; i < kBits; ++i)
    if (f & (1u << i)) s += (s.empty() ? "" : " ") + std::string(kNames[i]);
  return s.empty() ? "none" : s;
}

unsigned parse_mask(const std::string& text, const std::string& what) {
  errno = 0;
  char* end = nullptr;
  const unsigned long v = std::strtoul(text.c_str(), &end, 0);
  if (text.empty() || *end || errno == ERANGE)
    throw Error(what + ": '" + text.substr(0, 40) + "' is not a number (a bit mask, e.g. 8 or 0x18)");
  return static_cast<unsigned>(v);
}

RunMask::RunMask(unsigned mask) : mask_(mask) {
  for (int i = 0; i < kBits; ++i)
    if (mask_ & (1u << i)) g_run_masks[i].fetch_add(1, std::memory_order_relaxed);
}

RunMask::~RunMask() {
  for (int i = 0; i < kBits; ++i)
    if (mask_ & (1u << i)) g_run_masks[i].fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace vqtwin::cpu
