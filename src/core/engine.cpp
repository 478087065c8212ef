// A run on two files: open the inputs, then feed their frames to a Session (core/session.cpp), which
// registers the contexts, computes the frames on its workers, flushes and predicts.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "core/device_start.hpp"
#include "core/engine.hpp"
#include "core/registry.hpp"
#include "core/session_internal.hpp"
#include "io/alignment.hpp"
#include "io/inputs.hpp"
#include "models/model.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"
#include "vqtwin/session.hpp"

namespace vqtwin {

const char* version() { return "0.1.0"; }

namespace {

// A file run: both inputs opened and made comparable, --frame_skip_* and --sync applied, then the
// frames read by the workers of one Session (straight into its pictures), each worker computing the
// frame it read. Frames of regular y4m/raw files are only claimed under read_mutex_ (their place in the
// file) and read by the worker after it lets go of the lock, so workers read in parallel; other inputs
// are read under the lock, one frame after the other. The first frames' thumbnails feed the time-shift
// check; the inputs' lengths are compared at the end.
class Engine final : public FrameFeeder {
 public:
  Engine(const RunConfig& cfg, Results& out, const InputOpener& open) : cfg_(cfg), out_(out), open_(open) {}

  void run() {
    if (cfg_.subsample == 0) throw Error("--subsample must be at least 1");
    if (!cfg_.sync.empty() && cfg_.sync != "auto" && cfg_.sync != "none")
      throw Error("--sync must be auto or none, not '" + cfg_.sync + "'");
    const auto hwdec = parse_hwdec(cfg_.hwdec.empty() ? "auto" : cfg_.hwdec);
    if (!hwdec) throw Error("--hwdec must be auto, cuda or none, not '" + cfg_.hwdec + "'");
    hwdec_ = *hwdec;
    if (cfg_.max_pixels < 1 || cfg_.max_pixels > kMaxPixelsLimit)
      throw Error("--max_pixels must be 1.." + std::to_string(kMaxPixelsLimit) + ", not " +
                  std::to_string(cfg_.max_pixels));
    threads_ = cfg_.threads ? cfg_.threads : std::max(1u, std::thread::hardware_concurrency());
    startup_step("run started");
    // The device's check (its driver context: most of a device run's start-up) runs meanwhile, on a
    // thread of its own; the session takes its answer. --backend auto starts it once the inputs say
    // the clip is long enough for the device to matter (auto_on_cpu).
    if (device_wanted() && cfg_.backend != Backend::kAuto) start_device_probe(cfg_.gpu);
    // Unknown features, options and models are reported before the inputs are opened.
    check_requests();
    startup_step("models loaded");
    if (cfg_.reference == "-" && cfg_.distorted == "-")
      throw Error("only one of --reference and --distorted can be standard input");
    open_inputs_();
    startup_step("inputs opened");

    SessionConfig sc = cfg_;
    const bool cpu_alone = auto_on_cpu();
    if (cpu_alone) sc.backend = Backend::kCpu;
    else if (device_wanted()) start_device_probe(cfg_.gpu);
    sc.threads = threads_;
    sc.progress = [this](unsigned done, unsigned) {
      if (cfg_.progress) cfg_.progress(done, total_);
    };
    Session session(sc, format_, out_);
    if (decoders_said_) out_.show_receipt = true;  // the session set it for its backend alone
    startup_step("session open (contexts initialised, workers started)");
    std::exception_ptr failure;
    try {
      check_first_frame();
      feed_session(session, *this);
      startup_step("every frame read");
    } catch (...) {
      failure = std::current_exception();
    }
    try {
      session.finish();
      startup_step("session finished (every frame scored)");
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
    if (cpu_alone) out_.show_receipt = true;  // as any --backend auto run: the receipt says the CPU did it all
    say_late_decode_warnings();
    if (failure) std::rethrow_exception(failure);
    if (frames_read_ == 0 && !stop_requested()) throw Error("no frames to compare");
    if (stop_requested()) return;  // a stop is not a length mismatch
    if (!thumbs_checked_) check_shift();  // a clip shorter than the frames the check looks at
    check_lengths();
  }

 private:
  // --backend auto on a clip so short that the CPU is done before a device could start (its driver
  // context and pinned slots take a few hundred milliseconds, in which the CPU scores about
  // kAutoFramesPerThread 1080p frames per worker): the CPU alone, and no device is touched. A clip
  // of unknown length (a pipe, compressed input) starts the device.
  static constexpr double kAutoFramesPerThread = 12;
  bool auto_on_cpu() const {
    if (cfg_.backend != Backend::kAuto || total_ == 0) return false;
    for (const std::string& f : cfg_.features) {
      const ExtractorInfo* e = find_extractor(f.substr(0, f.find('=')));
      if (e && e->backend != Backend::kCpu) return false;  // a named twin needs the device anyway
    }
    // VQTWIN_AUTO_FRAMES_PER_THREAD overrides it (measurements; 0: the device always starts).
    double per_thread = kAutoFramesPerThread;
    if (const char* v = std::getenv("VQTWIN_AUTO_FRAMES_PER_THREAD"); v && *v) per_thread = std::atof(v);
    constexpr double k1080p = 1920.0 * 1080.0;
    return double(total_) * format_.width * format_.height < per_thread * threads_ * k1080p;
  }

  // Whether the run may use a device: a device backend, or a feature that names a twin.
  bool device_wanted() const {
    if (cfg_.backend != Backend::kCpu) return true;
    for (const std::string& f : cfg_.features) {
      const ExtractorInfo* e = find_extractor(f.substr(0, f.find('=')));
      if (e && e->backend != Backend::kCpu) return true;
    }
    return false;
  }

  void check_requests() {
    for (const std::string& f : cfg_.features) check_feature_text(f);
    if (!cfg_.no_prediction || !cfg_.models.empty()) models::load_models(cfg_.models);
    if (cfg_.no_prediction && cfg_.features.empty()) throw Error("nothing to compute: give --feature or --model");
  }

  // Before the session's first pictures are allocated: a pipe that ends within its first frame's first
  // 64 KiB (one that sends a header declaring a huge picture, then stops) is an error now, not after
  // gigabytes are allocated for it (a regular file's size was checked when it was opened). A clean end
  // is left to the first read.
  void check_first_frame() {
    if (stop_requested()) return;
    ref_->more();
    dist_->more();
  }

  unsigned frames_expected() const override { return total_; }

  // The next frame pair into `ref` and `dist` (from a session worker, several at once); nothing when
  // the run stops here (an input ended, --frame_cnt, a stop request, an earlier frame failed to read).
  std::optional<unsigned> next(Picture& ref, Picture& dist, FrameSlot* slot) override {
    unsigned index;
    std::optional<FrameClaim> ref_claim, dist_claim;
    {
      std::lock_guard lock(read_mutex_);
      if (stop_) return std::nullopt;
      if (cfg_.frame_cnt && frames_read_ >= cfg_.frame_cnt) return std::nullopt;
      // A frame decoded on the device may stay there when the pictures are a device slot's, except
      // the first frames, whose host pictures the time-shift check looks at (keep_thumbnails).
      const bool on_device = slot && (!cfg_.sync.empty() || frames_read_ >= unsigned(kSyncFrames));
      try {
        if (!take_pair(ref, dist, ref_claim, dist_claim, on_device ? slot : nullptr)) {
          stop_ = true;
          return std::nullopt;
        }
      } catch (...) {
        stop_ = true;
        // A read given up on a stop request is the stop, not an input error.
        if (stop_requested()) return std::nullopt;
        throw FeedError{frames_read_, std::current_exception()};
      }
      index = frames_read_++;
    }
    try {
      if (ref_claim) ref_->read_claimed(*ref_claim, ref);
      if (dist_claim) dist_->read_claimed(*dist_claim, dist);
      keep_thumbnails(ref, dist, index);
    } catch (...) {
      // A claimed frame could not be read (the file shrank, an I/O error): the run stops, the frames
      // before it are kept, and this frame and any later one computed meanwhile are dropped.
      {
        std::lock_guard lock(read_mutex_);
        stop_ = true;
      }
      throw FeedError{index, std::current_exception()};
    }
    return index;
  }

  // Takes the next frame of both inputs (read_mutex_ held): claimed (its read left to the caller) or
  // read now. False when the run stops here: a stop request, or the end of an input (ended_first_
  // says which; check_lengths() reports it after the run).
  bool take_pair(Picture& ref, Picture& dist, std::optional<FrameClaim>& ref_claim,
                 std::optional<FrameClaim>& dist_claim, FrameSlot* slot) {
    if (stop_requested()) return false;
    ref_claim = ref_->claim();
    if (!ref_claim && !ref_->read_to(ref, slot ? slot->device_target(0) : nullptr)) {
      ended_first_ = 1;
      return false;
    }
    dist_claim = dist_->claim();
    if (!dist_claim && !dist_->read_to(dist, slot ? slot->device_target(1) : nullptr)) {
      ended_first_ = 2;
      return false;
    }
    return true;
  }

  // Opens both inputs (converted as asked), applies --frame_skip_* and --sync auto, and says what was
  // converted.
  void open_inputs_() {
    InputOptions options;
    options.source.raw = RawFormat{cfg_.width, cfg_.height, cfg_.pixel_format, cfg_.bitdepth};
    options.source.decode_threads = threads_;
    options.source.limits = InputLimits{cfg_.max_pixels, cfg_.stop};
    options.source.hwdec = hwdec_request(hwdec_, cfg_, threads_);
    options.scale = cfg_.scale;
    options.common_bitdepth = cfg_.common_bitdepth;
    Inputs in = open_(options);
    format_ = in.format;
    out_.width = format_.width;
    out_.height = format_.height;
    out_.input_conversions = in.conversions;
    for (const PictureSource* s : {in.ref.get(), in.dist.get()})
      out_.inputs.push_back({s->path(), s->kind(), s->format().describe(), s->frame_rate()});
    say_decoders(*in.ref, *in.dist);
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

  // The first frames' thumbnails are kept as they are read (by the worker that read the frame, in
  // any order); once there are enough, the check runs.
  void keep_thumbnails(const Picture& ref, const Picture& dist, unsigned index) {
    if (!cfg_.sync.empty() || index >= unsigned(kSyncFrames)) return;
    Thumbnail r = make_thumbnail(ref), d = make_thumbnail(dist);
    std::lock_guard lock(thumbs_mutex_);
    if (thumbs_checked_) return;
    ref_thumbs_[index] = std::move(r);
    dist_thumbs_[index] = std::move(d);
    thumb_kept_[index] = true;
    if (++thumbs_kept_ == unsigned(kSyncFrames)) check_shift();
  }

  // On the frames from the first on whose thumbnails are kept (all of them unless a read failed). Runs
  // once: the thumbnails are moved, not copied.
  void check_shift() {
    thumbs_checked_ = true;
    std::vector<Thumbnail> rt, dt;
    for (int i = 0; i < kSyncFrames && thumb_kept_[std::size_t(i)]; ++i) {
      rt.push_back(std::move(ref_thumbs_[std::size_t(i)]));
      dt.push_back(std::move(dist_thumbs_[std::size_t(i)]));
    }
    const ShiftEstimate e = estimate_shift(rt, dt);
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

  bool stop_requested() const { return cfg_.stop && cfg_.stop->load(); }

  // --hwdec: where each compressed input is decoded, said in one line (and in the receipt) when the
  // device had a say (--hwdec cuda, or a run on a CUDA device); a refused NVDEC is one warning line.
  void say_decoders(const PictureSource& ref, const PictureSource& dist) {
    const HwDecodeRequest request = hwdec_request(hwdec_, cfg_, threads_);
    // Software, as always: nothing to say.
    if (request.mode == HwDecode::kNone || (request.mode == HwDecode::kAuto && !request.device_run)) return;
    std::string line, refused;
    const std::string ref_refusal = ref.decode_refusal(), dist_refusal = dist.decode_refusal();
    for (const PictureSource* s : {&ref, &dist}) {
      const std::string how = s->decoder();
      if (how.empty()) continue;
      const char* role = s == &ref ? "reference" : "distorted";
      out_.record_implementation(std::string("decoding: ") + role, how);
      line += std::string(line.empty() ? "" : "; ") + role + " " + how;
      if (!s->decode_refusal().empty())
        refused += std::string(refused.empty() ? "" : "; nor ") + "the " + role + " " + s->path() + " (" +
                   s->decode_refusal() + ")";
    }
    if (line.empty()) return;
    decoders_said_ = true;
    // A refusal is the one line: a warning (both inputs' reasons in it; said once when they agree).
    if (!ref_refusal.empty() && ref_refusal == dist_refusal)
      refused = "the inputs (" + ref_refusal + ")";
    if (!refused.empty()) {
      if (cfg_.warn) cfg_.warn("--hwdec auto: NVDEC cannot decode " + refused + "; decoded in software");
    } else if (cfg_.note) {
      cfg_.note("decoding: " + line);
    }
  }

  // A switch to software part-way through a stream (said at the end; the frames are exact either way).
  void say_late_decode_warnings() {
    for (const PictureSource* s : {ref_.get(), dist_.get()}) {
      const std::string w = s ? s->decode_switch() : "";
      if (!w.empty() && cfg_.warn) cfg_.warn(w);
    }
  }

  const RunConfig& cfg_;
  Results& out_;
  const InputOpener& open_;
  std::unique_ptr<PictureSource> ref_, dist_;
  PictureFormat format_{};
  unsigned threads_ = 1;
  HwDecode hwdec_ = HwDecode::kAuto;
  bool decoders_said_ = false;  // the receipt names the decoders (say_decoders)
  unsigned skipped_ref_ = 0, skipped_dist_ = 0;  // frames skipped at the start (--frame_skip_*, --sync auto)
  unsigned total_ = 0;                           // frames expected (progress)
  std::mutex read_mutex_;  // guards the inputs' read(), claim() and skip(), and the three below
  bool stop_ = false;      // no more frames are taken
  unsigned frames_read_ = 0;
  int ended_first_ = 0;  // 1: the reference ended first, 2: the distorted
  // The first frames' thumbnails (the shift check), by frame; thumbs_mutex_ guards them once workers run.
  std::mutex thumbs_mutex_;
  std::array<Thumbnail, kSyncFrames> ref_thumbs_, dist_thumbs_;
  std::array<bool, kSyncFrames> thumb_kept_{};
  unsigned thumbs_kept_ = 0;
  bool thumbs_checked_ = false;
};

}  // namespace

HwDecodeRequest hwdec_request(HwDecode mode, const RunConfig& c, unsigned threads) {
  HwDecodeRequest r;
  r.mode = mode;
  r.device = c.gpu;
  r.device_run = c.backend == Backend::kCuda || c.backend == Backend::kAuto;
  r.streams = 2;
  r.cpu_threads = threads;
  r.prepare_device = &cuda_share_with_decoder;
  r.decoder_stream = &cuda_decoder_stream;
  return r;
}

void run_with_inputs(const RunConfig& config, Results& out, const InputOpener& open) {
  Engine engine(config, out, open);
  engine.run();
}

void run(const RunConfig& config, Results& out) {
  run_with_inputs(config, out, [&](const InputOptions& options) {
    return open_inputs(config.reference, config.distorted, options);
  });
}

}  // namespace vqtwin
