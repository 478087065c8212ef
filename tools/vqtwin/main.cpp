// The vqtwin command line: the vmaf CLI's flags, plus --backend, --precision and --pool.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/quote.hpp"
#include "output_file.hpp"
#include "signals.hpp"
#include "vqtwin/backend.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/output.hpp"
#include "vqtwin/run.hpp"

namespace {

struct Cli {
  vqtwin::RunConfig run;
  std::string output;
  bool xml = false, json = false, csv = false, sub = false;
  std::string precision;
  std::vector<std::string> pools;
  bool quiet = false;
  bool version = false;
  bool list = false;
  std::string backend = "cpu";
};

// Every error line goes through here: one line, printable, bounded (its parts are bounded where they
// are made; this is the last guard).
void print_error(const std::string& message) {
  std::fprintf(stderr, "vqtwin: error: %s\n", vqtwin::printable(message, 2000).c_str());
}

int parse_precision(const std::string& text) {
  if (text.empty()) return -1;
  if (text == "max") return vqtwin::OutputOptions::kMaxPrecision;
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (*end || v < 0 || v > 17) throw vqtwin::Error("--precision must be 0..17 or max, not " + vqtwin::quote(text));
  return int(v);
}

// Peak resident memory of this process image (VmHWM, so not inherited from a parent that forked us),
// for the benchmark: printed to stderr when VQTWIN_REPORT_PEAK_MEMORY is set.
void report_peak_memory() {
  if (!std::getenv("VQTWIN_REPORT_PEAK_MEMORY")) return;
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return;
  char line[256];
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmHWM:", 6) == 0) std::fprintf(stderr, "vqtwin: peak memory%s", line + 5);
  std::fclose(f);
}

void print_summary(std::FILE* f, const vqtwin::Results& r) {
  for (const auto& name : r.names())
    if (auto v = r.pooled(name, {vqtwin::PoolMethod::kMean}))
      std::fprintf(f, "%s: %s\n", name.c_str(), vqtwin::format_number(*v, -1).c_str());
  for (const auto& [name, v] : r.aggregates())
    std::fprintf(f, "%s: %s\n", name.c_str(), vqtwin::format_number(v, -1).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  vqtwin_cli::guard_standard_descriptors();
  Cli c;
  CLI::App app{"vqtwin: VMAF, PSNR, SSIM and motion, the numbers of libvmaf, on the CPU and on GPUs", "vqtwin"};
  app.set_help_flag("--help", "print this help and exit");  // -h is --height, as in the vmaf CLI
  app.option_defaults()->always_capture_default();
  app.add_option("-r,--reference", c.run.reference, "reference video (.y4m, or raw .yuv with -w -h -p -b)");
  app.add_option("-d,--distorted", c.run.distorted, "distorted video (.y4m, or raw .yuv)");
  app.add_option("-w,--width", c.run.width, "raw .yuv width")->check(CLI::PositiveNumber);
  app.add_option("-h,--height", c.run.height, "raw .yuv height")->check(CLI::PositiveNumber);
  app.add_option("-p,--pixel_format", c.run.pixel_format, "raw .yuv pixel format: 420, 422, 444, 400");
  app.add_option("-b,--bitdepth", c.run.bitdepth, "raw .yuv bit depth: 8, 10, 12, 16");
  app.add_option("-m,--model", c.run.models,
                 "model, colon-delimited: version=NAME (searched in $VQTWIN_MODEL_PATH, ...) or path=FILE, "
                 "name=OUTPUT, enable_transform=true; repeatable");
  app.add_option("--feature", c.run.features, "feature NAME[=opt=value:opt=value]; repeatable");
  app.add_option("-o,--output", c.output, "output file ('-' = standard output)");
  app.add_flag("--xml", c.xml, "write XML (the default)");
  app.add_flag("--json", c.json, "write JSON");
  app.add_flag("--csv", c.csv, "write CSV");
  app.add_flag("--sub", c.sub, "write subtitles");
  app.add_option("--threads", c.run.threads, "worker threads (results are identical for any number)");
  app.add_option("--subsample", c.run.subsample, "compute every N-th frame");
  app.add_option("--frame_cnt", c.run.frame_cnt, "at most N frames");
  app.add_option("--frame_skip_ref", c.run.frame_skip_ref, "skip the first N reference frames");
  app.add_option("--frame_skip_dist", c.run.frame_skip_dist, "skip the first N distorted frames");
  app.add_flag("--strict_length", c.run.strict_length,
               "inputs of different lengths are an error (default: a warning; the common frames are scored)");
  app.add_option("--max_pixels", c.run.max_pixels,
                 "largest picture accepted, in pixels per frame (default 67108864 = 8192x8192, at most 268435456)");
  app.add_flag("-n,--no_prediction", c.run.no_prediction, "features only, no model score");
  app.add_option("--precision", c.precision, "number format: N decimals (0..17) or max (%.17g, round-trip)");
  app.add_option("--pool", c.pools, "pooling methods written: min, max, mean, harmonic_mean, percN; repeatable");
  app.add_option("--backend", c.backend, "where extractors run: cpu (the reference, default), cuda (the CUDA twins; "
                 "the CPU for what has no twin, with a warning) or auto (cuda when a device is usable, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  app.add_option("--gpu", c.run.gpu, "CUDA device index (default 0)")->check(CLI::NonNegativeNumber);
  app.add_flag("-q,--quiet", c.quiet, "no progress on stderr");
  app.add_flag("-v,--version", c.version, "print the version and exit");
  app.add_flag("--list", c.list, "list the extractors, their outputs and options, and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_error(std::string(e.what()) + " (see --help)");
    return 2;
  }
  if (c.list || c.version) {
    try {
      vqtwin_cli::write_stdout([&](std::FILE* f) {
        if (c.list) std::fputs(vqtwin::describe_extractors().c_str(), f);
        else std::fprintf(f, "vqtwin %s\n", vqtwin::version());
      });
    } catch (const vqtwin::Error& e) {
      print_error(e.what());
      return 1;
    }
    return 0;
  }

  vqtwin::OutputOptions out;
  out.subsample = c.run.subsample;
  out.version = std::string("vqtwin ") + vqtwin::version();
  const int n_formats = int(c.xml) + int(c.json) + int(c.csv) + int(c.sub);
  if (n_formats > 1) {
    print_error("give at most one of --xml, --json, --csv, --sub");
    return 2;
  }
  out.format = c.json ? vqtwin::OutputFormat::kJson
               : c.csv ? vqtwin::OutputFormat::kCsv
               : c.sub ? vqtwin::OutputFormat::kSub
                       : vqtwin::OutputFormat::kXml;
  try {
    if (c.run.reference.empty() || c.run.distorted.empty())
      throw vqtwin::Error("give --reference and --distorted (see --help)");
    out.precision = parse_precision(c.precision);
    c.run.backend = *vqtwin::parse_backend(c.backend);  // CLI11 checked the text
    for (const auto& p : c.pools) {
      auto pool = vqtwin::Pooling::parse(p);
      if (!pool) throw vqtwin::Error("--pool: unknown method " + vqtwin::quote(p) + " (min, max, mean, harmonic_mean, percN)");
      out.pools.push_back(*pool);
    }
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    return 2;
  }

  // The output is opened before the run: a path that cannot be written fails before any work.
  std::unique_ptr<vqtwin_cli::OutputFile> output;
  try {
    if (!c.output.empty()) output = std::make_unique<vqtwin_cli::OutputFile>(c.output);
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    return 1;
  }

  const bool show_progress = !c.quiet && isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  if (show_progress)
    c.run.progress = [&](unsigned done) {
      if (done % 8) return;
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "\r%u frames, %.1f fps ", done, s > 0 ? done / s : 0.0);
    };
  c.run.warn = [](const std::string& line) {
    std::fprintf(stderr, "vqtwin: warning: %s\n", vqtwin::printable(line, 2000).c_str());
  };
  c.run.stop = vqtwin_cli::install_stop_signals();

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
  if (show_progress) std::fprintf(stderr, "\n");
  const int sig = vqtwin_cli::received_signal();
  if (sig) {
    // An error caused by the stop itself (an interrupted open or read) is not reported.
    std::fprintf(stderr, "vqtwin: interrupted by %s: %s\n", vqtwin_cli::signal_name(sig),
                 results.frame_count() > 0
                     ? ("writing the " + std::to_string(results.frame_count()) + " frames scored").c_str()
                     : "no frame was scored");
  } else if (!error.empty()) {
    print_error(error);
    status = 1;
  }

  // Frames computed before an error or a stop are still written.
  try {
    if (results.frame_count() > 0) {
      if (output) output->write([&](std::FILE* f) { vqtwin::write_output(f, results, out); });
      else vqtwin_cli::write_stdout([&](std::FILE* f) { print_summary(f, results); });
    } else if (output) {
      output->abandon();
    }
  } catch (const vqtwin::Error& e) {
    print_error(e.what());
    status = 1;
  }
  report_peak_memory();
  if (const int s = vqtwin_cli::received_signal()) return 128 + s;
  return status;
}
