// Picking float ADM's rcpss table, and measuring this CPU's (--rcpss native).
#include "features/float_adm/rcpss.hpp"

#include <array>
#include <cstring>
#include <string>

#include "vqtwin/error.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define VQTWIN_HAVE_RCPSS 1
#endif

namespace vqtwin {

const char* to_string(Rcpss r) {
  switch (r) {
    case Rcpss::kAmd: return "amd";
    case Rcpss::kIntel: return "intel";
    case Rcpss::kNative: return "native";
  }
  return "?";
}

std::optional<Rcpss> parse_rcpss(std::string_view text) {
  for (Rcpss r : {Rcpss::kAmd, Rcpss::kIntel, Rcpss::kNative})
    if (text == to_string(r)) return r;
  return std::nullopt;
}

namespace float_adm {

bool measure_rcpss(std::uint32_t out[kRcpssEntries]) {
#ifdef VQTWIN_HAVE_RCPSS
  for (int i = 0; i < kRcpssEntries; ++i) {
    const float x = 1.0f + float(i) / float(kRcpssEntries);  // exact: 12 bits after the point
    const float y = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
    std::memcpy(&out[i], &y, sizeof y);
  }
  return true;
#else
  (void)out;
  return false;
#endif
}

namespace {

// This CPU's table, measured once. An entry outside [0.5, 1] would break the exponent arithmetic
// of rcpss_from_table (and means the instruction is not the documented approximation): refused.
const std::uint32_t* native_table() {
  static const std::array<std::uint32_t, kRcpssEntries> table = [] {
    std::array<std::uint32_t, kRcpssEntries> t{};
    if (!measure_rcpss(t.data()))
      throw Error("--rcpss native: this CPU has no rcpss instruction (not x86); use --rcpss amd or intel");
    for (int i = 0; i < kRcpssEntries; ++i)
      if (t[std::size_t(i)] < 0x3F000000u || t[std::size_t(i)] > 0x3F800000u)
        throw Error("--rcpss native: this CPU's rcpss(1 + " + std::to_string(i) +
                    "/4096) is outside [0.5, 1]; use --rcpss amd or intel");
    return t;
  }();
  return table.data();
}

}  // namespace

const std::uint32_t* rcpss_table(Rcpss which) {
  switch (which) {
    case Rcpss::kAmd: return kRcpssAmd;
    case Rcpss::kIntel: return kRcpssIntel;
    case Rcpss::kNative: return native_table();
  }
  throw Error("float_adm: unknown rcpss table " + std::to_string(int(which)));
}

}  // namespace float_adm
}  // namespace vqtwin
