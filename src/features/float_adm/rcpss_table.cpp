// The measured rcpss table as data (spec: DECISIONS.md §15); regenerate with gen_rcpss_table.py.
#include <cstdint>

#include "features/float_adm/math.hpp"

namespace vqtwin::float_adm {

const std::uint32_t kRcpssTable[4096] = {
#include "features/float_adm/rcpss_table.inc"
};

}  // namespace vqtwin::float_adm
