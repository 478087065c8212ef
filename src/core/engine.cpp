// The run: open the inputs, register contexts (features, then models), resolve backends on the
// first picture, extract frames on a pool of threads, flush, predict.
#include <algorithm>
#include <chrono>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "core/extractor.hpp"
#include "core/registry.hpp"
#include "backends/device.hpp"
#include "dispatch/dispatch.hpp"
#include "io/picture_source.hpp"
#include "models/model.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin {

const char* version() { return "0.1.0"; }

namespace {

struct Context {
  ContextRequest request;
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
    throw Error("--feature: unknown feature '" + name + "' (known: " + known + ")");
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
    if (cfg_.threads == 0) throw Error("--threads must be at least 1");
    if (cfg_.subsample == 0) throw Error("--subsample must be at least 1");
    register_contexts();
    if (cfg_.reference == "-" && cfg_.distorted == "-")
      throw Error("only one of --reference and --distorted can be standard input");
    RawFormat raw{cfg_.width, cfg_.height, cfg_.pixel_format, cfg_.bitdepth};
    ref_ = open_picture_source(cfg_.reference, raw);
    dist_ = open_picture_source(cfg_.distorted, raw);
    if (ref_->format() != dist_->format())
      throw Error("reference " + ref_->format().describe() + " and distorted " + dist_->format().describe() +
                  " pictures differ in size or format");
    format_ = ref_->format();
    out_.width = format_.width;
    out_.height = format_.height;
    for (unsigned i = 0; i < cfg_.frame_skip_ref; ++i)
      if (!ref_->skip()) break;
    for (unsigned i = 0; i < cfg_.frame_skip_dist; ++i)
      if (!dist_->skip()) break;
    const unsigned n = resolve_and_init();

    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (unsigned i = 1; i < n; ++i) workers.emplace_back([this, i] { work(i); });
    work(0);
    for (auto& t : workers) t.join();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out_.frames = frames_read_;
    out_.fps = secs > 0 ? frames_read_ / secs : 0;

    // Flush what was computed (also after an input error: those frames' results stay valid).
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
    if (frames_read_ == 0) throw Error("no frames to compare");
  }

 private:
  void add_context(ContextRequest req) {
    const std::string key = std::string(req.info->name) + "|" + req.options.key();
    for (auto& c : contexts_)
      if (std::string(c->request.info->name) + "|" + c->request.options.key() == key) {
        c->request.from_model = c->request.from_model && req.from_model;
        return;
      }
    auto c = std::make_unique<Context>();
    c->request = std::move(req);
    c->index = std::uint32_t(contexts_.size());
    contexts_.push_back(std::move(c));
  }

  void register_contexts() {
    for (const std::string& f : cfg_.features) add_context(request_from_text(f));
    std::vector<std::string> model_texts = cfg_.models;
    if (cfg_.features.empty() && model_texts.empty() && !cfg_.no_prediction) {
      // Nothing asked for: VMAF (vmaf_v0.6.1 is built in), as the vmaf CLI does.
      model_texts.push_back("version=vmaf_v0.6.1");
    }
    if (!cfg_.no_prediction || !model_texts.empty()) {
      models_ = models::load_models(model_texts);
      for (const auto& m : models_)
        for (const auto& use : m->features()) {
          const ExtractorInfo* info = find_extractor(use.extractor);
          if (!info) throw Error("model " + m->name() + ": no extractor named '" + use.extractor + "'");
          add_context({info, OptionValues(info->spec->options, use.options, info->name), true});
        }
      if (cfg_.no_prediction) models_.clear();
    }
    if (contexts_.empty()) throw Error("nothing to compute: give --feature or --model");
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
    unsigned workers = std::max(1u, cfg_.threads);
    if (any_device) {
      workers = std::max(workers, kMinDeviceWorkers);
      pipeline_ = make_cuda_pipeline(format_, cfg_.gpu, workers);
      // Each frame uploads only the planes some twin reads.
      unsigned planes = 0;
      for (const auto& c : contexts_)
        if (c->device) planes |= c->device->planes_read();
      pipeline_->set_uploaded_planes(planes);
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

  // One worker: take the next frame pair, run every context on it, repeat. With a device pipeline
  // the worker owns slot `worker`: frames are read straight into its (pinned) host pictures.
  void work(unsigned worker) {
    FrameSlot* slot = pipeline_ ? &pipeline_->slot(worker) : nullptr;
    std::optional<Picture> own_ref, own_dist;
    if (!slot) {
      own_ref.emplace(format_);
      own_dist.emplace(format_);
    }
    Picture& ref = slot ? slot->ref() : *own_ref;
    Picture& dist = slot ? slot->dist() : *own_dist;
    for (;;) {
      unsigned index;
      {
        std::lock_guard lock(read_mutex_);
        if (stop_) return;
        if (cfg_.frame_cnt && frames_read_ >= cfg_.frame_cnt) return;
        try {
          const bool a = ref_->read(ref);
          const bool b = a && dist_->read(dist);
          if (!a || !b) {
            stop_ = true;
            return;
          }
        } catch (...) {
          stop_ = true;  // read_mutex_ is held here
          if (!failure_) failure_ = std::current_exception();
          return;
        }
        index = frames_read_++;
      }
      try {
        process(ref, dist, index, slot);
      } catch (...) {
        fail(std::current_exception());
        release_turns(index);
        return;
      }
      const unsigned done = ++frames_done_;
      if (cfg_.progress) cfg_.progress(done);
    }
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
          if (sampled) c->device->submit(*slot, index);
        } else {
          in_turn(*c, c->turn, index, [&] { c->device->submit(*slot, index); });
        }
      }
    }
    for (auto& c : contexts_)
      if (!c->device && !c->info->spec->temporal && sampled) {
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
        if (sampled) c->device->collect(*slot, index, sink);
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
  Engine engine(config, out);
  engine.run();
}

}  // namespace vqtwin
