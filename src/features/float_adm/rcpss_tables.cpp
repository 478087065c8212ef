// The measured rcpss tables as data (spec: DECISIONS.md §15), one definition each, used by the CPU
// reference and copied to the device by the twins; regenerate the .inc files with gen_rcpss_table.py.
#include <cstdint>

#include "features/float_adm/rcpss.hpp"

namespace vqtwin::float_adm {

const std::uint32_t kRcpssAmd[kRcpssEntries] = {
#include "features/float_adm/rcpss_table_amd.inc"
};

const std::uint32_t kRcpssIntel[kRcpssEntries] = {
#include "features/float_adm/rcpss_table_intel.inc"
};

}  // namespace vqtwin::float_adm
