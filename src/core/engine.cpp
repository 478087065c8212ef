// The run: open the inputs, register contexts (models, then features), resolve backends on the
// first picture, extract frames on a pool of threads, flush, predict.
#include <algorithm>
#include <chrono>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/quote.hpp"
#include "core/registry.hpp"
#include "backends/device.hpp"
#include "dispatch/dispatch.hpp"
#include "io/alignment.hpp"
#include "io/inputs.hpp"
#include "models/model.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {

const char* version() { return "0.1.0"; }

namespace {

struct Context {
  ContextRequest request;
  std::string origin;  // who asked for it first, for the merge note ("--feature psnr", "model vmaf's adm")
  const ExtractorInfo* info = nullptr;  // resolved
  std::unique_ptr<Extractor> extractor;
  DeviceExtractor* device = nullptr;  // set when a device twin serves this context
  std::uint32_t index = 0;
  std::string receipt;  // the implementation, as the receipt names it
  // Temporal contexts take frames in order: `turn` is the next frame index they accept (extract,
  // or a twin's submit), `collect_turn` the next a twin collects.
  std::mutex mutex;
  std::condition_variable cv;
  unsigned turn = 0;
  unsigned collect_turn = 0;
};

// Forwards one call's values to the results, stamped for libvmaf's output order.
class ContextSink final : public FeatureSink {
 public:
  ContextSink(Results& r, std::uint64_t step, const Context& c)
      : results_(r), step_(step), ctx_(c.index), receipt_(r.show_receipt ? &c.receipt : nullptr) {}
  void put(std::string_view name, unsigned frame, double value) override {
    results_.put(name, frame, value, {step_, ctx_, rank_++});
    if (receipt_) results_.record_implementation(name, *receipt_);
  }
  void aggregate(std::string_view name, double value) override { results_.aggregate(name, value); }

 private:
  Results& results_;
  std::uint64_t step_;
  std::uint32_t ctx_;
  const std::string* receipt_;
  std::uint32_t rank_ = 0;
};

ContextRequest request_from_text(const std::string& text) {
  const std::size_t eq = text.find('=');
  const std::string name = text.substr(0, eq);
  const ExtractorInfo* info = find_extractor(name);
  if (!info) {
    std::string known;
    for (const ExtractorInfo* e : all_extractors()) known += (known.empty() ? "" : ", ") + std::string(e->name);
    throw Error("--feature: unknown feature " + quote(name) + " (known: " + known + ")");
  }
  OptionPairs pairs = eq == std::string::npos ? OptionPairs{} : split_option_string(text.substr(eq + 1), info->name);
  return {info, OptionValues(info->spec->options, pairs, info->name), false};
}

// The `step` of a context's emissions for frame `index`. libvmaf orders outputs by the first time a
// name reaches its collector. With its thread pool (the goldens were made with --threads 2),
// TEMPORAL extractors run on the reading thread as each frame is read, while the other extractors'
// frame i lands from the pool after the reading thread has run frame i+1 (seen in every vmaf_float
// golden: motion3, first written when frame 1 is read, precedes adm2 of frame 0). Reproduced
// deterministically, for every --threads: frame i of the pool sits between frames i+1 and i+2 of the
// reading thread.
std::uint64_t step_of(const ExtractorInfo& info, unsigned index) {
  const std::uint64_t i = index;
  return info.spec->libvmaf_temporal ? 2 * i : 2 * (i + 1) + 1;
}

// Frames in flight on a device: each worker owns one slot (read, upload, compute overlap across
// workers), so a device run uses at least this many workers.
constexpr unsigned kMinDeviceWorkers = 4;

bool names_a_twin(const ContextRequest& r) { return r.info->backend != Backend::kCpu;
}

class Engine {
 public:
  Engine(const RunConfig& cfg, Results& out) : cfg_(cfg), out_(out) {}

  void run() {
    if (cfg_.subsample == 0) throw Error("--subsample must be at least 1");
    if (!cfg_.sync.empty() && cfg_.sync != "auto" && cfg_.sync != "none")
      throw Error("--sync must be auto or none, not '" + cfg_.sync + "'");
    if (cfg_.max_pixels < 1 || cfg_.max_pixels > kMaxPixelsLimit)
      throw Error("--max_pixels must be 1.." + std::to_string(kMaxPixelsLimit) + ", not " +
                  std::to_string(cfg_.max_pixels));
    threads_ = cfg_.threads ? cfg_.threads : std::max(1u, std::thread::hardware_concurrency());
    register_contexts();
    if (cfg_.reference == "-" && cfg_.distorted == "-")
      throw Error("only one of --reference and --distorted can be standard input");
    open_inputs_();
    const unsigned n = resolve_and_init();

    const auto t0 = std::chrono::steady_clock::now();
    run_workers(n);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out_.frames = frames_read_;
    out_.fps = secs > 0 ? frames_read_ / secs : 0;

    // Flush what was computed (also after an input error or a stop: those frames' results stay valid).
    std::exception_ptr failure = failure_;
    if (frames_read_ > 0) {
      try {
        for (auto& c : contexts_) {
          ContextSink sink(out_, ~std::uint64_t(0), *c);
          c->extractor->flush(sink);
        }
        for (auto& m : models_) m->predict(out_, frames_read_, cfg_.subsample);
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
    }
    if (failure) std::rethrow_exception(failure);
    if (frames_read_ == 0 && !stop_requested()) throw Error("no frames to compare");
    if (stop_requested()) return;  // a stop is not a length mismatch
    if (!thumbs_checked_) check_shift();  // a clip shorter than the frames the check looks at
    check_lengths();
  }

 private:
  // libvmaf keeps one context per output-name set: the extractor's name with the suffixes of its
  // FEATURE_PARAM options. A later request with the same names is dropped, even when options that name
  // no output differ (psnr's, float_ssim's, debug, ...), since two contexts would write the same names.
  // The same here, with one line on stderr when a dropped request asked for other option values.
  void add_context(ContextRequest req, const std::string& origin) {
    const std::string names = req.options.output_name(req.info->name);
    for (auto& c : contexts_) {
      if (c->request.info != req.info || c->request.options.output_name(c->request.info->name) != names) continue;
      if (c->request.options.key() != req.options.key() && cfg_.warn)
        cfg_.warn(origin + " is merged into " + c->origin + ": both write the same output names ('" + names +
                  "' outputs), and libvmaf keeps the first context, so the first one's option values are used");
      c->request.from_model = c->request.from_model && req.from_model;
      return;
    }
    auto c = std::make_unique<Context>();
    c->request = std::move(req);
    c->origin = origin;
    c->index = std::uint32_t(contexts_.size());
    contexts_.push_back(std::move(c));
  }

  // Model contexts first, then --feature ones, as the vmaf CLI registers them (this decides which of
  // two same-named requests is kept, and the output order).
  void register_contexts() {
    std::vector<ContextRequest> features;
    for (const std::string& f : cfg_.features) features.push_back(request_from_text(f));
    std::vector<std::string> model_texts = cfg_.models;
    if (model_texts.empty() && !cfg_.no_prediction) {
      // No --model and no --no_prediction: VMAF (vmaf_v0.6.1, built in), also beside --feature, as
      // the vmaf CLI does.
      model_texts.push_back("version=vmaf_v0.6.1");
    }
    if (!cfg_.no_prediction || !model_texts.empty()) {
      models_ = models::load_models(model_texts);
      for (const auto& m : models_)
        for (const auto& use : m->features()) {
          const ExtractorInfo* info = find_extractor(use.extractor);
          if (!info) throw Error("model " + m->name() + ": no extractor named " + quote(use.extractor));
          add_context({info, OptionValues(info->spec->options, use.options, info->name), true},
                      "model " + m->name() + "'s " + std::string(info->name));
        }
      if (cfg_.no_prediction) models_.clear();
      for (const auto& m : models_) out_.scores.push_back(m->name());
    }
    for (std::size_t i = 0; i < features.size(); ++i)
      add_context(std::move(features[i]), "--feature " + cfg_.features[i]);
    if (contexts_.empty()) throw Error("nothing to compute: give --feature or --model");
  }

  // Opens both inputs (converted as asked), applies --frame_skip_* and --sync auto, and says what was
  // converted.
  void open_inputs_() {
    InputOptions options;
    options.source.raw = RawFormat{cfg_.width, cfg_.height, cfg_.pixel_format, cfg_.bitdepth};
    options.source.decode_threads = threads_;
    options.source.limits = InputLimits{cfg_.max_pixels, cfg_.stop};
    options.scale = cfg_.scale;
    options.common_bitdepth = cfg_.common_bitdepth;
    Inputs in = open_inputs(cfg_.reference, cfg_.distorted, options);
    format_ = in.format;
    out_.width = format_.width;
    out_.height = format_.height;
    out_.input_conversions = in.conversions;
    if (!in.conversions.empty() && cfg_.note) {
      std::string line = "converted the inputs: ";
      for (std::size_t i = 0; i < in.conversions.size(); ++i) line += (i ? "; " : "") + in.conversions[i].second;
      cfg_.note(line);
    }
    skipped_ref_ = skip(*in.ref, cfg_.frame_skip_ref);
    skipped_dist_ = skip(*in.dist, cfg_.frame_skip_dist);
    if (cfg_.sync == "auto") {
      auto ref = std::make_unique<ReplaySource>(std::move(in.ref));
      auto dist = std::make_unique<ReplaySource>(std::move(in.dist));
      apply_sync(*ref, *dist);
      in.ref = std::move(ref);
      in.dist = std::move(dist);
    }
    ref_ = std::move(in.ref);
    dist_ = std::move(in.dist);
    total_ = expected_frames();
  }

  static unsigned skip(PictureSource& s, unsigned n) {
    unsigned done = 0;
    while (done < n && s.skip()) ++done;
    return done;
  }

  // --sync auto: the first frames of both, compared at offsets -3..+3; the offset found is applied by
  // dropping frames at the start of the input that has extra ones.
  void apply_sync(ReplaySource& ref, ReplaySource& dist) {
    std::vector<Thumbnail> rt, dt;
    for (const Picture& p : ref.read_ahead(kSyncFrames)) rt.push_back(make_thumbnail(p));
    for (const Picture& p : dist.read_ahead(kSyncFrames)) dt.push_back(make_thumbnail(p));
    const ShiftEstimate e = estimate_shift(rt, dt);
    out_.sync_offset = e.offset;
    thumbs_checked_ = true;
    std::string text;
    if (e.offset > 0) {
      skipped_dist_ += skip(dist, unsigned(e.offset));
      text = "the distorted has " + frames_text(e.offset) + " more at its start: skipped (as " +
             skip_option(e.offset) + ")";
    } else if (e.offset < 0) {
      skipped_ref_ += skip(ref, unsigned(-e.offset));
      text = "the distorted lacks the reference's first " + frames_text(-e.offset) + ": skipped (as " +
             skip_option(e.offset) + ")";
    } else {
      text = "the inputs look aligned (offset 0)";
    }
    out_.input_conversions.emplace_back("sync", text);
    if (cfg_.note) cfg_.note("--sync auto: " + text);
  }

  // Frames the run is expected to score, for progress (0 = unknown).
  unsigned expected_frames() const {
    auto left = [](const PictureSource& s, unsigned skipped) -> unsigned {
      const unsigned n = s.estimated_frames();
      return n == 0 ? 0 : n > skipped ? n - skipped : 1;
    };
    const unsigned r = left(*ref_, skipped_ref_), d = left(*dist_, skipped_dist_);
    unsigned total = r && d ? std::min(r, d) : std::max(r, d);
    if (cfg_.frame_cnt && (total == 0 || total > cfg_.frame_cnt)) total = cfg_.frame_cnt;
    return total;
  }

  // The first frames' thumbnails are kept as they are read; once there are enough, the check runs.
  void keep_thumbnails(const Picture& ref, const Picture& dist, unsigned index) {
    if (thumbs_checked_ || index >= unsigned(kSyncFrames)) return;
    ref_thumbs_.push_back(make_thumbnail(ref));
    dist_thumbs_.push_back(make_thumbnail(dist));
    if (ref_thumbs_.size() == std::size_t(kSyncFrames)) check_shift();
  }

  void check_shift() {
    thumbs_checked_ = true;
    const ShiftEstimate e = estimate_shift(ref_thumbs_, dist_thumbs_);
    if (e.offset != 0 && cfg_.warn)
      cfg_.warn(describe_shift(e, ref_->path(), dist_->path(), skipped_ref_, skipped_dist_));
  }

  // Inputs of different lengths: a warning (an error with --strict_length) that says which ended first.
  void check_lengths() {
    if (!ended_first_) return;
    PictureSource& shorter = ended_first_ == 1 ? *ref_ : *dist_;
    PictureSource& longer = ended_first_ == 1 ? *dist_ : *ref_;
    const unsigned shorter_total = frames_read_ + (ended_first_ == 1 ? skipped_ref_ : skipped_dist_);
    unsigned longer_seen = frames_read_ + (ended_first_ == 1 ? skipped_dist_ : skipped_ref_);
    if (ended_first_ == 2) {
      ++longer_seen;  // the reference frame read with the missing distorted one
    } else if (!longer.skip()) {
      return;  // both ended together
    } else {
      ++longer_seen;
    }
    // The longer one's length: as its file says, else counted on (a bounded number of frames).
    std::string longer_total;
    if (longer.known_frames() >= longer_seen) {
      longer_total = std::to_string(longer.known_frames());
    } else {
      constexpr unsigned kCountLimit = 1000;
      unsigned more = 0;
      while (more < kCountLimit && longer.skip()) ++more;
      longer_total = (more == kCountLimit ? "more than " : "") + std::to_string(longer_seen + more);
    }
    const std::string text = shorter.path() + " ended after " + std::to_string(shorter_total) + " frames, " +
                             longer.path() + " has " + longer_total + "; scored " + std::to_string(frames_read_);
    if (cfg_.strict_length) throw Error(text + " (--strict_length)");
    if (cfg_.warn) cfg_.warn(text + "; --strict_length makes this an error");
  }

  // Picks each context's implementation on the first picture, builds and initialises it; opens
  // the device pipeline when a twin serves any context. Returns the number of workers.
  unsigned resolve_and_init() {
    bool device_asked = cfg_.backend != Backend::kCpu;
    for (auto& c : contexts_) device_asked = device_asked || names_a_twin(c->request);
    out_.show_receipt = device_asked;
    std::string why;
    // Probing initialises the device runtime: only when a device was asked for.
    const bool have_device = device_asked && cuda_device_usable(cfg_.gpu, &why);
    if (device_asked && !have_device && (cfg_.backend == Backend::kCuda || any_named_twin()))
      throw Error("CUDA device " + std::to_string(cfg_.gpu) + " cannot be used: " + why);
    bool any_device = false;
    for (auto& c : contexts_) {
      ResolvedContext r = resolve_context(c->request, cfg_.backend, format_, all_extractors(), have_device, cfg_.warn);
      c->info = r.info;
      c->receipt = std::string(r.info->name) + (r.fell_back ? " (cpu fallback)" : "");
      c->extractor = r.info->create(r.options);
      if (r.info->backend != Backend::kCpu) {
        c->device = dynamic_cast<DeviceExtractor*>(c->extractor.get());
        if (!c->device) throw Error(std::string(r.info->name) + " is not a device extractor");
        any_device = true;
      }
    }
    unsigned workers = threads_;
    if (any_device) {
      workers = std::max(workers, kMinDeviceWorkers);
      pipeline_ = make_cuda_pipeline(format_, cfg_.gpu, workers);
    }
    for (auto& c : contexts_) {
      if (c->device) c->device->bind(*pipeline_);
      c->extractor->init(format_);
    }
    return workers;
  }

  bool any_named_twin() const {
    for (const auto& c : contexts_)
      if (names_a_twin(c->request)) return true;
    return false;
  }

  bool stop_requested() const { return cfg_.stop && cfg_.stop->load(); }

  // `n` workers, the calling thread being one. They wait on read_mutex_ until all have started; if
  // one cannot be started (too many threads, no memory), the others stop before reading a frame and
  // are joined, and the run fails with one message.
  void run_workers(unsigned n) {
    std::vector<std::thread> workers;
    std::string start_error;
    {
      std::lock_guard lock(read_mutex_);
      try {
        workers.reserve(n - 1);
        for (unsigned i = 1; i < n; ++i) workers.emplace_back([this, i] { work(i); });
      } catch (const std::exception& e) {
        stop_ = true;
        start_error = "--threads " + std::to_string(n) + ": could not start thread " +
                      std::to_string(workers.size() + 2) + " (" + e.what() + "); use fewer threads";
      }
    }
    if (start_error.empty()) work(0);
    for (auto& t : workers) t.join();
    if (!start_error.empty()) throw Error(start_error);
  }

  // One worker: take the next frame pair, run every context on it, repeat. With a device pipeline
  // the worker owns slot `worker`: frames are read straight into its (pinned) host pictures.
  // Without one, the worker's pictures are allocated when it first gets a frame, so a worker that
  // gets none allocates nothing.
  void work(unsigned worker) {
    FrameSlot* slot = pipeline_ ? &pipeline_->slot(worker) : nullptr;
    std::optional<Picture> own_ref, own_dist;
    for (;;) {
      unsigned index;
      {
        std::lock_guard lock(read_mutex_);
        if (stop_) return;
        if (cfg_.frame_cnt && frames_read_ >= cfg_.frame_cnt) return;
        try {
          if (!read_pair(slot, own_ref, own_dist)) {
            stop_ = true;
            return;
          }
        } catch (...) {
          stop_ = true;  // read_mutex_ is held here
          // A read given up on a stop request is the stop, not an input error.
          if (!failure_ && !stop_requested()) failure_ = std::current_exception();
          return;
        }
        index = frames_read_++;
      }
      try {
        process(slot ? slot->ref() : *own_ref, slot ? slot->dist() : *own_dist, index, slot);
      } catch (...) {
        fail(std::current_exception());
        release_turns(index);
        return;
      }
      const unsigned done = ++frames_done_;
      if (cfg_.progress) cfg_.progress(done, total_);
    }
  }

  // Whether a non-temporal context extracts a frame: the written ones (`sampled`), or every frame for
  // a feature libvmaf flags TEMPORAL (FeatureSpec::libvmaf_temporal: its aggregates cover all frames).
  static bool runs(const Context& c, bool sampled) { return sampled || c.info->spec->libvmaf_temporal; }

  // The next frame of both inputs (read_mutex_ held); false when the run stops here: a stop request,
  // or the end of an input (ended_first_ says which; check_lengths() reports it after the run). A
  // worker's own pictures are allocated when it first gets a frame.
  bool read_pair(FrameSlot* slot, std::optional<Picture>& own_ref, std::optional<Picture>& own_dist) {
    if (stop_requested()) return false;
    if (!slot && !own_ref) {
      own_ref.emplace(format_);
      own_dist.emplace(format_);
    }
    Picture& ref = slot ? slot->ref() : *own_ref;
    Picture& dist = slot ? slot->dist() : *own_dist;
    if (!ref_->read(ref)) {
      ended_first_ = 1;
      return false;
    }
    if (!dist_->read(dist)) {
      ended_first_ = 2;
      return false;
    }
    if (cfg_.sync.empty()) keep_thumbnails(ref, dist, frames_read_);
    return true;
  }

  // Runs `step` for temporal context `c` when `turn` reaches `index` (frames in order).
  template <class Step>
  void in_turn(Context& c, unsigned& turn, unsigned index, Step step) {
    std::unique_lock lock(c.mutex);
    c.cv.wait(lock, [&] { return turn == index || aborted_.load(); });
    if (aborted_) throw Aborted{};
    step();
    ++turn;
    c.cv.notify_all();
  }

  // One frame through every context. Device work is enqueued first (upload, then each twin's
  // kernels), the CPU contexts run while the device computes, then the slot is waited for once and
  // the twins' values collected.
  void process(const Picture& ref, const Picture& dist, unsigned index, FrameSlot* slot) {
    const bool sampled = cfg_.subsample <= 1 || index % cfg_.subsample == 0;
    if (slot) {
      slot->upload();
      for (auto& c : contexts_) {
        if (!c->device) continue;
        if (!c->info->spec->temporal) {
          if (runs(*c, sampled)) c->device->submit(*slot, index);
        } else {
          in_turn(*c, c->turn, index, [&] { c->device->submit(*slot, index); });
        }
      }
    }
    for (auto& c : contexts_)
      if (!c->device && !c->info->spec->temporal && runs(*c, sampled)) {
        ContextSink sink(out_, step_of(*c->info, index), *c);
        c->extractor->extract(ref, dist, index, sink);
      }
    for (auto& c : contexts_) {
      if (c->device || !c->info->spec->temporal) continue;
      in_turn(*c, c->turn, index, [&] {
        ContextSink sink(out_, step_of(*c->info, index), *c);
        c->extractor->extract(ref, dist, index, sink);
      });
    }
    if (!slot) return;
    slot->wait();
    for (auto& c : contexts_) {
      if (!c->device) continue;
      ContextSink sink(out_, step_of(*c->info, index), *c);
      if (!c->info->spec->temporal) {
        if (runs(*c, sampled)) c->device->collect(*slot, index, sink);
      } else {
        in_turn(*c, c->collect_turn, index, [&] { c->device->collect(*slot, index, sink); });
      }
    }
  }

  struct Aborted {};

  void fail(std::exception_ptr e) {
    std::lock_guard lock(read_mutex_);
    stop_ = true;
    try {
      std::rethrow_exception(e);
    } catch (const Aborted&) {
      return;
    } catch (...) {
    }
    if (!failure_) failure_ = e;
  }

  // A frame that failed leaves temporal contexts waiting for it: wake them to stop.
  void release_turns(unsigned) {
    aborted_ = true;
    for (auto& c : contexts_) {
      std::lock_guard lock(c->mutex);
      c->cv.notify_all();
    }
  }

  const RunConfig& cfg_;
  Results& out_;
  std::unique_ptr<PictureSource> ref_, dist_;
  PictureFormat format_{};
  unsigned threads_ = 1;
  unsigned skipped_ref_ = 0, skipped_dist_ = 0;  // frames skipped at the start (--frame_skip_*, --sync auto)
  unsigned total_ = 0;                           // frames expected (progress)
  int ended_first_ = 0;                          // 1: the reference ended first, 2: the distorted
  std::vector<Thumbnail> ref_thumbs_, dist_thumbs_;
  bool thumbs_checked_ = false;
  // The device pipeline outlives the contexts (twins hold buffers of its slots): declared first.
  std::unique_ptr<DevicePipeline> pipeline_;
  std::vector<std::unique_ptr<Context>> contexts_;
  std::vector<std::unique_ptr<models::Model>> models_;
  std::mutex read_mutex_;
  bool stop_ = false;
  unsigned frames_read_ = 0;
  std::atomic<unsigned> frames_done_{0};
  std::atomic<bool> aborted_{false};
  std::exception_ptr failure_;
};

}  // namespace

void run(const RunConfig& config, Results& out) {
  const cpu::RunMask mask(config.cpumask);  // before any context picks its kernels
  Engine engine(config, out);
  engine.run();
}

}  // namespace vqtwin
