#pragma once
// vqtwin's run flags (the vmaf CLI's and vqtwin's own) parsed into a RunConfig and OutputOptions. One
// parser for the command line, each distorted input of a ladder, and each row of a batch manifest: a
// batch row is scored exactly as `vqtwin ARGS` would score it.
#include <string>
#include <vector>

#include "vqtwin/error.hpp"
#include "vqtwin/output.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin_cli {

// Command-line misuse: exit status 2.
class UsageError : public vqtwin::Error {
 public:
  using vqtwin::Error::Error;
};

struct RunArgs {
  enum class Action { kRun, kHelp, kList, kListModels, kListDevices, kVersion };
  Action action = Action::kRun;
  std::string help;  // for kHelp

  vqtwin::RunConfig run;               // run.distorted = the first -d
  std::vector<std::string> distorted;  // every -d, in order (several: a ladder)
  vqtwin::OutputOptions out;
  std::string output;  // -o ("" = none, "-" = standard output; a format flag alone sets "-")
  bool format_given = false;
  std::string report;        // --report: the HTML page of the run (of every rendition of a ladder)
  std::string command_line;  // "vqtwin ARGS", for the report's settings
  // --gpu: the CUDA devices, in order ("all" = every device; "0,0" names one twice). run.gpu is the
  // first. A single pair runs on the first; a ladder or a batch spreads its runs over the list.
  std::vector<int> gpus{0};
  bool quiet = false;
};

// Parses `args` (without the program name). Throws UsageError with vqtwin's one-line message.
RunArgs parse_run_args(const std::vector<std::string>& args);

// "0", "1,0,0", "all" (every device this process sees; none: {0}, and the run says why).
// `all`: every device of `backend` (Vulkan's for kVulkan, else CUDA's).
std::vector<int> parse_gpu_list(const std::string& text, vqtwin::Backend backend = vqtwin::Backend::kCuda);

}  // namespace vqtwin_cli
