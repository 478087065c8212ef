// The vqtwin command line: the vmaf CLI's flags, plus --backend, --precision and --pool.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

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
  std::vector<std::string> aom_ctc, nflx_ctc;
  std::string backend = "cpu";
};

// --feature, --model and the presets that add to them, in command-line order (libvmaf's CLI applies a
// preset where it appears: features and models given before it come first, and --aom_ctc v7.0 replaces
// the first float_ssim given before it).
void apply_in_order(const CLI::App& app, Cli& c, const std::vector<std::string>& features,
                    const std::vector<std::string>& models) {
  std::size_t nf = 0, nm = 0, na = 0, nn = 0;
  for (const CLI::Option* o : app.parse_order()) {
    const std::string name = o->get_name();
    if (name == "--feature") c.run.features.push_back(features.at(nf++));
    else if (name == "--model") c.run.models.push_back(models.at(nm++));
    else if (name == "--aom_ctc") vqtwin::apply_preset("aom_ctc", c.aom_ctc.at(na++), c.run);
    else if (name == "--nflx_ctc") vqtwin::apply_preset("nflx_ctc", c.nflx_ctc.at(nn++), c.run);
  }
}

int parse_precision(const std::string& text) {
  if (text.empty()) return -1;
  if (text == "max") return vqtwin::OutputOptions::kMaxPrecision;
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (*end || v < 0 || v > 17) throw vqtwin::Error("--precision must be 0..17 or max, not '" + text + "'");
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

void print_summary(const vqtwin::Results& r) {
  for (const auto& name : r.names())
    if (auto v = r.pooled(name, {vqtwin::PoolMethod::kMean}))
      std::printf("%s: %s\n", name.c_str(), vqtwin::format_number(*v, -1).c_str());
  for (const auto& [name, v] : r.aggregates())
    std::printf("%s: %s\n", name.c_str(), vqtwin::format_number(v, -1).c_str());
}

}  // namespace

int main(int argc, char** argv) {
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
  std::vector<std::string> features, models;
  app.add_option("-m,--model", models,
                 "model, colon-delimited: version=NAME (searched in $VQTWIN_MODEL_PATH, ...) or path=FILE, "
                 "name=OUTPUT, enable_transform=true; repeatable");
  app.add_option("--feature", features, "feature NAME[=opt=value:opt=value]; repeatable");
  app.add_option("--aom_ctc", c.aom_ctc,
                 "the AOM common test conditions' models and features: v1.0 ... v7.0 (as the vmaf CLI)");
  app.add_option("--nflx_ctc", c.nflx_ctc, "Netflix's common test conditions' models and features: v1.0");
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
    std::fprintf(stderr, "vqtwin: error: %s (see --help)\n", e.what());
    return 2;
  }
  if (c.list) {
    std::fputs(vqtwin::describe_extractors().c_str(), stdout);
    return 0;
  }
  if (c.version) {
    std::printf("vqtwin %s\n", vqtwin::version());
    return 0;
  }

  vqtwin::OutputOptions out;
  out.subsample = c.run.subsample;
  out.version = std::string("vqtwin ") + vqtwin::version();
  const int n_formats = int(c.xml) + int(c.json) + int(c.csv) + int(c.sub);
  if (n_formats > 1) {
    std::fprintf(stderr, "vqtwin: error: give at most one of --xml, --json, --csv, --sub\n");
    return 2;
  }
  out.format = c.json ? vqtwin::OutputFormat::kJson
               : c.csv ? vqtwin::OutputFormat::kCsv
               : c.sub ? vqtwin::OutputFormat::kSub
                       : vqtwin::OutputFormat::kXml;
  try {
    if (c.run.reference.empty() || c.run.distorted.empty())
      throw vqtwin::Error("give --reference and --distorted (see --help)");
    apply_in_order(app, c, features, models);
    out.precision = parse_precision(c.precision);
    c.run.backend = *vqtwin::parse_backend(c.backend);  // CLI11 checked the text
    for (const auto& p : c.pools) {
      auto pool = vqtwin::Pooling::parse(p);
      if (!pool) throw vqtwin::Error("--pool: unknown method '" + p + "' (min, max, mean, harmonic_mean, percN)");
      out.pools.push_back(*pool);
    }
  } catch (const vqtwin::Error& e) {
    std::fprintf(stderr, "vqtwin: error: %s\n", e.what());
    return 2;
  }

  const bool show_progress = !c.quiet && isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  if (show_progress)
    c.run.progress = [&](unsigned done) {
      if (done % 8) return;
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "\r%u frames, %.1f fps ", done, s > 0 ? done / s : 0.0);
    };
  c.run.warn = [](const std::string& line) { std::fprintf(stderr, "vqtwin: warning: %s\n", line.c_str()); };

  vqtwin::Results results;
  int status = 0;
  try {
    vqtwin::run(c.run, results);
  } catch (const vqtwin::Error& e) {
    if (show_progress) std::fprintf(stderr, "\n");
    std::fprintf(stderr, "vqtwin: error: %s\n", e.what());
    status = 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "vqtwin: error: out of memory\n");
    status = 1;
  }
  if (show_progress && status == 0) std::fprintf(stderr, "\n");

  // Frames computed before an error are still written.
  if (results.frame_count() > 0) {
    if (!c.output.empty()) {
      std::FILE* f = c.output == "-" ? stdout : std::fopen(c.output.c_str(), "w");
      if (!f) {
        std::fprintf(stderr, "vqtwin: error: %s: cannot write (%s)\n", c.output.c_str(), std::strerror(errno));
        return 1;
      }
      vqtwin::write_output(f, results, out);
      if (f != stdout && std::fclose(f) != 0) {
        std::fprintf(stderr, "vqtwin: error: %s: write failed\n", c.output.c_str());
        return 1;
      }
    } else {
      print_summary(results);
    }
  }
  report_peak_memory();
  return status;
}
