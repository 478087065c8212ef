#include "run_args.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "backends/device.hpp"
#include "core/quote.hpp"
#include "io/hwdec.hpp"
#include "vqtwin/backend.hpp"
#include "vqtwin/rcpss.hpp"

namespace vqtwin_cli {
namespace {

constexpr const char* kExamples = R"(Examples:
  vqtwin -r ref.y4m -d dist.y4m                          VMAF (vmaf_v0.6.1) and the mean of each feature
  vqtwin -r master.mkv -d encode.mp4 --json -o out.json  compressed input: any container/codec FFmpeg decodes
  vqtwin -r ref.y4m -d dist.y4m --feature psnr --json    VMAF and PSNR, JSON on standard output
  vqtwin -r src_1080p.mp4 -d enc_720p.mp4 --scale auto   the distorted scaled to the reference size (bicubic)
  vqtwin -r ref8.y4m -d dist10.mkv --common_bitdepth     8-bit against 10-bit (the 8-bit shifted up)
  vqtwin -r ref.mp4 -d dist.mp4 --sync auto              apply the time offset the first frames show
  vqtwin -r ref.yuv -d dist.yuv -w 1920 -h 1080 -p 420 -b 10 --no_prediction --feature psnr --csv -o out.csv
  vqtwin -r src.mkv -d 1080p.mp4 -d 720p.mp4 -d 480p.mp4 --scale auto --json -o 'out/{dist_stem}.json'
                                                         a ladder in one pass: the reference is read once
  vqtwin -r ref.y4m -d dist.y4m --feature psnr --report report.html   per-frame charts, pooled values, worst frames
  vqtwin -r src.mkv -d 1080p.mp4 -d 720p.mp4 --scale auto --report ladder.html   several encodes, one page
  vqtwin batch jobs.csv                                  a manifest of pairs (see vqtwin batch --help)
Note: -h is --height, as in the vmaf CLI; help is --help.)";

struct Texts {
  std::vector<std::string> features, models, aom_ctc, nflx_ctc, pools, distorted;
  std::string max_pixels, width, height, bitdepth, threads, subsample, frame_cnt, frame_skip_ref, frame_skip_dist,
      cpumask, gpu, precision, backend = "cpu", rcpss = "amd";
  bool xml = false, json = false, csv = false, sub = false;
  bool version = false, list = false, list_models = false, list_devices = false;
};

// --feature, --model and the presets that add to them, in command-line order (libvmaf's CLI applies a
// preset where it appears: features and models given before it come first, and --aom_ctc v7.0 replaces
// the first float_ssim given before it).
void apply_in_order(const CLI::App& app, const Texts& t, vqtwin::RunConfig& run) {
  std::size_t nf = 0, nm = 0, na = 0, nn = 0;
  for (const CLI::Option* o : app.parse_order()) {
    const std::string name = o->get_name();
    if (name == "--feature") run.features.push_back(t.features.at(nf++));
    else if (name == "--model") run.models.push_back(t.models.at(nm++));
    else if (name == "--aom_ctc") vqtwin::apply_preset("aom_ctc", t.aom_ctc.at(na++), run);
    else if (name == "--nflx_ctc") vqtwin::apply_preset("nflx_ctc", t.nflx_ctc.at(nn++), run);
  }
}

// A whole number for option `name` in [min, max], or an error in our words.
unsigned long long parse_number(const std::string& name, const std::string& text, unsigned long long min,
                                unsigned long long max) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = text.empty() || text[0] == '-' ? 0 : std::strtoull(text.c_str(), &end, 10);
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
std::string explain_parse_error(const CLI::ParseError& e, const std::vector<std::string>& args) {
  const std::string what = e.what();
  const std::string option = what.substr(0, what.find(':'));
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    if (option == "--height" && std::find(args.begin(), args.end(), "-h") != args.end())
      return "-h is --height (the height of raw .yuv input, as in the vmaf CLI) and needs a number; "
             "for help use --help";
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

void define(CLI::App& app, RunArgs& a, Texts& t) {
  app.set_help_flag("--help", "print this help and exit");  // -h is --height, as in the vmaf CLI
  app.option_defaults()->always_capture_default();
  app.add_option("-r,--reference", a.run.reference,
                 "reference video: .y4m, raw .yuv (with -w -h -p -b), or any video FFmpeg decodes; - = stdin");
  app.add_option("-d,--distorted", t.distorted,
                 "distorted video (as --reference); repeatable: a ladder, scored in one pass that reads the "
                 "reference once (-o then takes a pattern such as out/{dist_stem}.json, or --json writes one "
                 "combined file)");
  app.add_option("-w,--width", t.width, "raw .yuv width");
  app.add_option("-h,--height", t.height, "raw .yuv height (-h is not help: use --help)");
  app.add_option("-p,--pixel_format", a.run.pixel_format, "raw .yuv pixel format: 420, 422, 444, 400");
  app.add_option("-b,--bitdepth", t.bitdepth, "raw .yuv bit depth: 8, 10, 12, 16");
  app.add_option("-m,--model", t.models,
                 "model, colon-delimited: version=NAME (built in, or NAME.json on the model path; see "
                 "--list-models) or path=FILE, name=OUTPUT, enable_transform=true; repeatable. Default: "
                 "version=vmaf_v0.6.1 unless --no_prediction");
  app.add_option("--feature", t.features, "feature NAME[=opt=value:opt=value]; repeatable");
  app.add_option("--aom_ctc", t.aom_ctc,
                 "the AOM common test conditions' models and features: v1.0 ... v7.0 (as the vmaf CLI)");
  app.add_option("--nflx_ctc", t.nflx_ctc, "Netflix's common test conditions' models and features: v1.0");
  app.add_option("-o,--output", a.output,
                 "output file ('-' = standard output); with several -d, a pattern: {dist_stem}, {dist_name}, "
                 "{ref_stem}, {index}");
  app.add_option("--report", a.report,
                 "write a self-contained HTML page: per-frame charts of every metric (every -d of a ladder on "
                 "one page), pooled values, worst frames, inputs and settings (works offline)");
  app.add_flag("--xml", t.xml, "write XML (the default with -o; to standard output without -o)");
  app.add_flag("--json", t.json, "write JSON (to standard output without -o)");
  app.add_flag("--csv", t.csv, "write CSV (to standard output without -o)");
  app.add_flag("--sub", t.sub, "write subtitles (to standard output without -o)");
  app.add_option("--threads", t.threads,
                 "worker threads; 0 or unset = one per core (results are identical for any number); a ladder "
                 "shares them among its distorted inputs");
  app.add_option("--subsample", t.subsample, "compute every N-th frame");
  app.add_option("--frame_cnt", t.frame_cnt, "at most N frames");
  app.add_option("--frame_skip_ref", t.frame_skip_ref, "skip the first N reference frames");
  app.add_option("--frame_skip_dist", t.frame_skip_dist, "skip the first N distorted frames");
  app.add_option("--scale", a.run.scale,
                 "inputs of different sizes: auto = the distorted to the reference size, WxH = both to WxH "
                 "(bicubic, the pixels of ffmpeg -vf scale=W:H:flags=bicubic); none (default) = an error");
  app.add_flag("--common_bitdepth", a.run.common_bitdepth,
               "inputs of different bit depths: the lower shifted up to the higher (as libvmaf's --aom_ctc v6.0)");
  app.add_option("--sync", a.run.sync,
                 "auto = apply the time offset the first frames show (-3..+3 frames); none = no check. Default: "
                 "warn when the distorted looks shifted");
  app.add_flag("--strict_length", a.run.strict_length,
               "inputs of different lengths are an error (default: a warning; the common frames are scored)");
  app.add_option("--max_pixels", t.max_pixels,
                 "largest picture accepted, in pixels per frame (default 67108864 = 8192x8192, at most 268435456)");
  app.add_flag("-n,--no_prediction", a.run.no_prediction, "features only, no model score");
  app.add_option("--precision", t.precision, "number format: N decimals (0..17) or max (%.17g, round-trip)");
  app.add_option("--pool", t.pools, "pooling methods written: min, max, mean, harmonic_mean, percN; repeatable");
  app.add_option("--backend", t.backend, "where extractors run: cpu (the reference, default), cuda (the CUDA twins; "
                 "the CPU for what has no twin, with a warning), vulkan (the Vulkan twins, the same way) or auto "
                 "(the CPU starts at once and a usable CUDA device shares the frames once it is ready; without one, "
                 "a Vulkan GPU; the same values)");
  app.add_option("--gpu", t.gpu,
                 "CUDA or Vulkan device (--list-devices): an index (default 0), a list (0,1: a ladder's or batch's runs spread over them, a "
                 "device may be named twice) or all");
  app.add_option("--hwdec", a.run.hwdec,
                 "where compressed input is decoded: auto (default: NVDEC where the measured rates say it is "
                 "faster for a run on a CUDA device, else software), cuda (NVDEC on --gpu; a stream it refuses "
                 "is an error) or none (software). The values are the same either way");
  app.add_option("--cpumask", t.cpumask,
                 "instruction sets the CPU kernels must not use, as libvmaf's: 8 AVX2, 16 AVX-512, 32 AVX-512 ICL, "
                 "64 AVX-512 VNNI, -1 all (speed only: the numbers are the same)");
  app.add_option("--rcpss", t.rcpss,
                 "whose x86 rcpss reciprocal float ADM (and the float VMAF models) reproduce: amd (default; the "
                 "first goldens' AMD EPYC), intel (an Intel Xeon's), native (this CPU's, as a libvmaf built here)");
  app.add_flag("-q,--quiet", a.quiet, "no progress on stderr");
  app.add_flag("-v,--version", t.version, "print the version and exit");
  app.add_flag("--list", t.list, "list the extractors, their outputs and options, and exit");
  app.add_flag("--list-models", t.list_models, "list the models version=NAME finds, where from, and what they need");
  app.add_flag("--list-devices", t.list_devices,
               "list the CUDA and Vulkan devices: name, vendor, driver and the features the twins need");
  app.footer(kExamples);
}

// The checks and conversions after parsing (numbers in vqtwin's words, presets in order).
void finish(const CLI::App& app, RunArgs& a, Texts& t) {
  const int n_formats = int(t.xml) + int(t.json) + int(t.csv) + int(t.sub);
  a.format_given = n_formats > 0;
  a.out.version = std::string("vqtwin ") + vqtwin::version();
  a.out.format = t.json ? vqtwin::OutputFormat::kJson
                 : t.csv ? vqtwin::OutputFormat::kCsv
                 : t.sub ? vqtwin::OutputFormat::kSub
                         : vqtwin::OutputFormat::kXml;
  // A format flag without -o writes to standard output (instead of the summary).
  if (a.output.empty() && n_formats > 0) a.output = "-";
  if (n_formats > 1) throw vqtwin::Error("give at most one of --xml, --json, --csv, --sub");
  a.distorted = t.distorted;
  if (a.run.reference.empty() || a.distorted.empty())
    throw vqtwin::Error("give --reference and --distorted (see --help)");
  a.run.distorted = a.distorted.front();
  if (!a.report.empty() && a.report == a.output)
    throw vqtwin::Error("--report and --output name the same file " + vqtwin::quote(a.report));
  const auto backend = vqtwin::parse_backend(t.backend);
  if (!backend) throw vqtwin::Error("--backend must be cpu, cuda, vulkan or auto, not '" + t.backend + "'");
  a.run.backend = *backend;
  if (!t.gpu.empty()) a.gpus = parse_gpu_list(t.gpu, a.run.backend);
  a.run.gpu = a.gpus.front();
  if (!vqtwin::parse_hwdec(a.run.hwdec))
    throw vqtwin::Error("--hwdec must be auto, cuda or none, not " + vqtwin::quote(a.run.hwdec));
  if (!t.width.empty()) a.run.width = int(parse_number("--width", t.width, 1, 1 << 16));
  if (!t.height.empty()) a.run.height = int(parse_number("--height", t.height, 1, 1 << 16));
  if (!t.bitdepth.empty()) a.run.bitdepth = int(parse_number("--bitdepth", t.bitdepth, 8, 16));
  if (!t.threads.empty()) a.run.threads = unsigned(parse_number("--threads", t.threads, 0, 1024));
  if (!t.subsample.empty()) a.run.subsample = unsigned(parse_number("--subsample", t.subsample, 1, 1u << 30));
  if (!t.frame_cnt.empty()) a.run.frame_cnt = unsigned(parse_number("--frame_cnt", t.frame_cnt, 0, 1u << 31));
  if (!t.frame_skip_ref.empty())
    a.run.frame_skip_ref = unsigned(parse_number("--frame_skip_ref", t.frame_skip_ref, 0, 1u << 31));
  if (!t.frame_skip_dist.empty())
    a.run.frame_skip_dist = unsigned(parse_number("--frame_skip_dist", t.frame_skip_dist, 0, 1u << 31));
  a.run.cpumask = parse_cpumask(t.cpumask);
  const auto rcpss = vqtwin::parse_rcpss(t.rcpss);
  if (!rcpss) throw vqtwin::Error("--rcpss must be amd, intel or native, not " + vqtwin::quote(t.rcpss));
  a.run.rcpss = *rcpss;
  if (!t.max_pixels.empty()) a.run.max_pixels = parse_number("--max_pixels", t.max_pixels, 1, std::uint64_t(1) << 28);
  a.out.subsample = a.run.subsample;
  apply_in_order(app, t, a.run);
  a.out.precision = parse_precision(t.precision);
  for (const auto& p : t.pools) {
    auto pool = vqtwin::Pooling::parse(p);
    if (!pool) throw vqtwin::Error("--pool: unknown method " + vqtwin::quote(p) + " (min, max, mean, harmonic_mean, percN)");
    a.out.pools.push_back(*pool);
  }
}

}  // namespace

std::vector<int> parse_gpu_list(const std::string& text, vqtwin::Backend backend) {
  if (text == "all") {
    std::string why;
    const int n = backend == vqtwin::Backend::kVulkan ? vqtwin::vulkan_device_count(&why) : vqtwin::cuda_device_count(&why);
    std::vector<int> all;
    for (int i = 0; i < n; ++i) all.push_back(i);
    if (all.empty()) all.push_back(0);  // the run says why device 0 cannot be used, if it needs one
    return all;
  }
  std::vector<int> list;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 4 ||
        std::stoi(item) > 1023)
      throw vqtwin::Error("--gpu must be a device index (0..1023), a list of them (0,1) or all, not " +
                          vqtwin::quote(text));
    list.push_back(std::stoi(item));
    if (list.size() > 256) throw vqtwin::Error("--gpu: at most 256 devices in a list");
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return list;
}

RunArgs parse_run_args(const std::vector<std::string>& args) {
  RunArgs a;
  Texts t;
  a.command_line = "vqtwin";
  for (const std::string& w : args) a.command_line += " " + w;
  CLI::App app{"vqtwin: VMAF, PSNR, SSIM and motion, the numbers of libvmaf, on the CPU and on GPUs", "vqtwin"};
  define(app, a, t);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    a.action = RunArgs::Action::kHelp;
    a.help = app.help();
    return a;
  } catch (const CLI::ParseError& e) {
    throw UsageError(explain_parse_error(e, args));
  }
  if (t.list || t.list_models || t.list_devices || t.version) {
    a.action = t.list                ? RunArgs::Action::kList
               : t.list_models       ? RunArgs::Action::kListModels
               : t.list_devices      ? RunArgs::Action::kListDevices
                                     : RunArgs::Action::kVersion;
    return a;
  }
  try {
    finish(app, a, t);
  } catch (const UsageError&) {
    throw;
  } catch (const vqtwin::Error& e) {
    throw UsageError(e.what());
  }
  return a;
}

}  // namespace vqtwin_cli
