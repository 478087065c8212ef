// The session: contexts registered (models, then features), backends resolved for the format, a pool of
// picture slots that callers fill (push copies, acquire/submit fills in place) and worker threads that
// run every context on each submitted frame; finish() flushes and predicts. vqtwin::run (file inputs)
// feeds the same session (core/engine.cpp).
#include "vqtwin/session.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "backends/device.hpp"
#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/quote.hpp"
#include "core/registry.hpp"
#include "core/session_internal.hpp"
#include "dispatch/dispatch.hpp"
#include "io/picture_source.hpp"
#include "models/model.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
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
      : results_(r), step_(step), ctx_(c.index), receipt_(&c.receipt) {}
  void put(std::string_view name, unsigned frame, double value) override {
    results_.put(name, frame, value, {step_, ctx_, rank_++});
    // Always recorded (reports show it); the writers print it only when show_receipt is set.
    results_.record_implementation(name, *receipt_);
  }
  void aggregate(std::string_view name, double value) override { results_.aggregate(name, value); }

 private:
  Results& results_;
  std::uint64_t step_;
  std::uint32_t ctx_;
  const std::string* receipt_;
  std::uint32_t rank_ = 0;
};

}  // namespace

void check_feature_text(const std::string& text) { (void)request_from_text(text); }

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

namespace {

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

// Frames in flight on a device: each worker owns one slot's worth of work (read, upload, compute
// overlap across workers), so a device session uses at least this many workers.
constexpr unsigned kMinDeviceWorkers = 4;

bool names_a_twin(const ContextRequest& r) { return r.info->backend != Backend::kCpu; }

// Thrown in a frame whose temporal turn will never come: an earlier frame failed (Aborted), or a frame
// before it could not be read (Dropped: this one is not kept).
struct Aborted {};
struct Dropped {};

void check_format(const PictureFormat& f) {
  check_picture_size("the session's picture format", f.width, f.height, InputLimits{kMaxPixelsLimit, nullptr});
  if (f.bitdepth < 8 || f.bitdepth > 16)
    throw Error("the session's picture format: bit depth " + std::to_string(f.bitdepth) + " is not 8..16");
  if (f.chroma != ChromaFormat::k420 && f.chroma != ChromaFormat::k422 && f.chroma != ChromaFormat::k444 &&
      f.chroma != ChromaFormat::k400)
    throw Error("the session's picture format: unknown chroma format");
}

// Copies a caller's picture into a picture of the session's layout, row by row.
void copy_view(const PictureView& v, Picture& to, const char* which) {
  const PictureFormat& f = to.format();
  for (int p = 0; p < f.num_planes(); ++p) {
    const std::size_t row_bytes = std::size_t(f.plane_width(p)) * std::size_t(f.bytes_per_sample());
    const PlaneView& plane = v.planes[p];
    if (!plane.data)
      throw Error(std::string(which) + " picture: plane " + std::to_string(p) + " has no data");
    if (plane.stride < 0 || std::size_t(plane.stride) < row_bytes)
      throw Error(std::string(which) + " picture: plane " + std::to_string(p) + " has a stride of " +
                  std::to_string(plane.stride) + " bytes, less than its row of " + std::to_string(row_bytes) +
                  " bytes (" + f.describe() + ")");
    const auto* src = static_cast<const unsigned char*>(plane.data);
    for (int y = 0; y < f.plane_height(p); ++y)
      std::memcpy(to.row<unsigned char>(p, 0) + std::ptrdiff_t(y) * to.stride_bytes(p),
                  src + std::ptrdiff_t(y) * plane.stride, row_bytes);
  }
}

PictureView view_of(const Picture& pic) {
  PictureView v;
  for (int p = 0; p < pic.format().num_planes(); ++p) v.planes[p] = {pic.data(p), pic.stride_bytes(p)};
  return v;
}

}  // namespace

struct Session::Impl {
  Impl(const SessionConfig& cfg, const PictureFormat& format, Results& out)
      : cfg_(cfg), out_(out), mask_(cfg.cpumask), format_(format) {}

  // ---- setup ----

  void open() {
    check_format(format_);
    if (cfg_.subsample == 0) throw Error("--subsample must be at least 1");
    threads_ = cfg_.threads ? cfg_.threads : std::max(1u, std::thread::hardware_concurrency());
    register_contexts();
    out_.width = format_.width;
    out_.height = format_.height;
    const unsigned workers = resolve_and_init();
    make_slots(workers);
    start_workers(workers);
  }

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
      // No model and no no_prediction: VMAF (vmaf_v0.6.1, built in), also beside features, as the vmaf
      // CLI does.
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

  // Picks each context's implementation for the format, builds and initialises it; opens the device
  // pipeline when a twin serves any context. Returns the number of workers.
  unsigned resolve_and_init() {
    bool device_asked = cfg_.backend != Backend::kCpu;
    for (auto& c : contexts_) device_asked = device_asked || names_a_twin(c->request);
    out_.show_receipt = device_asked;
    const Backend device = device_backend();
    std::string why;
    // Probing initialises the device runtime: only when a device was asked for.
    const bool have_device = device_asked && device_usable(device, cfg_.gpu, &why);
    if (device_asked && !have_device && (cfg_.backend != Backend::kAuto || any_named_twin()))
      throw Error(std::string(device == Backend::kVulkan ? "Vulkan" : "CUDA") + " device " + std::to_string(cfg_.gpu) +
                  " cannot be used: " + why);
    bool any_device = false;
    for (auto& c : contexts_) {
      ordered_ = ordered_ || c->request.info->spec->temporal;
      ResolvedContext r =
          resolve_context(c->request, cfg_.backend, format_, all_extractors(), have_device, cfg_.warn, device);
      c->info = r.info;
      c->receipt = std::string(r.info->name) + (r.fell_back ? " (cpu fallback)" : "");
      c->extractor = r.info->create(r.options, RunSettings{cfg_.rcpss});
      if (r.info->backend != Backend::kCpu) {
        c->device = dynamic_cast<DeviceExtractor*>(c->extractor.get());
        if (!c->device) throw Error(std::string(r.info->name) + " is not a device extractor");
        any_device = true;
      }
    }
    unsigned workers = threads_;
    if (any_device) {
      workers = std::max(workers, kMinDeviceWorkers);
      // One slot per worker and one more, filled while the workers compute.
      pipeline_ = make_device_pipeline(device, format_, cfg_.gpu, workers + 1);
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

  // The device backend of the run: the one --backend names; the backend of twins named explicitly
  // (one per run); under auto CUDA when a CUDA device is usable, else Vulkan when a Vulkan GPU is
  // (auto never picks a CPU implementation of Vulkan such as lavapipe: --backend vulkan does).
  Backend device_backend() const {
    std::optional<Backend> named;
    for (const auto& c : contexts_) {
      if (!names_a_twin(c->request)) continue;
      const Backend b = c->request.info->backend;
      if (named && *named != b)
        throw Error("twins of two device backends in one run (" + std::string(to_string(*named)) + " and " +
                    to_string(b) + ")");
      named = b;
    }
    if (named && cfg_.backend != Backend::kAuto && cfg_.backend != Backend::kCpu && cfg_.backend != *named)
      throw Error(std::string("--backend ") + to_string(cfg_.backend) + " with a " + to_string(*named) + " twin named");
    if (named) return *named;
    if (cfg_.backend == Backend::kCuda || cfg_.backend == Backend::kVulkan) return cfg_.backend;
    if (cfg_.backend != Backend::kAuto) return Backend::kCuda;
    if (cuda_device_usable(cfg_.gpu, nullptr)) return Backend::kCuda;
    if (vulkan_device_usable(cfg_.gpu, nullptr, true)) return Backend::kVulkan;
    return Backend::kCuda;
  }

  bool any_named_twin() const {
    for (const auto& c : contexts_)
      if (names_a_twin(c->request)) return true;
    return false;
  }

  // One slot per worker plus one the caller fills while the workers compute, and on the CPU one more:
  // a fed run's reading thread reads a frame while another waits in the queue (read_ahead()). Host
  // pictures are the device pipeline's (pinned) when there is one; otherwise allocated when a slot is
  // first handed out, so slots never used cost nothing.
  void make_slots(unsigned workers) {
    slot_count_ = pipeline_ ? pipeline_->slot_count() : workers + 2;
    own_.resize(slot_count_);
    for (unsigned i = slot_count_; i-- > 0;) free_.push_back(i);
  }

  // `n` workers; if one cannot be started (too many threads, no memory), the others are stopped and
  // joined, and the session fails with one message.
  void start_workers(unsigned n) {
    try {
      workers_.reserve(n);
      for (unsigned i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
    } catch (const std::exception& e) {
      const std::size_t started = workers_.size();
      stop_workers();
      throw Error("--threads " + std::to_string(n) + ": could not start thread " + std::to_string(started + 1) +
                  " (" + e.what() + "); use fewer threads");
    }
  }

  void stop_workers() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    queued_cv_.notify_all();
    for (auto& t : workers_)
      if (t.joinable()) t.join();
    workers_.clear();
  }

  // ---- the caller's side ----

  Session::Slot acquire() {
    std::unique_lock lock(mutex_);
    if (finished_) throw Error("the session is finished: no more frames can be pushed");
    free_cv_.wait(lock, [&] { return !free_.empty() || failure_; });
    if (failure_) std::rethrow_exception(failure_);
    const unsigned id = free_.back();
    free_.pop_back();
    lock.unlock();
    try {
      return slot(id);
    } catch (...) {
      release(id);
      throw;
    }
  }

  Session::Slot slot(unsigned id) {
    if (pipeline_) return {id, &pipeline_->slot(id).ref(), &pipeline_->slot(id).dist()};
    if (!own_[id].ref) {
      own_[id].ref.emplace(format_);
      own_[id].dist.emplace(format_);
    }
    return {id, &*own_[id].ref, &*own_[id].dist};
  }

  void check_slot(unsigned id) const {
    if (id >= slot_count_) throw Error("session: slot " + std::to_string(id) + " was not acquired");
  }

  unsigned submit(unsigned id) {
    check_slot(id);
    unsigned index;
    {
      std::lock_guard lock(mutex_);
      if (failure_) {
        free_.push_back(id);
        free_cv_.notify_one();
        std::rethrow_exception(failure_);
      }
      if (submitted_ == 0) start_ = std::chrono::steady_clock::now();
      index = submitted_++;
      queue_.push_back({id, index});
    }
    queued_cv_.notify_one();
    return index;
  }

  void release(unsigned id) {
    check_slot(id);
    {
      std::lock_guard lock(mutex_);
      free_.push_back(id);
    }
    free_cv_.notify_one();
  }

  unsigned push(const PictureView& ref, const PictureView& dist) {
    const Session::Slot s = acquire();
    try {
      copy_view(ref, *s.ref, "reference");
      copy_view(dist, *s.dist, "distorted");
    } catch (...) {
      release(s.id);
      throw;
    }
    return submit(s.id);
  }

  void finish() {
    {
      std::unique_lock lock(mutex_);
      if (finished_) throw Error("the session is already finished");
      finished_ = true;
      // Every queued frame done (or abandoned after a failure).
      idle_cv_.wait(lock, [&] { return queue_.empty() && busy_ == 0; });
    }
    const double secs =
        submitted_ ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() : 0;
    stop_workers();
    // A frame fed in parallel could not be read: the frames after it, computed meanwhile, are not kept
    // (as if they had been read after it, one by one).
    if (frames_kept_ < submitted_) {
      submitted_ = frames_kept_;
      out_.drop_frames_from(frames_kept_);
    }
    out_.frames = submitted_;
    out_.fps = secs > 0 ? submitted_ / secs : 0;
    // Flush what was computed (also after an error: those frames' results stay valid).
    std::exception_ptr failure = failure_;
    if (submitted_ > 0) {
      try {
        for (auto& c : contexts_) {
          ContextSink sink(out_, ~std::uint64_t(0), *c);
          c->extractor->flush(sink);
        }
        for (auto& m : models_) m->predict(out_, submitted_, cfg_.subsample);
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
    }
    if (failure) std::rethrow_exception(failure);
  }

  // ---- the workers ----

  struct Queued {
    unsigned slot;
    unsigned index;
  };

  // A worker: the next queued frame (push, submit) or, while a feeder feeds, the feeder's next frame read
  // into a free slot; every context run on it; repeat.
  void work() {
    for (;;) {
      Queued q;
      bool fed = false;
      {
        std::unique_lock lock(mutex_);
        queued_cv_.wait(lock, [&] { return !queue_.empty() || closing_ || can_feed(); });
        if (!queue_.empty()) {
          q = queue_.front();
          queue_.pop_front();
        } else if (can_feed()) {
          q.slot = free_.back();
          free_.pop_back();
          fed = true;
        } else {
          return;
        }
        ++busy_;
      }
      if (fed && !take_fed(q)) {
        done_with(q.slot);
        continue;
      }
      bool ok = true;
      FrameSlot* device_slot = pipeline_ ? &pipeline_->slot(q.slot) : nullptr;
      if (!aborted_) {
        try {
          const Session::Slot s = slot(q.slot);
          process(*s.ref, *s.dist, q.index, device_slot);
        } catch (const Dropped&) {
          ok = false;  // a frame before this one could not be read: this one is not kept
        } catch (...) {
          fail(std::current_exception(), q.index);
          ok = false;
        }
      }
      // A frame given up between its upload and its wait left work on the slot's stream (the upload
      // reads the slot's host pictures, the twins write its buffers): the slot goes back to the free
      // list only once that is done, as each worker owned its slot until it stopped before sessions.
      if (!ok && device_slot) drain(*device_slot);
      if (ok && !aborted_) {
        const unsigned done = ++frames_done_;
        if (cfg_.progress) cfg_.progress(done, 0);
      }
      done_with(q.slot);
    }
  }

  static void drain(FrameSlot& slot) {
    try {
      slot.wait();
    } catch (...) {  // a device fault: the frame's failure (or an earlier one) is what the session reports
    }
  }

  void done_with(unsigned slot_id) {
    {
      std::lock_guard lock(mutex_);
      free_.push_back(slot_id);
      --busy_;
    }
    free_cv_.notify_all();
    idle_cv_.notify_all();
  }

  // Whether a worker should take the feeder's next frame (mutex_ held): with free slots and nothing
  // queued, unless the frames must be taken in turn while the feeding thread also reads (see feed()).
  bool can_feed() const {
    return feeder_ && !feed_over_ && !aborted_ && !free_.empty() && (!ordered_ || !reading_ahead_);
  }

  // The feeder's next frame into slot q.slot; false when there is none (the feed is then over).
  bool take_fed(Queued& q) {
    std::optional<unsigned> index;
    try {
      const Session::Slot s = slot(q.slot);
      index = feeder_->next(*s.ref, *s.dist);
    } catch (const FeedError& e) {
      feed_failed(e);
      return false;
    } catch (...) {  // the slot's pictures could not be allocated
      std::unique_lock lock(mutex_);
      const unsigned at = submitted_;
      lock.unlock();
      feed_failed({at, std::current_exception()});
      return false;
    }
    std::lock_guard lock(mutex_);
    if (!index) {
      feed_over_ = true;
      return false;
    }
    if (submitted_ == 0) start_ = std::chrono::steady_clock::now();
    ++submitted_;
    q.index = *index;
    return true;
  }

  // A frame that could not be read: the feed is over, frames from it on are not kept, and temporal
  // contexts waiting for it give up their later frames (Dropped).
  void feed_failed(const FeedError& e) {
    {
      std::lock_guard lock(mutex_);
      feed_over_ = true;
      record_failure(e.error, e.index);
      if (e.index < frames_kept_) frames_kept_ = e.index;
    }
    wake_turns();
  }

  // Runs the workers on `feeder` until its frames are all taken and done. On the CPU the calling
  // thread reads ahead meanwhile (read_ahead()), as libvmaf's reading thread does beside its pool.
  void feed(FrameFeeder& feeder) {
    {
      std::lock_guard lock(mutex_);
      if (finished_) throw Error("the session is finished: no more frames can be pushed");
      feeder_ = &feeder;
      feed_over_ = false;
      // Only with a core to spare for it: where every core already runs a worker, workers reading
      // their own frames (cache-warm, in parallel) cost less than one more thread handing them over.
      reading_ahead_ = !pipeline_ && workers_.size() < std::max(1u, std::thread::hardware_concurrency());
    }
    queued_cv_.notify_all();
    if (reading_ahead_) read_ahead();
    std::unique_lock lock(mutex_);
    idle_cv_.wait(lock, [&] { return (feed_over_ || aborted_) && queue_.empty() && busy_ == 0; });
    feeder_ = nullptr;
  }

  // The feeding thread's loop: the feeder's next frame into a free slot, queued for the workers, until
  // the feed is over. Workers take queued frames first, so reading overlaps computing even with one
  // worker; at most the session's slots are in flight. Workers also read frames themselves when
  // nothing is queued, except in a session with temporal contexts: these take frames in turn, and a
  // worker holding a later frame while this thread still reads an earlier one could leave no worker
  // free to compute it; there every frame comes through the queue in index order (this thread alone
  // takes frames, FIFO), so the earliest frame not done is always on a worker.
  void read_ahead() {
    for (;;) {
      Queued q{};
      {
        std::unique_lock lock(mutex_);
        free_cv_.wait(lock, [&] { return feed_over_ || aborted_ || !free_.empty(); });
        if (feed_over_ || aborted_) break;
        q.slot = free_.back();
        free_.pop_back();
      }
      const bool taken = take_fed(q);
      {
        std::lock_guard lock(mutex_);
        // After a failure elsewhere a worker takes it and skips it, as its own.
        if (taken) queue_.push_back(q);
        else free_.push_back(q.slot);
      }
      queued_cv_.notify_one();
    }
    std::lock_guard lock(mutex_);
    reading_ahead_ = false;
    queued_cv_.notify_all();  // workers that waited for it may read themselves now (nothing left)
  }

  // Whether a non-temporal context extracts a frame: the written ones (`sampled`), or every frame for
  // a feature libvmaf flags TEMPORAL (FeatureSpec::libvmaf_temporal: its aggregates cover all frames).
  static bool runs(const Context& c, bool sampled) { return sampled || c.info->spec->libvmaf_temporal; }

  // Runs `step` for temporal context `c` when `turn` reaches `index` (frames in order).
  template <class Step>
  void in_turn(Context& c, unsigned& turn, unsigned index, Step step) {
    std::unique_lock lock(c.mutex);
    c.cv.wait(lock, [&] { return turn == index || aborted_.load() || index >= frames_kept_.load(); });
    if (aborted_) throw Aborted{};
    if (index >= frames_kept_) throw Dropped{};
    step();
    ++turn;
    c.cv.notify_all();
  }

  // One frame through every context. Device work is enqueued first (upload, then each twin's
  // kernels), the CPU contexts run while the device computes, then the slot is waited for once and
  // the twins' values collected. Temporal CPU contexts run before the others: the frames wait for each
  // other only for them, so the chain of frames in turn is as short as it can be.
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
    for (auto& c : contexts_) {
      if (c->device || !c->info->spec->temporal) continue;
      in_turn(*c, c->turn, index, [&] {
        ContextSink sink(out_, step_of(*c->info, index), *c);
        c->extractor->extract(ref, dist, index, sink);
      });
    }
    for (auto& c : contexts_)
      if (!c->device && !c->info->spec->temporal && runs(*c, sampled)) {
        ContextSink sink(out_, step_of(*c->info, index), *c);
        c->extractor->extract(ref, dist, index, sink);
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

  // Frame `index` failed: the failure of the earliest frame that failed is kept; every later frame is
  // abandoned, and temporal contexts waiting for the failed frame are woken to stop.
  void fail(std::exception_ptr e, unsigned index) {
    {
      std::lock_guard lock(mutex_);
      try {
        std::rethrow_exception(e);
      } catch (const Aborted&) {
      } catch (...) {
        record_failure(e, index);
      }
    }
    aborted_ = true;
    wake_turns();
    free_cv_.notify_all();
    idle_cv_.notify_all();
  }

  // The failure the session reports: of the earliest frame that failed (mutex_ held).
  void record_failure(std::exception_ptr e, unsigned index) {
    if (!failure_ || index < failure_frame_) {
      failure_ = e;
      failure_frame_ = index;
    }
  }

  void wake_turns() {
    for (auto& c : contexts_) {
      std::lock_guard lock(c->mutex);
      c->cv.notify_all();
    }
  }

  const SessionConfig cfg_;
  Results& out_;
  const cpu::RunMask mask_;  // before any context picks its kernels
  const PictureFormat format_;
  unsigned threads_ = 1;
  // The device pipeline outlives the contexts (twins hold buffers of its slots): declared first.
  std::unique_ptr<DevicePipeline> pipeline_;
  std::vector<std::unique_ptr<Context>> contexts_;
  std::vector<std::unique_ptr<models::Model>> models_;

  struct OwnPictures {
    std::optional<Picture> ref, dist;
  };
  unsigned slot_count_ = 0;
  std::vector<OwnPictures> own_;
  std::vector<std::thread> workers_;

  std::mutex mutex_;  // guards everything below but the atomics
  std::condition_variable free_cv_, queued_cv_, idle_cv_;
  std::vector<unsigned> free_;
  std::deque<Queued> queue_;
  unsigned busy_ = 0;
  bool closing_ = false;
  bool finished_ = false;
  unsigned submitted_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::exception_ptr failure_;
  unsigned failure_frame_ = 0;  // the frame failure_ is about
  FrameFeeder* feeder_ = nullptr;  // while feed() runs
  bool feed_over_ = false;
  bool reading_ahead_ = false;  // the feeding thread reads frames (feed(), on the CPU)
  bool ordered_ = false;        // some context is temporal: frames in turn
  // Frames kept: all unless a fed frame could not be read (then that frame's index).
  std::atomic<unsigned> frames_kept_{~0u};
  std::atomic<bool> aborted_{false};
  std::atomic<unsigned> frames_done_{0};
};

Session::Session(const SessionConfig& config, const PictureFormat& format, Results& out)
    : impl_(std::make_unique<Impl>(config, format, out)) {
  impl_->open();
}

Session::~Session() {
  if (impl_) impl_->stop_workers();  // the queued frames are computed first (workers drain the queue)
}

const PictureFormat& Session::format() const { return impl_->format_; }

unsigned Session::push(const PictureView& ref, const PictureView& dist) { return impl_->push(ref, dist); }

unsigned Session::push(const Picture& ref, const Picture& dist) {
  if (ref.format() != impl_->format_ || dist.format() != impl_->format_)
    throw Error("push: the pictures are " + ref.format().describe() + " and " + dist.format().describe() +
                ", the session's format is " + impl_->format_.describe());
  return impl_->push(view_of(ref), view_of(dist));
}

Session::Slot Session::acquire() { return impl_->acquire(); }
unsigned Session::submit(const Slot& slot) { return impl_->submit(slot.id); }
void Session::release(const Slot& slot) { impl_->release(slot.id); }
void Session::finish() { impl_->finish(); }

void feed_session(Session& session, FrameFeeder& feeder) { session.impl_->feed(feeder); }

unsigned Session::frames_pushed() const {
  std::lock_guard lock(impl_->mutex_);
  return impl_->submitted_;
}

}  // namespace vqtwin
