// The vqtwin command line: the vmaf CLI's flags, plus --backend, --precision, --pool, compressed
// input, --scale, --common_bitdepth, --sync, --strict_length and --rcpss (run_args.cpp); several -d for a ladder
// in one pass (ladder_cli.cpp); --report (report_page.cpp); `vqtwin batch` and `vqtwin batch-merge` for
// manifests (batch/).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "batch/batch_cli.hpp"
#include "cli_common.hpp"
#include "core/device_start.hpp"
#include "core/quote.hpp"
#include "ladder_cli.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "report_page.hpp"
#include "run_args.hpp"
#include "signals.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/output.hpp"
#include "vqtwin/report.hpp"
#include "vqtwin/run.hpp"

using namespace vqtwin_cli;

namespace {

// One pair: the run, then its output (frames computed before an error or a stop are still written).
int run_single(RunArgs& c) {
  // The outputs are opened before the run: a path that cannot be written fails before any work.
  std::unique_ptr<OutputFile> output, report;
  try {
    if (!c.output.empty()) output = std::make_unique<OutputFile>(c.output);
    if (!c.report.empty()) report = std::make_unique<OutputFile>(c.report);
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    return 1;
  }

  Progress progress(!c.quiet && isatty(STDERR_FILENO));
  c.run.progress = [&](unsigned done, unsigned total) { progress.update(done, total); };
  c.run.warn = [&](const std::string& line) { progress.line("warning: ", vqtwin::printable(line, 2000)); };
  c.run.note = [&](const std::string& line) { progress.line("", vqtwin::printable(line, 2000)); };
  c.run.stop = install_stop_signals();

  vqtwin::Results results;
  int status = 0;
  std::string error;
  try {
    vqtwin::run(c.run, results);
  } catch (const vqtwin::Error& e) {
    error = e.what();
  } catch (const std::bad_alloc&) {
    error = "out of memory";
  } catch (const std::exception& e) {
    error = std::string("internal error: ") + e.what();
  }
  progress.finish();
  const int sig = received_signal();
  if (sig) {
    // An error caused by the stop itself (an interrupted open or read) is not reported.
    std::fprintf(stderr, "vqtwin: interrupted by %s: %s\n", signal_name(sig),
                 results.frame_count() > 0
                     ? ("writing the " + std::to_string(results.frame_count()) + " frames scored").c_str()
                     : "no frame was scored");
  } else if (!error.empty()) {
    print_error(error);
    status = 1;
  }

  try {
    if (results.frame_count() > 0) {
      if (output) output->write([&](std::FILE* f) { vqtwin::write_output(f, results, c.out); });
      else
        write_stdout([&](std::FILE* f) {
          // The headline (VMAF, its harmonic mean, min and 1% low, PSNR-Y, frames and size), then the means.
          std::fprintf(f, "%s\n", vqtwin::headline(results, c.run.subsample).c_str());
          print_summary(f, results);
        });
    } else if (output) {
      output->abandon();
    }
    if (report) write_report_page(*report, c, {&results});
    vqtwin::startup_step("output written");
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    status = 1;
  }
  report_peak_memory();
  if (const int s = received_signal()) return 128 + s;
  return status;
}

// A run that ended before a device check did (--backend auto: a short clip done on the CPU) does not
// wait for it: everything is written, and the driver's start-up is not torn down half-way.
int finish(int status) {
  vqtwin::startup_step("exiting");
  if (vqtwin::device_probe_running()) {
    std::fflush(nullptr);
    std::_Exit(status);
  }
  return status;
}

int run_command(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "batch") return batch_main({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "batch-merge") return batch_merge_main({args.begin() + 1, args.end()});
  RunArgs c;
  try {
    c = parse_run_args(args);
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    return 2;
  }
  if (c.action != RunArgs::Action::kRun) {
    try {
      write_stdout([&](std::FILE* f) {
        if (c.action == RunArgs::Action::kHelp) std::fputs(c.help.c_str(), f);
        else if (c.action == RunArgs::Action::kList) std::fputs(vqtwin::describe_extractors().c_str(), f);
        else if (c.action == RunArgs::Action::kListModels) std::fputs(vqtwin::describe_models().c_str(), f);
        else if (c.action == RunArgs::Action::kListDevices) std::fputs(vqtwin::describe_devices().c_str(), f);
        else std::fprintf(f, "vqtwin %s\n", vqtwin::version());
      });
    } catch (const vqtwin::Error& e) {
      print_error(e.what());
      return 1;
    }
    return 0;
  }
  return c.distorted.size() > 1 ? run_ladder_cli(c) : run_single(c);
}

}  // namespace

int main(int argc, char** argv) {
  guard_standard_descriptors();
  return finish(run_command({argv + 1, argv + argc}));
}
