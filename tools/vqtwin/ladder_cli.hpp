#pragma once
#include "run_args.hpp"

namespace vqtwin_cli {

// Several -d: scores them in one pass and writes each; the process's exit status (0 all scored, 1 a
// rendition failed or an output could not be written, 2 misuse).
int run_ladder_cli(RunArgs& args);

}  // namespace vqtwin_cli
