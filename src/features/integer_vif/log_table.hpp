#pragma once
// The 2048*log2 table of integer VIF (spec: integer_vif.md §7), built once on the host; a
// device receives a copy of it rather than regenerating it with its own log2f.
#include <cstdint>

namespace vqtwin::integer_vif {

// kLogTableSize entries indexed by a 16-bit mantissa m (32768..65535 are meaningful; entry 32767
// holds 30720 as in libvmaf, the rest 0):
// T[m] = round_half_away(f32(log2 m) * 2048), with f32(log2 m) the correctly rounded binary32 log2.
const std::uint16_t* log2_table();

}  // namespace vqtwin::integer_vif
