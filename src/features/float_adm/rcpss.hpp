#pragma once
// The rcpss tables float ADM reproduces (vqtwin/rcpss.hpp), declared once for the CPU reference and
// the twins. An entry is rcpss(1 + i/4096) as binary32 bits; math.hpp's rcpss_from_table() extends
// a table to every float.
#include <cstdint>

#include "vqtwin/rcpss.hpp"

namespace vqtwin::float_adm {

inline constexpr int kRcpssEntries = 4096;

// The AMD EPYC of the first goldens (spec float_adm_rcpss_table.txt) and the Intel Xeon of the
// later ones (golden README, "Added runs"), generated into rcpss_table_{amd,intel}.inc.
extern const std::uint32_t kRcpssAmd[kRcpssEntries];
extern const std::uint32_t kRcpssIntel[kRcpssEntries];

// The table of `which` (kRcpssEntries entries, valid for the whole process). kNative measures this
// CPU's instruction on the first call; it throws vqtwin::Error where there is no rcpss (not x86).
const std::uint32_t* rcpss_table(Rcpss which);

// This CPU's rcpss(1 + i/4096) for i = 0..4095 into `out`; false where there is no such instruction.
bool measure_rcpss(std::uint32_t out[kRcpssEntries]);

}  // namespace vqtwin::float_adm
