// A bitrate ladder in one pass: the reference is opened once; each rendition's distorted input is
// opened and planned (the format both are compared at) before any run starts, so the renditions that
// want the reference in the same format share one reader of it (io/shared_source.hpp). Then every
// rendition runs the ordinary engine on its own thread, with its inputs handed over where the engine
// would open them: its scores are run()'s by construction.
#include <algorithm>
#include <exception>
#include <new>
#include <thread>

#include "core/engine.hpp"
#include "io/shared_source.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/ladder.hpp"

namespace vqtwin {
namespace {

// The frames kept between the slowest and the fastest rendition: enough for each run's frames in
// flight and --sync auto's look-ahead, within a memory budget.
constexpr std::size_t kSharedBudgetBytes = std::size_t(256) << 20;

unsigned effective_threads(const RunConfig& c) {
  return c.threads ? c.threads : std::max(1u, std::thread::hardware_concurrency());
}

// The options the engine opens its inputs with (Engine::open_inputs_), for `c`.
InputOptions input_options(const RunConfig& c) {
  InputOptions options;
  options.source.raw = RawFormat{c.width, c.height, c.pixel_format, c.bitdepth};
  options.source.decode_threads = effective_threads(c);
  options.source.limits = InputLimits{c.max_pixels, c.stop};
  options.scale = c.scale;
  options.common_bitdepth = c.common_bitdepth;
  options.source.hwdec = hwdec_request(parse_hwdec(c.hwdec).value_or(HwDecode::kAuto), c, effective_threads(c));
  return options;
}

// A run's error as the caller sees it: vqtwin::Error's text, else what the CLI would say.
struct Failure {
  std::string message;
  std::exception_ptr other;  // not a vqtwin::Error (e.g. std::bad_alloc): rethrown as it is
  bool failed() const { return !message.empty() || other; }
  void rethrow() const {
    if (other) std::rethrow_exception(other);
    throw Error(message);
  }
  static Failure current() {
    try {
      throw;
    } catch (const Error& e) {
      return {e.what(), nullptr};
    } catch (...) {
      return {"", std::current_exception()};
    }
  }
};

struct Prepared {
  Failure failure;  // what opening this rendition's inputs would have thrown
  Inputs inputs;
};

std::string describe_target(const PictureFormat& f) { return f.describe(); }

void check_same_reference(const std::vector<RunConfig>& r) {
  for (const RunConfig& c : r) {
    const RunConfig& a = r.front();
    if (c.reference != a.reference)
      throw Error("a ladder has one reference: '" + a.reference + "' and '" + c.reference + "' differ");
    if (c.width != a.width || c.height != a.height || c.pixel_format != a.pixel_format || c.bitdepth != a.bitdepth ||
        c.max_pixels != a.max_pixels)
      throw Error("the renditions of a ladder read the reference alike: the same --width, --height, "
                  "--pixel_format, --bitdepth and --max_pixels");
  }
}

}  // namespace

std::vector<std::unique_ptr<RenditionResult>> run_ladder(const std::vector<RunConfig>& renditions) {
  std::vector<std::unique_ptr<RenditionResult>> out;
  if (renditions.empty()) return out;
  check_same_reference(renditions);
  const std::size_t n = renditions.size();
  for (std::size_t i = 0; i < n; ++i) out.push_back(std::make_unique<RenditionResult>());

  // The reference, opened once (reading as renditions[0] asks; they all read it alike).
  const RunConfig& first = renditions.front();
  InputOptions ref_options = input_options(first);
  unsigned all_threads = 0;
  for (const RunConfig& c : renditions) all_threads += effective_threads(c);
  ref_options.source.decode_threads = std::min(all_threads, std::max(1u, std::thread::hardware_concurrency()));
  // Every rendition and the reference decode at once: --hwdec auto weighs NVDEC's engines and the CPU
  // threads shared by all of them.
  ref_options.source.hwdec.streams = unsigned(n) + 1;
  ref_options.source.hwdec.cpu_threads = ref_options.source.decode_threads;
  std::unique_ptr<PictureSource> reference;
  Failure reference_failure;
  try {
    reference = open_picture_source(first.reference, ref_options.source);
  } catch (...) {
    reference_failure = Failure::current();
  }

  // Each rendition: its distorted input opened and converted, the reference format it needs. The errors
  // come in open_inputs()'s order: --scale, the reference, the distorted, the comparison.
  std::vector<Prepared> prepared(n);
  std::vector<PictureFormat> targets;  // distinct reference formats asked for, in order
  std::vector<int> group(n, -1);
  std::vector<std::vector<std::pair<std::string, std::string>>> conversions(n);
  for (std::size_t i = 0; i < n; ++i) {
    const RunConfig& c = renditions[i];
    if (c.reference == "-" && c.distorted == "-") continue;  // the engine says so before opening anything
    try {
      InputOptions options = input_options(c);
      options.source.hwdec.streams = unsigned(n) + 1;
      options.source.hwdec.cpu_threads = ref_options.source.decode_threads;
      check_input_options(options);
      if (reference_failure.failed()) reference_failure.rethrow();
      prepared[i].inputs.dist = open_picture_source(c.distorted, options.source);
      InputPlan plan = plan_inputs(reference->format(), prepared[i].inputs.dist->format(), c.distorted, options);
      convert_source(prepared[i].inputs.dist, plan.target);
      prepared[i].inputs.format = plan.target;
      prepared[i].inputs.conversions = std::move(plan.conversions);
      auto at = std::find(targets.begin(), targets.end(), plan.target);
      group[i] = int(at - targets.begin());
      if (at == targets.end()) targets.push_back(plan.target);
    } catch (...) {
      prepared[i].failure = Failure::current();
      prepared[i].inputs = Inputs{};
    }
  }

  // One shared reader of the reference per format asked for: the first uses the source opened above,
  // the others open the file again (standard input cannot be).
  for (std::size_t g = 0; g < targets.size(); ++g) {
    std::unique_ptr<PictureSource> source;
    Failure failure;
    unsigned threads = 1;
    for (std::size_t i = 0; i < n; ++i)
      if (group[i] == int(g)) threads = std::max(threads, effective_threads(renditions[i]));
    try {
      if (g == 0) {
        source = std::move(reference);
      } else if (first.reference == "-") {
        std::string formats;
        for (const PictureFormat& t : targets) formats += (formats.empty() ? "" : ", ") + describe_target(t);
        throw Error("standard input (the reference) can be read only once, and the distorted inputs need it in " +
                    std::to_string(targets.size()) + " formats (" + formats + "); score them in separate runs");
      } else {
        source = open_picture_source(first.reference, ref_options.source);
      }
      convert_source(source, targets[g]);
    } catch (...) {
      failure = Failure::current();
    }
    std::shared_ptr<SharedSource> shared;
    if (!failure.failed())
      shared = SharedSource::make(std::move(source),
                                  SharedSource::window_for(targets[g], 2 * threads + 12, kSharedBudgetBytes));
    for (std::size_t i = 0; i < n; ++i) {
      if (group[i] != int(g)) continue;
      if (shared) {
        prepared[i].inputs.ref = shared->add_reader();
      } else {
        prepared[i].failure = failure;
        prepared[i].inputs = Inputs{};
      }
    }
  }
  reference.reset();

  // Every rendition on its own thread, the engine taking the prepared inputs where it would open them.
  auto run_one = [&](std::size_t i) {
    Prepared& p = prepared[i];
    const InputOpener open = [&p](const InputOptions&) -> Inputs {
      if (p.failure.failed()) p.failure.rethrow();
      return std::move(p.inputs);
    };
    try {
      run_with_inputs(renditions[i], out[i]->results, open);
    } catch (const Error& e) {
      out[i]->error = e.what();
    } catch (const std::bad_alloc&) {
      out[i]->error = "out of memory";
    } catch (const std::exception& e) {
      out[i]->error = std::string("internal error: ") + e.what();
    }
    // A run that ended before taking its inputs releases its reader here (the others stop waiting for it).
    p.inputs = Inputs{};
  };
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    try {
      threads.emplace_back(run_one, i);
    } catch (const std::exception& e) {
      out[i]->error = std::string("could not start a thread for this rendition (") + e.what() + ")";
      prepared[i].inputs = Inputs{};
      threads.emplace_back();
    }
  }
  for (auto& t : threads)
    if (t.joinable()) t.join();
  return out;
}

}  // namespace vqtwin
