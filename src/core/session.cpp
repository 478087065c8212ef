// The session: contexts registered (models, then features), backends resolved for the format, a pool of
// picture slots that callers fill (push copies, acquire/submit fills in place) and worker threads that
// run every context on each submitted frame; finish() flushes and predicts. vqtwin::run (file inputs)
// feeds the same session (core/engine.cpp).
#include "vqtwin/session.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "backends/device.hpp"
#include "common/cpu.hpp"
#include "core/device_start.hpp"
#include "core/extractor.hpp"
#include "core/mixed_policy.hpp"
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

  // Mixed runs (--backend auto, see Session::Impl::process_mixed): `extractor` is the CPU instance; once
  // the device is ready a twin computes frames too. A non-temporal context's frames go to either; a
  // temporal one's are split once, at frame `handover`: the CPU instance extracts the frames before
  // `cpu_until` and keeps its values for frames before `handover`, the twin extracts every frame from
  // the split on (numbered from 0 there) and keeps its values from `handover` on.
  bool splittable = false;
  FrameReach reach;
  std::unique_ptr<Extractor> twin_holder;
  DeviceExtractor* twin = nullptr;
  const ExtractorInfo* twin_info = nullptr;
  unsigned handover = ~0u;
  unsigned cpu_until = ~0u;
  unsigned twin_turn = 0;
  unsigned twin_collect_turn = 0;
  std::atomic<unsigned> cpu_frames{0}, twin_frames{0};  // non-temporal: frames each computed
  std::mutex names_mutex;
  std::vector<std::string> names;  // the output names it wrote (its receipt, recorded at finish)
};

// Forwards one call's values to the results, stamped for libvmaf's output order.
class ContextSink final : public FeatureSink {
 public:
  ContextSink(Results& r, std::uint64_t step, Context& c) : results_(r), step_(step), ctx_(&c) {}
  // A mixed run's: the instance's frame numbers start at `offset`; values of frames outside
  // [keep_from, keep_below) are another instance's to write and are dropped.
  ContextSink(Results& r, std::uint64_t step, Context& c, bool mixed, unsigned offset = 0, unsigned keep_from = 0,
              unsigned keep_below = ~0u)
      : results_(r), step_(step), ctx_(&c), mixed_(mixed), offset_(offset), keep_from_(keep_from), keep_below_(keep_below) {}
  void put(std::string_view name, unsigned frame, double value) override {
    frame += offset_;
    if (frame < keep_from_ || frame >= keep_below_) return;
    results_.put(name, frame, value, {step_, ctx_->index, rank_++});
    // Always recorded (reports show it); the writers print it only when show_receipt is set. A mixed
    // run's names are recorded at the end, when who computed how many frames is known.
    if (!mixed_) {
      results_.record_implementation(name, ctx_->receipt);
      return;
    }
    std::lock_guard lock(ctx_->names_mutex);
    for (const auto& n : ctx_->names)
      if (n == name) return;
    ctx_->names.emplace_back(name);
  }
  void aggregate(std::string_view name, double value) override { results_.aggregate(name, value); }

 private:
  Results& results_;
  std::uint64_t step_;
  Context* ctx_;
  bool mixed_ = false;
  unsigned offset_ = 0, keep_from_ = 0, keep_below_ = ~0u;
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

// A mixed run whose temporal contexts hand over at the split itself, without the frames of overlap
// their reach asks for (the planted bug the mixed-run test must catch).
bool plant_no_overlap() {
  const char* v = std::getenv("VQTWIN_PLANT");
  return v && std::string_view(v) == "mixed_no_overlap";
}

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
    if (mixed_) start_device();
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
    // auto on CUDA: the CPU starts at once, the device joins when it is ready (open_mixed, start_device).
    if (cfg_.backend == Backend::kAuto && !any_named_twin() && device == Backend::kCuda) return open_mixed();
    std::string why;
    // Probing initialises the device runtime: only when a device was asked for. A file run started the
    // CUDA check already (core/engine.cpp); this waits for its answer.
    const bool have_device = device_asked && (device == Backend::kVulkan ? vulkan_device_usable(cfg_.gpu, &why)
                                                                         : *device_probe(cfg_.gpu, &why));
    if (device_asked && !have_device && (cfg_.backend != Backend::kAuto || any_named_twin()))
      throw Error(std::string(device == Backend::kVulkan ? "Vulkan" : "CUDA") + " device " + std::to_string(cfg_.gpu) +
                  " cannot be used: " + why);
    bool any_device = false;
    for (auto& c : contexts_) {
      ordered_ = ordered_ || c->request.info->spec->temporal;
      ResolvedContext r =
          resolve_context(c->request, cfg_.backend, format_,
                          device == Backend::kVulkan ? all_extractors() : provider_.registry(), have_device, cfg_.warn,
                          device);
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
      const auto t0 = std::chrono::steady_clock::now();
      pipeline_ = device == Backend::kVulkan ? make_device_pipeline(device, format_, cfg_.gpu, workers + 1)
                                             : provider_.make_pipeline(format_, cfg_.gpu, workers + 1);
      live_pipeline_ = pipeline_.get();
      startup_step("device pipeline (streams, pinned slots)", ms_since(t0));
      // Each frame uploads only the planes some twin reads.
      unsigned planes = 0;
      for (const auto& c : contexts_)
        if (c->device) planes |= c->device->planes_read();
      pipeline_->set_uploaded_planes(planes);
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (auto& c : contexts_) {
      if (c->device) c->device->bind(*pipeline_);
      init_reported(*c->extractor, c->info->name);
    }
    if (any_device) startup_step("contexts initialised (the twins' device buffers)", ms_since(t0));
    return workers;
  }

  // init(), with its time in the start-up report for a device extractor (its buffers and pinned slots).
  void init_reported(Extractor& e, std::string_view name) {
    const auto t0 = std::chrono::steady_clock::now();
    e.init(format_);
    if (startup_report_wanted() && dynamic_cast<DeviceExtractor*>(&e))
      startup_step("  " + std::string(name) + " initialised", ms_since(t0));
  }

  static double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  // ---- mixed runs (--backend auto) ----

  // Every context on the CPU now; the device is checked and set up on a thread of its own
  // (start_device), and takes frames once it is ready.
  unsigned open_mixed() {
    mixed_ = true;
    for (auto& c : contexts_) {
      const FeatureSpec& spec = *c->request.info->spec;
      ordered_ = ordered_ || spec.temporal;
      c->info = c->request.info;
      c->receipt = std::string(c->info->name);
      c->extractor = c->info->create(c->request.options, RunSettings{cfg_.rcpss});
      c->extractor->init(format_);
      c->splittable = spec.temporal ? spec.reach != nullptr : !spec.clip_aggregates;
      if (spec.temporal && spec.reach) c->reach = plant_no_overlap() ? FrameReach{} : spec.reach(c->request.options);
    }
    cpu_cap_ = mixed::cpu_cap(threads_, mixed::device_slots(threads_), &cpu_cap_forced_);
    hold_after_ = mixed::forced_split();
    return threads_;
  }

  void start_device() {
    try {
      device_thread_ = std::thread([this] { set_up_device(); });
    } catch (const std::system_error&) {
      // No thread for it: the run stays on the CPU.
      std::lock_guard lock(mutex_);
      hold_after_.reset();
    }
  }

  // The device thread: the check, then each splittable context's twin (as --backend auto resolves it),
  // the pipeline and the twins' buffers, then the device's slots handed to the workers. Any failure
  // leaves the run on the CPU (with one warning line when the device was usable).
  void set_up_device() {
    try_set_up_device();
    // A device that never takes over releases a forced split's hold: the CPU computes every frame.
    {
      std::lock_guard lock(mutex_);
      if (!switched_) hold_after_.reset();
    }
    queued_cv_.notify_all();
  }

  void try_set_up_device() {
    std::string why;
    const std::optional<bool> usable = device_probe(cfg_.gpu, &why, &device_cancel_);
    if (usable && !*usable && !device_cancel_ && cuda_device_count(nullptr) > 0 && cfg_.warn)
      // A device that exists but cannot be used (a wrong --gpu, its memory taken): said once. With no
      // CUDA device at all the CPU runs without a word.
      cfg_.warn("--backend auto: CUDA device " + std::to_string(cfg_.gpu) + " cannot be used (" + why +
                "); the CPU computes every frame");
    if (!usable || !*usable || device_cancel_) return;
    // The device's slots: as many as --backend cuda's (one per feeding worker and one more).
    const unsigned slots = mixed::device_slots(threads_);
    {
      // From now on the CPU starts only frames it finishes before the device is expected to be ready.
      const double pinned = 2.0 * double(format_.frame_bytes()) * slots;
      std::lock_guard lock(mutex_);
      setup_estimate_ = mixed::setup_estimate(pinned);
      ready_at_ = seconds_now() + setup_estimate_;
    }
    if (startup_report_wanted())
      startup_step("the device's set-up is estimated at " + std::to_string(int(setup_estimate_ * 1000 + 0.5)) +
                   " ms: the CPU starts no frame it would end well after");
    struct Unhold {  // a set-up that gives up: the CPU bridges again, as it did
      Impl& s;
      bool armed = true;
      ~Unhold() {
        if (!armed) return;
        {
          std::lock_guard lock(s.mutex_);
          s.ready_at_.reset();
        }
        s.queued_cv_.notify_all();
      }
    } unhold{*this};
    try {
      const auto t0 = std::chrono::steady_clock::now();
      // The pipeline outlives the twins (they hold buffers of its slots) when this gives up.
      std::unique_ptr<DevicePipeline> pipeline;
      std::vector<std::unique_ptr<Extractor>> twins(contexts_.size());
      bool any = false;
      for (std::size_t i = 0; i < contexts_.size(); ++i) {
        Context& c = *contexts_[i];
        if (!c.splittable) continue;
        const ResolvedContext r =
            resolve_context(c.request, Backend::kAuto, format_, provider_.registry(), true, cfg_.warn);
        if (r.info->backend == Backend::kCpu) continue;
        twins[i] = r.info->create(r.options, RunSettings{cfg_.rcpss});
        if (!dynamic_cast<DeviceExtractor*>(twins[i].get()))
          throw Error(std::string(r.info->name) + " is not a device extractor");
        c.twin_info = r.info;
        any = true;
      }
      if (!any || device_cancel_) return;
      pipeline = provider_.make_pipeline(format_, cfg_.gpu, slots);
      startup_step("device pipeline (streams, pinned slots)", ms_since(t0));
      unsigned planes = 0;
      for (auto& t : twins)
        if (t) planes |= dynamic_cast<DeviceExtractor&>(*t).planes_read();
      pipeline->set_uploaded_planes(planes);
      for (std::size_t i = 0; i < twins.size(); ++i)
        if (twins[i]) {
          dynamic_cast<DeviceExtractor&>(*twins[i]).bind(*pipeline);
          init_reported(*twins[i], contexts_[i]->twin_info->name);
        }
      if (device_cancel_) return;
      unhold.armed = !publish_device(pipeline, twins);
      startup_step("device ready: it takes frames from now on", ms_since(t0));
    } catch (const std::exception& e) {
      if (cfg_.warn) cfg_.warn(std::string("--backend auto: the device could not be set up (") + e.what() +
                               "); the CPU computes every frame");
    }
  }

  // Hands the device's slots to the workers: from now on frames are read into them (host slots are
  // retired as they come back). The workers still computing a frame on the CPU would leave the device
  // unfed until they are done: as many workers start now, and as many retire as they finish, so that
  // the run goes on with --backend cuda's number of workers. False when the run is over already.
  bool publish_device(std::unique_ptr<DevicePipeline>& pipeline, std::vector<std::unique_ptr<Extractor>>& twins) {
    unsigned extra = 0;
    {
      std::lock_guard lock(mutex_);
      if (closing_ || finished_ || aborted_) return false;
      for (std::size_t i = 0; i < contexts_.size(); ++i) {
        if (!twins[i]) continue;
        Context& c = *contexts_[i];
        c.twin = dynamic_cast<DeviceExtractor*>(twins[i].get());
        c.twin_holder = std::move(twins[i]);
        if (!c.info->spec->temporal) non_temporal_twins_ = true;
      }
      pipeline_ = std::move(pipeline);
      live_pipeline_ = pipeline_.get();
      switched_ = true;
      std::erase_if(free_, [&](unsigned id) { return id < cpu_slots_; });
      for (unsigned i = pipeline_->slot_count(); i-- > 0;) free_.push_back(cpu_slots_ + i);
      slot_count_ = cpu_slots_ + pipeline_->slot_count();
      resolve_split();
      extra = busy_ + (std::max(threads_, kMinDeviceWorkers) - threads_);
      retire_ = busy_;
    }
    free_cv_.notify_all();
    queued_cv_.notify_all();
    try {
      std::lock_guard lock(workers_mutex_);
      for (unsigned i = 0; i < extra; ++i) workers_.emplace_back([this] { work(); });
    } catch (const std::system_error&) {  // fewer workers: slower, the same values
      retire_ = 0;
    }
    return true;
  }

  // Whether this worker retires (a mixed run's workers beyond --backend cuda's number, see
  // publish_device).
  bool retire() {
    unsigned n = retire_.load();
    while (n > 0)
      if (retire_.compare_exchange_weak(n, n - 1)) return true;
    return false;
  }

  bool switched() {
    std::lock_guard lock(mutex_);
    return switched_;
  }

  double seconds_now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_).count();
  }

  // Before the device is ready (mutex_ held): whether workers leave the next frame to the device.
  bool holding_for_device() const {
    if (!mixed_ || switched_) return false;
    if (hold_after_ && host_taken_ >= *hold_after_) return true;  // VQTWIN_AUTO_SPLIT (mixed::forced_split)
    return ready_at_ && !mixed::start_on_cpu(seconds_now(), rates_.cpu_seconds(), ready_at_, setup_estimate_);
  }

  // A frame taken into a host slot now has its index (or none); mutex_ held.
  void host_take_done(unsigned slot_id, std::optional<unsigned> index) {
    if (!mixed_ || slot_id >= cpu_slots_) return;
    --host_takes_;
    if (index) host_end_ = std::max(host_end_, *index + 1);
    resolve_split();
  }

  // The split: once the device's slots are out and every frame taken into a host slot has its index,
  // the frames from one past the last of these on are the device's to share (mutex_ held). Each
  // temporal twin's handover is its reach after it.
  void resolve_split() {
    if (split_known_ || !switched_ || host_takes_ > 0) return;
    split_ = host_end_;
    for (auto& c : contexts_) {
      if (!c->twin || !c->info->spec->temporal) continue;
      std::lock_guard lock(c->mutex);
      c->handover = split_ == 0 ? 0 : split_ + c->reach.before;
      c->cpu_until = split_ == 0 ? 0 : c->handover + c->reach.after;
      c->twin_turn = c->twin_collect_turn = split_;
    }
    split_known_ = true;
    split_ready_.store(true, std::memory_order_release);
    split_cv_.notify_all();
    if (startup_report_wanted()) startup_step("the device shares the frames from frame " + std::to_string(split_) + " on");
  }

  unsigned wait_split() {
    if (split_ready_.load(std::memory_order_acquire)) return split_;
    std::unique_lock lock(mutex_);
    split_cv_.wait(lock, [&] { return split_known_ || aborted_.load(); });
    if (aborted_) throw Aborted{};
    return split_;
  }

  // After the split: whether frame `index`'s non-temporal contexts run on the CPU (mixed_policy.hpp);
  // if so, one of the CPU's places is taken.
  bool take_cpu_frame(unsigned index) {
    mixed::AfterReady a;
    a.index = index;
    a.expected = expected_.load();
    a.device_in_flight = device_in_flight_.load();
    a.cpu_cap = cpu_cap_;
    a.threads = threads_;
    a.forced = cpu_cap_forced_;
    a.cpu_seconds = rates_.cpu_seconds();
    a.device_fps = rates_.device_fps();
    a.cpu_busy = cpu_busy_.load();
    bool taken = false;
    while (!taken && mixed::cpu_takes(a)) taken = cpu_busy_.compare_exchange_weak(a.cpu_busy, a.cpu_busy + 1);
    if (taken && !cpu_workers_started_.exchange(true)) add_cpu_workers();
    return taken;
  }

  // The CPU's first frame after the split: cpu_cap_ more workers, for the CPU's frames, so that the
  // device keeps as many feeding workers as before. Not while the workers are being stopped (that
  // holds workers_mutex_ while it joins them): fewer workers are slower, never different.
  void add_cpu_workers() {
    std::unique_lock lock(workers_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    try {
      for (unsigned i = 0; i < cpu_cap_; ++i) workers_.emplace_back([this] { work(); });
    } catch (const std::system_error&) {
    }
  }

  // A mixed run's frame. Before the split (and in host slots) every context runs on the CPU. From the
  // split on, the frame is uploaded when a twin needs it; temporal twins take it in turn, and its
  // non-temporal contexts run on their twins unless the policy gives the frame to the CPU
  // (take_cpu_frame). A temporal context's CPU instance runs its frames up to cpu_until; the twin's
  // work is collected before any CPU work of the frame, so a frame computed on the CPU never holds up
  // the device's chain. The CPU's time per frame and the device's completions feed the policy's rates.
  void process_mixed(const Picture& ref, const Picture& dist, unsigned index, FrameSlot* slot) {
    const double started = seconds_now();
    const bool sampled = cfg_.subsample <= 1 || index % cfg_.subsample == 0;
    const unsigned split = slot ? wait_split() : ~0u;
    const bool shared = index >= split;
    struct Count {
      std::atomic<unsigned>* n = nullptr;
      ~Count() {
        if (n) --*n;
      }
    } cpu_place, in_flight;
    bool on_device = shared && non_temporal_twins_;
    if (on_device && take_cpu_frame(index)) {
      cpu_place.n = &cpu_busy_;
      on_device = false;
    }
    if (on_device) {
      ++device_in_flight_;
      in_flight.n = &device_in_flight_;
    }
    auto twin_runs = [&](const Context& c) {
      return shared && c.twin && (c.info->spec->temporal || (on_device && runs(c, sampled)));
    };
    bool device_work = false;
    for (auto& c : contexts_) device_work = device_work || twin_runs(*c);
    if (device_work) {
      slot->upload();
      for (auto& c : contexts_) {
        if (!twin_runs(*c)) continue;
        if (c->info->spec->temporal)
          in_turn(*c, c->twin_turn, index, [&] { c->twin->submit(*slot, index - split); });
        else
          c->twin->submit(*slot, index);
      }
    }
    for (auto& c : contexts_) {
      if (!c->info->spec->temporal) continue;
      in_turn_if(*c, index, [&] {
        if (slot) slot->host_pictures();  // a frame decoded on the device, copied back for the CPU
        ContextSink sink(out_, step_of(*c->info, index), *c, true, 0, 0, c->handover);
        c->extractor->extract(ref, dist, index, sink);
      });
    }
    if (device_work) {
      slot->wait();
      for (auto& c : contexts_) {
        if (!twin_runs(*c)) continue;
        if (c->info->spec->temporal) {
          in_turn(*c, c->twin_collect_turn, index, [&] {
            ContextSink sink(out_, step_of(*c->info, index), *c, true, split, c->handover);
            c->twin->collect(*slot, index - split, sink);
          });
        } else {
          ContextSink sink(out_, step_of(*c->info, index), *c, true);
          c->twin->collect(*slot, index, sink);
          ++c->twin_frames;
        }
      }
    }
    if (on_device) {
      rates_.device_frame(seconds_now());
      ++device_after_split_;
      in_flight.n = nullptr;
      --device_in_flight_;
    }
    // Contexts without a twin (clip aggregates) run here on every frame; the others when the frame is
    // the CPU's.
    const double cpu_started = seconds_now();
    for (auto& c : contexts_)
      if (!c->info->spec->temporal && !twin_runs(*c) && runs(*c, sampled)) {
        if (slot) slot->host_pictures();
        ContextSink sink(out_, step_of(*c->info, index), *c, true);
        c->extractor->extract(ref, dist, index, sink);
        ++c->cpu_frames;
      }
    if (on_device || !sampled) return;
    // The CPU's time for a whole frame on one worker: a frame before the split from its start (its
    // temporal contexts included), a frame after from its CPU work.
    rates_.cpu_frame(seconds_now() - (shared ? cpu_started : started));
    if (shared) ++cpu_after_split_;
  }

  // Runs a temporal context's CPU instance on frame `index` in turn, when the frame is one it extracts
  // (cpu_until is read under the context's lock: the split may be decided meanwhile).
  template <class Step>
  void in_turn_if(Context& c, unsigned index, Step step) {
    std::unique_lock lock(c.mutex);
    c.cv.wait(lock, [&] {
      return index >= c.cpu_until || c.turn == index || aborted_.load() || index >= frames_kept_.load();
    });
    if (index >= c.cpu_until) return;
    if (aborted_) throw Aborted{};
    if (index >= frames_kept_) throw Dropped{};
    step();
    ++c.turn;
    c.cv.notify_all();
  }

  // A mixed run's end: each instance flushed into its own frames, and the receipt says who computed
  // what.
  void flush_mixed() {
    const unsigned n = submitted_;
    if (startup_report_wanted() && split_known_) {
      const auto cpu = rates_.cpu_seconds();
      const auto fps = rates_.device_fps();
      char text[200];
      std::snprintf(text, sizeof text,
                    "after the split: %u frames on the device, %u on the CPU (the CPU %.1f ms a frame a worker, "
                    "the device %.0f frames/s)",
                    device_after_split_.load(), cpu_after_split_.load(), cpu ? *cpu * 1000 : 0.0, fps ? *fps : 0.0);
      startup_step(text);
    }
    for (auto& c : contexts_) {
      const bool temporal = c->info->spec->temporal;
      if (!temporal || c->turn > 0) {
        ContextSink sink(out_, ~std::uint64_t(0), *c, true, 0, 0, temporal ? c->handover : ~0u);
        c->extractor->flush(sink);
      }
      if (c->twin && (!temporal || (split_known_ && c->twin_turn > split_))) {
        ContextSink sink(out_, ~std::uint64_t(0), *c, true, temporal ? split_ : 0, temporal ? c->handover : 0);
        c->twin->flush(sink);
      }
      std::string text(c->info->name);
      if (c->twin && temporal && split_known_ && c->handover < n) {
        text = std::string(c->twin_info->name) +
               (c->handover == 0 ? "" : " on frames " + std::to_string(c->handover) + ".." + std::to_string(n - 1) +
                                            ", " + std::string(c->info->name) + " on frames 0.." +
                                            std::to_string(c->handover - 1));
      } else if (c->twin && !temporal && c->twin_frames > 0) {
        text = c->cpu_frames == 0 ? std::string(c->twin_info->name)
                                  : std::string(c->twin_info->name) + " on " + std::to_string(c->twin_frames.load()) +
                                        " frames, " + std::string(c->info->name) + " on " +
                                        std::to_string(c->cpu_frames.load());
      }
      std::lock_guard lock(c->names_mutex);
      for (const auto& name : c->names) out_.record_implementation(name, text);
    }
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
    // auto: CUDA (its check runs on a thread of its own from the inputs' opening on) unless that check
    // has already said no; then a Vulkan GPU if one is usable.
    bool cuda_usable = true;
    if (device_probe_known(cfg_.gpu, &cuda_usable) && !cuda_usable && vulkan_device_usable(cfg_.gpu, nullptr, true))
      return Backend::kVulkan;
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
  // Slot ids: the host slots first (cpu_slots_ of them), then the pipeline's (a mixed run's, once the
  // device is ready).
  void make_slots(unsigned workers) {
    slot_count_ = pipeline_ ? pipeline_->slot_count() : workers + 2;
    cpu_slots_ = pipeline_ ? 0 : slot_count_.load();
    own_.resize(cpu_slots_);
    for (unsigned i = slot_count_; i-- > 0;) free_.push_back(i);
  }

  FrameSlot* device_slot(unsigned id) const {
    return id >= cpu_slots_ ? &live_pipeline_.load()->slot(id - cpu_slots_) : nullptr;
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
    // A device still being set up is given up first (it adds workers when it is ready).
    device_cancel_ = true;
    if (device_thread_.joinable()) device_thread_.join();
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    queued_cv_.notify_all();
    std::lock_guard lock(workers_mutex_);
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
    if (mixed_ && id < cpu_slots_) ++host_takes_;
    lock.unlock();
    try {
      if (FrameSlot* d = device_slot(id)) d->begin_frame();
      return slot(id);
    } catch (...) {
      release(id);
      throw;
    }
  }

  Session::Slot slot(unsigned id) {
    if (FrameSlot* d = device_slot(id)) return {id, &d->ref(), &d->dist()};
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
        host_take_done(id, std::nullopt);
        give_back(id);
        free_cv_.notify_one();
        std::rethrow_exception(failure_);
      }
      if (submitted_ == 0) start_ = std::chrono::steady_clock::now();
      index = submitted_++;
      host_take_done(id, index);
      queue_.push_back({id, index});
    }
    queued_cv_.notify_one();
    return index;
  }

  void release(unsigned id) {
    check_slot(id);
    {
      std::lock_guard lock(mutex_);
      host_take_done(id, std::nullopt);
      give_back(id);
    }
    free_cv_.notify_one();
  }

  // A slot back to the free list, unless it is a host slot of a mixed run whose device took over
  // (mutex_ held).
  void give_back(unsigned id) {
    if (switched_ && id < cpu_slots_) return;
    free_.push_back(id);
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
        if (mixed_) flush_mixed();
        for (auto& c : contexts_) {
          if (mixed_) break;
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
        // A worker holding a frame back for the device looks again now and then: the device may be
        // later than expected, and the CPU then goes on.
        while (!(!queue_.empty() || closing_ || can_feed())) {
          if (holding_for_device()) queued_cv_.wait_for(lock, std::chrono::milliseconds(2));
          else queued_cv_.wait(lock);
        }
        if (!queue_.empty()) {
          q = queue_.front();
          queue_.pop_front();
        } else if (can_feed()) {
          q.slot = free_.back();
          free_.pop_back();
          if (mixed_ && q.slot < cpu_slots_) {
            ++host_takes_;
            ++host_taken_;
          }
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
      FrameSlot* device_slot = this->device_slot(q.slot);
      if (!aborted_) {
        try {
          const Session::Slot s = slot(q.slot);
          if (mixed_)
            process_mixed(*s.ref, *s.dist, q.index, device_slot);
          else
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
        if (done == 1) startup_step("first frame scored");
        if (cfg_.progress) cfg_.progress(done, 0);
      }
      done_with(q.slot);
      // A worker that computed a frame of a host slot after the switch retires, while there are more
      // workers than --backend cuda's (see publish_device); the others feed the device.
      if (mixed_ && q.slot < cpu_slots_ && retire_.load() > 0 && switched() && retire()) return;
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
      give_back(slot_id);
      --busy_;
    }
    free_cv_.notify_all();
    idle_cv_.notify_all();
  }

  // Whether a worker should take the feeder's next frame (mutex_ held): with free slots and nothing
  // queued, unless the frames must be taken in turn while the feeding thread also reads (see feed()).
  bool can_feed() const {
    return feeder_ && !feed_over_ && !aborted_ && !free_.empty() && (!ordered_ || !reading_ahead_) &&
           !holding_for_device();
  }

  // The feeder's next frame into slot q.slot; false when there is none (the feed is then over).
  bool take_fed(Queued& q) {
    std::optional<unsigned> index;
    try {
      const Session::Slot s = slot(q.slot);
      FrameSlot* device = device_slot(q.slot);
      if (device) device->begin_frame();
      index = feeder_->next(*s.ref, *s.dist, device);
    } catch (const FeedError& e) {
      {
        std::lock_guard lock(mutex_);
        host_take_done(q.slot, std::nullopt);
      }
      feed_failed(e);
      return false;
    } catch (...) {  // the slot's pictures could not be allocated
      std::unique_lock lock(mutex_);
      host_take_done(q.slot, std::nullopt);
      const unsigned at = submitted_;
      lock.unlock();
      feed_failed({at, std::current_exception()});
      return false;
    }
    std::lock_guard lock(mutex_);
    host_take_done(q.slot, index);
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
      expected_ = feeder.frames_expected();
      // Only with a core to spare for it: where every core already runs a worker, workers reading
      // their own frames (cache-warm, in parallel) cost less than one more thread handing them over.
      reading_ahead_ = !mixed_ && !pipeline_ && workers_.size() < std::max(1u, std::thread::hardware_concurrency());
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
        if (mixed_ && q.slot < cpu_slots_) ++host_takes_;
      }
      const bool taken = take_fed(q);
      {
        std::lock_guard lock(mutex_);
        // After a failure elsewhere a worker takes it and skips it, as its own.
        if (taken) queue_.push_back(q);
        else give_back(q.slot);
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
      // A CPU context reads the host pictures: frames decoded on the device are copied back first.
      for (auto& c : contexts_)
        if (!c->device) {
          slot->host_pictures();
          break;
        }
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
      } else if (!c->device->collect_in_order()) {
        c->device->collect(*slot, index, sink);  // its order is on the device (submitted in turn above)
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
  const DeviceProvider& provider_ = device_provider();
  // The device pipeline outlives the contexts (twins hold buffers of its slots): declared first.
  std::unique_ptr<DevicePipeline> pipeline_;
  std::atomic<DevicePipeline*> live_pipeline_{nullptr};  // pipeline_, for workers (a mixed run sets it late)
  std::vector<std::unique_ptr<Context>> contexts_;
  std::vector<std::unique_ptr<models::Model>> models_;

  struct OwnPictures {
    std::optional<Picture> ref, dist;
  };
  std::atomic<unsigned> slot_count_{0};
  unsigned cpu_slots_ = 0;  // ids below it are host slots (own_)
  std::vector<OwnPictures> own_;
  std::mutex workers_mutex_;  // workers_ (a mixed run adds some from its device thread)
  std::vector<std::thread> workers_;

  // Mixed runs (--backend auto).
  bool mixed_ = false;
  std::thread device_thread_;
  std::atomic<bool> device_cancel_{false};
  const std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
  mixed::Rates rates_;
  unsigned cpu_cap_ = 0;                        // CPU frames at once after the split (mixed::cpu_cap)
  bool cpu_cap_forced_ = false;
  double setup_estimate_ = 0;                   // seconds (mixed::setup_estimate)
  std::atomic<unsigned> expected_{0};           // frames the feeder expects (0: unknown)
  std::atomic<unsigned> device_in_flight_{0};   // frames whose non-temporal contexts run on twins now
  std::atomic<unsigned> cpu_busy_{0};           // frames after the split whose non-temporal contexts run on the CPU
  std::atomic<unsigned> device_after_split_{0}, cpu_after_split_{0};  // frames after the split, each side's
  std::atomic<unsigned> retire_{0};             // workers still to retire (publish_device)
  std::atomic<bool> cpu_workers_started_{false};  // add_cpu_workers() ran
  std::atomic<bool> split_ready_{false};        // split_known_, read without mutex_
  bool non_temporal_twins_ = false;             // some non-temporal context has a twin (set before switched_)

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
  // Mixed runs: the device's slots are handed out (no frame is taken into a host slot any more);
  // frames being taken into host slots and one past the highest index among them; the split.
  bool switched_ = false;
  unsigned host_takes_ = 0;
  unsigned host_end_ = 0;
  // VQTWIN_AUTO_SPLIT: the workers take this many frames into host slots, then wait for the device
  // (mixed::forced_split); host_taken_ counts those taken so far.
  std::optional<unsigned> hold_after_;
  unsigned host_taken_ = 0;
  bool split_known_ = false;
  unsigned split_ = 0;
  // Before the switch: when the device is expected to be ready (seconds since opened_), once its check
  // has passed; workers start a frame on the CPU only if they finish it by then (holding_for_device).
  std::optional<double> ready_at_;
  std::condition_variable split_cv_;
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
  if (!impl_) return;
  impl_->stop_workers();  // the queued frames are computed first (workers drain the queue)
  impl_.reset();
  startup_step("session closed (slots and device buffers released)");
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
