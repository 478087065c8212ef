#pragma once
// Whose x86 `rcpss` float ADM reproduces. libvmaf's float ADM divides through that approximate
// reciprocal instruction, whose 12-bit table differs between CPU vendors, so libvmaf's float ADM
// numbers (adm2, aim, adm3, adm_scaleN, and the float VMAF models' scores) depend on the CPU that
// made them. vqtwin embeds the measured tables, so a run gives the numbers of the CPU it names on
// any machine (and on a GPU twin).
#include <optional>
#include <string_view>

#include "vqtwin/export.hpp"

namespace vqtwin {

// kAmd: the AMD EPYC that made the first goldens (spec DECISIONS.md §15; the default). kIntel: the
// Intel Xeon of the later goldens. kNative: this CPU's own instruction, measured once per process
// (x86 only; elsewhere float ADM refuses the run), which is what a libvmaf built here prints.
enum class Rcpss { kAmd, kIntel, kNative };

VQTWIN_API const char* to_string(Rcpss r);  // "amd", "intel", "native"
VQTWIN_API std::optional<Rcpss> parse_rcpss(std::string_view text);

}  // namespace vqtwin
