// The vqtwin command line: the vmaf CLI's flags, plus --backend, --precision, --pool, compressed
// input, --scale, --common_bitdepth, --sync and --strict_length.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
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
  // Numbers are taken as text and checked here, so that a bad value gets vqtwin's own message.
  std::string max_pixels;
  std::string width, height, bitdepth, threads, subsample, frame_cnt, frame_skip_ref, frame_skip_dist, cpumask, gpu;
  bool quiet = false;
  bool version = false;
  bool list = false;
  bool list_models = false;
  std::vector<std::string> aom_ctc, nflx_ctc;
  std::string backend = "cpu";
};

constexpr const char* kExamples = R"(Examples:
  vqtwin -r ref.y4m -d dist.y4m                          VMAF (vmaf_v0.6.1) and the mean of each feature
  vqtwin -r master.mkv -d encode.mp4 --json -o out.json  compressed input: any container/codec FFmpeg decodes
  vqtwin -r ref.y4m -d dist.y4m --feature psnr --json    VMAF and PSNR, JSON on standard output
  vqtwin -r src_1080p.mp4 -d enc_720p.mp4 --scale auto   the distorted scaled to the reference size (bicubic)
  vqtwin -r ref8.y4m -d dist10.mkv --common_bitdepth     8-bit against 10-bit (the 8-bit shifted up)
  vqtwin -r ref.mp4 -d dist.mp4 --sync auto              apply the time offset the first frames show
  vqtwin -r ref.yuv -d dist.yuv -w 1920 -h 1080 -p 420 -b 10 --no_prediction --feature psnr --csv -o out.csv
Note: -h is --height, as in the vmaf CLI; help is --help.)";

// Every error line goes through here: one line, printable, bounded (its parts are bounded where they
// are made; this is the last guard).
void print_error(const std::string& message) {
  std::fprintf(stderr, "vqtwin: error: %s\n", vqtwin::printable(message, 2000).c_str());
}

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

// A whole number for option `name` in [min, max], or an error in our words.
unsigned long long parse_number(const std::string& name, const std::string& text, unsigned long long min,
                                unsigned long long max, int base = 10) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = text.empty() || text[0] == '-' ? 0 : std::strtoull(text.c_str(), &end, base);
  if (text.empty() || text[0] == '-' || !end || *end || errno || v < min || v > max)
    throw vqtwin::Error(name + " must be a whole number from " + std::to_string(min) + " to " +
                        std::to_string(max) + ", not " + vqtwin::quote(text));
  return v;
}

int parse_precision(const std::string& text) {
  if (text.empty()) return -1;
  if (text == "max") return vqtwin::OutputOptions::kMaxPrecision;
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (*end || v < 0 || v > 17) throw vqtwin::Error("--precision must be 0..17 or max, not '" + text + "'");
  return int(v);
}

// --cpumask as libvmaf reads it: strtoul with base 0 (decimal, 0x hex; -1 masks everything).
unsigned parse_cpumask(const std::string& text) {
  if (text.empty()) return 0;
  errno = 0;
  char* end = nullptr;
  const unsigned long v = std::strtoul(text.c_str(), &end, 0);
  if (*end || errno == ERANGE)
    throw vqtwin::Error("--cpumask must be a bit mask (e.g. 8, 0x18, -1), not " + vqtwin::quote(text));
  return unsigned(v);
}

// CLI11's parse errors, said in vqtwin's words (the option and what it needs).
std::string explain_parse_error(const CLI::ParseError& e, int argc, char** argv) {
  const std::string what = e.what();
  const std::string option = what.substr(0, what.find(':'));
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    if (option == "--height") {
      for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "-h") == 0)
          return "-h is --height (the height of raw .yuv input, as in the vmaf CLI) and needs a number; "
                 "for help use --help";
    }
    if (!option.empty() && option[0] == '-') return option + " needs a value (see --help)";
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const std::string marker = "not expected: ";
    const std::size_t at = what.find(marker);
    const std::string extra = at == std::string::npos ? what : what.substr(at + marker.size());
    return "unknown option or argument: " + extra + " (see --help)";
  }
  return what + " (see --help)";
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

// The mean of every metric, the model scores (the headline) first.
void print_summary(std::FILE* f, const vqtwin::Results& r) {
  auto print = [&](const std::string& name) {
    if (auto v = r.pooled(name, {vqtwin::PoolMethod::kMean}))
      std::fprintf(f, "%s: %s\n", name.c_str(), vqtwin::format_number(*v, -1).c_str());
  };
  for (const auto& name : r.scores) print(name);
  for (const auto& name : r.names())
    if (std::find(r.scores.begin(), r.scores.end(), name) == r.scores.end()) print(name);
  for (const auto& [name, v] : r.aggregates())
    std::printf("%s: %s\n", name.c_str(), vqtwin::format_number(v, -1).c_str());
}

// Progress on a terminal: frames, percentage and ETA when the total is known, fps; redrawn at most
// ten times a second. Warnings clear the line first.
class Progress {
 public:
  explicit Progress(bool on) : on_(on), start_(std::chrono::steady_clock::now()) {}
  void update(unsigned done, unsigned total) {
    if (!on_) return;
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100) && done != total) return;
    last_ = now;
    const double s = std::chrono::duration<double>(now - start_).count();
    const double fps = s > 0 ? done / s : 0.0;
    if (total >= done && total > 0) {
      const double eta = fps > 0 ? (total - done) / fps : 0.0;
      std::fprintf(stderr, "\r%u/%u frames (%.0f%%), %.1f fps, ETA %d:%02d\033[K", done, total, 100.0 * done / total,
                   fps, int(eta) / 60, int(eta) % 60);
    } else {
      std::fprintf(stderr, "\r%u frames, %.1f fps\033[K", done, fps);
    }
    shown_ = true;
  }
  void line(const char* kind, const std::string& text) {
    std::lock_guard lock(mutex_);
    if (shown_) std::fprintf(stderr, "\r\033[K");
    std::fprintf(stderr, "vqtwin: %s%s\n", kind, text.c_str());
  }
  void finish() {
    std::lock_guard lock(mutex_);
    if (shown_) std::fprintf(stderr, "\n");
    shown_ = false;
  }

 private:
  bool on_;
  bool shown_ = false;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_, last_{};
};

}  // namespace

int main(int argc, char** argv) {
  vqtwin_cli::guard_standard_descriptors();
  Cli c;
  CLI::App app{"vqtwin: VMAF, PSNR, SSIM and motion, the numbers of libvmaf, on the CPU and on GPUs", "vqtwin"};
  app.set_help_flag("--help", "print this help and exit");  // -h is --height, as in the vmaf CLI
  app.option_defaults()->always_capture_default();
  app.add_option("-r,--reference", c.run.reference,
                 "reference video: .y4m, raw .yuv (with -w -h -p -b), or any video FFmpeg decodes; - = stdin");
  app.add_option("-d,--distorted", c.run.distorted, "distorted video (as --reference)");
  app.add_option("-w,--width", c.width, "raw .yuv width");
  app.add_option("-h,--height", c.height, "raw .yuv height (-h is not help: use --help)");
  app.add_option("-p,--pixel_format", c.run.pixel_format, "raw .yuv pixel format: 420, 422, 444, 400");
  app.add_option("-b,--bitdepth", c.bitdepth, "raw .yuv bit depth: 8, 10, 12, 16");
  std::vector<std::string> features, models;
  app.add_option("-m,--model", models,
                 "model, colon-delimited: version=NAME (built in, or NAME.json on the model path; see "
                 "--list-models) or path=FILE, name=OUTPUT, enable_transform=true; repeatable. Default: "
                 "version=vmaf_v0.6.1 unless --no_prediction");
  app.add_option("--feature", features, "feature NAME[=opt=value:opt=value]; repeatable");
  app.add_option("--aom_ctc", c.aom_ctc,
                 "the AOM common test conditions' models and features: v1.0 ... v7.0 (as the vmaf CLI)");
  app.add_option("--nflx_ctc", c.nflx_ctc, "Netflix's common test conditions' models and features: v1.0");
  app.add_option("-o,--output", c.output, "output file ('-' = standard output)");
  app.add_flag("--xml", c.xml, "write XML (the default with -o; to standard output without -o)");
  app.add_flag("--json", c.json, "write JSON (to standard output without -o)");
  app.add_flag("--csv", c.csv, "write CSV (to standard output without -o)");
  app.add_flag("--sub", c.sub, "write subtitles (to standard output without -o)");
  app.add_option("--threads", c.threads, "worker threads; 0 or unset = one per core (results are identical for any number)");
  app.add_option("--subsample", c.subsample, "compute every N-th frame");
  app.add_option("--frame_cnt", c.frame_cnt, "at most N frames");
  app.add_option("--frame_skip_ref", c.frame_skip_ref, "skip the first N reference frames");
  app.add_option("--frame_skip_dist", c.frame_skip_dist, "skip the first N distorted frames");
  app.add_option("--scale", c.run.scale,
                 "inputs of different sizes: auto = the distorted to the reference size, WxH = both to WxH "
                 "(bicubic, the pixels of ffmpeg -vf scale=W:H:flags=bicubic); none (default) = an error");
  app.add_flag("--common_bitdepth", c.run.common_bitdepth,
               "inputs of different bit depths: the lower shifted up to the higher (as libvmaf's --aom_ctc v6.0)");
  app.add_option("--sync", c.run.sync,
                 "auto = apply the time offset the first frames show (-3..+3 frames); none = no check. Default: "
                 "warn when the distorted looks shifted");
  app.add_flag("--strict_length", c.run.strict_length,
               "inputs of different lengths are an error (default: a warning; the common frames are scored)");
  app.add_option("--max_pixels", c.max_pixels,
                 "largest picture accepted, in pixels per frame (default 67108864 = 8192x8192, at most 268435456)");
  app.add_flag("-n,--no_prediction", c.run.no_prediction, "features only, no model score");
  app.add_option("--precision", c.precision, "number format: N decimals (0..17) or max (%.17g, round-trip)");
  app.add_option("--pool", c.pools, "pooling methods written: min, max, mean, harmonic_mean, percN; repeatable");
  app.add_option("--backend", c.backend, "where extractors run: cpu (the reference, default), cuda (the CUDA twins; "
                 "the CPU for what has no twin, with a warning) or auto (cuda when a device is usable, else cpu)");
  app.add_option("--gpu", c.gpu, "CUDA device index (default 0)");
  app.add_option("--cpumask", c.cpumask,
                 "instruction sets the CPU kernels must not use, as libvmaf's: 8 AVX2, 16 AVX-512, 32 AVX-512 ICL, "
                 "64 AVX-512 VNNI, -1 all (speed only: the numbers are the same)");
  app.add_flag("-q,--quiet", c.quiet, "no progress on stderr");
  app.add_flag("-v,--version", c.version, "print the version and exit");
  app.add_flag("--list", c.list, "list the extractors, their outputs and options, and exit");
  app.add_flag("--list-models", c.list_models, "list the models version=NAME finds, where from, and what they need");
  app.footer(kExamples);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_error(explain_parse_error(e, argc, argv));
    return 2;
  }
  if (c.list || c.list_models || c.version) {
    try {
      vqtwin_cli::write_stdout([&](std::FILE* f) {
        if (c.list) std::fputs(vqtwin::describe_extractors().c_str(), f);
        else if (c.list_models) std::fputs(vqtwin::describe_models().c_str(), f);
        else std::fprintf(f, "vqtwin %s\n", vqtwin::version());
      });
    } catch (const vqtwin::Error& e) {
      print_error(e.what());
      return 1;
    }
    return 0;
  }

  vqtwin::OutputOptions out;
  out.version = std::string("vqtwin ") + vqtwin::version();
  const int n_formats = int(c.xml) + int(c.json) + int(c.csv) + int(c.sub);
  out.format = c.json ? vqtwin::OutputFormat::kJson
               : c.csv ? vqtwin::OutputFormat::kCsv
               : c.sub ? vqtwin::OutputFormat::kSub
                       : vqtwin::OutputFormat::kXml;
  // A format flag without -o writes to standard output (instead of the summary).
  if (c.output.empty() && n_formats > 0) c.output = "-";
  try {
    if (n_formats > 1) throw vqtwin::Error("give at most one of --xml, --json, --csv, --sub");
    if (c.run.reference.empty() || c.run.distorted.empty())
      throw vqtwin::Error("give --reference and --distorted (see --help)");
    const auto backend = vqtwin::parse_backend(c.backend);
    if (!backend) throw vqtwin::Error("--backend must be cpu, cuda or auto, not '" + c.backend + "'");
    c.run.backend = *backend;
    if (!c.gpu.empty()) c.run.gpu = int(parse_number("--gpu", c.gpu, 0, 1023));
    if (!c.width.empty()) c.run.width = int(parse_number("--width", c.width, 1, 1 << 16));
    if (!c.height.empty()) c.run.height = int(parse_number("--height", c.height, 1, 1 << 16));
    if (!c.bitdepth.empty()) c.run.bitdepth = int(parse_number("--bitdepth", c.bitdepth, 8, 16));
    if (!c.threads.empty()) c.run.threads = unsigned(parse_number("--threads", c.threads, 0, 1024));
    if (!c.subsample.empty()) c.run.subsample = unsigned(parse_number("--subsample", c.subsample, 1, 1u << 30));
    if (!c.frame_cnt.empty()) c.run.frame_cnt = unsigned(parse_number("--frame_cnt", c.frame_cnt, 0, 1u << 31));
    if (!c.frame_skip_ref.empty())
      c.run.frame_skip_ref = unsigned(parse_number("--frame_skip_ref", c.frame_skip_ref, 0, 1u << 31));
    if (!c.frame_skip_dist.empty())
      c.run.frame_skip_dist = unsigned(parse_number("--frame_skip_dist", c.frame_skip_dist, 0, 1u << 31));
    c.run.cpumask = parse_cpumask(c.cpumask);
    if (!c.max_pixels.empty())
      c.run.max_pixels = parse_number("--max_pixels", c.max_pixels, 1, std::uint64_t(1) << 28);
    out.subsample = c.run.subsample;
    apply_in_order(app, c, features, models);
    out.precision = parse_precision(c.precision);
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

  Progress progress(!c.quiet && isatty(STDERR_FILENO));
  c.run.progress = [&](unsigned done, unsigned total) { progress.update(done, total); };
  c.run.warn = [&](const std::string& line) { progress.line("warning: ", vqtwin::printable(line, 2000)); };
  c.run.note = [&](const std::string& line) { progress.line("", vqtwin::printable(line, 2000)); };
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
  progress.finish();
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
