#pragma once
// --report: one HTML page (vqtwin/report.hpp) of the runs of a command line, a single pair or a ladder.
#include <vector>

#include "output_file.hpp"
#include "run_args.hpp"
#include "vqtwin/results.hpp"

namespace vqtwin_cli {

// Writes the page of the runs that scored frames (`results[i]` is the run of a.distorted[i]) to `file`,
// with the settings of `a`; abandons `file` when none did. Throws vqtwin::Error.
void write_report_page(OutputFile& file, const RunArgs& a, const std::vector<const vqtwin::Results*>& results);

}  // namespace vqtwin_cli
